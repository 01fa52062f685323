import type { SqlRow } from './finishSqlMetrics.js';
import type { SqlEngine } from './sqlMetrics.js';

/**
 * A PostgreSQL connection as a {@link SqlEngine}: give it any client with `query(text) → { rows }` (a `pg`
 * `Client` or `Pool`), so this module needs no driver of its own.
 *
 * **Formula.** —
 *
 * **Conventions.** The generated queries cast every aggregate to DOUBLE PRECISION, which `pg` returns as JS
 * numbers (PostgreSQL ≥ 12 prints float8 with round-trip precision).
 *
 * **References.** PostgreSQL documentation, "Aggregate Functions" and "Window Functions".
 *
 * @param client a connected client.
 * @returns the engine.
 * @throws nothing itself; `query` rejects with the driver's error when PostgreSQL refuses a query.
 * @example
 * ```js
 * import { postgresEngine } from 'uncertainty-metrics/sql';
 * const fake = { query: async () => ({ rows: [{ x: 1 }] }) };
 * (await postgresEngine(fake).query('SELECT 1 AS x'))[0].x; // => 1
 * ```
 */
export function postgresEngine(client: { query(text: string): Promise<{ rows: SqlRow[] }> }): SqlEngine {
  return {
    dialect: 'postgres',
    async query(sql: string): Promise<SqlRow[]> {
      return (await client.query(sql)).rows;
    },
  };
}
