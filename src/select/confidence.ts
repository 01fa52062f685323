import type { ProbMatrix } from '../input/types.js';
import { rowMargin } from '../measures/margin.js';
import { rowNormalizedEntropy } from '../measures/normalizedEntropy.js';
import { rowEntropy } from '../measures/rowEntropy.js';

/**
 * A per-sample measure computed from the predicted distribution, named by what it is:
 * - `'max-prob'` — confidence max_k p_k (higher = more confident);
 * - `'margin'` — p_(1) − p_(2), the gap between the two largest probabilities (higher = more confident);
 * - `'entropy'` — −Σ_k p_k ln p_k in nats (higher = more uncertain);
 * - `'normalized-entropy'` — entropy / ln C ∈ [0, 1] (higher = more uncertain);
 * - `'threshold-distance'` — |P(y = 1) − t| for two classes, t = `decisionThreshold` (higher = more confident;
 *   with t = 0.5 it ranks like `'max-prob'`).
 */
export type NamedMeasure = 'max-prob' | 'margin' | 'entropy' | 'normalized-entropy' | 'threshold-distance';

/** The sign that turns a measure into a confidence (higher = more confident): −1 for the uncertainties. */
export function signOf(measure: NamedMeasure): 1 | -1 {
  return measure === 'entropy' || measure === 'normalized-entropy' ? -1 : 1;
}

/** A named measure of validated probabilities, as "higher = more confident" values and the sign to undo it (internal). */
export function namedConfidence(
  p: ProbMatrix,
  measure: NamedMeasure,
  predictedConfidence: Float64Array,
  threshold: number,
): { confidence: Float64Array; sign: 1 | -1 } {
  switch (measure) {
    case 'threshold-distance': {
      const v = new Float64Array(p.n);
      for (let i = 0; i < p.n; i++) v[i] = Math.abs((p.data[2 * i + 1] as number) - threshold);
      return { confidence: v, sign: 1 };
    }
    case 'max-prob':
      return { confidence: predictedConfidence, sign: 1 };
    case 'margin':
      return { confidence: rowMargin(p), sign: 1 };
    case 'entropy':
      return { confidence: negate(rowEntropy(p)), sign: -1 };
    case 'normalized-entropy':
      return { confidence: negate(rowNormalizedEntropy(p)), sign: -1 };
  }
}

/** Negates in place (internal). */
export function negate(v: Float64Array): Float64Array {
  for (let i = 0; i < v.length; i++) v[i] = -(v[i] as number);
  return v;
}

/**
 * The predicted class and its probability of every row: the argmax (ties → lowest index), or for two classes with a
 * decision threshold t, class 1 when P(y = 1) > t (internal).
 */
export function thresholdPredictions(
  p: ProbMatrix,
  top: { predicted: Int32Array; confidence: Float64Array },
  decisionThreshold: number | null,
): void {
  if (decisionThreshold === null) return;
  for (let i = 0; i < p.n; i++) {
    const p1 = p.data[2 * i + 1] as number;
    const k = p1 > decisionThreshold ? 1 : 0;
    top.predicted[i] = k;
    top.confidence[i] = k === 1 ? p1 : (p.data[2 * i] as number);
  }
}
