import type { BinAssignment } from '../binning/types.js';

/**
 * Cuts between the consecutive non-empty bins of an assignment whose bins are ordered by score (equal-mass bins):
 * a score s goes to the higher bin when s ≥ cut, so each cut must satisfy hi_b < cut ≤ lo_{b+1}, with hi_b the
 * largest calibration score of one bin and lo_{b+1} the smallest of the next. The cut is their midpoint, computed as
 * hi/2 + lo/2 (no overflow at ±1e308), or lo_{b+1} when the midpoint rounds onto hi_b (scores one ulp apart). Empty
 * bins are skipped and cuts not above `min` (0 for probabilities) are dropped, merging those bins; a cut that would
 * reach `max` = 1 becomes 1 − 2⁻⁵³, the largest double below 1, so scores of exactly 1 keep their own bin. Every
 * calibration score therefore lands, by its value, in the bin it was counted in (or a merged one). Internal.
 */
export function cutsOf(scores: ArrayLike<number>, a: BinAssignment, min = -Infinity, max = Infinity): number[] {
  const lo = new Float64Array(a.numBins).fill(Infinity);
  const hi = new Float64Array(a.numBins).fill(-Infinity);
  for (let i = 0; i < scores.length; i++) {
    const b = a.index[i] as number;
    const v = scores[i] as number;
    if (v < (lo[b] as number)) lo[b] = v;
    if (v > (hi[b] as number)) hi[b] = v;
  }
  const cuts: number[] = [];
  let below = -Infinity; // largest score of the bins so far
  for (let b = 0; b < a.numBins; b++) {
    if (!((hi[b] as number) >= (lo[b] as number))) continue; // empty
    const l = lo[b] as number;
    if (below > -Infinity) {
      const mid = below / 2 + l / 2;
      let cut = mid > below && mid <= l ? mid : l;
      if (cut >= max) cut = max - max * 2 ** -53;
      if (cut > (cuts.length > 0 ? (cuts[cuts.length - 1] as number) : min) && cut < max) cuts.push(cut);
    }
    below = Math.max(below, hi[b] as number);
  }
  return cuts;
}
