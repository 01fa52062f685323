/**
 * Every identifier the SQL generator writes is quoted for its dialect: a table of hostile column names (quotes,
 * backticks, backslashes — trailing too —, line breaks, glob characters, `;`, `--`, `/*`, Unicode) used as the label,
 * score and weight columns, round-tripped through a real database:
 * - DuckDB runs the duckdb, postgres and trino SQL as written (all three quote with `"…"`);
 * - the spark and bigquery SQL are read back by an independent lexer written from each dialect's documented rules
 *   (Spark: doubled backticks; GoogleSQL: string-literal escapes, no raw line break), re-quoted for DuckDB and run;
 * - a real PostgreSQL runs the postgres SQL when UM_TEST_POSTGRES is set (.ci/run sets it).
 * The table is created by a route that does not use our quoting (JSON keys for DuckDB, pg's escapeIdentifier).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UMError } from '../../src/index.js';
import {
  duckdbEngine,
  finishSqlMetrics,
  metricsSql,
  postgresEngine,
  sqlMetrics,
  type DuckdbEngine,
  type MetricsQueries,
  type SqlDialect,
} from '../../src/sql/index.js';
import { uniforms } from '../helpers/minstd.js';
import { expectClose, inMemory } from '../helpers/sqlReference.js';
import { POSTGRES_URL, named, skip } from '../helpers/requirements.js';

const HOSTILE = [
  'a"b',
  '"',
  '""',
  "it's",
  'back`tick',
  '`',
  '``',
  'back\\slash',
  'trailing\\',
  '\\',
  '\\"',
  '\\`',
  '`"\'\\',
  'new\nline',
  'cr\rlf',
  'tab\there',
  'bell\u0007',
  'star*',
  'q?',
  'br[0]',
  ';',
  'x; DROP TABLE t; --',
  '--comment',
  '/* c */',
  '*/',
  'a.b',
  'select',
  ' lead',
  'trail ',
  '$1',
  'ünïcödé ✓',
  '🙂',
  '名前',
];

const N = 40;
const C = 3;
const u = uniforms(2024, N * (C + 2));
const labels = Array.from({ length: N }, (_, i) => Math.floor((u[i] as number) * C));
const probs = Array.from({ length: N }, (_, i) => {
  const raw = Array.from({ length: C }, (_, k) => 0.05 + (u[N + i * C + k] as number));
  const s = raw.reduce((a, b) => a + b, 0);
  return raw.map((x) => x / s);
});
const weights = Array.from({ length: N }, (_, i) => Math.round((u[N * (C + 1) + i] as number) * 300) / 100);
const want = inMemory(labels, probs, weights);

/** The column names of one hostile case: label, score prefix, weight. */
const columnsOf = (h: string) => ({ labelColumn: h, scorePrefix: `${h}p`, weightColumn: `w${h}` });

/** Rows as objects keyed by the hostile names. */
function rowsOf(h: string): Record<string, number>[] {
  const c = columnsOf(h);
  return labels.map((y, i) => {
    const row: Record<string, number> = { [c.labelColumn]: y, [c.weightColumn]: weights[i] as number };
    (probs[i] as number[]).forEach((p, k) => (row[`${c.scorePrefix}${k}`] = p));
    return row;
  });
}

/** Spark SQL: `…` with `` for a backtick, nothing else special (Spark's SqlBaseLexer BACKQUOTED_IDENTIFIER). */
function lexSpark(sql: string, emit: (name: string) => string): string {
  let out = '';
  for (let i = 0; i < sql.length; i++) {
    if (sql[i] !== '`') {
      out += sql[i];
      continue;
    }
    let name = '';
    for (i++; ; i++) {
      if (i >= sql.length) throw new Error('unterminated backtick identifier');
      if (sql[i] === '`') {
        if (sql[i + 1] === '`') {
          name += '`';
          i++;
        } else break;
      } else name += sql[i];
    }
    out += emit(name);
  }
  return out;
}

/** GoogleSQL: `…` with the escape sequences of string literals; a raw line break is not allowed ("Lexical structure"). */
function lexBigQuery(sql: string, emit: (name: string) => string): string {
  const simple: Record<string, string> = {
    a: '\u0007',
    b: '\b',
    f: '\f',
    n: '\n',
    r: '\r',
    t: '\t',
    v: '\v',
    '\\': '\\',
    '?': '?',
    '"': '"',
    "'": "'",
    '`': '`',
  };
  let out = '';
  for (let i = 0; i < sql.length; i++) {
    if (sql[i] !== '`') {
      out += sql[i];
      continue;
    }
    let name = '';
    for (i++; ; i++) {
      const c = sql[i];
      if (c === undefined) throw new Error('unterminated backtick identifier');
      if (c === '\n' || c === '\r') throw new Error('raw line break in a quoted identifier');
      if (c === '`') break;
      if (c !== '\\') {
        name += c;
        continue;
      }
      const e = sql[++i] as string;
      if (e in simple) name += simple[e];
      else if (e === 'x' || e === 'X') {
        name += String.fromCharCode(parseInt(sql.slice(i + 1, i + 3), 16));
        i += 2;
      } else if (e === 'u' || e === 'U') {
        const len = e === 'u' ? 4 : 8;
        name += String.fromCodePoint(parseInt(sql.slice(i + 1, i + 1 + len), 16));
        i += len;
      } else if (/[0-7]/.test(e)) {
        name += String.fromCharCode(parseInt(sql.slice(i, i + 3), 8));
        i += 2;
      } else throw new Error(`invalid escape \\${e}`);
    }
    if (name === '') throw new Error('empty quoted identifier');
    out += emit(name);
  }
  return out;
}

/** DuckDB spelling of a name read back by a lexer (doubled double quotes: DuckDB's one rule). */
const duck = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The queries of one dialect, as DuckDB can run them. */
function forDuckdb(dialect: SqlDialect, q: MetricsQueries): Record<string, string> {
  const translate = (sql: string) => {
    if (dialect === 'spark') return lexSpark(sql, duck).replace(/ AS INT\)/g, ' AS INTEGER)');
    if (dialect === 'bigquery')
      return lexBigQuery(sql, duck)
        .replace(/FLOAT64/g, 'DOUBLE')
        .replace(/INT64/g, 'BIGINT');
    return sql;
  };
  return {
    topLabel: translate(q.topLabel),
    classwise: translate(q.classwise),
    uncertainty: translate(q.uncertainty),
    scores: translate(q.scores),
    auroc: translate(q.auroc),
  };
}

describe('hostile column names through every dialect (DuckDB round trip)', () => {
  let db: DuckdbEngine;
  const dir = mkdtempSync(join(tmpdir(), 'um-quote-'));
  // one table per hostile name, read by every dialect's queries (the tables do not depend on the dialect)
  beforeAll(async () => {
    db = await duckdbEngine();
    for (const [j, h] of HOSTILE.entries()) {
      const file = join(dir, `t_${j}.jsonl`);
      writeFileSync(
        file,
        `${rowsOf(h)
          .map((r) => JSON.stringify(r))
          .join('\n')}\n`,
      );
      await db.query(`CREATE OR REPLACE TABLE t_${j} AS SELECT * FROM read_json($1, format = 'newline_delimited')`, [
        file,
      ]);
    }
  });
  afterAll(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  // the rows of every query text run so far: a query whose text for DuckDB is one already run (trino's SQL is
  // duckdb's character for character, and so is spark's once its lexer has re-quoted every name) reads the same table
  // by the same text, so its rows are those rows (a copy): the same check — the text, every name in it — without
  // running 330 identical queries again (about half of this file's time)
  const ran = new Map<string, Awaited<ReturnType<DuckdbEngine['query']>>>();
  const query = async (sql: string) => {
    let rows = ran.get(sql);
    if (rows === undefined) ran.set(sql, (rows = await db.query(sql)));
    return structuredClone(rows);
  };

  for (const dialect of ['duckdb', 'postgres', 'trino', 'spark', 'bigquery'] as const) {
    it(`${dialect}: the generated SQL reads exactly the hostile columns and equals the in-memory metrics`, async () => {
      for (const [j, h] of HOSTILE.entries()) {
        const table = `t_${j}`;
        const q = metricsSql(table, { numClasses: C, dialect, ...columnsOf(h) });
        const sql = forDuckdb(dialect, q);
        const rows = {
          topLabel: await query(sql.topLabel as string),
          classwise: await query(sql.classwise as string),
          uncertainty: await query(sql.uncertainty as string),
          scores: await query(sql.scores as string),
          auroc: await query(sql.auroc as string),
        };
        expectClose(
          finishSqlMetrics(rows, { numClasses: C, dialect, ...columnsOf(h), onWarning: () => {} }),
          want,
          `${dialect} ${JSON.stringify(h)}`,
        );
      }
    });
  }

  it('the BigQuery SQL has no raw line break inside a name, and a trailing backslash is escaped', () => {
    const q = metricsSql('t', { numClasses: 2, dialect: 'bigquery', labelColumn: 'y\\', weightColumn: 'w\nx' });
    expect(q.scores).toContain('CAST(`y\\\\` AS FLOAT64)');
    expect(q.scores).toContain('CAST(`w\\x0ax` AS FLOAT64)');
  });

  it('rejects names no database can hold, naming the option', () => {
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ labelColumn: '' }, /metricsSql: options.labelColumn must be a non-empty column name; got ""/],
      [{ labelColumn: 7 }, /metricsSql: options.labelColumn must be a non-empty column name; got 7/],
      [{ weightColumn: 'a\u0000b' }, /metricsSql: options.weightColumn must not contain a NUL character/],
      [{ scorePrefix: 'p\uD800' }, /metricsSql: options.scorePrefix must be well-formed Unicode/],
      [{ scorePrefix: 5 }, /metricsSql: options.scorePrefix must be a string; got 5/],
    ];
    for (const [o, message] of bad) {
      const e = (() => {
        try {
          metricsSql('t', { numClasses: 2, ...o });
        } catch (x) {
          return x;
        }
      })();
      expect(e, message.source).toBeInstanceOf(UMError);
      expect((e as UMError).code).toBe('UM_OPTION');
      expect((e as UMError).message).toMatch(message);
    }
  });
});

describe.skipIf(skip.postgres !== undefined)(
  named('hostile column names through a real PostgreSQL', skip.postgres),
  () => {
    let client: {
      query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
      end(): Promise<void>;
    };
    let escapeIdentifier: (name: string) => string;
    beforeAll(async () => {
      const pg = await import('pg');
      const c = new pg.default.Client({ connectionString: POSTGRES_URL });
      await c.connect();
      client = c as unknown as typeof client;
      escapeIdentifier = pg.default.escapeIdentifier;
    });
    afterAll(async () => client.end());

    it('postgres: sqlMetrics on a table whose columns have the hostile names equals the in-memory metrics', async () => {
      const engine = postgresEngine(client);
      for (const h of HOSTILE) {
        const c = columnsOf(h);
        const cols = [c.labelColumn, ...Array.from({ length: C }, (_, k) => `${c.scorePrefix}${k}`), c.weightColumn];
        await client.query('DROP TABLE IF EXISTS um_hostile');
        await client.query(
          `CREATE TEMP TABLE um_hostile (${cols.map((x) => `${escapeIdentifier(x)} DOUBLE PRECISION`).join(', ')})`,
        );
        // all rows in one statement (40 one-row INSERTs per name were 1 320 round trips), still by values bound to
        // parameters, not by our quoting
        const rows = rowsOf(h);
        await client.query(
          `INSERT INTO um_hostile SELECT * FROM unnest(${cols.map((_, k) => `$${k + 1}::float8[]`).join(', ')})`,
          cols.map((x) => rows.map((row) => row[x])),
        );
        expectClose(
          await sqlMetrics(engine, 'um_hostile', { numClasses: C, ...c, onWarning: () => {} }),
          want,
          `postgres ${JSON.stringify(h)}`,
        );
      }
    });
  },
);
