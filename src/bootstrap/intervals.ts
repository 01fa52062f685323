import { normalCdf, normalQuantile } from '../math/special.js';

/** How a bootstrap interval is read from the resampled values (see {@link bootstrap}). */
export type BootstrapMethod = 'percentile' | 'basic' | 'bca' | 'union';

/** The interval methods, in the order messages list them (internal). */
export const BOOTSTRAP_METHODS: readonly BootstrapMethod[] = ['bca', 'basic', 'percentile', 'union'];

/** A bootstrap interval of one number. */
export interface BootstrapInterval {
  /** The metric on the data as given. */
  readonly estimate: number | null;
  /** Interval [lower, upper] at `level` by the result's `method`; null when the estimate is null or not finite, or no resample succeeded. */
  readonly lower: number | null;
  readonly upper: number | null;
  /** Standard deviation of the resampled values. */
  readonly standardError: number | null;
  /** Resamples where the metric was undefined (null) or threw, left out of the interval. */
  readonly failed: number;
  /**
   * BCa only: the method the interval was computed by — `'bca'`, or `'union'` when every resample lies on one side
   * of the estimate (z₀ = ±∞: BCa is undefined).
   */
  readonly method?: 'bca' | 'union';
  /** BCa only: the bias correction z₀ = Φ⁻¹(share of resamples below the estimate, ties counted ½). */
  readonly biasCorrection?: number;
  /** BCa only: the acceleration a from the (grouped) jackknife. */
  readonly acceleration?: number;
}

/** The q-quantile of sorted values with linear interpolation (numpy's default, type 7) (internal). */
export function quantile(sorted: readonly number[], q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return (sorted[lo] as number) + (h - lo) * ((sorted[hi] as number) - (sorted[lo] as number));
}

/**
 * The acceleration of BCa from jackknife values θ_(g): a = Σ d_g³ / (6·(Σ d_g²)^{3/2}) with d_g = θ̄ − θ_(g)
 * (Efron & Tibshirani 1993, eq. 14.15); 0 when fewer than three values or all equal (internal).
 */
export function acceleration(jackknife: readonly number[]): number {
  if (jackknife.length < 3) return 0;
  const mean = jackknife.reduce((s, v) => s + v, 0) / jackknife.length;
  let s2 = 0;
  let s3 = 0;
  for (const v of jackknife) {
    const d = mean - v;
    s2 += d * d;
    s3 += d * d * d;
  }
  if (!(s2 > 0)) return 0;
  const a = s3 / (6 * s2 ** 1.5);
  return Number.isFinite(a) ? a : 0;
}

/**
 * The BCa level of the tail with normal quantile z: Φ(z₀ + (z₀ + z)/(1 − a·(z₀ + z))). Past the pole
 * (1 − a·(z₀ + z) ≤ 0) the map has run off to the end it was heading for, so the level is 0 or 1 (internal).
 */
function bcaLevel(z0: number, a: number, z: number): number {
  const t = z0 + z;
  const denominator = 1 - a * t;
  if (!(denominator > 0)) return t > 0 ? 1 : 0;
  return normalCdf(z0 + t / denominator);
}

/**
 * One interval from the resampled values (sorted here) by `method`; `jackknife` holds the leave-group-out values for
 * BCa (internal).
 */
export function intervalOf(
  method: BootstrapMethod,
  estimate: number | null,
  values: number[],
  failed: number,
  level: number,
  jackknife: readonly number[],
): BootstrapInterval {
  if (estimate === null || !Number.isFinite(estimate) || values.length === 0)
    return { estimate, lower: null, upper: null, standardError: null, failed };
  values.sort((x, y) => x - y);
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  const standardError = Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / Math.max(1, values.length - 1));
  const alpha = (1 - level) / 2;
  if (method === 'percentile')
    return { estimate, lower: quantile(values, alpha), upper: quantile(values, 1 - alpha), standardError, failed };
  const qLow = quantile(values, alpha);
  const qHigh = quantile(values, 1 - alpha);
  // basic: θ̂ − θ is estimated by θ̂* − θ̂, so [2θ̂ − q(1 − α/2), 2θ̂ − q(α/2)]
  if (method === 'basic')
    return { estimate, lower: 2 * estimate - qHigh, upper: 2 * estimate - qLow, standardError, failed };
  // union of the percentile interval and its reflection about θ̂ (the basic one): θ̂ ± the larger distance to an end
  const half = Math.max(Math.abs(qLow - estimate), Math.abs(qHigh - estimate));
  const union = { estimate, lower: estimate - half, upper: estimate + half, standardError, failed };
  if (method === 'union') return union;
  let below = 0;
  let ties = 0;
  for (const v of values) {
    if (v < estimate) below++;
    else if (v === estimate) ties++;
  }
  // Every resample strictly on one side of the estimate: z₀ = ±∞, BCa is undefined (clamping z₀ would collapse the
  // interval onto the extreme resample, away from the estimate); the union interval is reported instead.
  if (below === values.length || below + ties === 0) return { ...union, method: 'union' };
  const z0 = normalQuantile((below + 0.5 * ties) / values.length);
  const a = acceleration(jackknife);
  const lo = bcaLevel(z0, a, normalQuantile(alpha));
  const hi = bcaLevel(z0, a, normalQuantile(1 - alpha));
  return {
    estimate,
    lower: quantile(values, lo),
    upper: quantile(values, hi),
    standardError,
    failed,
    method: 'bca',
    biasCorrection: z0,
    acceleration: a,
  };
}
