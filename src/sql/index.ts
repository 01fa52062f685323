/**
 * SQL push-down: the binned sums, Brier, NLL, entropy and AUROC computed inside DuckDB, PostgreSQL, Spark SQL,
 * BigQuery or Trino, finished by the same metric definitions as in memory.
 *
 * @module uncertainty-metrics/sql
 */
// uncertainty-metrics/sql — SQL push-down of binned statistics, Brier, NLL, entropy and AUROC. Re-exports only.
export { metricsSql, SQL_DIALECTS } from './metricsSql.js';
export type { MetricsQueries, MetricsSqlOptions, SqlDialect } from './metricsSql.js';
export { finishSqlMetrics } from './finishSqlMetrics.js';
export type { MetricsRows, SqlMetrics, SqlRow } from './finishSqlMetrics.js';
export { sqlMetrics } from './sqlMetrics.js';
export type { SqlEngine } from './sqlMetrics.js';
export { duckdbEngine } from './duckdbEngine.js';
export type { DuckdbEngine } from './duckdbEngine.js';
export { duckdbSource, QUERY_TABLE_FUNCTIONS } from './duckdbSource.js';
export type { DuckdbSource } from './duckdbSource.js';
export { postgresEngine } from './postgresEngine.js';
