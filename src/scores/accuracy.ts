import type { MeanStore } from '../accumulate/meanStore.js';
import type { MetricDefinition, StoreRequest } from '../engine/definition.js';
import { runMetric } from '../engine/run.js';
import { fail } from '../errors/fail.js';
import type { InputOptions, Labels, Scores } from '../input/types.js';
import type { WeightOptions } from '../input/weights.js';
import { rowStatsOf } from '../kernels/rowStats.js';

/** A weighted mean of one value per row as a metric's value; `UM_EMPTY` without rows (internal). */
export function meanOf(fn: string, store: MeanStore): number {
  if (store.rows === 0) fail('UM_EMPTY', fn, 'probs', 'hold at least one row');
  return store.mean();
}

/** Whether each row's top class is its label, as a mean store request (shared by accuracy and `evaluate`'s `n`). */
export const CORRECT: StoreRequest = {
  kind: 'mean',
  key: 'correct',
  values: ({ p, y }) => {
    // the top labels read in place (topLabel's copies and a mapping callback cost more than the comparison)
    const predicted = rowStatsOf(p, 0).arg;
    const out = new Float64Array(p.n);
    for (let i = 0; i < p.n; i++) out[i] = predicted[i] === y[i] ? 1 : 0;
    return out;
  },
};

/** The definition of top-label accuracy (internal; the function, state and `evaluate` entry derive from it). */
export const ACCURACY: MetricDefinition<Record<string, never>, number> = {
  name: 'accuracy',
  keys: [],
  resolve: () => ({}),
  requests: () => [CORRECT],
  finish: (_cfg, [store], ctx) => meanOf(ctx.fn, store as MeanStore),
};

/** The total weight of the rows (their number without weights): `evaluate`'s `n`, from accuracy's store (internal). */
export const TOTAL_WEIGHT: MetricDefinition<Record<string, never>, number> = {
  name: 'n',
  keys: [],
  resolve: () => ({}),
  requests: () => [CORRECT],
  finish: (_cfg, [store]) => (store as MeanStore).weight.value(),
};

/**
 * Top-label accuracy: the share of rows whose most probable class is the label.
 *
 * **Formula.** acc = Σ_i w_i·1[argmax_k p_ik = y_i] / Σ_i w_i (w_i = 1 without weights).
 *
 * **Conventions.**
 * - Argmax ties go to the lowest class index (as numpy, torch and every peer).
 * - The sums are exactly rounded, so the value does not depend on the order of the rows.
 *
 * **References.** None (the standard definition).
 *
 * @param labels N integer labels in [0, C).
 * @param scores [N, C] scores of the declared kind.
 * @param options `weights` and input options.
 * @returns the accuracy in [0, 1].
 * @throws {UMError} on invalid input or options.
 * @example
 * ```js
 * import { accuracy } from 'uncertainty-metrics';
 * accuracy([0, 1, 1], [[0.9, 0.1], [0.2, 0.8], [0.6, 0.4]]); // => 0.6666666666666666
 * ```
 */
export function accuracy(labels: Labels, scores: Scores, options: InputOptions & WeightOptions = {}): number {
  return runMetric(ACCURACY, 'accuracy', labels, scores, options);
}
