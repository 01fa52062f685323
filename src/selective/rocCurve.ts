import { checkOptions } from '../errors/checkOptions.js';
import type { Labels, Scores } from '../input/types.js';
import { requireBothClasses, rocArea } from './ranking.js';
import { SELECTIVE_KEYS, selectiveInput, sweepOf } from './selectiveInput.js';
import type { NamedMeasure, SelectiveOptions } from './types.js';

/** One point of a ROC curve of correctness: predictions at least as confident as `threshold` are called correct. */
export interface RocPoint {
  /** Threshold in the measure's scale (`Infinity`/`-Infinity` for the (0, 0) start). */
  readonly threshold: number;
  /** Wrong predictions called correct / all wrong predictions. */
  readonly fpr: number;
  /** Correct predictions called correct / all correct predictions. */
  readonly tpr: number;
}

/** A ROC curve with its area. */
export interface RocCurve {
  readonly measure: NamedMeasure | 'given';
  readonly direction: 'confidence' | 'uncertainty';
  readonly n: number;
  /** From (0, 0) to (1, 1), one point per distinct value of the measure. */
  readonly points: RocPoint[];
  /** {@link auroc} of the same predictions (the trapezoid under `points`). */
  readonly auroc: number;
}

/**
 * ROC curve of correctness against confidence: true- and false-positive rates of "correct if at least as confident
 * as t" for every threshold t — the curve whose area is {@link auroc}.
 *
 * **Formula.** For each distinct value t of the measure: TPR(t) = |{i correct : s_i ⪰ t}|/N₊,
 * FPR(t) = |{i wrong : s_i ⪰ t}|/N₋; the curve starts at (0, 0).
 *
 * **Conventions.**
 * - One point per distinct value (ties never split); `auroc` is the trapezoidal area under exactly these points.
 * - Correctness by top label; ranking by `by` (default `'max-prob'`) as in {@link auroc}.
 * - One class only: `UM_SINGLE_CLASS`.
 *
 * **References.**
 * - Fawcett, Pattern Recognition Letters 27 (2006), doi:10.1016/j.patrec.2005.10.010.
 *
 * @param labels N integer labels.
 * @param scores [N, C] scores of the declared kind (or predicted classes with `input: 'predicted'`).
 * @param options `by`, `decisionThreshold` and input options.
 * @returns a {@link RocCurve}.
 * @throws {UMError} on invalid input; `UM_SINGLE_CLASS` when every prediction is correct or every one wrong.
 * @example
 * ```js
 * import { rocCurve } from 'uncertainty-metrics';
 * const c = rocCurve([0, 0, 1, 0], [[0.9, 0.1], [0.2, 0.8], [0.3, 0.7], [0.4, 0.6]]);
 * [c.points.map((p) => [p.fpr, p.tpr]), c.auroc]; // => [[[0, 0], [0, 0.5], [0.5, 0.5], [0.5, 1], [1, 1]], 0.75]
 * ```
 */
export function rocCurve(labels: Labels, scores: Scores, options: SelectiveOptions = {}): RocCurve {
  const fn = 'rocCurve';
  checkOptions(fn, options, SELECTIVE_KEYS);
  const d = selectiveInput(fn, labels, scores, options);
  const s = sweepOf(d);
  const names = { argument: 'labels', positives: 'correct predictions', negatives: 'wrong predictions' };
  requireBothClasses(fn, s.totalPositive, s.n, names);
  const p = s.totalPositive;
  const q = s.n - p;
  const points: RocPoint[] = [{ threshold: d.sign * Infinity, fpr: 0, tpr: 0 }];
  let tp = 0;
  let fp = 0;
  for (let b = 0; b < s.blocks; b++) {
    tp += s.positive[b] as number;
    fp += (s.count[b] as number) - (s.positive[b] as number);
    points.push({ threshold: d.sign * (s.level[b] as number) + 0, fpr: fp / q, tpr: tp / p });
  }
  return {
    measure: d.measure,
    direction: d.sign === 1 ? 'confidence' : 'uncertainty',
    n: d.n,
    points,
    auroc: rocArea(fn, s, names),
  };
}
