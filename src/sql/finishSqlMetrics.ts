import { binsFromSums } from '../binning/binStatistics.js';
import { binnedErrorRaw, finishNorm } from '../binning/binnedError.js';
import { equalWidthEdges } from '../binning/equalWidth.js';
import { arrayOf, record } from '../errors/checkShape.js';
import { fail } from '../errors/fail.js';
import { emitWarning, type WarningOptions } from '../warnings/warnings.js';
import { resolveSqlOptions, type MetricsSqlOptions } from './metricsSql.js';

/** Rows as a database driver returns them. */
export type SqlRow = Record<string, unknown>;

/** The rows of each generated query. */
export interface MetricsRows {
  topLabel: SqlRow[];
  classwise: SqlRow[];
  uncertainty: SqlRow[];
  scores: SqlRow[];
  auroc: SqlRow[];
}

/** Metrics computed through SQL. */
export interface SqlMetrics {
  /** Total weight (number of rows without weights). */
  n: number;
  numClasses: number;
  accuracy: number;
  ece: number;
  mce: number;
  sce: number;
  uce: number;
  brier: number;
  nll: number;
  /** Mean entropy of the predictions (nats). */
  entropy: number;
  /** AUROC of correct vs confidence; null (with `UM_W_DEGENERATE`) when every prediction is correct or every one wrong. */
  auroc: number | null;
  config: { dialect: string; bins: number; weighted: boolean; labelColumn: string; scorePrefix: string };
}

/**
 * A finite number of a row (drivers return BIGINT as bigint and NUMERIC as a decimal string). Every sum the queries
 * return is finite: an Infinity or NaN (a hand-made or damaged row) would become the metric.
 */
/** −ln of the smallest positive double: the largest finite per-row NLL. */
const NLL_MAX = -Math.log(Number.MIN_VALUE) * (1 + 1e-12);

function num(fn: string, row: SqlRow | undefined, key: string, min = -Infinity): number {
  const v = row?.[key];
  const x = typeof v === 'bigint' ? Number(v) : typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof x !== 'number' || !Number.isFinite(x)) fail('UM_OPTION', fn, `rows.${key}`, 'be a finite number (the database returned something else)', { value: v });
  if (x < min) fail('UM_OPTION', fn, `rows.${key}`, `be a number ≥ ${min}`, { value: v });
  return x;
}

/** A row index (bin, class) in [0, size). */
function index(fn: string, row: SqlRow, key: string, size: number): number {
  const x = num(fn, row, key);
  if (!Number.isInteger(x) || x < 0 || x >= size) fail('UM_OPTION', fn, `rows.${key}`, `be an integer in [0, ${size})`, { value: row[key] });
  return x;
}

/** The five row lists, each an array of row objects. */
const ROWS = record(Object.fromEntries(['topLabel', 'classwise', 'uncertainty', 'scores', 'auroc'].map((k) => [k, arrayOf(record({}))])));

/** Fixed equal-width bins from (bin, n, weight, score, outcome) rows. */
function binsOf(fn: string, rows: SqlRow[], bins: number) {
  const edges = equalWidthEdges(bins, { index: 'floor', edges: 'exact', closed: 'left', one: 'last-bin' }, 'float64');
  const count = new Float64Array(bins);
  const weight = new Float64Array(bins);
  const score = new Float64Array(bins);
  const outcome = new Float64Array(bins);
  let total = 0;
  for (const r of rows) {
    const b = index(fn, r, 'bin', bins);
    count[b] = num(fn, r, 'n', 0);
    weight[b] = num(fn, r, 'weight', 0);
    score[b] = num(fn, r, 'score', 0);
    outcome[b] = num(fn, r, 'outcome', 0);
    // sums of w·x over x in [0, 1]: at most the bin's weight (a damaged row would give means outside [0, 1])
    for (const key of ['score', 'outcome'] as const) {
      const sum = key === 'score' ? (score[b] as number) : (outcome[b] as number);
      if (sum > (weight[b] as number) * (1 + 1e-9)) fail('UM_OPTION', fn, `rows.${key}`, `be at most the bin's weight (${weight[b]}): a sum of weight × a value in [0, 1]`, { value: r[key] });
    }
    total += weight[b] as number;
  }
  return binsFromSums(edges.subarray(0, bins), edges.subarray(1), count, weight, score, outcome, total);
}

/**
 * Finishes the metrics from the rows of the {@link metricsSql} queries: the same bins, norms and class averaging as
 * the in-memory functions, from the database's sums.
 *
 * **Formula.** ECE = Σ_b (W_b/W)·|ō_b − s̄_b| over the top-label bins; MCE = max_b |ō_b − s̄_b|; SCE = (1/C)·Σ_k ECE_k;
 * UCE over the normalized-entropy bins; Brier, NLL and entropy = Σ w·row / Σ w; AUROC = area / (P·N).
 *
 * **Conventions.** As {@link metricsSql}. Invalid rows counted by the scores query throw: `UM_PROB_RANGE`
 * (probabilities NULL or outside [0, 1]), `UM_ROW_SUM`, `UM_LABEL`, `UM_OPTION` (weights) — naming how many rows.
 * Labels of probability 0 make the NLL Infinity with a `UM_W_INFINITE` warning.
 *
 * **References.** As {@link metricsSql}.
 *
 * @param rows the rows of each query.
 * @param options the options given to {@link metricsSql}, and `onWarning`.
 * @returns {@link SqlMetrics}.
 * @throws {UMError} on invalid rows or an empty table (`UM_EMPTY`).
 * @example
 * ```js
 * import { finishSqlMetrics } from 'uncertainty-metrics/sql';
 * const bin = (b, n, score, outcome) => ({ bin: b, n, weight: n, score, outcome });
 * const r = finishSqlMetrics({
 *   topLabel: [bin(9, 1, 0.9, 1), bin(8, 1, 0.8, 1)],
 *   classwise: [], uncertainty: [bin(4, 2, 1, 0)],
 *   scores: [{ n: 2, weight: 2, correct: 2, brier: 0.1, nll: 0.33, entropy: 0.8, bad_probability_rows: 0, bad_sum_rows: 0, bad_label_rows: 0, bad_weight_rows: 0, zero_label_rows: 0 }],
 *   auroc: [{ area: 0, pos: 2, neg: 0 }],
 * }, { numClasses: 2, bins: 10, onWarning: () => {} });
 * r.ece; // ≈ 0.15
 * ```
 */
export function finishSqlMetrics(rows: MetricsRows, options: MetricsSqlOptions & WarningOptions): SqlMetrics {
  const fn = 'finishSqlMetrics';
  const o = resolveSqlOptions(fn, options);
  ROWS(fn, 'rows', rows);
  const s = rows.scores[0];
  const n = num(fn, s, 'n', 0);
  const bad: [string, 'UM_PROB_RANGE' | 'UM_ROW_SUM' | 'UM_LABEL' | 'UM_OPTION', string][] = [
    ['bad_probability_rows', 'UM_PROB_RANGE', 'have probabilities that are numbers in [0, 1]'],
    ['bad_sum_rows', 'UM_ROW_SUM', `have probabilities that sum to 1 within ${o.sumTolerance}`],
    ['bad_label_rows', 'UM_LABEL', `have labels that are integers in [0, ${o.numClasses})`],
    ['bad_weight_rows', 'UM_OPTION', 'have weights that are numbers ≥ 0'],
  ];
  for (const [key, code, requirement] of bad) {
    const count = num(fn, s, key, 0);
    // reads "rows must have labels that are integers in [0, 3); got 2 (2 of 10 rows do not)"
    if (count > 0) fail(code, fn, 'rows', requirement, { value: count, hint: `${count} of ${n} rows do not` });
  }
  const weight = num(fn, s, 'weight', 0);
  if (n === 0 || !(weight > 0)) fail('UM_EMPTY', fn, 'rows', 'come from a table with at least one row of weight > 0', { value: n });
  // sums of weight × a bounded per-row value are at most weight × its bound: a damaged row (or a tiny total weight
  // with larger sums) would otherwise divide into a mean outside the metric's range, even Infinity
  const bounded: [string, number, string][] = [
    ['correct', 1, 'a sum of weight × 0/1'],
    ['brier', 2, 'a sum of weight × a Brier score in [0, 2]'],
    ['entropy', Math.log(o.numClasses), `a sum of weight × an entropy in [0, ln ${o.numClasses}]`],
    ['nll', NLL_MAX, 'a sum of weight × a finite NLL, at most −ln(5e-324) ≈ 744.4'],
  ];
  const zero = num(fn, s, 'zero_label_rows', 0);
  for (const [key, bound, what] of bounded) {
    // with a label of probability 0 the database's NLL sum is infinite (or NULL): the NLL is Infinity, warned below
    if (key === 'nll' && zero > 0) continue;
    const v = num(fn, s, key, 0);
    if (v > weight * bound * (1 + 1e-9)) fail('UM_OPTION', fn, `rows.${key}`, `be at most the total weight × ${Number(bound.toPrecision(6))} (${what})`, { value: v });
  }
  const top = binsOf(fn, rows.topLabel, o.bins);
  const perClass: SqlRow[][] = Array.from({ length: o.numClasses }, () => []);
  for (const r of rows.classwise) perClass[index(fn, r, 'k', o.numClasses)]?.push(r);
  const sce = perClass.reduce((acc, r) => acc + (r.length === 0 ? 0 : binnedErrorRaw(binsOf(fn, r, o.bins), 'l1')), 0) / o.numClasses;
  if (zero > 0) emitWarning(options, { code: 'UM_W_INFINITE', fn, message: `${fn}: ${zero} of ${n} rows give probability exactly 0 to their label; the NLL is Infinity`, details: { rows: zero } });
  const a = rows.auroc[0];
  const pos = num(fn, a, 'pos', 0);
  const neg = num(fn, a, 'neg', 0);
  let auroc: number | null = null;
  if (pos > 0 && neg > 0) {
    const area = num(fn, a, 'area', 0);
    if (area > pos * neg * (1 + 1e-9)) fail('UM_OPTION', fn, 'rows.area', `be at most pos × neg (${pos * neg}): the weight of ordered (correct, wrong) pairs`, { value: area });
    auroc = area / (pos * neg);
  }
  else emitWarning(options, { code: 'UM_W_DEGENERATE', fn, message: `${fn}: every prediction is ${pos === 0 ? 'wrong' : 'correct'}; AUROC is undefined (null)` });
  return {
    n: weight,
    numClasses: o.numClasses,
    accuracy: num(fn, s, 'correct', 0) / weight,
    ece: binnedErrorRaw(top, 'l1'),
    mce: binnedErrorRaw(top, 'max'),
    sce: finishNorm(sce, 'l1'),
    uce: binnedErrorRaw(binsOf(fn, rows.uncertainty, o.bins), 'l1'),
    brier: num(fn, s, 'brier', 0) / weight,
    nll: zero > 0 ? Infinity : num(fn, s, 'nll', 0) / weight,
    entropy: num(fn, s, 'entropy', 0) / weight,
    auroc,
    config: { dialect: o.dialect, bins: o.bins, weighted: o.weightColumn !== undefined, labelColumn: o.labelColumn, scorePrefix: o.scorePrefix },
  };
}
