import type { Precision } from '../binning/types.js';

/**
 * The thresholded approximation of the ROC or PR area used by Keras' `AUC` (and uncertainty_metrics' `AUC`):
 * T evenly spaced thresholds (−ε, 1/(T−1), …, (T−2)/(T−1), 1 + ε), confusion counts from the bucket
 * ⌈p·(T − 1)⌉ − 1 of each prediction, the trapezoid for ROC and Davis & Goadrich's interpolation for PR.
 * In `'float32'` every step rounds to float32 as TensorFlow does (Keras' `sample_weight` enters the counts as
 * weight sums, accumulated in float64 here). `values` lie in [0, 1] (checked by the caller; internal).
 */
export function thresholdedAuc(
  values: Float64Array,
  positive: Uint8Array,
  thresholds: number,
  curve: 'roc' | 'pr',
  precision: Precision,
  weights?: Float64Array,
): number {
  const r = precision === 'float32' ? Math.fround : (x: number) => x;
  const t = thresholds;
  const tpBucket = new Float64Array(t);
  const fpBucket = new Float64Array(t);
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    const b = Math.max(0, Math.ceil(r(r(v) * (t - 1))) - 1);
    const w = weights === undefined ? 1 : (weights[i] as number);
    if (positive[i] === 1) tpBucket[b] = (tpBucket[b] as number) + w;
    else fpBucket[b] = (fpBucket[b] as number) + w;
  }
  // counts at threshold j: predictions in buckets ≥ j (integers without weights: exact in either precision)
  const tp = new Float64Array(t);
  const fp = new Float64Array(t);
  let a = 0;
  let c = 0;
  for (let j = t - 1; j >= 0; j--) {
    a += tpBucket[j] as number;
    c += fpBucket[j] as number;
    tp[j] = a;
    fp[j] = c;
  }
  const pos = tp[0] as number;
  const neg = fp[0] as number;
  const div = (x: number, y: number) => (y === 0 ? 0 : r(x / y));
  let sum = 0;
  if (curve === 'roc') {
    for (let j = 0; j < t - 1; j++) {
      const x0 = div(fp[j] as number, neg);
      const x1 = div(fp[j + 1] as number, neg);
      const y0 = div(tp[j] as number, pos);
      const y1 = div(tp[j + 1] as number, pos);
      sum = r(sum + r(r(x0 - x1) * r(r(y0 + y1) / 2)));
    }
    return sum;
  }
  for (let j = 0; j < t - 1; j++) {
    const dtp = (tp[j] as number) - (tp[j + 1] as number);
    const p0 = (tp[j] as number) + (fp[j] as number);
    const p1 = (tp[j + 1] as number) + (fp[j + 1] as number);
    const slope = div(dtp, Math.max(p0 - p1, 0));
    const intercept = r((tp[j + 1] as number) - r(slope * p1));
    const ratio = p0 > 0 && p1 > 0 ? div(p0, Math.max(p1, 0)) : 1;
    const fn1 = pos - (tp[j + 1] as number);
    const increment = div(
      r(slope * r(dtp + r(intercept * r(Math.log(ratio))))),
      Math.max((tp[j + 1] as number) + fn1, 0),
    );
    sum = r(sum + increment);
  }
  return sum;
}
