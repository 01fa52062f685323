import { fail } from '../errors/fail.js';
import { createRng } from '../random/rng.js';

/** A metric of rows given frequency weights: a number, or named numbers (null where undefined). */
export type WeightedMetric = (weights: Float64Array) => number | null | Readonly<Record<string, unknown>>;

/** Options of {@link bootstrap}. */
export interface BootstrapOptions {
  /** Number of resamples (default 1000). */
  resamples?: number;
  /** Confidence level of the percentile interval (default 0.95). */
  level?: number;
  /** Seed of the resampling (default 0). */
  seed?: number;
  /** Sample weights of the rows (default 1 each): each resample multiplies them by its counts. */
  weights?: ArrayLike<number>;
}

/** A bootstrap interval of one number. */
export interface BootstrapInterval {
  /** The metric on the data as given. */
  readonly estimate: number | null;
  /** Percentile interval [lower, upper] at `level`; null when the estimate is null. */
  readonly lower: number | null;
  readonly upper: number | null;
  /** Standard deviation of the resampled values. */
  readonly standardError: number | null;
  /** Resamples where the metric was undefined (null) or threw, left out of the interval. */
  readonly failed: number;
}

/** What {@link bootstrap} returns: one interval, or one per named number, with the settings used. */
export interface BootstrapResult {
  readonly intervals: BootstrapInterval | Readonly<Record<string, BootstrapInterval>>;
  readonly level: number;
  readonly resamples: number;
  readonly seed: number;
  readonly method: 'percentile';
}

/** The q-quantile of sorted values with linear interpolation (numpy's default, type 7) (internal). */
function quantile(sorted: number[], q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return (sorted[lo] as number) + (h - lo) * ((sorted[hi] as number) - (sorted[lo] as number));
}

function interval(estimate: number | null, values: number[], failed: number, level: number): BootstrapInterval {
  if (estimate === null || values.length === 0) return { estimate, lower: null, upper: null, standardError: null, failed };
  values.sort((a, b) => a - b);
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, values.length - 1));
  const alpha = (1 - level) / 2;
  return { estimate, lower: quantile(values, alpha), upper: quantile(values, 1 - alpha), standardError: sd, failed };
}

/** The numbers of a metric result: the number itself under '', or the numeric (or null) fields (internal). */
function numbersOf(r: number | null | Readonly<Record<string, unknown>>): Map<string, number | null> {
  const out = new Map<string, number | null>();
  if (r === null || typeof r === 'number') out.set('', r);
  else for (const [k, v] of Object.entries(r)) if (typeof v === 'number' || v === null) out.set(k, v);
  return out;
}

/**
 * Seeded percentile bootstrap confidence intervals for any metric: resamples the N rows with replacement and
 * recomputes the metric on each resample, given as frequency weights (how often each row was drawn) — so every
 * library metric with a `weights` option bootstraps without copying data.
 *
 * **Formula.** For b = 1 … R: counts c^b ~ Multinomial(N; 1/N, …, 1/N), θ̂_b = metric(w ⊙ c^b); the interval is the
 * (α/2, 1 − α/2) quantiles of {θ̂_b} with α = 1 − level (linear interpolation), the standard error their standard
 * deviation.
 *
 * **Conventions.**
 * - Row resampling (the i.i.d. nonparametric bootstrap); `metric` must treat weights as frequency weights (every
 *   metric of this library does: a weight-w row counts as w copies).
 * - A resample where the metric is null or throws (e.g. AUROC with one class left) is counted in `failed` and left
 *   out; the interval is null when the estimate itself is null.
 * - Object results (e.g. {@link evaluate}) get one interval per numeric field, from the same resamples.
 * - Binned calibration errors are biased upward under resampling (duplicated rows sharpen the bins), so their
 *   percentile interval can lie above the plug-in estimate; see `debiasedEce` (Kumar et al. 2019) for a debiased
 *   estimator.
 * - Deterministic for a seed (xoshiro128**).
 *
 * **References.**
 * - Efron & Tibshirani, "An Introduction to the Bootstrap", Chapman & Hall 1993, doi:10.1201/9780429246593.
 *
 * @param n number of rows N.
 * @param metric the metric of the rows under frequency weights.
 * @param options `resamples` (1000), `level` (0.95), `seed` (0), `weights`.
 * @returns a {@link BootstrapResult}.
 * @throws {UMError} `UM_OPTION` for invalid options, `UM_EMPTY` for n < 1; errors of `metric` on the full data.
 * @example
 * ```js
 * import { bootstrap, brier } from 'uncertainty-metrics';
 * const y = [0, 1, 1, 0, 1, 0, 1, 1];
 * const p = [[0.8, 0.2], [0.3, 0.7], [0.4, 0.6], [0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [0.5, 0.5], [0.1, 0.9]];
 * const r = bootstrap(y.length, (w) => brier(y, p, { weights: w }), { resamples: 200, seed: 1 });
 * r.intervals.estimate; // ≈ 0.19
 * r.intervals.lower < 0.19 && 0.19 < r.intervals.upper; // => true
 * ```
 */
export function bootstrap(n: number, metric: WeightedMetric, options: BootstrapOptions = {}): BootstrapResult {
  const fn = 'bootstrap';
  if (!Number.isInteger(n) || n < 1) fail('UM_EMPTY', fn, 'n', 'be an integer ≥ 1 (the number of rows)', { value: n });
  if (typeof metric !== 'function') fail('UM_OPTION', fn, 'metric', 'be a function of the row weights', { value: metric });
  const { resamples = 1000, level = 0.95, seed = 0 } = options;
  if (!Number.isInteger(resamples) || resamples < 2) fail('UM_OPTION', fn, 'options.resamples', 'be an integer ≥ 2', { value: resamples });
  if (typeof level !== 'number' || !(level > 0 && level < 1)) fail('UM_OPTION', fn, 'options.level', 'be a number in (0, 1)', { value: level });
  const base = new Float64Array(n).fill(1);
  if (options.weights !== undefined) {
    if (options.weights.length !== n) fail('UM_SHAPE', fn, 'options.weights', `have one weight per row (${n})`, { value: options.weights.length });
    for (let i = 0; i < n; i++) {
      const v = options.weights[i] as number;
      if (!(v >= 0) || !Number.isFinite(v)) fail('UM_OPTION', fn, 'options.weights', 'be finite numbers ≥ 0', { index: [i], value: v });
      base[i] = v;
    }
  }
  const rng = createRng(fn, seed);
  const estimate = numbersOf(metric(Float64Array.from(base)));
  const samples = new Map<string, number[]>([...estimate.keys()].map((k) => [k, []]));
  const failed = new Map<string, number>([...estimate.keys()].map((k) => [k, 0]));
  const w = new Float64Array(n);
  for (let b = 0; b < resamples; b++) {
    w.fill(0);
    for (let j = 0; j < n; j++) {
      const i = rng.integer(n);
      w[i] = (w[i] as number) + 1;
    }
    for (let i = 0; i < n; i++) w[i] = (w[i] as number) * (base[i] as number);
    let r: Map<string, number | null>;
    try {
      r = numbersOf(metric(w));
    } catch {
      for (const k of failed.keys()) failed.set(k, (failed.get(k) as number) + 1);
      continue;
    }
    for (const k of estimate.keys()) {
      const v = r.get(k);
      if (typeof v === 'number' && !Number.isNaN(v)) samples.get(k)?.push(v);
      else failed.set(k, (failed.get(k) as number) + 1);
    }
  }
  const per = (k: string) => interval(estimate.get(k) ?? null, samples.get(k) ?? [], failed.get(k) ?? 0, level);
  const intervals = estimate.has('') && estimate.size === 1 ? per('') : Object.fromEntries([...estimate.keys()].map((k) => [k, per(k)]));
  return { intervals, level, resamples, seed, method: 'percentile' };
}
