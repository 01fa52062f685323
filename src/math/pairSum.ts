/**
 * Exact sums in a pair of doubles (internal): hi + lo holds a running sum exactly while every addition keeps it so
 * (TwoSum's rounding error carried in lo) — the fast part of `ExactSum`, and the per-bin sums of hot loops, which
 * move a pair into an `ExactSum` when the next term would not fit.
 */
import type { ExactSum } from './exactSum.js';

/**
 * Adds x to the exact pair hi + lo (two doubles whose exact sum is the running sum): TwoSum's error of hi + x goes to
 * lo. Returns whether that stayed exact (the new pair in {@link PAIR}); false when lo + error rounds, or beyond the
 * largest double (NaN or ±∞ anywhere).
 */
export function pairAdd(hi: number, lo: number, x: number): boolean {
  const s = hi + x;
  const bb = s - hi;
  const err = hi - (s - bb) + (x - bb);
  let t = lo;
  if (err !== 0) {
    t = lo + err;
    const cc = t - lo;
    if (lo - (t - cc) + (err - cc) !== 0) return false;
  }
  if (!Number.isFinite(s + t)) return false;
  PAIR[0] = s;
  PAIR[1] = t;
  return true;
}

/** The pair {@link pairAdd} made. */
export const PAIR = new Float64Array(2);

/**
 * A running sum in two doubles, hi + lo exactly (see `pairAdd`) — a hot loop's sum with no bank and no fold while it
 * spans fewer than ~106 bits. `ok` turns false for good at the first addition the pair cannot keep; the caller then
 * sums the same terms another way (internal).
 */
export class PairSum {
  hi = 0;
  lo = 0;
  ok = true;

  add(x: number): void {
    if (!this.ok) return;
    if (pairAdd(this.hi, this.lo, x)) {
      this.hi = PAIR[0] as number;
      this.lo = PAIR[1] as number;
    } else this.ok = false;
  }

  /**
   * Adds x, moving the pair to `target` first when it cannot take x exactly (then x starts the next pair) — every term
   * kept exactly, in a few BigInt conversions at most for a sum of many scales. Call {@link moveTo} at the end.
   */
  push(x: number, target: ExactSum): void {
    if (pairAdd(this.hi, this.lo, x)) {
      this.hi = PAIR[0] as number;
      this.lo = PAIR[1] as number;
    } else {
      target.add(this.hi);
      target.add(this.lo);
      this.hi = x;
      this.lo = 0;
    }
  }

  /** Adds the pair (exact) to `target` and starts again from 0. */
  moveTo(target: ExactSum): void {
    target.add(this.hi);
    target.add(this.lo);
    this.reset();
  }

  reset(): void {
    this.hi = 0;
    this.lo = 0;
    this.ok = true;
  }
}

/** Exact sums by index, each to add to (the per-bin sums of a binning). */
export interface SumTargets {
  at(b: number): ExactSum;
}

/**
 * {@link PairSum.push} for pair b of arrays of pairs (`hi[b] + lo[b]`), moving to `targets[b]` (internal; per-bin sums
 * of a hot loop). Move every pair to its target at the end ({@link movePairs}).
 */
export function pushPair(hi: Float64Array, lo: Float64Array, b: number, x: number, targets: SumTargets): void {
  if (pairAdd(hi[b] as number, lo[b] as number, x)) {
    hi[b] = PAIR[0] as number;
    lo[b] = PAIR[1] as number;
  } else {
    const t = targets.at(b);
    t.add(hi[b] as number);
    t.add(lo[b] as number);
    hi[b] = x;
    lo[b] = 0;
  }
}

/** Adds every pair of {@link pushPair} to its target. */
export function movePairs(hi: Float64Array, lo: Float64Array, targets: SumTargets): void {
  for (let b = 0; b < hi.length; b++) {
    const t = targets.at(b);
    t.add(hi[b] as number);
    t.add(lo[b] as number);
  }
}
