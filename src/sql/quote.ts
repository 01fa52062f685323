// Quoting of every name and string the SQL generator writes, per dialect (internal). Every identifier and literal in
// generated SQL goes through here, so a column called `a"b`, `x\`, `--` or a line break cannot end its token.
import { fail } from '../errors/fail.js';
import type { SqlDialect } from './metricsSql.js';

/**
 * BigQuery (GoogleSQL) quoted identifiers take the escape sequences of string literals and may not contain a raw line
 * break, so backslash and backtick are escaped and every control character is written as `\xhh`.
 */
function bigqueryIdentifier(name: string): string {
  // eslint-disable-next-line no-control-regex
  const body = name.replace(/[\\`\u0000-\u001f\u007f]/g, (c) => {
    if (c === '\\' || c === '`') return `\\${c}`;
    return `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
  });
  return `\`${body}\``;
}

/** A column name quoted for the dialect: `"…"` with `""` (DuckDB, PostgreSQL, Trino), `` `…` `` with ``` `` ``` (Spark), BigQuery's escapes. */
export function quoteIdentifier(dialect: SqlDialect, name: string): string {
  switch (dialect) {
    case 'spark':
      return `\`${name.replace(/`/g, '``')}\``;
    case 'bigquery':
      return bigqueryIdentifier(name);
    default:
      return `"${name.replace(/"/g, '""')}"`;
  }
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Checks a column name given as an option: a non-empty string with no NUL character and no unpaired UTF-16
 * surrogate (no dialect can name such a column; PostgreSQL rejects NUL, and a lone surrogate has no UTF-8 form).
 */
export function checkColumnName(fn: string, argument: string, name: unknown): string {
  if (typeof name !== 'string' || name === '')
    fail('UM_OPTION', fn, argument, 'be a non-empty column name', { value: name });
  if (name.includes('\u0000')) fail('UM_OPTION', fn, argument, 'not contain a NUL character', { value: name });
  if (LONE_SURROGATE.test(name))
    fail('UM_OPTION', fn, argument, 'be well-formed Unicode (it has an unpaired surrogate)', { value: name });
  return name;
}

/** A DuckDB string literal: `'…'` with `''` (DuckDB strings have no backslash escapes). */
export function duckdbString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * A path as a DuckDB file pattern that matches only that path. DuckDB's readers expand `*`, `?` and `[` as globs
 * and have no option to turn that off; each becomes a one-character class (`[*]`, `[?]`, `[[]`), which matches the
 * character itself. With a glob character present, DuckDB also splits the pattern at backslashes, so on POSIX a
 * backslash in a name becomes `?` — the caller must then check that the pattern matches exactly this one file.
 */
export function literalGlob(path: string, posix: boolean): string {
  if (!/[*?[]/.test(path)) return path;
  const escaped = path.replace(/[*?[]/g, (c) => `[${c}]`);
  return posix ? escaped.replace(/\\/g, '?') : escaped;
}
