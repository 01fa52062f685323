import { ExactSum, quotient } from './exactSum.js';
import { scratchSums } from './denseSums.js';
/**
 * Exact scaling by powers of two (internal): multiplying by 2^e changes only the exponent, so sums, products and
 * ratios of scaled values are the scaled results bit for bit — as long as nothing overflows or underflows. Values
 * of extreme magnitude are brought near 1 this way before they are summed, and the result is scaled back.
 */

/** Magnitudes within [2^-WINDOW, 2^WINDOW] are used as given (products of three sums of 2^32 such values stay finite). */
export const WINDOW = 100;

/** x · 2^e for any integer e in [-2200, 2200], in two exact steps (2^e alone may not be representable). */
export function timesPow2(x: number, e: number): number {
  const a = Math.trunc(e / 2);
  return x * 2 ** a * 2 ** (e - a);
}

/**
 * 0 when the largest magnitude `max` lies in [2^-100, 2^100] (or is 0); otherwise its binary exponent e
 * (2^e ≤ max < 2^(e+1)), so that values · 2^-e have their largest in [1, 2) (internal).
 */
export function rescaleExponent(max: number): number {
  if (max === 0 || (max >= 2 ** -WINDOW && max <= 2 ** WINDOW)) return 0;
  return exponentOf(max);
}

/** The binary exponent e of x > 0: 2^e ≤ x < 2^(e+1). */
export function exponentOf(max: number): number {
  // exactly: Math.log2 may round across a power of two
  let e = Math.floor(Math.log2(max));
  if (timesPow2(max, -e) >= 2) e++;
  else if (timesPow2(max, -e) < 1) e--;
  return e;
}

/** The largest |x_i| (0 for none; NaN is skipped, ±Infinity counts). */
export function maxAbs(x: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < x.length; i++) {
    const v = Math.abs(x[i] as number);
    if (v > m) m = v;
  }
  return m;
}

/**
 * The mean Σ w_i·x_i / Σ w_i (w_i = 1 without weights; rows of weight 0 left out, even infinite ones) without
 * overflow: both sums are exact, a product beyond float64 is added exactly, and the mean is rounded once from the exact
 * quotient — so it is finite whenever the values are (it lies between them), and it does not depend on their order.
 */
export function stableMean(x: ArrayLike<number>, w?: ArrayLike<number>): number {
  // exact sums, the same as a mergeable state keeps (meanStore.ts): products beyond float64 added exactly, the mean
  // rounded once from the exact quotient — finite whenever the values are, and the same bits in any order
  const dense = scratchSums();
  const num = new ExactSum();
  const den = new ExactSum();
  for (let i = 0; i < x.length; i++) {
    const v = x[i] as number;
    if (w === undefined) dense.add(0, v);
    else {
      const wi = w[i] as number;
      if (wi === 0) continue;
      const p = wi * v;
      if ((Number.isFinite(p) && Math.abs(p) >= 2 ** -1022) || p === 0 || !Number.isFinite(v)) dense.add(0, p);
      else num.addProduct(wi, v);
      dense.add(1, wi);
    }
  }
  dense.foldInto(0, num);
  if (w === undefined) den.addInteger(x.length);
  else dense.foldInto(1, den);
  return quotient(num, den);
}
