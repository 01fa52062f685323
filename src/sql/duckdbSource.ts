import { UMError } from '../errors/UMError.js';
import { fail } from '../errors/fail.js';
import type { DuckdbEngine } from './duckdbEngine.js';
import { checkEngine, engineError, firstLine } from './engineError.js';
import { duckdbString, literalGlob, quoteIdentifier } from './quote.js';

/** A source of prediction rows inside DuckDB, from {@link duckdbSource}. */
export interface DuckdbSource {
  /** The FROM expression to give {@link sqlMetrics} or {@link metricsSql}. */
  readonly from: string;
  /** The source's columns in order, with DuckDB's type names. */
  readonly columns: readonly { readonly name: string; readonly type: string }[];
}

/**
 * Table functions a query may read from: DuckDB's file readers and row generators. Every other table function is
 * refused — some have effects beyond reading (`enable_logging` writes files, `enable_profiling` changes the session,
 * `checkpoint` writes the database, `query` runs a string as SQL, which would hide them).
 */
export const QUERY_TABLE_FUNCTIONS: readonly string[] = [
  'read_csv',
  'read_csv_auto',
  'read_parquet',
  'parquet_scan',
  'read_json',
  'read_json_auto',
  'read_ndjson',
  'read_ndjson_auto',
  'range',
  'generate_series',
  'unnest',
  'glob',
];

let views = 0;

/** Every `function_name` in DuckDB's parse tree, and those called as table functions (in FROM). */
function functionsOf(node: unknown, all: Set<string>, tables: Set<string>): void {
  if (Array.isArray(node)) {
    for (const x of node) functionsOf(x, all, tables);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const o = node as Record<string, unknown>;
  if (typeof o.function_name === 'string') all.add(o.function_name.toLowerCase());
  if (o.type === 'TABLE_FUNCTION') {
    const f = o.function as { function_name?: unknown } | null | undefined;
    tables.add(typeof f?.function_name === 'string' ? f.function_name.toLowerCase() : '?');
  }
  for (const v of Object.values(o)) functionsOf(v, all, tables);
}

/** Checks with DuckDB's own parser that `query` is exactly one SELECT statement reading only through allowed functions. */
async function checkQuery(fn: string, engine: DuckdbEngine, query: string): Promise<void> {
  const argument = 'input.query';
  const [row] = await engine.query('SELECT json_serialize_sql($1::VARCHAR) AS tree', [query]);
  const tree = JSON.parse(String(row?.tree)) as {
    error: boolean;
    error_type?: string;
    error_message?: string;
    position?: string;
    statements?: unknown[];
  };
  if (tree.error) {
    const why =
      tree.error_type === 'parser'
        ? `DuckDB cannot parse it: ${firstLine(tree.error_message ?? '')}${tree.position === undefined ? '' : ` (at character ${Number(tree.position) + 1})`}`
        : 'it is another kind of statement (COPY, ATTACH, PRAGMA, INSTALL, CREATE, SET, …)';
    fail('UM_OPTION', fn, argument, `be one SELECT statement; ${why}`, { value: query });
  }
  const n = tree.statements?.length ?? 0;
  if (n !== 1) fail('UM_OPTION', fn, argument, `be one SELECT statement; it holds ${n}`, { value: query });
  const all = new Set<string>();
  const tables = new Set<string>();
  functionsOf(tree.statements, all, tables);
  // names DuckDB knows as table functions count wherever they appear, in case a parse tree hides one. Only names
  // outside the allowed list can be refused, so the catalog (duckdb_functions() lists every function: ~25 ms) is read
  // only when the query calls one
  if ([...all].some((name) => !QUERY_TABLE_FUNCTIONS.includes(name))) {
    const known = await engine.query(
      "SELECT DISTINCT lower(function_name) AS name FROM duckdb_functions() WHERE function_type IN ('table', 'table_macro')",
    );
    for (const r of known) if (all.has(String(r.name))) tables.add(String(r.name));
  }
  const refused = [...tables].filter((t) => !QUERY_TABLE_FUNCTIONS.includes(t));
  if (refused.length > 0) {
    fail(
      'UM_OPTION',
      fn,
      argument,
      `read only through ${QUERY_TABLE_FUNCTIONS.join(', ')} or tables; it calls ${refused.join(', ')}`,
      { value: query },
    );
  }
}

/** The FROM expression that reads `file` (and nothing else) with DuckDB's CSV or Parquet reader. */
async function fileFrom(fn: string, engine: DuckdbEngine, file: string): Promise<string> {
  // Node's modules are loaded here, on use, so that `uncertainty-metrics/sql` (metricsSql) still loads in a browser
  const { stat } = await import('node:fs/promises');
  const { resolve, sep } = await import('node:path');
  const path = resolve(file); // absolute: no search path, no `~` expansion
  const reader = /\.parquet$/i.test(path) ? 'read_parquet' : /\.csv$/i.test(path) ? 'read_csv' : undefined;
  if (reader === undefined)
    throw new UMError(
      'UM_FILE_FORMAT',
      `${fn}: ${file}: DuckDB reads .csv and .parquet files here; use a query for anything else`,
      { fn, argument: 'input.file', file },
    );
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR')
      throw new UMError('UM_FILE_NOT_FOUND', `${fn}: ${file}: no such file`, { fn, argument: 'input.file', file });
    throw new UMError('UM_FILE_READ', `${fn}: ${file}: cannot be read (${error.code ?? error.message})`, {
      fn,
      argument: 'input.file',
      file,
    });
  });
  if (!info.isFile())
    throw new UMError('UM_FILE_READ', `${fn}: ${file}: is not a regular file`, { fn, argument: 'input.file', file });
  const pattern = literalGlob(path, sep === '/');
  if (pattern !== path) {
    // the escaped pattern must name this file alone (a backslash became `?`, which could match a neighbour)
    const matches = (await engine.query('SELECT file FROM glob($1)', [pattern])).map((r) => String(r.file));
    if (matches.length !== 1 || matches[0] !== path) {
      throw new UMError(
        'UM_FILE_READ',
        `${fn}: ${file}: DuckDB cannot name this file alone (its name has a backslash and one of * ? [, and matches ${matches.length} files); rename it`,
        { fn, argument: 'input.file', file },
      );
    }
  }
  return reader === 'read_parquet'
    ? `read_parquet(${duckdbString(pattern)})`
    : `read_csv(${duckdbString(pattern)}, header = true)`;
}

/**
 * A DuckDB source of prediction rows from a CSV or Parquet file name or from a SQL query, checked, with its columns:
 * file names are read literally (never as globs), and a query must be one read-only SELECT.
 *
 * **Formula.** —
 *
 * **Conventions.**
 * - `{ file }`: `.csv` (with a header) or `.parquet`; the path is made absolute, must be a regular file, and is given
 *   to `read_csv`/`read_parquet` as a DuckDB string literal in which `*`, `?` and `[` are one-character classes, so
 *   `a*.csv` reads that file and no other (DuckDB has no switch to turn globbing off). A name with a backslash and
 *   one of those characters cannot always be named alone; it is read when it matches only itself, refused otherwise.
 * - `{ query }`: DuckDB's own parser (`json_serialize_sql`, the query bound as a parameter) must find exactly one
 *   SELECT statement — COPY, ATTACH, PRAGMA, INSTALL, LOAD, SET, DDL or a second statement after `;` or hidden by a
 *   comment are refused before anything runs. Table functions are limited to {@link QUERY_TABLE_FUNCTIONS} (file
 *   readers and row generators), since some table functions write files or change the session. Reading any file the
 *   process may read is allowed: that is what the query is for. The query becomes a temporary view, so the generated
 *   SQL refers to it by name and never splices its text.
 * - Engine errors (a file DuckDB cannot sniff, a missing table) become `UMError`s with one line.
 *
 * **References.** DuckDB documentation, "Multiple Files: Glob Syntax", "json_serialize_sql" (JSON extension).
 *
 * @param engine a {@link duckdbEngine}.
 * @param input `{ file }` or `{ query }`.
 * @returns the FROM expression and the columns.
 * @throws {UMError} `UM_OPTION` (not one SELECT, a refused table function, an unknown table or column),
 *   `UM_FILE_NOT_FOUND`, `UM_FILE_READ` (not a regular file, cannot be read or named), `UM_FILE_FORMAT` (not .csv or
 *   .parquet, or DuckDB cannot read it).
 * @example
 * ```js
 * import { duckdbEngine, duckdbSource } from 'uncertainty-metrics/sql';
 * const db = await duckdbEngine();
 * const s = await duckdbSource(db, { file: 'examples/data/logreg_test.csv' });
 * const refused = await duckdbSource(db, { query: "SELECT 1; COPY (SELECT 1) TO 'x.csv'" }).catch((e) => e.code);
 * db.close();
 * [s.columns[0].name, s.columns.length, refused]; // => ['label', 11, 'UM_OPTION']
 * ```
 */
export async function duckdbSource(
  engine: DuckdbEngine,
  input: { file: string } | { query: string },
): Promise<DuckdbSource> {
  const fn = 'duckdbSource';
  checkEngine(fn, engine, 'duckdb');
  if (input === null || typeof input !== 'object' || 'file' in input === 'query' in input)
    fail('UM_OPTION', fn, 'input', 'be { file } or { query }', { value: input });
  const argument = 'file' in input ? 'input.file' : 'input.query';
  const text: unknown = 'file' in input ? input.file : input.query;
  if (typeof text !== 'string' || text.trim() === '')
    fail('UM_OPTION', fn, argument, 'be a non-empty string', { value: text });
  if (text.includes('\u0000')) fail('UM_OPTION', fn, argument, 'not contain a NUL character', { value: text });
  try {
    let from: string;
    if ('file' in input) from = await fileFrom(fn, engine, text);
    else {
      await checkQuery(fn, engine, text);
      from = quoteIdentifier('duckdb', `um_query_${++views}`);
      // nothing follows the query, so a trailing `--` comment or `;` ends nothing of ours
      await engine.query(`CREATE TEMP VIEW ${from} AS\n${text}`);
    }
    const columns = (await engine.query(`DESCRIBE SELECT * FROM ${from}`)).map((r) => ({
      name: String(r.column_name),
      type: String(r.column_type),
    }));
    return { from, columns };
  } catch (error) {
    if (error instanceof UMError) throw error;
    const e = engineError(fn, argument, error, 'duckdb', 'file' in input ? input.file : undefined);
    throw e ?? error;
  }
}
