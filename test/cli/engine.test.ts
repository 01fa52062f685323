/**
 * `um metrics --engine duckdb`, through `main` in this process: a hostile --query exits 2 with one line naming --query and writes
 * nothing; a file name with glob characters is read literally; every engine error (conversion, catalog, parser, IO)
 * is exit 2 with one line naming the flag or the file, never a stack trace.
 */
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/index.js';
import { um } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'um-engine-'));
const out = join(dir, 'out');
mkdirSync(out);
const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;
const csvOf = (rows: string[]) => `label,p_0,p_1\n${rows.join('\n')}\n`;
const csv = join(dir, 'preds.csv');
writeFileSync(csv, csvOf(['0,0.9,0.1', '1,0.2,0.8', '1,0.6,0.4', '0,0.7,0.3']));

/** `um` run in this process (DuckDB loads once): the same code path as the binary, for the long tables. */
async function inProcess(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

/** Exit 2, nothing on stdout, exactly one line on stderr matching `message`. */
function expectRefused(r: { code: number; stdout: string; stderr: string }, message: RegExp, what: string): void {
  expect([r.code, r.stdout], `${what}: ${r.stderr}`).toEqual([2, '']);
  expect(r.stderr.trimEnd().split('\n'), what).toHaveLength(1);
  expect(r.stderr, what).toMatch(message);
  expect(r.stderr, what).not.toMatch(/internal error|\n\s+at /);
}

describe('um metrics --engine duckdb --query', () => {
  it('a hostile query exits 2 naming --query, before anything runs: no file is written', async () => {
    const f = (name: string) => lit(join(out, name));
    const HOSTILE: [string, string][] = [
      [
        'closing parenthesis + COPY',
        `SELECT * FROM read_csv(${lit(csv)})) AS q; COPY (SELECT 42 AS x) TO ${f('a.csv')}; SELECT * FROM (SELECT 1`,
      ],
      ['two statements', `SELECT * FROM read_csv(${lit(csv)}); COPY (SELECT 1) TO ${f('b.csv')}`],
      ['ATTACH', `ATTACH ${f('x.db')}`],
      ['PRAGMA', 'PRAGMA version'],
      ['INSTALL / LOAD', 'INSTALL httpfs; LOAD httpfs'],
      ['DDL', 'CREATE TABLE t AS SELECT 1 AS a'],
      ['a comment hiding a second statement', `SELECT 1 /* x */ -- y\n; COPY (SELECT 1) TO ${f('c.csv')}`],
      ['a writing table function', `SELECT * FROM enable_logging(storage = 'file', storage_path = ${f('log')})`],
    ];
    const refusal = /^um metrics: --query (must be one SELECT statement|must read only through)/;
    for (const [what, query] of HOSTILE)
      expectRefused(await inProcess(['metrics', '--engine', 'duckdb', '--query', query]), refusal, what);
    // the reported case, through the helper of the other CLI tests (it also restores the working directory)
    expectRefused(await um(['metrics', '--engine', 'duckdb', '--query', HOSTILE[0]?.[1] as string]), refusal, 'binary');
    expect(readdirSync(out)).toEqual([]);
  });

  it('engine errors are exit 2 with one line naming --query or the file', async () => {
    expectRefused(
      await inProcess(['metrics', '--engine', 'duckdb', '--query', 'SELECT * FROM no_such_table']),
      /^um metrics: --query: DuckDB cannot run the query: Catalog Error: Table with name no_such_table does not exist!/,
      'catalog',
    );
    expectRefused(
      await um(['metrics', '--engine', 'duckdb', '--query', "SELECT 'x' AS label, 0.5 AS p_0, 0.5 AS p_1"]),
      /^um metrics: --query: DuckDB cannot run the query: Conversion Error: Could not convert string 'x' to DOUBLE/,
      'conversion',
    );
    expectRefused(
      await inProcess(['metrics', '--engine', 'duckdb', '--query', 'SELEC 1']),
      /^um metrics: --query must be one SELECT statement; DuckDB cannot parse it: syntax error at or near "SELEC"/,
      'parser',
    );
    const words = join(dir, 'words.csv');
    writeFileSync(words, csvOf(['zero,0.5,0.5']));
    expectRefused(
      await um(['metrics', '--engine', 'duckdb', words]),
      new RegExp(`^um metrics: ${words}: DuckDB cannot run the query: Conversion Error`),
      'conversion in a file',
    );
    const junk = join(dir, 'junk.parquet');
    writeFileSync(junk, 'not parquet');
    expectRefused(
      await inProcess(['metrics', '--engine', 'duckdb', junk]),
      new RegExp(`^um metrics: ${junk}: DuckDB cannot run the query: `),
      'IO',
    );
    expectRefused(
      await inProcess(['metrics', '--engine', 'duckdb', csv, '--weights', 'nope']),
      /^um metrics: --weights: .*preds\.csv has no column "nope"; it has "label", "p_0", "p_1"/,
      'weights',
    );
    expectRefused(
      await inProcess(['metrics', '--engine', 'duckdb', join(dir, 'nope.csv')]),
      /nope\.csv: no such file\n$/,
      'missing',
    );
  });
});

describe('um metrics --engine duckdb FILE', () => {
  it('reads a name with *, ? or [ literally, not the files its glob would match', async () => {
    // the decoys hold wrong labels only: read with them, the accuracy would drop
    const decoy = csvOf(['1,0.9,0.1', '0,0.2,0.8']);
    for (const [name, decoys] of [
      ['a*.csv', ['ab.csv', 'a.csv']],
      ['q?.csv', ['qx.csv']],
      ['b[1].csv', ['b1.csv']],
    ] as const) {
      const sub = mkdtempSync(join(dir, 'g-'));
      writeFileSync(join(sub, name), csvOf(['0,0.9,0.1', '1,0.2,0.8', '1,0.6,0.4']));
      for (const d of decoys) writeFileSync(join(sub, d), decoy);
      const r = await inProcess(['metrics', '--engine', 'duckdb', join(sub, name), '--json']);
      expect(r.code, r.stderr).toBe(0);
      const j = JSON.parse(r.stdout) as { n: number; accuracy: number; config: { file: string } };
      expect([j.n, j.accuracy, j.config.file], name).toEqual([3, 2 / 3, join(sub, name)]);
    }
    // a relative name is read from the working directory
    const r = await um(['metrics', '--engine', 'duckdb', 'preds.csv'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^preds\.csv: 4 examples, 2 classes, computed in DuckDB/);
  });
});
