import type { SqlRow } from './finishSqlMetrics.js';
import type { SqlEngine } from './sqlMetrics.js';

/**
 * An embedded DuckDB database as a {@link SqlEngine} (`@duckdb/node-api`): it reads CSV and Parquet files directly
 * (`read_csv('…')`, `read_parquet('…')`), streaming them, on all cores.
 *
 * **Formula.** —
 *
 * **Conventions.** In-memory database unless `path` is given; DOUBLE results come back as JS numbers, BIGINT as
 * numbers. Call `close()` when done.
 *
 * **References.** Raasveldt & Mühleisen, "DuckDB: an Embeddable Analytical Database", SIGMOD 2019,
 * doi:10.1145/3299869.3320212.
 *
 * @param path database file (default `:memory:`).
 * @returns an engine with `close()`.
 * @throws whatever DuckDB throws when it cannot open the database.
 * @example
 * ```js
 * import { duckdbEngine } from 'uncertainty-metrics/sql';
 * const db = await duckdbEngine();
 * const rows = await db.query('SELECT 1 + 1 AS two');
 * db.close();
 * rows[0].two; // => 2
 * ```
 */
export async function duckdbEngine(path = ':memory:'): Promise<SqlEngine & { close(): void }> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  return {
    dialect: 'duckdb',
    async query(sql: string): Promise<SqlRow[]> {
      const reader = await connection.runAndReadAll(sql);
      return reader.getRowObjectsJS().map((row) => {
        const out: SqlRow = {};
        for (const [k, v] of Object.entries(row)) out[k] = typeof v === 'bigint' ? Number(v) : v;
        return out;
      });
    },
    close(): void {
      connection.closeSync();
      instance.closeSync();
    },
  };
}
