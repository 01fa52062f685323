/**
 * Pool-adjacent-violators: the non-decreasing step function closest (least squares) to the outcomes ordered by
 * score, with tied scores pooled first. Returns its breakpoints: for every block, its smallest and largest score
 * with the block's mean outcome (internal).
 */
export function isotonicSteps(scores: Float64Array, outcomes: Uint8Array): { x: number[]; y: number[] } {
  const n = scores.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => (scores[a] as number) - (scores[b] as number));
  // blocks: [xMin, xMax, sum, weight]
  const lo: number[] = [];
  const hi: number[] = [];
  const sum: number[] = [];
  const weight: number[] = [];
  for (let r = 0; r < n; r++) {
    const i = order[r] as number;
    const x = scores[i] as number;
    const v = outcomes[i] as number;
    if (lo.length > 0 && hi[hi.length - 1] === x) {
      // tied score: same block
      sum[sum.length - 1] = (sum[sum.length - 1] as number) + v;
      weight[weight.length - 1] = (weight[weight.length - 1] as number) + 1;
    } else {
      lo.push(x);
      hi.push(x);
      sum.push(v);
      weight.push(1);
    }
    // merge while the last block's mean is below the previous one's
    while (sum.length > 1) {
      const k = sum.length - 1;
      if ((sum[k - 1] as number) * (weight[k] as number) <= (sum[k] as number) * (weight[k - 1] as number)) break;
      sum[k - 1] = (sum[k - 1] as number) + (sum[k] as number);
      weight[k - 1] = (weight[k - 1] as number) + (weight[k] as number);
      hi[k - 1] = hi[k] as number;
      lo.pop();
      hi.pop();
      sum.pop();
      weight.pop();
    }
  }
  const x: number[] = [];
  const y: number[] = [];
  for (let k = 0; k < sum.length; k++) {
    const m = (sum[k] as number) / (weight[k] as number);
    x.push(lo[k] as number);
    y.push(m);
    if (hi[k] !== lo[k]) {
      x.push(hi[k] as number);
      y.push(m);
    }
  }
  return { x, y };
}

/** Linear interpolation through increasing breakpoints, constant beyond the ends (internal). */
export function interpolate(x: readonly number[], y: readonly number[], v: number): number {
  const n = x.length;
  if (v <= (x[0] as number)) return y[0] as number;
  if (v >= (x[n - 1] as number)) return y[n - 1] as number;
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if ((x[mid] as number) <= v) lo = mid;
    else hi = mid;
  }
  const x0 = x[lo] as number;
  const x1 = x[hi] as number;
  const t = (v - x0) / (x1 - x0);
  return (y[lo] as number) + t * ((y[hi] as number) - (y[lo] as number));
}
