import { dingBins } from './dingBins.js';
import { edgeBins } from './edgeBins.js';
import { equalMassBins } from './equalMass.js';
import { equalWidthBins } from './equalWidth.js';
import type { BinAssignment, BinningSpec } from './types.js';

/** {@link assignBins} naming the public function `fn` in error messages (internal). */
export function assignBinsFor(fn: string, scores: ArrayLike<number>, spec: BinningSpec): BinAssignment {
  switch (spec.scheme) {
    case 'equal-width':
      return equalWidthBins(scores, spec.bins, spec.rule, spec.precision);
    case 'equal-mass':
      return equalMassBins(scores, spec.bins, spec.method);
    case 'ding':
      return dingBins(scores, spec.ding);
    case 'edges':
      return edgeBins(fn, scores, spec.edges, spec.closed);
  }
}

/**
 * Assigns every score to exactly one bin under a resolved binning scheme. This is the one binning core behind every
 * binned metric, reliability table and diagram.
 *
 * **Formula.** equal-width `'floor'`: b = min(⌊B·p⌋, B − 1) (or B for an own bin); `'divide'`: trunc(p/(1/B));
 * `'edges'`: b = #{k ≥ 1 : e_k ≤ p} (left-closed) or #{1 ≤ k < B : e_k < p} (right-closed); equal-mass and Ding
 * bins are cut from the sorted scores (see `EqualMassMethod`, `DingOptions`).
 *
 * **Conventions.**
 * - Every sample lands in exactly one bin; `index[i]` is in [0, numBins).
 * - Equal-width `'floor'` with `one: 'last-bin'` (our default) puts p = 1 in the last bin and p = 0 in the first,
 *   evaluated in float64.
 * - `precision: 'float32'` evaluates the equal-width rule in float32 arithmetic, as TensorFlow and torchmetrics do.
 * - Data-dependent schemes describe their bins by the data: `lower`/`upper` are the smallest/largest score or the
 *   midpoint between neighbouring groups.
 * - User-given edges must cover every score; `closed` decides which bin a score on an inner edge joins.
 *
 * **References.**
 * - Naeini, Cooper & Hauskrecht, "Obtaining Well Calibrated Probabilities Using Bayesian Binning", AAAI 2015,
 *   doi:10.1609/aaai.v29i1.9602 (equal-width binning for ECE).
 * - Nixon et al., "Measuring Calibration in Deep Learning", CVPR Workshops 2019, arXiv:1904.01685 (equal-mass bins).
 * - Ding, Liu, Xiong & Shi, "Revisiting the Evaluation of Uncertainty Estimation and Its Application to Explore Model
 *   Complexity-Uncertainty Trade-Off", CVPR Workshops 2020, arXiv:1903.02050 (adaptive binning).
 *
 * @param scores the scores to bin (confidences, uncertainties, or any probabilities), length N ≥ 1.
 * @param spec a resolved binning scheme.
 * @returns `{ numBins, lower, upper, index }`.
 * @throws {UMError} `UM_OUT_OF_BINS` when a score lies outside user-given edges.
 * @example
 * ```js
 * import { assignBins } from 'uncertainty-metrics';
 * const rule = { index: 'floor', edges: 'exact', closed: 'left', one: 'last-bin' };
 * const a = assignBins([0, 0.3, 0.5, 1], { scheme: 'equal-width', bins: 2, rule, precision: 'float64' });
 * Array.from(a.index); // => [0, 0, 1, 1]
 * ```
 */
export function assignBins(scores: ArrayLike<number>, spec: BinningSpec): BinAssignment {
  return assignBinsFor('assignBins', scores, spec);
}
