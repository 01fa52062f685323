import { Computation, type Outcome } from '../engine/computation.js';
import { fail } from '../errors/fail.js';
import { UMError } from '../errors/UMError.js';
import { EVALUATE } from '../evaluate/suite.js';
import { requireBothClasses } from '../selective/ranking.js';
import { emitWarning, type UMWarning, type WarningOptions } from '../warnings/warnings.js';
import { resolveSqlOptions, type MetricsSqlOptions } from './metricsSql.js';
import { fillStores, num, ROWS, scoreTotals, type MetricsRows, type SqlRow } from './sqlStores.js';

export type { MetricsRows, SqlRow } from './sqlStores.js';

/** The keys of `evaluate` the generated SQL computes (the others need every row's order or equal-mass bins). */
export const SQL_KEYS = ['n', 'accuracy', 'ece', 'mce', 'sce', 'uce', 'brier', 'nll', 'meanEntropy', 'auroc'] as const;

/** Metrics computed through SQL: the keys of {@link uncertainty-metrics!evaluate} that SQL computes, with the same meanings. */
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
  meanEntropy: number;
  /** AUROC of correct vs confidence; null (with `UM_W_DEGENERATE`) when every prediction is correct or every one wrong. */
  auroc: number | null;
  config: { dialect: string; bins: number; weighted: boolean; labelColumn: string; scorePrefix: string };
}

/** AUROC from the database's area and class weights, as its definition: `UM_SINGLE_CLASS` without both classes. */
function aurocOutcome(fn: string, row: SqlRow | undefined): Outcome {
  const pos = num(fn, row, 'pos', 0);
  const neg = num(fn, row, 'neg', 0);
  try {
    requireBothClasses(fn, pos === 0 ? 0 : 1, pos === 0 || neg === 0 ? 1 : 2, {
      argument: 'labels',
      positives: 'correct predictions',
      negatives: 'errors',
    });
  } catch (error) {
    if (error instanceof UMError) return { error };
    throw error;
  }
  const area = num(fn, row, 'area', 0);
  if (area > pos * neg * (1 + 1e-9))
    fail(
      'UM_OPTION',
      fn,
      'rows.area',
      `be at most pos × neg (${pos * neg}): the weight of ordered (correct, wrong) pairs`,
      { value: area },
    );
  return { value: area / (pos * neg) };
}

/**
 * Finishes the metrics from the rows of the {@link metricsSql} queries: the database's sums fill the stores of the
 * `evaluate` suite's own definitions, which finish them — the same bins, norms, class averages, key names, `null`s
 * and warnings as {@link uncertainty-metrics!evaluate}.
 *
 * **Formula.** ECE = Σ_b (W_b/W)·|ō_b − s̄_b| over the top-label bins; MCE = max_b |ō_b − s̄_b|; SCE = (1/C)·Σ_k ECE_k;
 * UCE over the normalized-entropy bins; Brier, NLL and mean entropy = Σ w·row / Σ w; AUROC = area / (P·N).
 *
 * **Conventions.** As {@link metricsSql}; the result holds the keys of {@link uncertainty-metrics!evaluate} that SQL computes (n, accuracy,
 * ece, mce, sce, uce, brier, nll, meanEntropy, auroc). The database sums in its own floating point, so values agree
 * with `evaluate` to about 1e-12 relative, not bit for bit (the tests allow max(1e-9 relative, 1e-12 absolute)).
 * Invalid rows counted by the scores query throw: `UM_PROB_RANGE` (probabilities NULL or outside [0, 1]),
 * `UM_ROW_SUM`, `UM_LABEL`, `UM_OPTION` (weights) — naming how many rows. Labels of probability 0 make the NLL
 * Infinity with a `UM_W_INFINITE` warning; AUROC is null with `UM_W_DEGENERATE` when every prediction is correct or
 * every one wrong, as in `evaluate`.
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
 *   scores: [{ n: 2, weighted_rows: 2, weight: 2, correct: 2, brier: 0.1, nll: 0.33, entropy: 0.8, bad_probability_rows: 0, bad_sum_rows: 0, bad_label_rows: 0, bad_weight_rows: 0, zero_label_rows: 0 }],
 *   auroc: [{ area: 0, pos: 2, neg: 0 }],
 * }, { numClasses: 2, bins: 10, onWarning: () => {} });
 * r.ece; // ≈ 0.15
 * ```
 */
export function finishSqlMetrics(rows: MetricsRows, options: MetricsSqlOptions & WarningOptions): SqlMetrics {
  const fn = 'finishSqlMetrics';
  const o = resolveSqlOptions(fn, options);
  ROWS(fn, 'rows', rows);
  const totals = scoreTotals(fn, rows, o.numClasses, o.sumTolerance);
  const weighted = o.weightColumn !== undefined;
  // the suite's members the queries compute, with the options the queries were made for
  const members = EVALUATE.members(fn, { bins: o.bins }, 'exact').filter((m) =>
    (SQL_KEYS as readonly string[]).includes(m.key),
  );
  const computation = new Computation(fn, members, 'exact');
  fillStores(fn, computation.ensure(o.numClasses), rows, totals, o.bins, weighted);
  computation.rows = totals.weightedRows;
  computation.weighted = weighted;
  const warn = (w: UMWarning) => emitWarning(options, w);
  const outcomes = computation.finish(warn);
  outcomes.set('auroc', aurocOutcome(fn, rows.auroc[0]));
  const e = EVALUATE.assemble(outcomes, { fn, computation, warn });
  return {
    n: e.n,
    numClasses: o.numClasses,
    accuracy: e.accuracy,
    ece: e.ece,
    mce: e.mce,
    sce: e.sce as number,
    uce: e.uce,
    brier: e.brier,
    nll: e.nll,
    meanEntropy: e.meanEntropy,
    auroc: e.auroc,
    config: { dialect: o.dialect, bins: o.bins, weighted, labelColumn: o.labelColumn, scorePrefix: o.scorePrefix },
  };
}
