/**
 * Scores closer than this to the first score of a group are one group before PAV: numpy's
 * `np.finfo(np.float64).resolution` (1e-15, absolute), which scikit-learn's `_make_unique` uses, so scores that are
 * equal up to rounding (k/100 computed in different ways) are pooled as they are there.
 */
export const TIE_RESOLUTION = 1e-15;

/** Whether s1/w1 ≥ s2/w2 for non-negative whole s and positive whole w, decided exactly (internal). */
function meanAtLeast(s1: number, w1: number, s2: number, w2: number): boolean {
  const l = s1 * w2;
  const r = s2 * w1;
  // products below 2^53 are exact; beyond (N > 2^26 rows) compare in BigInt
  if (l < 2 ** 53 && r < 2 ** 53) return l >= r;
  return BigInt(s1) * BigInt(w2) >= BigInt(s2) * BigInt(w1);
}

/**
 * Pool-adjacent-violators: the non-decreasing step function closest (least squares) to the outcomes ordered by
 * score. Scores are first pooled into groups — sorted, a group holds every score less than {@link TIE_RESOLUTION}
 * above its first (smallest) score, which stands for the group — so the fit depends on the set of (score, outcome)
 * pairs only, never on row order. Blocks of equal mean are pooled too (as scikit-learn), so the breakpoints are
 * every block's first and last group score with the block's mean outcome, strictly increasing between blocks
 * (internal).
 */
export function isotonicSteps(scores: Float64Array, outcomes: Uint8Array): { x: number[]; y: number[] } {
  const n = scores.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => (scores[a] as number) - (scores[b] as number));
  // 1. groups of (near-)equal scores: [x, hits, count]
  const gx: number[] = [];
  const gs: number[] = [];
  const gw: number[] = [];
  for (let r = 0; r < n; r++) {
    const i = order[r] as number;
    const x = scores[i] as number;
    const g = gx.length - 1;
    if (g >= 0 && x - (gx[g] as number) < TIE_RESOLUTION) {
      gs[g] = (gs[g] as number) + (outcomes[i] as number);
      gw[g] = (gw[g] as number) + 1;
    } else {
      gx.push(x);
      gs.push(outcomes[i] as number);
      gw.push(1);
    }
  }
  // 2. PAV over the groups: blocks [first group, last group, hits, count]; a new group is merged backwards while the
  //    previous block's mean is not below it (exact integer comparison, so equal means always pool)
  const lo: number[] = [];
  const hi: number[] = [];
  const sum: number[] = [];
  const weight: number[] = [];
  for (let g = 0; g < gx.length; g++) {
    lo.push(gx[g] as number);
    hi.push(gx[g] as number);
    sum.push(gs[g] as number);
    weight.push(gw[g] as number);
    while (sum.length > 1) {
      const k = sum.length - 1;
      if (!meanAtLeast(sum[k - 1] as number, weight[k - 1] as number, sum[k] as number, weight[k] as number)) break;
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
  const y0 = y[lo] as number;
  const y1 = y[hi] as number;
  // y0 + t·(y1 − y0) may round an ulp beyond y1 (t = 1 − ε): kept inside [y0, y1], so never above 1
  return Math.min(y1, Math.max(y0, y0 + t * (y1 - y0)));
}
