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
  const rate = k / n;
  const d = 1 + (z * z) / n;
  const centre = (rate + (z * z) / (2 * n)) / d;
  const half = (z * Math.sqrt((rate * (1 - rate)) / n + (z * z) / (4 * n * n))) / d;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}
