/**
 * The row-sum check pushed down refuses exactly the rows the in-memory check refuses: rows whose left-to-right sum is
 * within a few ulps of 1 ± the tolerance, in DuckDB and a real PostgreSQL. (A balanced tree of additions — the order
 * the other sums of C terms take — accepted [0.3, 0.3, 0.3, 0.1] at tolerance 0 and refused a row in memory within
 * 1e-3.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brier, UMError } from '../../src/index.js';
import { duckdbEngine, postgresEngine, sqlMetrics, type DuckdbEngine, type SqlEngine } from '../../src/sql/index.js';
import { ROW_SUM_CHAIN } from '../../src/sql/metricsSql.js';
import { uniforms } from '../helpers/minstd.js';
import { usePostgres } from '../helpers/postgres.js';
import { named, skip } from '../helpers/requirements.js';

const C = 4;
const TOLERANCES = [0, 1e-3];

/** The next double above (`steps` > 0) or below x. */
function nudge(x: number, steps: number): number {
  const f = new Float64Array([x]);
  const bits = new BigInt64Array(f.buffer);
  bits[0] = (bits[0] as bigint) + BigInt(x > 0 ? steps : -steps);
  return f[0] as number;
}

/** Rows of C probabilities whose left-to-right sum lands within ±3 ulps of the edges 1 − tol and 1 + tol. */
function edgeRows(tolerance: number, seed: number): number[][] {
  const u = uniforms(seed, 3 * 40);
  const rows: number[][] = [[0.3, 0.3, 0.3, 0.1]];
  for (let r = 0; r < 40; r++) {
    const a = (u[3 * r] as number) * 0.4;
    const b = (u[3 * r + 1] as number) * 0.3;
    const c = (u[3 * r + 2] as number) * 0.2;
    const edge = r % 2 === 0 ? 1 + tolerance : 1 - tolerance;
    const last = edge - (a + b + c);
    for (let steps = -3; steps <= 3; steps++) rows.push([a, b, c, nudge(last, steps)]);
  }
  return rows.filter((row) => row.every((p) => p >= 0 && p <= 1));
}

/** A table of three rows of `c` classes, each 1/c, created by `run` (a SELECT of literals). */
async function uniformTable(c: number, name: string, run: (sql: string) => Promise<unknown>): Promise<string> {
  const cols = Array.from({ length: c }, (_, k) => `CAST(${1 / c} AS DOUBLE PRECISION) AS p_${k}`).join(', ');
  await run(
    `CREATE TEMP TABLE ${name} AS SELECT CAST(g AS DOUBLE PRECISION) AS label, ${cols} FROM (VALUES (0), (1), (2)) AS t(g)`,
  );
  return name;
}

/** Whether the in-memory check refuses the row for its sum. */
function refusedInMemory(row: number[], sumTolerance: number): boolean {
  try {
    brier([0], [row], { sumTolerance });
    return false;
  } catch (e) {
    if (e instanceof UMError && e.code === 'UM_ROW_SUM') return true;
    throw e;
  }
}

/** For each tolerance: the rows the in-memory check refuses, and the count sqlMetrics names (0 when it accepts). */
async function compare(engine: SqlEngine, load: (rows: number[][], name: string) => Promise<string>) {
  for (const [t, sumTolerance] of TOLERANCES.entries()) {
    const rows = edgeRows(sumTolerance, 11 + t);
    const want = rows.filter((row) => refusedInMemory(row, sumTolerance)).length;
    // both verdicts occur at each edge: the rows test the edge, not one side of it
    expect(want).toBeGreaterThan(rows.length / 5);
    expect(want).toBeLessThan(rows.length);
    const source = await load(rows, `um_row_sums_${t}`);
    const error = await sqlMetrics(engine, source, { numClasses: C, sumTolerance, onWarning: () => {} }).then(
      () => null,
      (e: unknown) => e,
    );
    expect((error as UMError).code, `tolerance ${sumTolerance}`).toBe('UM_ROW_SUM');
    expect((error as UMError).message, `tolerance ${sumTolerance}`).toContain(
      `(${want} of ${rows.length} rows do not)`,
    );
  }
}

const columns = (rows: number[][]) => [
  rows.map(() => 0).join(','),
  ...Array.from({ length: C }, (_, k) => rows.map((row) => row[k] as number).join(',')),
];
const names = ['label', ...Array.from({ length: C }, (_, k) => `p_${k}`)];

describe('row sums at the tolerance’s edge: DuckDB', () => {
  let db: DuckdbEngine;
  beforeAll(async () => {
    db = await duckdbEngine();
  });
  afterAll(() => db.close());

  it('refuses exactly the rows the in-memory check refuses', async () => {
    await compare(db, async (rows, name) => {
      const list = names.map((x, j) => `CAST(UNNEST(string_split($${j + 1}, ',')) AS DOUBLE) AS ${x}`).join(', ');
      await db.query(`CREATE OR REPLACE TEMP TABLE ${name} AS SELECT ${list}`, columns(rows));
      return name;
    });
  });

  it('runs with the longest chain and with the tree above it (a chain of 1200 exceeded DuckDB’s depth limit)', async () => {
    for (const c of [ROW_SUM_CHAIN, 1024]) {
      const source = await uniformTable(c, `um_uniform_${c}`, (sql) => db.query(sql));
      const r = await sqlMetrics(db, source, { numClasses: c, onWarning: () => {} });
      expect(r.n, `${c} classes`).toBe(3);
    }
  });
});

describe.skipIf(skip.postgres !== undefined)(
  named('row sums at the tolerance’s edge: PostgreSQL', skip.postgres),
  () => {
    const client = usePostgres();

    it('refuses exactly the rows the in-memory check refuses', async () => {
      await compare(postgresEngine(client), async (rows, name) => {
        const list = names.map((_, j) => `$${j + 1}::float8[]`).join(', ');
        await client.query(`DROP TABLE IF EXISTS ${name}`);
        await client.query(
          `CREATE TEMP TABLE ${name} AS SELECT * FROM unnest(${list}) AS u(${names.join(', ')})`,
          columns(rows).map((x) => `{${x}}`),
        );
        return name;
      });
    });

    it('runs with the longest chain (a table holds at most 1600 columns in PostgreSQL)', async () => {
      const source = await uniformTable(ROW_SUM_CHAIN, 'um_uniform_chain', (sql) => client.query(sql));
      const r = await sqlMetrics(postgresEngine(client), source, { numClasses: ROW_SUM_CHAIN, onWarning: () => {} });
      expect(r.n).toBe(3);
    });
  },
);
