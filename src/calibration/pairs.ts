import { fail } from '../errors/fail.js';
import { labelArray } from '../input/labelArray.js';
import { probMatrix } from '../input/probMatrix.js';
import type { InputOptions, Labels, Scores } from '../input/types.js';
import { topLabel } from '../measures/topLabel.js';

/** Which (score, outcome) pairs an estimator measures. */
export interface TargetOptions extends InputOptions {
  /**
   * `'top-label'` (default): (max_k p_ik, 1[argmax = y_i]); `'positive-class'`: (p_i1, 1[y_i = 1]) for two classes
   * (the binary calibration of P(y = 1)).
   */
  target?: 'top-label' | 'positive-class';
}

/** Validated (score, outcome) pairs of labelled predictions (internal). */
export function calibrationPairs(
  fn: string,
  labels: Labels,
  scores: Scores,
  options: TargetOptions,
): { s: Float64Array; o: Float64Array } {
  const target = options.target ?? 'top-label';
  if (target !== 'top-label' && target !== 'positive-class')
    fail('UM_OPTION', fn, 'options.target', `be 'top-label' or 'positive-class'`, { value: target });
  const p = probMatrix(fn, scores, options);
  const y = labelArray(fn, labels, p.n, p.numClasses);
  if (target === 'positive-class') {
    if (p.numClasses !== 2)
      fail(
        'UM_OPTION',
        fn,
        'options.target',
        `be 'top-label' with ${p.numClasses} classes ('positive-class' needs 2)`,
        { value: target },
      );
    const s = new Float64Array(p.n);
    const o = new Float64Array(p.n);
    for (let i = 0; i < p.n; i++) {
      s[i] = p.data[2 * i + 1] as number;
      o[i] = y[i] === 1 ? 1 : 0;
    }
    return { s, o };
  }
  const t = topLabel(p);
  return { s: t.confidence, o: Float64Array.from(t.predicted, (k, i) => (k === y[i] ? 1 : 0)) };
}
