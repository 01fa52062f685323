import { fail } from '../errors/fail.js';
import { loadDependency } from '../errors/loadDependency.js';
import { UMError } from '../errors/UMError.js';
import { firstLine } from './engineError.js';
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
 * @throws {UMError} `UM_DEPENDENCY` when `@duckdb/node-api` is not installed; `UM_OPTION` for a path or settings of the wrong type or a setting DuckDB rejects; `UM_FILE_READ`
 *   when DuckDB cannot open the database file.
 * @example
 * ```js
 * import { duckdbEngine } from 'uncertainty-metrics/sql';
 * const db = await duckdbEngine();
 * const rows = await db.query('SELECT 1 + $1 AS two', [1]);
 * db.close();
 * rows[0].two; // => 2
 * ```
 */
export async function duckdbEngine(
  path = ':memory:',
  config: Readonly<Record<string, string>> = {},
): Promise<DuckdbEngine> {
  const fn = 'duckdbEngine';
  if (typeof path !== 'string' || path === '' || path.includes('\u0000'))
    fail('UM_OPTION', fn, 'path', "be a database file name or ':memory:'", { value: path });
  if (config === null || typeof config !== 'object' || Array.isArray(config))
    fail('UM_OPTION', fn, 'config', 'be an object of DuckDB settings', { value: config });
  for (const [key, value] of Object.entries(config)) {
    if (typeof value !== 'string')
      fail('UM_OPTION', fn, `config.${key}`, 'be a string (DuckDB settings are given as text)', { value });
  }
  const { DuckDBInstance } = await loadDependency(fn, '@duckdb/node-api', () => import('@duckdb/node-api'));
  let instance: Awaited<ReturnType<typeof DuckDBInstance.create>>;
  try {
    instance = await DuckDBInstance.create(path, { ...config });
  } catch (error) {
    // a file that cannot be opened, or a setting DuckDB does not know or cannot take
    const line = firstLine(error instanceof Error ? error.message : String(error));
    const io = line.startsWith('IO Error');
    throw new UMError(
      io ? 'UM_FILE_READ' : 'UM_OPTION',
      `${fn}: ${io ? path : 'config'}: DuckDB cannot open the database: ${line}`,
      io ? { fn, argument: 'path', file: path } : { fn, argument: 'config', value: config },
    );
  }
  const connection = await instance.connect();
  return {
    dialect: 'duckdb',
    async query(sql: string, values?: readonly (string | number | boolean | null)[]): Promise<SqlRow[]> {
      const reader =
        values === undefined ? await connection.runAndReadAll(sql) : await connection.runAndReadAll(sql, [...values]);
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
