import { checkOptions } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import type { Labels, Scores } from '../input/types.js';
import type { AuprOptions } from './aupr.js';
import { averagePrecision, requireBothClasses } from './ranking.js';
import { SELECTIVE_KEYS, selectiveInput, sweepOf } from './selectiveInput.js';
import type { NamedMeasure } from './types.js';

/** One point of a precision–recall curve. */
export interface PrecisionRecallPoint {
  /** Threshold in the measure's scale: positives are those at least as extreme. */
  readonly threshold: number;
  readonly recall: number;
  readonly precision: number;
}

/** A precision–recall curve with its average precision. */
export interface PrecisionRecallCurve {
  readonly measure: NamedMeasure | 'given';
  readonly direction: 'confidence' | 'uncertainty';
  /** Which predictions are the positives. */
  readonly positive: 'error' | 'correct';
  readonly n: number;
  /** One point per distinct value, by increasing recall. */
  readonly points: PrecisionRecallPoint[];
  /** {@link aupr} of the same predictions: Σ (R_t − R_{t−1})·P_t over `points`. */
  readonly aupr: number;
}

/**
 * Precision–recall curve of detecting wrong predictions by their uncertainty (or correct ones by their confidence)
 * — the curve whose step-wise area is {@link aupr}.
 *
 * **Formula.** For each distinct value t, from the most to the least likely positive: recall = TP(t)/P,
 * precision = TP(t)/(TP(t) + FP(t)) of "positive if at least as extreme as t".
 *
 * **Conventions.**
 * - `positive: 'error'` (default) ranks by uncertainty, `'correct'` by confidence; ties are one point.
 * - `aupr` is the step-wise sum over exactly these points (scikit-learn's average precision; no interpolation).
 * - One class only: `UM_SINGLE_CLASS`.
 *
 * **References.**
 * - Davis & Goadrich, ICML 2006, doi:10.1145/1143844.1143874.
 *
 * @param labels N integer labels.
 * @param scores [N, C] scores of the declared kind (or predicted classes with `input: 'predicted'`).
 * @param options `positive`, `by`, `decisionThreshold` and input options.
 * @returns a {@link PrecisionRecallCurve}.
 * @throws {UMError} on invalid input; `UM_SINGLE_CLASS` when every prediction is correct or every one wrong.
 * @example
 * ```js
 * import { precisionRecallCurve } from 'uncertainty-metrics';
 * const c = precisionRecallCurve([0, 0, 1, 0], [[0.9, 0.1], [0.2, 0.8], [0.3, 0.7], [0.4, 0.6]]);
 * c.points.map((p) => [p.recall, p.precision]); // ≈ [[0.5, 1], [0.5, 0.5], [1, 0.6666666667], [1, 0.5]]
 * ```
 */
export function precisionRecallCurve(
  labels: Labels,
  scores: Scores,
  options: Omit<AuprOptions, 'thresholds' | 'preset'> = {},
): PrecisionRecallCurve {
  const fn = 'precisionRecallCurve';
  checkOptions(fn, options, SELECTIVE_KEYS, ['positive']);
  const { positive = 'error', ...rest } = options;
  if (positive !== 'error' && positive !== 'correct')
    fail('UM_OPTION', fn, 'options.positive', "be 'error' or 'correct'", { value: positive });
  const d = selectiveInput(fn, labels, scores, rest);
  const s = sweepOf(d);
  const fromTop = positive === 'correct';
  const names = {
    argument: 'labels',
    positives: fromTop ? 'correct predictions' : 'wrong predictions',
    negatives: fromTop ? 'wrong predictions' : 'correct predictions',
  };
  const total = fromTop ? s.totalPositive : s.n - s.totalPositive;
  requireBothClasses(fn, total, s.n, names);
  const points: PrecisionRecallPoint[] = [];
  let kept = 0;
  let hits = 0;
  for (let j = 0; j < s.blocks; j++) {
    const b = fromTop ? j : s.blocks - 1 - j;
    const c = s.count[b] as number;
    kept += c;
    hits += fromTop ? (s.positive[b] as number) : c - (s.positive[b] as number);
    points.push({ threshold: d.sign * (s.level[b] as number) + 0, recall: hits / total, precision: hits / kept });
  }
  return {
    measure: d.measure,
    direction: d.sign === 1 ? 'confidence' : 'uncertainty',
    positive,
    n: d.n,
    points,
    aupr: averagePrecision(fn, s, fromTop, names),
  };
}
