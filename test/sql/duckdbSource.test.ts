/**
 * duckdbSource: a query must be one read-only SELECT (a table of hostile queries, each refused before anything runs,
 * with no file, table, database or setting left behind); file names are read literally, never as globs (a table of
 * names with glob characters, each next to decoys the glob would also match); engine errors are UMErrors.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UMError } from '../../src/index.js';
import { duckdbEngine, duckdbSource, sqlMetrics, type DuckdbEngine } from '../../src/sql/index.js';
import { uniforms } from '../helpers/minstd.js';
import { expectClose, inMemory } from '../helpers/sqlReference.js';

const dir = mkdtempSync(join(tmpdir(), 'um-source-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const quiet = { onWarning: () => {} };
/** SQL string literal, test side (DuckDB: doubled single quotes). */
const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** n rows of 3-class predictions from a seed, as CSV text, with the in-memory reference. */
function data(seed: number, n: number) {
  const u = uniforms(seed, n * 4);
  const labels = Array.from({ length: n }, (_, i) => Math.floor((u[i] as number) * 3));
  const probs = labels.map((_, i) => {
    const raw = [0, 1, 2].map((k) => 0.05 + (u[n + 3 * i + k] as number));
    const s = raw.reduce((a, b) => a + b, 0);
    return raw.map((x) => x / s);
  });
  const csv = `label,p_0,p_1,p_2\n${labels.map((y, i) => [y, ...(probs[i] as number[])].join(',')).join('\n')}\n`;
  return { labels, probs, csv };
}

async function refused(db: DuckdbEngine, input: { file: string } | { query: string }): Promise<UMError> {
  const e = await duckdbSource(db, input).then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e, JSON.stringify(input)).toBeInstanceOf(UMError);
  return e as UMError;
}

describe('duckdbSource({ query }): one read-only SELECT', () => {
  let db: DuckdbEngine;
  const good = data(1, 30);
  const csv = join(dir, 'preds.csv');
  const out = join(dir, 'out');
  writeFileSync(csv, good.csv);
  beforeAll(async () => {
    db = await duckdbEngine();
  });
  afterAll(() => db.close());

  const file = (name: string) => lit(join(out, name));
  const HOSTILE: [string, string][] = [
    ['two statements', 'SELECT 1 AS a; SELECT 2 AS b'],
    [
      'closing the wrapping parenthesis, then COPY',
      `SELECT * FROM read_csv(${lit(csv)})) AS q; COPY (SELECT 42 AS x) TO ${file('a.csv')}; SELECT * FROM (SELECT 1`,
    ],
    ['a statement after the SELECT', `SELECT * FROM read_csv(${lit(csv)}); COPY (SELECT 42 AS x) TO ${file('b.csv')}`],
    ['COPY alone', `COPY (SELECT 42 AS x) TO ${file('c.csv')}`],
    ['COPY of a table', `COPY (FROM read_csv(${lit(csv)})) TO ${file('d.parquet')} (FORMAT parquet)`],
    ['EXPORT DATABASE', `EXPORT DATABASE ${file('export')}`],
    ['ATTACH', `ATTACH ${file('x.db')} AS x`],
    ['ATTACH after a SELECT', `SELECT 1; ATTACH ${file('y.db')} AS y`],
    ['DETACH', 'DETACH memory'],
    ['PRAGMA', 'PRAGMA version'],
    [
      'PRAGMA writing a profile',
      `PRAGMA enable_profiling = 'json'; PRAGMA profiling_output = ${file('p.json')}; SELECT 1`,
    ],
    ['INSTALL', 'INSTALL httpfs'],
    ['LOAD', 'LOAD httpfs'],
    ['SET', 'SET enable_external_access = false'],
    ['SET after a SELECT', 'SELECT 1; SET threads = 1'],
    ['CALL', `CALL enable_logging(storage = 'file', storage_path = ${file('log1')})`],
    ['CREATE TABLE', 'CREATE TABLE t AS SELECT 1 AS a'],
    ['CREATE VIEW', 'CREATE VIEW v AS SELECT 1 AS a'],
    ['CREATE MACRO', 'CREATE MACRO m(x) AS x + 1'],
    ['DROP', 'DROP TABLE IF EXISTS t'],
    ['INSERT', 'INSERT INTO t VALUES (1)'],
    ['a block comment hiding nothing, then COPY', `SELECT 1 /* ; */; COPY (SELECT 1) TO ${file('e.csv')}`],
    ['a line comment ending before a second statement', `SELECT 1 -- harmless\n; COPY (SELECT 1) TO ${file('f.csv')}`],
    ['an unterminated block comment', 'SELECT 1 /*'],
    ['an unterminated string', "SELECT 'x"],
    ['nothing', '   '],
    ['only a comment', '/* nothing */'],
    ['only a semicolon', ';'],
    ['a NUL character hiding the rest', `SELECT 1\u0000; COPY (SELECT 1) TO ${file('g.csv')}`],
    [
      'a table function that writes files',
      `SELECT * FROM enable_logging(storage = 'file', storage_path = ${file('log2')})`,
    ],
    [
      '… inside a subquery',
      `SELECT 1 AS a WHERE EXISTS (SELECT * FROM enable_logging(storage = 'file', storage_path = ${file('log3')}))`,
    ],
    [
      '… inside a CTE',
      `WITH x AS (SELECT * FROM enable_logging(storage = 'file', storage_path = ${file('log4')})) SELECT * FROM x`,
    ],
    [
      '… in a UNION',
      `SELECT 1 AS a UNION ALL SELECT * FROM enable_logging(storage = 'file', storage_path = ${file('log5')})`,
    ],
    ['query() running a string', "SELECT * FROM query('SELECT 1 AS a')"],
    ['query_table()', "SELECT * FROM query_table('t')"],
    ['enable_profiling()', 'SELECT * FROM enable_profiling()'],
    ['checkpoint()', 'SELECT * FROM checkpoint()'],
    ['json_execute_serialized_sql()', "SELECT * FROM json_execute_serialized_sql(json_serialize_sql('SELECT 1'))"],
    // not in FROM: only DuckDB's list of table functions names these (read when a name outside the allowed list occurs)
    ['a table function called as a scalar', 'SELECT checkpoint() AS x'],
    ['… next to an allowed one', `SELECT label, checkpoint() AS x FROM read_csv(${lit(csv)})`],
  ];

  it('refuses every hostile query with UM_OPTION before running it, and nothing is left behind', async () => {
    mkdirSync(out, { recursive: true });
    for (const [what, query] of HOSTILE) {
      const e = await refused(db, { query });
      expect(e.code, what).toBe('UM_OPTION');
      expect(e.message, what).toMatch(
        /^duckdbSource: input\.query must (be one SELECT statement|read only through|not contain a NUL|be a non-empty string)/,
      );
      expect(e.message.includes('\n'), what).toBe(false);
    }
    expect(readdirSync(out), 'files written').toEqual([]);
    expect(await db.query('SELECT table_name FROM duckdb_tables()')).toEqual([]);
    expect(await db.query('SELECT view_name FROM duckdb_views() WHERE NOT internal')).toEqual([]);
    expect((await db.query('SELECT database_name FROM duckdb_databases()')).map((r) => r.database_name).sort()).toEqual(
      ['memory', 'system', 'temp'],
    );
    expect(await db.query("SELECT value FROM duckdb_settings() WHERE name = 'enable_external_access'")).toEqual([
      { value: 'true' },
    ]);
    expect(await db.query('SELECT * FROM duckdb_logs')).toEqual([]);
  });

  it('accepts one SELECT however it is written, and the metrics equal the in-memory ones', async () => {
    const want = inMemory(good.labels, good.probs);
    for (const query of [
      `SELECT * FROM read_csv(${lit(csv)})`,
      `FROM read_csv(${lit(csv)});`,
      `SELECT * FROM read_csv(${lit(csv)}) -- a trailing comment`,
      `/* a leading comment */ SELECT * FROM read_csv(${lit(csv)})`,
      `WITH a AS (SELECT * FROM read_csv(${lit(csv)})) SELECT * FROM a WHERE label >= 0`,
      `SELECT * FROM read_csv(${lit(csv)}) WHERE label < 1 UNION ALL SELECT * FROM read_csv(${lit(csv)}) WHERE label >= 1`,
      `SELECT * FROM ${lit(csv)}`,
    ]) {
      const s = await duckdbSource(db, { query });
      expect(
        s.columns.map((c) => c.name),
        query,
      ).toEqual(['label', 'p_0', 'p_1', 'p_2']);
      expectClose(await sqlMetrics(db, s.from, { numClasses: 3, ...quiet }), want, query);
    }
  });

  it('engine errors are UMErrors of one line: a missing table, a value that is not a number', async () => {
    const missing = await refused(db, { query: 'SELECT * FROM no_such_table' });
    expect([missing.code, missing.message]).toEqual([
      'UM_OPTION',
      expect.stringMatching(
        /^duckdbSource: input\.query: DuckDB cannot run the query: Catalog Error: Table with name no_such_table does not exist!/,
      ),
    ]);
    const s = await duckdbSource(db, { query: "SELECT 'x' AS label, 0.5 AS p_0, 0.5 AS p_1" });
    const e = await sqlMetrics(db, s.from, { numClasses: 2 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UMError);
    expect((e as UMError).code).toBe('UM_FILE_FORMAT');
    expect((e as UMError).message).toMatch(
      /^sqlMetrics: source: DuckDB cannot run the query: Conversion Error: Could not convert string 'x' to DOUBLE[^\n]*$/,
    );
    const bad = await refused(db, { query: 42 as never });
    expect(bad.message).toBe('duckdbSource: input.query must be a non-empty string; got 42');
    expect((await refused(db, { file: 'a.csv', query: 'SELECT 1' } as never)).message).toMatch(
      /^duckdbSource: input must be \{ file \} or \{ query \}/,
    );
  });
});

describe('duckdbSource({ file }): the name is read literally, never as a glob', () => {
  let db: DuckdbEngine;
  beforeAll(async () => {
    db = await duckdbEngine();
  });
  afterAll(() => db.close());

  // each name sits next to decoys its glob reading would also match; every file has its own number of rows
  const NAMES: [string, string[]][] = [
    ['a*.csv', ['ab.csv', 'a.csv']],
    ['*.csv', []],
    ['q?.csv', ['qx.csv']],
    ['b[1].csv', ['b1.csv']],
    ['c[!x].csv', ['cy.csv', 'c!.csv']],
    ['d].csv', []],
    ['e[.csv', []],
    ['**.csv', []],
    ["it's [x]*.csv", ["it's x.csv"]],
    ['sp ace?.csv', ['sp acex.csv']],
    ['ünï*cødé ✓.csv', ['ünïXcødé ✓.csv']],
    ['line\nbreak*.csv', []],
    ['x{a,b}.csv', ['xa.csv']],
    ['back\\slash.csv', []],
    ['one\\star*.csv', []],
    ['g*/in.csv', ['gg/in.csv']],
    ['h?/in[1]*.csv', ['hh/in1.csv', 'h?/in1x.csv']],
  ];

  it('reads exactly the named CSV file when decoys match its glob reading', async () => {
    const root = mkdtempSync(join(dir, 'glob-'));
    let seed = 10;
    const write = (name: string) => {
      const d = data(seed, seed);
      seed++;
      mkdirSync(join(root, name, '..'), { recursive: true });
      writeFileSync(join(root, name), d.csv);
      return d;
    };
    for (const [name, decoys] of NAMES) {
      const d = write(name);
      for (const x of decoys) write(x);
      const s = await duckdbSource(db, { file: join(root, name) });
      const r = await sqlMetrics(db, s.from, { numClasses: 3, ...quiet });
      expectClose(r, inMemory(d.labels, d.probs), JSON.stringify(name));
    }
  });

  it('reads Parquet the same way', async () => {
    const root = mkdtempSync(join(dir, 'pq-'));
    const d = data(99, 17);
    const csv = join(root, 'plain.csv');
    writeFileSync(csv, d.csv);
    for (const name of ['p*.parquet', 'p1.parquet'])
      await db.query(
        `COPY (SELECT * FROM read_csv(${lit(csv)}) WHERE ${name === 'p1.parquet' ? 'label < 1' : 'true'}) TO ${lit(join(root, name))} (FORMAT parquet)`,
      );
    const s = await duckdbSource(db, { file: join(root, 'p*.parquet') });
    expect(s.from).toBe(`read_parquet(${lit(join(root, 'p[*].parquet'))})`);
    expectClose(await sqlMetrics(db, s.from, { numClasses: 3, ...quiet }), inMemory(d.labels, d.probs), 'p*.parquet');
  });

  it('refuses what it cannot read literally or at all, with the file named', async () => {
    const root = mkdtempSync(join(dir, 'bad-'));
    writeFileSync(join(root, 'two\\st*.csv'), data(5, 5).csv);
    writeFileSync(join(root, 'twoXst*.csv'), data(6, 6).csv); // a backslash must become `?`, which matches this too
    mkdirSync(join(root, 'dir.csv'));
    execFileSync('mkfifo', [join(root, 'fifo.csv')]);
    writeFileSync(join(root, 'x.txt'), 'label,p_0,p_1\n0,0.5,0.5\n');
    writeFileSync(join(root, 'junk.parquet'), 'not parquet at all');
    writeFileSync(join(root, 'words.csv'), 'label,p_0,p_1\nzero,0.5,0.5\n');
    const cases: [string, string, RegExp][] = [
      ['two\\st*.csv', 'UM_FILE_READ', /DuckDB cannot name this file alone .* matches 2 files\); rename it$/],
      ['missing.csv', 'UM_FILE_NOT_FOUND', /: no such file$/],
      ['missing/x.csv', 'UM_FILE_NOT_FOUND', /: no such file$/],
      ['dir.csv', 'UM_FILE_READ', /: is not a regular file$/],
      ['fifo.csv', 'UM_FILE_READ', /: is not a regular file$/],
      ['x.txt', 'UM_FILE_FORMAT', /: DuckDB reads \.csv and \.parquet files here/],
      ['junk.parquet', 'UM_FILE_FORMAT', /: DuckDB cannot run the query: /],
    ];
    for (const [name, code, message] of cases) {
      const e = await refused(db, { file: join(root, name) });
      expect([e.code, e.details.file], name).toEqual([code, join(root, name)]);
      expect(e.message.startsWith(`duckdbSource: ${join(root, name)}: `), e.message).toBe(true);
      expect(e.message, name).toMatch(message);
    }
    const s = await duckdbSource(db, { file: join(root, 'words.csv') });
    const e = await sqlMetrics(db, s.from, { numClasses: 2 }).catch((x: unknown) => x);
    expect((e as UMError).code).toBe('UM_FILE_FORMAT');
  });
});
