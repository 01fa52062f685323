import type { SqlRow } from './finishSqlMetrics.js';
import type { SqlEngine } from './sqlMetrics.js';

/** The engine {@link duckdbEngine} returns: a {@link SqlEngine} whose `query` also takes bound values, and `close()`. */
export interface DuckdbEngine extends SqlEngine {
  readonly dialect: 'duckdb';
  /** Runs SQL; `values` bind `$1`, `$2`, … (strings, numbers, booleans, null), never spliced into the text. */
  query(sql: string, values?: readonly (string | number | boolean | null)[]): Promise<SqlRow[]>;
  close(): void;
}

/**
 * An embedded DuckDB database as a {@link SqlEngine} (`@duckdb/node-api`): it reads CSV and Parquet files directly
 * (`read_csv('…')`, `read_parquet('…')`, or {@link duckdbSource}), streaming them, on all cores.
 *
 * **Formula.** —
 *
 * **Conventions.** In-memory database unless `path` is given; DOUBLE results come back as JS numbers, BIGINT as
 * numbers. `config` is DuckDB's instance configuration (e.g. `{ autoinstall_known_extensions: 'false' }`, which
 * `um metrics --engine duckdb` sets so that no query downloads an extension). Call `close()` when done.
 *
 * **References.** Raasveldt & Mühleisen, "DuckDB: an Embeddable Analytical Database", SIGMOD 2019,
 * doi:10.1145/3299869.3320212; DuckDB documentation, "Configuration".
 *
 * @param path database file (default `:memory:`).
 * @param config DuckDB configuration options, as strings (default none).
 * @returns an engine with `close()`.
 * @throws whatever DuckDB throws when it cannot open the database or rejects a setting.
 * @example
 * ```js
 * import { duckdbEngine } from 'uncertainty-metrics/sql';
 * const db = await duckdbEngine();
 * const rows = await db.query('SELECT 1 + $1 AS two', [1]);
 * db.close();
 * rows[0].two; // => 2
 * ```
 */
export async function duckdbEngine(path = ':memory:', config: Readonly<Record<string, string>> = {}): Promise<DuckdbEngine> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(path, { ...config });
  const connection = await instance.connect();
  return {
    dialect: 'duckdb',
    async query(sql: string, values?: readonly (string | number | boolean | null)[]): Promise<SqlRow[]> {
      const reader = values === undefined ? await connection.runAndReadAll(sql) : await connection.runAndReadAll(sql, [...values]);
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
