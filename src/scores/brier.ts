import { stableMean } from '../math/pow2.js';
import type { MeanStore } from '../accumulate/meanStore.js';
import type { MetricDefinition } from '../engine/definition.js';
import { runMetric } from '../engine/run.js';
import type { Labels, Scores } from '../input/types.js';
import type { WeightOptions } from '../input/weights.js';
import type { BrierForm } from '../presets/presets.js';
import { meanOf } from './accuracy.js';
import { brierRows, resolveBrierForm, type BrierOptions } from './brierPerExample.js';

/** Mean of a Float64Array, weighted when `w` is given (internal). */
export function mean(values: Float64Array, w?: Float64Array): number {
  // values beyond 2^100 (a CRPS of 1e308) are summed scaled by a power of two: no overflow, same bits otherwise
  return stableMean(values, w);
}

/**
 * Brier score: the mean squared distance between predicted distributions and one-hot labels.
 *
 * **Formula.** BS = (1/N)·Σ_i Σ_k (p_ik − 1[y_i = k])², range [0, 2] (form `'standard'`); `'half'`: BS/2 (scikit-learn's
 * binary score, verified_calibration's marginal mean); `'minus-one'`: BS − 1 (uncertainty_metrics); `'half-if-binary'`:
 * BS/2 when C = 2 (scikit-learn ≥ 1.7 default).
 *
 * **Conventions.**
 * - Multiclass: every class counts. A strictly proper scoring rule; lower is better.
 * - Accumulated in float64. Presets: `'uncertainty-metrics'` → minus-one, `'sklearn'` → half-if-binary,
 *   `'verified-calibration'` → half.
 *
 * **References.**
 * - Brier, Monthly Weather Review 1950, doi:10.1175/1520-0493(1950)078<0001:VOFEIT>2.0.CO;2.
 * - Gneiting & Raftery, JASA 2007, doi:10.1198/016214506000001437.
 *
 * @param labels N integer labels in [0, C).
 * @param scores [N, C] scores of the declared kind.
 * @param options `form`, `preset` and input options.
 * @returns the mean Brier score.
 * @throws {UMError} on invalid input or options.
 * @example
 * ```js
 * import { brier } from 'uncertainty-metrics';
 * brier([0, 1], [[0.9, 0.1], [0.6, 0.4]]); // => 0.37
 * brier([0, 1], [[0.9, 0.1], [0.6, 0.4]], { preset: 'uncertainty-metrics' }); // => -0.63
 * ```
 */
export function brier(labels: Labels, scores: Scores, options: BrierOptions & WeightOptions = {}): number {
  return runMetric(BRIER, 'brier', labels, scores, options);
}

/** The definition of the Brier score (internal; the function, state and `evaluate` entry derive from it). */
export const BRIER: MetricDefinition<{ form: BrierForm }, number> = {
  name: 'brier',
  keys: ['form', 'preset'],
  resolve: (fn, options) => ({ form: resolveBrierForm(fn, options as BrierOptions) }),
  statsMode: () => 1,
  requests: (_fn, cfg) => [{ kind: 'mean', key: `brier:${cfg.form}`, values: ({ p, y }) => brierRows(p, y, cfg.form) }],
  finish: (_cfg, [store], ctx) => meanOf(ctx.fn, store as MeanStore),
};
