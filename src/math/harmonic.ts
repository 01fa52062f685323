/**
 * Sums over one block of whole counts in closed form, so that a block of C tied predictions costs the same time
 * whether C is 3 or 10^300 (internal).
 *
 * For whole K ≥ 0 and C ≥ 1: h = Σ_{j=1..C} 1/(K + j) = ψ(K + C + 1) − ψ(K + 1) and g = Σ_{j=1..C} j/(K + j) =
 * C − K·h. Small blocks (C ≤ 1024) are summed term by term; larger ones use log1p and the asymptotic series
 * ψ(x + 1) = ln x + 1/(2x) − 1/(12x²) + 1/(120x⁴) − 1/(252x⁶) + … (x ≥ 64: truncation below 2^-60 relative), with the
 * differences rearranged so that nothing cancels: h = log1p(t) + …, g = K·(t − log1p t) + t/(2(1 + t)) − … with
 * t = C/K.
 */

/** Blocks up to this many samples are summed term by term. */
export const DIRECT_TERMS = 1024;

const EULER_GAMMA = 0.5772156649015329;

/** t − log1p(t) for t ≥ 0 without cancellation (the series Σ_{m≥2} (−t)^m/m below 1/2). */
function tMinusLog1p(t: number): number {
  if (t >= 0.5) return t - Math.log1p(t);
  let term = t * t;
  let sum = 0;
  for (let m = 2; m < 80; m++) {
    const next = term / m;
    sum += m % 2 === 0 ? next : -next;
    if (next < 1e-17 * sum) break;
    term *= t;
  }
  return sum;
}

/**
 * h and g of one block whose counts are given in units of `unit` (an exact power of two: the weights may be
 * scaled): K = k0·unit + shift and C = c·unit whole numbers (K or C may exceed float64; `shift` is 0 or 1).
 * Returns h (dimensionless) and g / unit.
 */
export function blockSums(k0: number, c: number, unit: number, shift: number): { h: number; g: number } {
  const K = k0 * unit + shift;
  const C = c * unit;
  if (C <= DIRECT_TERMS) {
    let h = 0;
    let g = 0;
    for (let j = 1; j <= C; j++) {
      h += 1 / (K + j);
      g += j / (K + j);
    }
    return { h, g: g / unit };
  }
  // K/unit and ln(K + C), exact where K and C are representable and without overflow where they are not
  const kUnits = k0 + shift / unit;
  if (K === 0) {
    // h = H_C = ln C + γ + 1/(2C) − 1/(12C²) + …; g = C
    const lnC = unit === 1 ? Math.log(C) : Math.log(c) + Math.log(unit);
    const inv = 1 / C;
    return { h: lnC + EULER_GAMMA + inv / 2 - (inv * inv) / 12, g: c };
  }
  const t = c / kUnits;
  if (K >= 64) {
    const invK = 1 / K; // 0 beyond float64: the corrections vanish
    const q = 1 / (1 + t);
    const q2 = q * q;
    const q4 = q2 * q2;
    const invK2 = invK * invK;
    const h =
      Math.log1p(t) -
      (invK * t * q) / 2 -
      (invK2 * (q2 - 1)) / 12 +
      (invK2 * invK2 * (q4 - 1)) / 120 -
      (invK2 * invK2 * invK2 * (q4 * q2 - 1)) / 252;
    // g = C − K·h term by term: K·(t − log1p t) + t/(2(1 + t)) + (1/(12K))·(q² − 1) − …
    const corrections =
      (t * q) / 2 +
      (invK * (q2 - 1)) / 12 -
      (invK2 * invK * (q4 - 1)) / 120 +
      (invK2 * invK2 * invK * (q4 * q2 - 1)) / 252;
    return { h, g: kUnits * tMinusLog1p(t) + corrections / unit };
  }
  // 0 < K < 64 < C: ψ(K + 1) = H_K − γ by its sum, ψ(K + C + 1) by the series (K + C > 1024)
  let harmonicK = 0;
  for (let j = 1; j <= K; j++) harmonicK += 1 / j;
  const x = K + C;
  const lnX = unit === 1 ? Math.log(x) : Math.log(c + K / unit) + Math.log(unit);
  const inv = 1 / x;
  const inv2 = inv * inv;
  const h = lnX + inv / 2 - inv2 / 12 + (inv2 * inv2) / 120 + EULER_GAMMA - harmonicK;
  return { h, g: c - (K * h) / unit };
}
