import type { WarningOptions } from '../warnings/warnings.js';
import { fail } from '../errors/fail.js';
import { withinAsync } from '../errors/within.js';
import { checkEngine, engineError } from './engineError.js';
import { finishSqlMetrics, type MetricsRows, type SqlMetrics, type SqlRow } from './finishSqlMetrics.js';
import { metricsSql, type MetricsSqlOptions, type SqlDialect } from './metricsSql.js';

/** Anything that runs SQL and returns rows as objects: DuckDB, a PostgreSQL client, or your own adapter. */
export interface SqlEngine {
  readonly dialect: SqlDialect;
  query(sql: string): Promise<SqlRow[]>;
}

/**
 * Computes the metrics inside a database: generates the queries of {@link metricsSql} for the engine's dialect,
 * runs them, and finishes the metrics with {@link finishSqlMetrics}.
 *
 * **Formula.** As {@link metricsSql} and {@link finishSqlMetrics}; equal to the in-memory `ece`, `mce`, `sce`,
 * `uce`, `brier`, `nll`, mean `entropy` and `auroc` up to the order of floating-point sums (tested ≤ 1e-9 relative).
 *
 * **Conventions.** Five queries, run one after another; each scans the source once. See {@link metricsSql}: `source`
 * is SQL; for a file or a user's query use {@link duckdbSource}, which quotes and checks them.
 *
 * **References.** As {@link metricsSql}.
 *
 * @param engine a {@link SqlEngine} (e.g. {@link duckdbEngine} or {@link postgresEngine}).
 * @param source the FROM expression: a table, a subquery with an alias, or (DuckDB) `read_parquet('file')`.
 * @param options {@link MetricsSqlOptions} without `dialect` (the engine's), and `onWarning`.
 * @returns {@link SqlMetrics}.
 * @throws {UMError} on invalid options or rows; on errors of the database caused by the source: a value it cannot
 *   convert (`UM_FILE_FORMAT`), a missing table or column (`UM_OPTION`), a file it cannot read (`UM_FILE_READ`) —
 *   DuckDB's error classes and PostgreSQL's SQLSTATE classes, first line of the message. Other driver errors (a lost
 *   connection) propagate as the driver throws them.
 * @example
 * ```js
 * import { duckdbEngine, sqlMetrics } from 'uncertainty-metrics/sql';
 * const db = await duckdbEngine();
 * const r = await sqlMetrics(db, "read_csv('examples/data/logreg_test.csv')", { numClasses: 10 });
 * db.close();
 * r.n; // => 2000
 * ```
 */
export async function sqlMetrics(
  engine: SqlEngine,
  source: string,
  options: Omit<MetricsSqlOptions, 'dialect'> & WarningOptions,
): Promise<SqlMetrics> {
  const fn = 'sqlMetrics';
  checkEngine(fn, engine);
  if (options === null || typeof options !== 'object')
    fail('UM_OPTION', fn, 'options', 'be an object with numClasses', { value: options });
  // the SQL generator's and the finisher's errors are this function's (`sqlMetrics: options.numClasses …`)
  return withinAsync(fn, () => metricsOf(engine, source, options));
}

async function metricsOf(
  engine: SqlEngine,
  source: string,
  options: Omit<MetricsSqlOptions, 'dialect'> & WarningOptions,
): Promise<SqlMetrics> {
  // the generator takes no onWarning (the finisher below does)
  const { onWarning: _w, ...sql } = options;
  const q = metricsSql(source, { ...sql, dialect: engine.dialect });
  const run = async (sql: string): Promise<SqlRow[]> => {
    try {
      return await engine.query(sql);
    } catch (error) {
      throw engineError('sqlMetrics', 'source', error, engine.dialect) ?? error;
    }
  };
  const rows: MetricsRows = {
    topLabel: await run(q.topLabel),
    classwise: await run(q.classwise),
    uncertainty: await run(q.uncertainty),
    scores: await run(q.scores),
    auroc: await run(q.auroc),
  };
  return finishSqlMetrics(rows, { ...options, dialect: engine.dialect });
}
