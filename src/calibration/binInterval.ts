import { betaQuantile, normalQuantile } from '../math/special.js';

/** How a bin's outcome rate gets its confidence interval. */
export type IntervalMethod = 'wilson' | 'clopper-pearson';

/**
 * A two-sided confidence interval at `level` for a rate of k events in n trials (internal): Wilson's score interval,
 * or the Clopper–Pearson (exact, beta-quantile) interval. n and k may be weight sums.
 */
export function binInterval(method: IntervalMethod, k: number, n: number, level: number): [number, number] {
  const alpha = 1 - level;
  if (method === 'clopper-pearson') {
    const lo = k <= 0 ? 0 : betaQuantile(alpha / 2, k, n - k + 1);
    const hi = k >= n ? 1 : betaQuantile(1 - alpha / 2, k + 1, n - k);
    return [lo, hi];
  }
  const z = normalQuantile(1 - alpha / 2);
  // the score interval multiplied through by n, so that no term divides by n or squares it (weight sums may be
  // anywhere from subnormal to 1.8e308): (k + z²/2 ± z·√(k(1 − k/n) + z²/4)) / (n + z²)
  const z2 = z * z;
  const d = n + z2;
  const centre = (k + z2 / 2) / d;
  const half = (z * Math.sqrt(k * (1 - k / n) + z2 / 4)) / d;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}
