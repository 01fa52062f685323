import { checkOptions } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import type { Labels, Scores } from '../input/types.js';
import { riskCoveragePoints } from './riskCore.js';
import { SELECTIVE_KEYS, selectiveInput, sweepOf } from './selectiveInput.js';
import { cumulative } from './sweep.js';
import type { NamedMeasure, SelectiveOptions } from './types.js';

/** Options of {@link rejectionCurve}. */
export interface RejectionCurveOptions extends SelectiveOptions {
  /**
   * Thresholds to evaluate, in the measure's scale, in the order wanted (e.g. H_max = 1, 0.95, …, 0). Default:
   * every distinct value of the measure, from the least to the most confident.
   */
  thresholds?: readonly number[];
}

/** One point of a rejection curve. */
export interface RejectionPoint {
  /** The threshold (H_max for uncertainties: predictions with a larger value are rejected). */
  readonly threshold: number;
  /** Predictions kept. */
  readonly count: number;
  /** count / N. */
  readonly coverage: number;
  /** Top-1 error of the kept predictions; `null` when none is kept. */
  readonly error: number | null;
}

/** A rejection curve. */
export interface RejectionCurve {
  readonly measure: NamedMeasure | 'given';
  readonly direction: 'confidence' | 'uncertainty';
  readonly n: number;
  readonly points: RejectionPoint[];
}

/**
 * Rejection curve: the top-1 error of the predictions that are kept as the uncertainty threshold H_max decreases
 * (more uncertain predictions rejected) — Laves et al.'s test of whether an uncertainty measure can be used to
 * reject predictions.
 *
 * **Formula.** For each threshold t: kept K_t = {i : u_i ≤ t} for an uncertainty (or s_i ≥ t for a confidence);
 * error(t) = (1/|K_t|)·Σ_{i∈K_t} 1[ŷ_i ≠ y_i]; coverage = |K_t|/N.
 *
 * **Conventions.**
 * - Default measure `'normalized-entropy'` (the seeds' H̃ ∈ [0, 1]); `by: 'max-prob'` ranks by confidence, whose
 *   threshold t corresponds to the papers' 1 − max p axis as 1 − t.
 * - A threshold keeps every prediction with a value at or below it (uncertainties) or at or above it
 *   (confidences); ties are never split. `error` is `null` where nothing is kept.
 * - Default thresholds: each distinct value, from the least confident (everything kept) to the most confident.
 * - The same points as {@link riskCoverageCurve}, indexed by threshold.
 *
 * **References.**
 * - Laves, Ihler, Kortmann & Ortmaier, arXiv:1909.13550, §3.3 and Fig. 3.
 * - "Uncertainty Calibration Error: A New Metric for Multi-Class Classification", ICLR 2020 submission, Fig. 2.
 *
 * @param labels N integer labels.
 * @param scores [N, C] scores of the declared kind (or predicted classes with `input: 'predicted'`).
 * @param options `thresholds`, `by` (default `'normalized-entropy'`), `decisionThreshold` and input options.
 * @returns a {@link RejectionCurve}.
 * @throws {UMError} on invalid input; `UM_OPTION` for thresholds that are not finite numbers.
 * @example
 * ```js
 * import { rejectionCurve } from 'uncertainty-metrics';
 * const probs = [[0.9, 0.1], [0.6, 0.4], [0.55, 0.45], [0.95, 0.05]];
 * const c = rejectionCurve([0, 0, 1, 0], probs, { thresholds: [1, 0.98, 0.5] });
 * c.points.map((p) => [p.count, p.error]); // => [[4, 0.25], [3, 0], [2, 0]]
 * ```
 */
export function rejectionCurve(labels: Labels, scores: Scores, options: RejectionCurveOptions = {}): RejectionCurve {
  const fn = 'rejectionCurve';
  checkOptions(fn, options, SELECTIVE_KEYS, ['thresholds']);
  const { thresholds, ...rest } = options;
  const d = selectiveInput(
    fn,
    labels,
    scores,
    { ...rest, by: rest.by ?? 'normalized-entropy' },
    { finiteTotal: 'each point reports the weight kept' },
  );
  const s = sweepOf(d);
  const head = {
    measure: d.measure,
    direction: d.sign === 1 ? ('confidence' as const) : ('uncertainty' as const),
    n: d.n,
  };
  if (thresholds === undefined) {
    const points = riskCoveragePoints(s, d.sign)
      .reverse()
      .map((p) => ({ threshold: p.threshold, count: p.count, coverage: p.coverage, error: p.risk }));
    return { ...head, points };
  }
  if (!Array.isArray(thresholds))
    fail('UM_OPTION', fn, 'options.thresholds', 'be an array of numbers', { value: thresholds });
  const { cumCount, cumPositive } = cumulative(s);
  // every index, holes included (map skipped a hole: the curve had an empty point)
  const points = Array.from(thresholds, (t: unknown, j) => {
    if (typeof t !== 'number' || !Number.isFinite(t))
      fail('UM_OPTION', fn, 'options.thresholds', 'be finite numbers', { index: [j], value: t });
    // kept: confidence ≥ sign·t, i.e. the leading blocks whose level is at least that
    const bound = d.sign * t;
    let lo = 0;
    let hi = s.blocks;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((s.level[mid] as number) >= bound) lo = mid + 1;
      else hi = mid;
    }
    const count = lo === 0 ? 0 : (cumCount[lo - 1] as number);
    const correct = lo === 0 ? 0 : (cumPositive[lo - 1] as number);
    return {
      threshold: t,
      count: count * (s.unit ?? 1),
      coverage: count / s.n,
      error: count === 0 ? null : (count - correct) / count,
    };
  });
  return { ...head, points };
}
