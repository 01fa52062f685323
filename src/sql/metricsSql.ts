import { DEFAULT_BINS } from '../presets/presets.js';
import { checkCount } from '../errors/checkCount.js';
import { checkOptions } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import { checkColumnName, quoteIdentifier } from './quote.js';

/** SQL dialects the generator writes. */
export type SqlDialect = 'duckdb' | 'postgres' | 'spark' | 'bigquery' | 'trino';

/** Every dialect {@link metricsSql} writes. */
export const SQL_DIALECTS: readonly SqlDialect[] = ['duckdb', 'postgres', 'spark', 'bigquery', 'trino'];

/** Options of {@link metricsSql}. */
export interface MetricsSqlOptions {
  /** Target dialect (default `'duckdb'`). */
  dialect?: SqlDialect;
  /** Number of classes C: score columns `<scorePrefix>0 … <scorePrefix>{C−1}`. */
  numClasses: number;
  /** Label column (default `label`). */
  labelColumn?: string;
  /** Prefix of the score columns (default `p_`). */
  scorePrefix?: string;
  /** Column of sample weights (default: every row weighs 1). */
  weightColumn?: string;
  /** Equal-width bins of ECE, MCE, SCE and UCE (default 15). */
  bins?: number;
  /** Accepted |Σ_k p_k − 1| before a row counts as invalid (default 0.001, as the in-memory metrics). */
  sumTolerance?: number;
}

/** The generated queries; each returns a few aggregated rows that {@link finishSqlMetrics} turns into metrics. */
export interface MetricsQueries {
  readonly dialect: SqlDialect;
  /** Per bin of the top-label confidence: n, Σw, Σw·conf, Σw·correct. */
  readonly topLabel: string;
  /** Per class k and bin of p_k: n, Σw, Σw·p_k, Σw·1[y = k]. */
  readonly classwise: string;
  /** Per bin of the normalized entropy: n, Σw, Σw·u, Σw·error. */
  readonly uncertainty: string;
  /** One row: Σw, accuracy, Brier, NLL and entropy sums, and the counts of invalid rows. */
  readonly scores: string;
  /** One row: the AUROC numerator Σ_neg (positives ranked above + ½ tied) and the positive and negative weights. */
  readonly auroc: string;
}

interface Syntax {
  double: string;
  int: string;
}

const SYNTAX: Record<SqlDialect, Syntax> = {
  duckdb: { double: 'DOUBLE', int: 'INTEGER' },
  postgres: { double: 'DOUBLE PRECISION', int: 'INTEGER' },
  trino: { double: 'DOUBLE', int: 'INTEGER' },
  spark: { double: 'DOUBLE', int: 'INT' },
  bigquery: { double: 'FLOAT64', int: 'INT64' },
};

/** Dialects that take several UNNESTs in one select list and unnest them in step (PostgreSQL ≥ 10, DuckDB). */
const UNNEST_IN_SELECT: readonly SqlDialect[] = ['duckdb', 'postgres'];

/** A number as an exact SQL literal (shortest round-trip decimal, scientific notation kept). */
function literal(x: number): string {
  const s = String(x);
  return /[.eE]/.test(s) ? s : `${s}.0`;
}

/**
 * Σ terms as a balanced tree of additions, depth ⌈log2 n⌉: a left-deep chain of C additions is C deep, and DuckDB's
 * optimizer walks such a chain once per level (its common-subexpression pass took 32 of the scores query's 90 ms at 100
 * classes). The order of the additions changes the last bits only (pairwise summation is, if anything, the closer).
 */
function sumOf(terms: readonly string[]): string {
  if (terms.length === 1) return terms[0] as string;
  const half = Math.ceil(terms.length / 2);
  return `(${sumOf(terms.slice(0, half))} + ${sumOf(terms.slice(half))})`;
}

/** The most classes whose row sum adds left to right, as the in-memory check (deeper chains hit engines' limits). */
export const ROW_SUM_CHAIN = 512;

/** The most classes the generated SQL handles (see resolveSqlOptions). */
export const MAX_SQL_CLASSES = 2 ** 15;

/** The options of the generated SQL (and of the finisher, which also takes `onWarning`). */
const SQL_KEYS = [
  'dialect',
  'numClasses',
  'labelColumn',
  'scorePrefix',
  'weightColumn',
  'bins',
  'sumTolerance',
] as const;

/** Resolved options (internal; shared with the finisher). */
export function resolveSqlOptions(
  fn: string,
  options: MetricsSqlOptions,
): Required<Omit<MetricsSqlOptions, 'weightColumn'>> & { weightColumn: string | undefined } {
  if (options === null || typeof options !== 'object')
    fail('UM_OPTION', fn, 'options', 'be an object with numClasses', { value: options });
  checkOptions(fn, options, SQL_KEYS, fn === 'metricsSql' ? [] : ['onWarning']);
  const dialect = options.dialect ?? 'duckdb';
  if (!SQL_DIALECTS.includes(dialect))
    fail('UM_OPTION', fn, 'options.dialect', `be one of ${SQL_DIALECTS.map((d) => `'${d}'`).join(', ')}`, {
      value: dialect,
    });
  // the SQL lists every class several times (≈ 1.1 KB per class; 2^15 classes ≈ 36 MB of SQL, 0.2 s): a bound far
  // above real class counts (ImageNet-21k: 21 841) instead of minutes and gigabytes of text for 1e9
  const c = checkCount(fn, 'options.numClasses', options.numClasses, {
    min: 2,
    max: MAX_SQL_CLASSES,
    why: `${MAX_SQL_CLASSES} = 2^15 classes make ≈ 36 MB of SQL`,
  });
  const bins = options.bins ?? DEFAULT_BINS;
  checkCount(fn, 'options.bins', bins);
  const sumTolerance = options.sumTolerance ?? 1e-3;
  if (!(sumTolerance >= 0) || !Number.isFinite(sumTolerance))
    fail('UM_OPTION', fn, 'options.sumTolerance', 'be a finite number ≥ 0', { value: sumTolerance });
  const labelColumn = checkColumnName(fn, 'options.labelColumn', options.labelColumn ?? 'label');
  // the prefix may be empty (columns 0, 1, …); the names it makes are checked as column names
  const scorePrefix = options.scorePrefix ?? 'p_';
  if (typeof scorePrefix !== 'string')
    fail('UM_OPTION', fn, 'options.scorePrefix', 'be a string', { value: scorePrefix });
  checkColumnName(fn, 'options.scorePrefix', `${scorePrefix}0`);
  const weightColumn =
    options.weightColumn === undefined ? undefined : checkColumnName(fn, 'options.weightColumn', options.weightColumn);
  return { dialect, numClasses: c, labelColumn, scorePrefix, weightColumn, bins, sumTolerance };
}

/**
 * Generates the SQL that computes the binned sufficient statistics, Brier, NLL, entropy and AUROC of a prediction
 * table inside a database, in one of five dialects; {@link finishSqlMetrics} finishes the metrics from the rows.
 *
 * **Formula.** conf = GREATEST(p_0 … p_{C−1}); ŷ = the first k with p_k = conf; bin = LEAST(FLOOR(B·x), B − 1) for
 * x ∈ [0, 1] (our default equal-width rule, evaluated in float64 as in memory); u = (0 − Σ_k [p_k > 0]·p_k·LN p_k) /
 * ln C; Brier row Σ_k (p_k − 1[y = k])²; NLL row −LN p_y; AUROC numerator Σ over blocks of equal confidence of
 * neg·(positives in higher blocks + pos/2), with a window sum.
 *
 * **Conventions.**
 * - Default conventions only (no presets): 15 equal-width bins, p = 1 in the last bin, top label with ties to the
 *   lowest class, no NLL clipping (a label of probability 0 is counted, and the NLL is Infinity), natural log.
 * - Every column is cast to the dialect's double; ln C is written as the literal JS computes, so the normalized
 *   entropy is divided by exactly the same number as in memory.
 * - The scores query also counts invalid rows (NULLs, probabilities outside [0, 1], rows not summing to 1 within
 *   `sumTolerance`, labels outside [0, C) or not integers, negative weights); the finisher throws on any. A row's sum
 *   adds left to right as the in-memory check does, so both refuse the same rows — up to 512 classes; above, it is a
 *   balanced tree (a chain that deep exceeds the engines' expression limits), whose verdict can differ from memory's
 *   for a row within rounding of 1 ± `sumTolerance`.
 * - Equal-mass and adaptive bins (RMSCE, ACE, TACE, AECE, AMCE) and AURC are not pushed down.
 * - `source` is SQL, inserted as given (a table name, a parenthesized subquery with an alias, `read_parquet('…')`):
 *   never build it from untrusted text; {@link duckdbSource} makes one from a file name or a query.
 * - Column names are quoted for the dialect — `"…"` with `""` (DuckDB, PostgreSQL, Trino), `` `…` `` with doubled
 *   backticks (Spark), and for BigQuery, whose quoted names follow its string-literal rules, `\\`, `` \` `` and
 *   `\xhh` for control characters — so any name (quotes, backslashes, line breaks, `--`, `;`) stays one identifier.
 *   Names must be non-empty, without NUL or unpaired surrogates (no database can hold those).
 *
 * **References.** See {@link uncertainty-metrics!ece}, {@link uncertainty-metrics!sce}, {@link uncertainty-metrics!uce}, {@link uncertainty-metrics!brier}, {@link uncertainty-metrics!nll}, {@link uncertainty-metrics!auroc}. Quoting:
 * PostgreSQL, "Lexical Structure" §4.1.1; Trino and Spark SQL identifier docs; GoogleSQL, "Lexical structure and
 * syntax" (quoted identifiers, escape sequences).
 *
 * @param source the FROM expression.
 * @param options `numClasses` (required, at most 2^15), `dialect`, `labelColumn`, `scorePrefix`, `weightColumn`, `bins`,
 *   `sumTolerance`.
 * @returns the five queries.
 * @throws {UMError} `UM_OPTION` for invalid options or column names.
 * @example
 * ```js
 * import { metricsSql } from 'uncertainty-metrics/sql';
 * const q = metricsSql('preds', { numClasses: 3, dialect: 'postgres' });
 * q.topLabel.includes('CAST("p_2" AS DOUBLE PRECISION)'); // => true
 * ```
 */
export function metricsSql(source: string, options: MetricsSqlOptions): MetricsQueries {
  const fn = 'metricsSql';
  if (typeof source !== 'string' || source.trim() === '')
    fail('UM_OPTION', fn, 'source', 'be a table name or a FROM expression', { value: source });
  const o = resolveSqlOptions(fn, options);
  const s = SYNTAX[o.dialect];
  const q = (name: string) => quoteIdentifier(o.dialect, name);
  const c = o.numClasses;
  const B = o.bins;
  const k = Array.from({ length: c }, (_, j) => j);
  const p = (j: number) => `p${j}`;
  const d = (expr: string) => `CAST(${expr} AS ${s.double})`;
  const w = o.weightColumn === undefined ? '1.0' : d(q(o.weightColumn));
  const bin = (x: string) => `LEAST(CAST(FLOOR(${literal(B)} * ${x}) AS ${s.int}), ${B - 1})`;
  const base = [
    `src AS (SELECT ${d(q(o.labelColumn))} AS y, ${k.map((j) => `${d(q(`${o.scorePrefix}${j}`))} AS ${p(j)}`).join(', ')}, ${w} AS w FROM ${source})`,
    // PostgreSQL pulls a plain subquery up into the next one, writing conf's GREATEST(…) into each of the C WHENs of
    // pred (and pred into correct): C² work per row and a JIT-compiled expression of ~100 KB at 100 classes (the
    // top-label query on 5000 × 100: 207 ms → 14 ms). OFFSET 0 keeps conf a column there; DuckDB plans the same
    // either way, and BigQuery has no OFFSET without LIMIT.
    `t AS (SELECT src.*, GREATEST(${k.map(p).join(', ')}) AS conf FROM src${o.dialect === 'postgres' ? ' OFFSET 0' : ''})`,
    `u AS (SELECT t.*, CASE ${k.map((j) => `WHEN ${p(j)} = conf THEN ${j}`).join(' ')} END AS pred, ` +
      `(0.0 - ${sumOf(k.map((j) => `CASE WHEN ${p(j)} > 0 THEN ${p(j)} * LN(${p(j)}) ELSE 0.0 END`))}) AS ent, ` +
      `CASE ${k.map((j) => `WHEN y = ${j} THEN ${p(j)}`).join(' ')} END AS py FROM t)`,
    `v AS (SELECT u.*, CASE WHEN pred = y THEN 1.0 ELSE 0.0 END AS correct FROM u)`,
  ];
  const withBase = `WITH ${base.join(',\n')}`;
  // rows of weight 0 are left out as in memory (they count in no bin and no mean)
  const positive = d('SUM(CASE WHEN w > 0 THEN 1 ELSE 0 END)');
  const sums = (x: string, outcome: string) =>
    `${positive} AS n, ${d('SUM(w)')} AS weight, ${d(`SUM(w * ${x})`)} AS score, ${d(`SUM(w * ${outcome})`)} AS outcome`;
  const topLabel = `${withBase}\nSELECT ${bin('conf')} AS bin, ${sums('conf', 'correct')}\nFROM v GROUP BY 1 ORDER BY 1`;
  // one (class, score) entry per class and row, from src alone (the class-wise sums need no confidence, and
  // PostgreSQL materializes a CTE that two others name, used or not). DuckDB and PostgreSQL unnest two arrays in step
  // in the select list: one scan of the rows, where a UNION ALL of C selects planned C branches (PostgreSQL
  // materialized the rows and JIT-compiled every branch: 5000 × 100 took 2.6–3.1 s, now 0.24 s). Trino, Spark and
  // BigQuery unnest only in FROM, each in its own syntax, and keep the UNION ALL.
  const entries = UNNEST_IN_SELECT.includes(o.dialect)
    ? `SELECT UNNEST(ARRAY[${k.join(', ')}]) AS k, UNNEST(ARRAY[${k.map(p).join(', ')}]) AS s, y, w FROM src`
    : k.map((j) => `SELECT ${j} AS k, ${p(j)} AS s, y, w FROM src`).join('\nUNION ALL ');
  const classwise =
    `WITH ${base[0] as string},\nentries AS (${entries})\n` +
    `SELECT k, ${bin('s')} AS bin, ${sums('s', 'CASE WHEN y = k THEN 1.0 ELSE 0.0 END')}\nFROM entries GROUP BY 1, 2 ORDER BY 1, 2`;
  const lnC = literal(Math.log(c));
  const uncertainty = `${withBase},\nunc AS (SELECT ent / ${lnC} AS unc, 1.0 - correct AS err, w FROM v)\nSELECT ${bin('unc')} AS bin, ${sums('unc', 'err')}\nFROM unc GROUP BY 1 ORDER BY 1`;
  // (p_k − 1[y = k])², the same doubles as in memory, with one CASE per class instead of two (DuckDB's planner took
  // 70 ms over the 2C CASEs at 100 classes, on every scores query)
  const brierRow = sumOf(
    k.map((j) => `CASE WHEN y = ${j} THEN (${p(j)} - 1.0) * (${p(j)} - 1.0) ELSE ${p(j)} * ${p(j)} END`),
  );
  // left to right, the order of the in-memory check (probMatrix.ts): a row at the tolerance's edge is refused by both or
  // by neither — a balanced tree rounds differently. A chain is C levels deep, and the engines refuse deep expressions
  // (DuckDB: depth 1000, at ~1000 classes; PostgreSQL: its stack); above ROW_SUM_CHAIN classes the sum is a balanced
  // tree, whose verdict can differ from memory's only for rows within rounding of 1 ± the tolerance (documented)
  const rowSum = c <= ROW_SUM_CHAIN ? k.map(p).join(' + ') : sumOf(k.map(p));
  // spelled once, as a column (bad_p) both counts read: 3C predicates written twice were 21 % of DuckDB's time on the
  // scores query at 1 024 classes (667 → 528 ms on 200 rows, almost all planning). Never NULL (ELSE 0); a NULL score
  // makes it 1, so that row counts as a bad probability and not as a bad sum. PostgreSQL flattens the subquery (no
  // OFFSET 0), so there the predicates are still evaluated twice per row, as before
  const badProb = k.map((j) => `${p(j)} IS NULL OR ${p(j)} < 0 OR ${p(j)} > 1`).join(' OR ');
  const scores =
    `${withBase}\nSELECT ${d('COUNT(*)')} AS n, ${positive} AS weighted_rows, ${d('SUM(w)')} AS weight, ${d('SUM(w * correct)')} AS correct, ${d(`SUM(w * ${brierRow})`)} AS brier, ` +
    `${d('SUM(CASE WHEN py > 0 THEN w * (0.0 - LN(py)) ELSE 0.0 END)')} AS nll, ${d('SUM(CASE WHEN py = 0 AND w > 0 THEN 1 ELSE 0 END)')} AS zero_label_rows, ` +
    `${d('SUM(w * ent)')} AS entropy, ` +
    `${d('SUM(bad_p)')} AS bad_probability_rows, ` +
    `${d(`SUM(CASE WHEN bad_p = 1 THEN 0 WHEN ABS(${rowSum} - 1.0) > ${literal(o.sumTolerance)} THEN 1 ELSE 0 END)`)} AS bad_sum_rows, ` +
    `${d(`SUM(CASE WHEN y IS NULL OR y < 0 OR y >= ${c} OR y <> FLOOR(y) THEN 1 ELSE 0 END)`)} AS bad_label_rows, ` +
    `${d('SUM(CASE WHEN w IS NULL OR w < 0 THEN 1 ELSE 0 END)')} AS bad_weight_rows\n` +
    `FROM (SELECT v.*, CASE WHEN ${badProb} THEN 1 ELSE 0 END AS bad_p FROM v) AS checked`;
  const auroc =
    `${withBase},\nblocks AS (SELECT conf, SUM(w * correct) AS pos, SUM(w * (1.0 - correct)) AS neg FROM v GROUP BY conf),\n` +
    `ranked AS (SELECT pos, neg, SUM(pos) OVER (ORDER BY conf DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS above FROM blocks)\n` +
    `SELECT ${d('SUM(neg * (COALESCE(above, 0.0) + pos / 2.0))')} AS area, ${d('SUM(pos)')} AS pos, ${d('SUM(neg)')} AS neg FROM ranked`;
  return { dialect: o.dialect, topLabel, classwise, uncertainty, scores, auroc };
}
