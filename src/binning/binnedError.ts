import type { Bin } from './types.js';

/** Norm of a binned calibration error. */
export type Norm = 'l1' | 'l2' | 'max';

/**
 * The norm of the bin gaps before any final square root: l1 → Σ_b f_b |gap_b|, l2 → Σ_b f_b gap_b² (the caller
 * takes the square root after any averaging over classes), max → max over non-empty bins of |gap_b|.
 */
export function binnedErrorRaw(bins: readonly Bin[], norm: Norm): number {
  let acc = 0;
  for (const bin of bins) {
    if (bin.gap === null) continue;
    const g = Math.abs(bin.gap);
    if (norm === 'l1') acc += bin.fraction * g;
    else if (norm === 'l2') acc += bin.fraction * g * g;
    else if (g > acc) acc = g;
  }
  return acc;
}

/** Finishes a raw norm value: square root for l2, identity otherwise. */
export function finishNorm(raw: number, norm: Norm): number {
  return norm === 'l2' ? Math.sqrt(raw) : raw;
}
