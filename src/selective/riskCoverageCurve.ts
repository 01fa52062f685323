import type { Labels, Scores } from '../input/types.js';
import { aurcInput, type AurcOptions } from './aurc.js';
import { aurcOf, excessAurcOf, riskCoveragePoints, type AurcEstimator } from './riskCore.js';
import type { NamedMeasure, RiskCoveragePoint } from './types.js';

/** A risk–coverage curve with the areas computed from the same points. */
export interface RiskCoverageCurve {
  /** The ranking measure (`'given'` for the caller's values). */
  readonly measure: NamedMeasure | 'given';
  /** Whether the measure is a confidence (kept: ≥ threshold) or an uncertainty (kept: ≤ threshold). */
  readonly direction: 'confidence' | 'uncertainty';
  /** Number of predictions N. */
  readonly n: number;
  /** One point per distinct value of the measure, from the most confident (lowest coverage) to coverage 1. */
  readonly points: RiskCoveragePoint[];
  /** {@link aurc} of these predictions with `estimator`. */
  readonly aurc: number;
  /** {@link eAurc} of these predictions with `estimator`. */
  readonly eAurc: number;
  /** The integration rule of `aurc` and `eAurc`. */
  readonly estimator: AurcEstimator;
}

/**
 * Risk–coverage curve: for every confidence threshold, the share of predictions kept and their top-1 error — the
 * curve a selective classifier moves along as it abstains on its least confident predictions.
 *
 * **Formula.** For each distinct value t of the measure: kept K_t = {i : s_i ⪰ t} (≥ for confidences, ≤ for
 * uncertainties); coverage = |K_t|/N; risk = (1/|K_t|)·Σ_{i∈K_t} 1[ŷ_i ≠ y_i].
 *
 * **Conventions.**
 * - Ties are one point (a threshold cannot split them), so the curve does not depend on row order; points run from
 *   the most confident block to coverage 1 (the overall error rate).
 * - `aurc` and `eAurc` are computed from the same blocks (see {@link aurc} for the estimators).
 * - Correctness by top label (argmax, ties → lowest index); ranking by `by` (default `'max-prob'`).
 *
 * **References.**
 * - El-Yaniv & Wiener, "On the Foundations of Noise-free Selective Classification", JMLR 11 (2010).
 * - Geifman & El-Yaniv, NeurIPS 2017, arXiv:1705.08500.
 * - Ding, Liu, Xiong & Shi, 2020, arXiv:1903.02050, §4.1, eqs. 4–5.
 *
 * @param labels N integer labels.
 * @param scores [N, C] scores of the declared kind (or predicted classes with `input: 'predicted'`).
 * @param options `estimator`, `by`, `decisionThreshold` and input options.
 * @returns a {@link RiskCoverageCurve}.
 * @throws {UMError} on invalid input or options.
 * @example
 * ```js
 * import { riskCoverageCurve } from 'uncertainty-metrics';
 * const c = riskCoverageCurve([0, 0, 0, 1, 1], [[0.9, 0.1], [0.8, 0.2], [0.8, 0.2], [0.7, 0.3], [0.6, 0.4]]);
 * c.points.map((p) => [p.threshold, p.coverage, p.risk]); // => [[0.9, 0.2, 0], [0.8, 0.6, 0], [0.7, 0.8, 0.25], [0.6, 1, 0.4]]
 * ```
 */
export function riskCoverageCurve(labels: Labels, scores: Scores, options: AurcOptions = {}): RiskCoverageCurve {
  const fn = 'riskCoverageCurve';
  const { d, s, estimator: e } = aurcInput(fn, labels, scores, options, 'each point reports the weight kept');
  return {
    measure: d.measure,
    direction: d.sign === 1 ? 'confidence' : 'uncertainty',
    n: d.n,
    points: riskCoveragePoints(s, d.sign),
    aurc: aurcOf(fn, s, e),
    eAurc: excessAurcOf(fn, s, e),
    estimator: e,
  };
}
