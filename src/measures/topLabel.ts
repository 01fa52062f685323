import type { ProbMatrix } from '../input/types.js';

/** Predicted class (first maximal index) and its probability for every row. Internal kernel. */
export interface TopLabel {
  readonly predicted: Int32Array;
  readonly confidence: Float64Array;
}

/** One pass over the rows: argmax (ties → lowest class index) and max probability. */
export function topLabel(p: ProbMatrix): TopLabel {
  const { data, n, numClasses: c } = p;
  const predicted = new Int32Array(n);
  const confidence = new Float64Array(n);
  for (let i = 0, o = 0; i < n; i++, o += c) {
    let best = 0;
    let max = data[o] as number;
    for (let k = 1; k < c; k++) {
      const v = data[o + k] as number;
      if (v > max) {
        max = v;
        best = k;
      }
    }
    predicted[i] = best;
    confidence[i] = max;
  }
  return { predicted, confidence };
}
