/**
 * The shape of the generated SQL, which decides how it runs: each query reads the table once and computes each row's
 * confidence once (PostgreSQL's plans), and no expression nests deeper as the classes grow but logarithmically
 * (DuckDB's parse trees). The numbers the queries return are checked in sql.test.ts and quoting.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duckdbEngine, metricsSql, type DuckdbEngine, type MetricsQueries } from '../../src/sql/index.js';
import { usePostgres } from '../helpers/postgres.js';
import { named, skip } from '../helpers/requirements.js';

const QUERIES = [
  'topLabel',
  'classwise',
  'uncertainty',
  'scores',
  'auroc',
] as const satisfies readonly (keyof MetricsQueries)[];

describe('expression depth (DuckDB parse trees)', () => {
  let db: DuckdbEngine;
  beforeAll(async () => {
    db = await duckdbEngine();
  });
  afterAll(() => db.close());

  it('grows with log C, not C: sums of C terms are balanced trees', async () => {
    // a left-deep chain p0 + p1 + … + p{C−1} is C levels deep, and DuckDB's optimizer walked it once per level: its
    // common-subexpression pass took 32 of the scores query's 90 ms at 100 classes (the old SQL: 52 levels at 16
    // classes, 532 at 256)
    // bad_sum_rows is a chain up to ROW_SUM_CHAIN classes: the row sum adds left to right as the in-memory check does
    // (rowSums.test.ts runs the longest chain, and the tree above it)
    const depth = (x: unknown): number =>
      x !== null && typeof x === 'object' && (x as { alias?: unknown }).alias !== 'bad_sum_rows'
        ? 1 + Math.max(0, ...Object.values(x).map(depth))
        : 0;
    for (const dialect of ['duckdb', 'postgres'] as const) {
      const tree = async (c: number, key: (typeof QUERIES)[number]) => {
        const sql = metricsSql('t', { numClasses: c, dialect })[key];
        const [row] = await db.query(`SELECT json_serialize_sql('${sql.replace(/'/g, "''")}') AS j`);
        const parsed = JSON.parse(String(row?.j)) as { error: boolean };
        expect(parsed.error, `${dialect} ${key}: DuckDB parses it`).toBe(false);
        return depth(parsed);
      };
      for (const key of QUERIES) {
        const grown = (await tree(256, key)) - (await tree(16, key));
        expect(grown, `${dialect} ${key}: levels added from 16 to 256 classes`).toBeLessThanOrEqual(16);
      }
    }
  });
});

// PostgreSQL: .ci/run starts a server and sets UM_TEST_POSTGRES (a connection string); locally, set it yourself.
describe.skipIf(skip.postgres !== undefined)(named('query plans (a real PostgreSQL)', skip.postgres), () => {
  const client = usePostgres();

  it('every query scans the table once and computes each row’s confidence once', async () => {
    // PostgreSQL had pulled conf's GREATEST(…) into each WHEN of pred (C² work per row, a JIT-compiled plan of ~100 KB
    // at 100 classes) and planned the class-wise sums as C scans of the materialized rows: 3 s on 5000 × 100. In
    // the Output lines of EXPLAIN VERBOSE an expression computed below is shown in parentheses where it is used; a
    // GREATEST( without one is computed there.
    const c = 20;
    await client.query(
      `CREATE TEMP TABLE um_plan (label float8, ${Array.from({ length: c }, (_, k) => `p_${k} float8`).join(', ')})`,
    );
    const q = metricsSql('um_plan', { numClasses: c, dialect: 'postgres' });
    for (const key of QUERIES) {
      const plan = (await client.query(`EXPLAIN (VERBOSE) ${q[key]}`)).rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(plan.match(/(Seq|CTE) Scan on /g)?.length, `${key}: scans of the table or of materialized rows`).toBe(1);
      const outputs = plan
        .split('\n')
        .filter((line) => line.trimStart().startsWith('Output:'))
        .join('\n');
      expect(outputs.match(/(?<!\()GREATEST\(/g)?.length ?? 0, `${key}: GREATEST computed`).toBe(
        key === 'classwise' ? 0 : 1,
      );
    }
  });
});
