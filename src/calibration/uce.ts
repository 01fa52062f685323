import type { Store } from '../accumulate/store.js';
import type { MetricDefinition } from '../engine/definition.js';
import { runMetric } from '../engine/run.js';
import { BINNING_KEYS } from '../errors/checkOptions.js';
import type { Labels, Scores } from '../input/types.js';
import type { SelectionSpec } from '../select/selectPairs.js';
import { binnedRequest, combineGroups, groupedGridBound, rawErrors } from './binnedStores.js';
import { resolveUce, type ResolvedUce, type UceOptions } from './options.js';

/** The (normalized entropy, top-1 error) pairs of a UCE: one group, or one per predicted class. */
export function uceSelection(cfg: ResolvedUce): SelectionSpec {
  return {
    target: 'uncertainty',
    groupBy: cfg.classwise ? 'class' : 'none',
    threshold: null,
    precision: cfg.precision,
  };
}

/** The definition of the UCE (internal; the function, state and `evaluate` entry derive from it). */
export const UCE: MetricDefinition<ResolvedUce, number> = {
  name: 'uce',
  keys: [...BINNING_KEYS, 'norm', 'groupBy', 'classwise', 'classAverage'],
  resolve: (fn, options) => resolveUce(fn, options),
  statsMode: () => 2,
  requests: (fn, cfg, mode, cellBits) => [
    binnedRequest(fn, 'uce', uceSelection(cfg), cfg.spec, cfg.norm, mode, cellBits),
  ],
  finish: (cfg, [store], ctx) =>
    combineGroups(ctx.fn, rawErrors(ctx.fn, store as Store, cfg.spec, cfg.norm), cfg.norm, average(cfg), 'no rows'),
  bound: (cfg, [store], ctx) => groupedGridBound(ctx.fn, store as Store, cfg.spec, average(cfg)),
};

function average(cfg: ResolvedUce): 'all' | 'non-empty' {
  return cfg.classAverage === 'predicted-classes' ? 'non-empty' : 'all';
}

/**
 * Expected uncertainty calibration error: the share-weighted mean gap between top-1 error and normalized entropy
 * over bins of the normalized entropy.
 *
 * **Formula.** UCE = Σ_m (|B_m|/N)·|err(B_m) − uncert(B_m)|, err = mean of 1[ŷ_i ≠ y_i], uncert = mean of
 * H̃(p_i) = −(1/ln C)·Σ_k p_ik ln p_ik, bins of H̃. Class-wise, with UCE(k) the UCE of the rows with ŷ = k:
 * `classAverage: 'all-classes'` (default) UCE_cw = (1/C)·Σ_{k=1..C} UCE(k); `'predicted-classes'`
 * UCE_cw = (1/|K|)·Σ_{k∈K} UCE(k), K = {k : some row has ŷ = k}.
 *
 * **Conventions.**
 * - Same binning as the ECE (the "same binning scheme" of the paper): b = min(⌊B·u⌋, B − 1) in float64, so u = 0
 *   (a one-hot prediction) is in the first bin and u = 1 (uniform) in the last; B = 15. Laves et al.'s code uses
 *   (a, b] bins, in which u = 0 falls in no bin; we count it.
 * - 0 · ln 0 = 0; natural logs cancel in H̃. Argmax ties → lowest class index.
 * - Class-wise: slices by predicted class. The default averages over all C classes, as the paper's
 *   (1/C)·Σ_c UCE(c) (the UCE paper, §7.3, the form it recommends for training); the paper leaves UCE(c) undefined for a
 *   class no row predicts — here it has no rows, hence no bins and no gap, and counts 0, which lowers the mean by the
 *   factor |K|/C. `classAverage: 'predicted-classes'` averages over the predicted classes K only. A class that is
 *   predicted but never the label is an ordinary slice (all its rows are errors). With `norm: 'max'` both forms give
 *   the largest gap of any predicted class. No peer library implements a class-wise UCE.
 * - `norm: 'max'` gives the maximum gap; `'l2'` the root-mean-square gap.
 *
 * **References.**
 * - Laves, Ihler, Kortmann & Ortmaier, "Well-calibrated Model Uncertainty with Temperature Scaling for Dropout
 *   Variational Inference", arXiv:1909.13550 (UCE, eq. 7–9).
 * - "Uncertainty Calibration Error: A New Metric for Multi-Class Classification", ICLR 2020 submission (Laves et al.),
 *   eq. 15–17 and §7.3 (class-wise UCE).
 *
 * @param labels N integer labels in [0, C).
 * @param scores [N, C] scores of the declared kind.
 * @param options `classwise`, `classAverage`, `norm`, binning options (`bins`, `binning`, `preset`, …) and input options.
 * @returns the UCE, in [0, 1].
 * @throws {UMError} on invalid input or options.
 * @example
 * ```js
 * import { uce, ece } from 'uncertainty-metrics';
 * // the constant marginal model: perfectly calibrated confidence, but H̃(0.6, 0.4) = 0.971 ≠ 40 % error
 * const labels = [0, 0, 0, 1, 1];
 * const probs = labels.map(() => [0.6, 0.4]);
 * ece(labels, probs) < 1e-12; // => true
 * uce(labels, probs); // ≈ 0.5709505945
 * // three classes, class 2 never predicted: the default mean over all 3 classes is 2/3 of the mean over the 2 predicted
 * const y3 = [0, 1, 1, 2];
 * const p3 = [[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.6, 0.3, 0.1], [0.1, 0.6, 0.3]];
 * uce(y3, p3, { classwise: true }) / uce(y3, p3, { classwise: true, classAverage: 'predicted-classes' }); // ≈ 0.6666666667
 * ```
 */
export function uce(labels: Labels, scores: Scores, options: UceOptions = {}): number {
  return runMetric(UCE, 'uce', labels, scores, options);
}
