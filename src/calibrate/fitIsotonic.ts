import { INPUT_KEYS, checkOptions } from '../errors/checkOptions.js';
import { labelArray } from '../input/labelArray.js';
import { probMatrix } from '../input/probMatrix.js';
import type { InputOptions, Labels, Scores } from '../input/types.js';
import { problems } from './oneVsRest.js';
import { header, type CalibratorHeader } from './params.js';
import { isotonicSteps } from './pav.js';

/** A fitted isotonic map: breakpoints (x ascending, y non-decreasing), linear between them, constant beyond. */
export interface IsotonicMap {
  readonly x: number[];
  readonly y: number[];
}

/** Fitted isotonic regression: plain JSON. */
export interface IsotonicParams extends CalibratorHeader<'isotonic'> {
  /** One map for two classes (of P(y = 1)); one per class otherwise. */
  readonly maps: IsotonicMap[];
}

/**
 * Isotonic regression: the non-decreasing map from score to event frequency that fits the calibration data best in
 * least squares (pool-adjacent-violators), one-vs-rest for more than two classes.
 *
 * **Formula.** m = argmin over non-decreasing m of Σ_i (1[y_i = k] − m(p_ik))²; new scores are mapped through m,
 * linearly interpolated between its breakpoints and constant beyond them; for C > 2 the row is divided by its sum.
 *
 * **Conventions.**
 * - Tied scores are pooled before PAV (their mean outcome), so the fit depends only on the set of (score, outcome)
 *   pairs, never on row order. Ties are scikit-learn's (`_make_unique`): in sorted order, a score less than 1e-15
 *   (`np.finfo(float64).resolution`, absolute) above the first score of the current group joins it, and the group
 *   stands at that first (smallest) score — so k/100 computed in different ways (differing by ulps) is one score, as
 *   in scikit-learn; a Float32Array is widened exactly and pooled by the same rule (scikit-learn given float32 arrays
 *   uses 1e-6).
 * - Adjacent blocks of equal mean are pooled (as scikit-learn), compared exactly on the counts.
 * - Breakpoints are each constant block's smallest and largest score (scikit-learn's `X_thresholds_`); interpolation
 *   between blocks and clipping outside the fitted range as scikit-learn's `out_of_bounds='clip'`.
 * - Two classes: one map of P(y = 1), result [1 − m, m]; C > 2: a row of zeros becomes uniform.
 *
 * **References.**
 * - Zadrozny & Elkan, "Transforming classifier scores into accurate multiclass probability estimates", KDD 2002.
 * - Barlow, Bartholomew, Bremner & Brunk, "Statistical Inference under Order Restrictions", Wiley 1972 (PAV).
 *
 * @param labels N integer labels of a calibration split.
 * @param scores [N, C] scores of the declared kind (a vector with `binary: true`).
 * @param options input options.
 * @returns {@link IsotonicParams}.
 * @throws {UMError} on invalid input.
 * @example
 * ```js
 * import { fitIsotonic } from 'uncertainty-metrics';
 * const m = fitIsotonic([0, 1, 0, 1], [0.1, 0.3, 0.5, 0.9], { binary: true }).maps[0];
 * [m.x, m.y]; // => [[0.1, 0.3, 0.5, 0.9], [0, 0.5, 0.5, 1]]
 * ```
 */
export function fitIsotonic(labels: Labels, scores: Scores, options: InputOptions = {}): IsotonicParams {
  const fn = 'fitIsotonic';
  checkOptions(fn, options, INPUT_KEYS);
  const p = probMatrix(fn, scores, options);
  const y = labelArray(fn, labels, p.n, p.numClasses);
  const maps = problems(p, y).map(({ scores: s, outcomes }) => isotonicSteps(s, outcomes));
  return { ...header('isotonic', { n: p.n, numClasses: p.numClasses, input: p.input, binary: p.binary }), maps };
}
