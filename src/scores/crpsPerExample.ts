import { presetOf } from '../options/binning.js';
import { fail } from '../errors/fail.js';
import { erf, normalPdf } from '../math/special.js';
import { maxAbs, rescaleExponent, timesPow2 } from '../math/pow2.js';
import type { PresetName } from '../presets/presets.js';
import { checkOptions } from '../errors/checkOptions.js';

/** A predictive distribution per observation: Normal (mean, std), or samples (N rows of M draws). */
export type CrpsForecast =
  | { readonly mean: ArrayLike<number>; readonly std: ArrayLike<number> }
  | { readonly samples: ReadonlyArray<ArrayLike<number>> | Float32Array | Float64Array; readonly numSamples?: number };

/** Options of {@link crps} and {@link crpsPerExample}. */
export interface CrpsOptions {
  /**
   * Estimator for samples: `'fair'` (default, unbiased: pair term divided by 2M(M − 1)), `'nrg'` (the V-statistic,
   * 2M², torchmetrics), `'cyclic'` (uncertainty_metrics: ½·mean |x_j − x_{j−1}| over cyclic neighbours, which depends
   * on sample order).
   */
  estimator?: 'fair' | 'nrg' | 'cyclic';
  /** Compatibility preset (`'uncertainty-metrics'` → cyclic, `'torchmetrics'` → nrg). */
  preset?: PresetName;
}

function finiteVector(fn: string, argument: string, v: unknown, n?: number): ArrayLike<number> {
  if (v === null || typeof v !== 'object' || typeof (v as ArrayLike<unknown>).length !== 'number') {
    fail('UM_SHAPE', fn, argument, 'be an array of numbers', { value: v });
  }
  const a = v as ArrayLike<unknown>;
  if (n !== undefined && a.length !== n)
    fail('UM_SHAPE', fn, argument, `have one entry per observation (${n})`, { value: a.length });
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    if (typeof x !== 'number' || !Number.isFinite(x))
      fail('UM_NOT_FINITE', fn, argument, 'be a finite number', { index: [i], value: x });
  }
  return a as ArrayLike<number>;
}

/** CRPS of one Normal forecast N(μ, σ²) at y: σ·[z(2Φ(z) − 1) + 2φ(z) − 1/√π], z = (y − μ)/σ; |y − μ| when σ = 0. */
export function crpsNormalOne(y: number, mu: number, sigma: number): number {
  if (sigma === 0) return Math.abs(y - mu);
  const z = (y - mu) / sigma;
  // 2Φ(z) − 1 = erf(z/√2), evaluated without cancellation
  return sigma * (z * erf(z / Math.SQRT2) + 2 * normalPdf(z) - 1 / Math.sqrt(Math.PI));
}

/** CRPS of one ensemble/sample forecast (internal kernel). */
export function crpsSamplesOne(y: number, x: Float64Array, estimator: 'fair' | 'nrg' | 'cyclic'): number {
  const m = x.length;
  let e1 = 0;
  for (let j = 0; j < m; j++) e1 += Math.abs((x[j] as number) - y);
  e1 /= m;
  if (estimator === 'cyclic') {
    let d = 0;
    for (let j = 0; j < m; j++) d += Math.abs((x[j] as number) - (x[(j - 1 + m) % m] as number));
    return e1 - (0.5 * d) / m;
  }
  // Σ_{j,k} |x_j − x_k| = 2·Σ_k x_(k)·(2k − M + 1) over the sorted sample, shifted by its minimum
  const s = Float64Array.from(x).sort();
  const lo = s[0] as number;
  let pairs = 0;
  for (let k = 0; k < m; k++) pairs += ((s[k] as number) - lo) * (2 * k - m + 1);
  pairs *= 2;
  return e1 - pairs / (estimator === 'fair' ? 2 * m * (m - 1) : 2 * m * m);
}

/** Validates y and the forecast, and returns per-observation CRPS (internal; `fn` names the caller). */
export function crpsRows(
  fn: string,
  observations: ArrayLike<number>,
  forecast: CrpsForecast,
  options: CrpsOptions,
): Float64Array {
  const y = finiteVector(fn, 'observations', observations);
  const n = y.length;
  if (n === 0) fail('UM_EMPTY', fn, 'observations', 'hold at least one observation', { value: 0 });
  if (forecast === null || typeof forecast !== 'object')
    fail('UM_SHAPE', fn, 'forecast', 'be { mean, std } or { samples }', { value: forecast });
  const keys = Object.keys(forecast);
  const normal = keys.includes('mean') || keys.includes('std');
  if (normal && (keys.includes('samples') || keys.includes('numSamples'))) {
    // one of the two would be silently ignored
    fail('UM_OPTION', fn, 'forecast', 'be either { mean, std } or { samples } (numSamples), not both', {
      value: keys.join(', '),
    });
  }
  for (const key of keys) {
    if (!['mean', 'std', 'samples', 'numSamples'].includes(key))
      fail('UM_OPTION', fn, `forecast.${key}`, 'not be given: a forecast is { mean, std } or { samples } (numSamples)');
  }
  const out = new Float64Array(n);
  if (normal) {
    const f = forecast as { mean: unknown; std: unknown };
    const mu = finiteVector(fn, 'forecast.mean', f.mean, n);
    const sd = finiteVector(fn, 'forecast.std', f.std, n);
    for (let i = 0; i < n; i++) {
      const s = sd[i] as number;
      if (s < 0) fail('UM_OPTION', fn, 'forecast.std', 'be ≥ 0', { index: [i], value: s });
      out[i] = within(
        fn,
        i,
        y[i] as number,
        scaledCrps([y[i] as number, mu[i] as number, s], (v) =>
          crpsNormalOne(v[0] as number, v[1] as number, v[2] as number),
        ),
      );
    }
    return out;
  }
  if (!('samples' in forecast))
    fail('UM_SHAPE', fn, 'forecast', 'be { mean, std } or { samples }', { value: forecast });
  const estimator = options.estimator ?? presetOf(fn, options.preset).crps;
  if (estimator !== 'fair' && estimator !== 'nrg' && estimator !== 'cyclic') {
    fail('UM_OPTION', fn, 'options.estimator', `be 'fair', 'nrg' or 'cyclic'`, { value: estimator });
  }
  const samples = forecast.samples;
  let row: (i: number) => Float64Array;
  if (samples instanceof Float64Array || samples instanceof Float32Array) {
    const m = forecast.numSamples;
    if (typeof m !== 'number' || !Number.isInteger(m) || m < 1)
      fail('UM_OPTION', fn, 'forecast.numSamples', 'be an integer ≥ 1 with a flat samples array', { value: m });
    if (samples.length !== n * m)
      fail('UM_SHAPE', fn, 'forecast.samples', `have observations × numSamples = ${n * m} values`, {
        value: samples.length,
      });
    row = (i) => Float64Array.from(samples.subarray(i * m, (i + 1) * m));
  } else if (Array.isArray(samples)) {
    if (samples.length !== n)
      fail('UM_SHAPE', fn, 'forecast.samples', `have one row of draws per observation (${n})`, {
        value: samples.length,
      });
    row = (i) => {
      const r: unknown = samples[i];
      if (
        r === null ||
        typeof r !== 'object' ||
        typeof (r as ArrayLike<unknown>).length !== 'number' ||
        (r as ArrayLike<unknown>).length === 0
      ) {
        fail('UM_SHAPE', fn, 'forecast.samples', 'be a non-empty row of draws', { index: [i], value: r });
      }
      // entry by entry: Float64Array.from converted strings to numbers silently and threw on BigInt or Symbol
      const a = r as ArrayLike<unknown>;
      const x = new Float64Array(a.length);
      for (let j = 0; j < a.length; j++) {
        const v = a[j];
        if (typeof v !== 'number' || !Number.isFinite(v))
          fail('UM_NOT_FINITE', fn, 'forecast.samples', 'be a finite number', { index: [i, j], value: v });
        x[j] = v;
      }
      return x;
    };
  } else {
    fail('UM_SHAPE', fn, 'forecast.samples', 'be an array of rows of draws, or a flat typed array with numSamples', {
      value: samples,
    });
  }
  for (let i = 0; i < n; i++) {
    const x = row(i);
    for (let j = 0; j < x.length; j++) {
      if (!Number.isFinite(x[j] as number))
        fail('UM_NOT_FINITE', fn, 'forecast.samples', 'be a finite number', { index: [i, j], value: x[j] });
    }
    if (estimator === 'fair' && x.length < 2) {
      fail('UM_SHAPE', fn, 'forecast.samples', 'hold at least 2 draws per observation for the fair estimator', {
        index: [i],
        value: x.length,
        hint: "use estimator: 'nrg' for single draws",
      });
    }
    const yi = y[i] as number;
    out[i] = within(
      fn,
      i,
      yi,
      scaledCrps([yi, ...x], (v) => crpsSamplesOne(v[0] as number, v.subarray(1), estimator)),
    );
  }
  return out;
}

/**
 * A CRPS from its arguments scaled by a power of two when their largest magnitude lies outside [2^-100, 2^100]:
 * the CRPS is in the unit of y (CRPS(λy; λF) = λ·CRPS(y; F)), so ±1e308 neither overflows the differences nor
 * loses the subnormals, and the scaled-back result is exact up to its own rounding.
 */
function scaledCrps(args: number[], crps: (scaled: Float64Array) => number): number {
  const v = Float64Array.from(args);
  const e = rescaleExponent(maxAbs(v));
  if (e === 0) return crps(v);
  for (let j = 0; j < v.length; j++) v[j] = timesPow2(v[j] as number, -e);
  return timesPow2(crps(v), e);
}

/** A finite CRPS, or a typed error where the true value exceeds float64 (|y − μ| of ±1e308). */
function within(fn: string, i: number, y: number, value: number): number {
  if (!Number.isFinite(value))
    fail('UM_NOT_FINITE', fn, 'observations', 'give a CRPS within float64 (at most 1.8e308) with its forecast', {
      index: [i],
      value: y,
    });
  return value;
}

/**
 * Continuous ranked probability score of each observation under its predictive distribution.
 *
 * **Formula.** CRPS(F, y) = E|X − y| − ½·E|X − X′|. Normal: σ·[z(2Φ(z) − 1) + 2φ(z) − 1/√π], z = (y − μ)/σ.
 * Samples x_1 … x_M: (1/M)Σ_j |x_j − y| − Σ_{j,k} |x_j − x_k| / (2M(M − 1)) (`'fair'`), / (2M²) (`'nrg'`), or
 * − ½·(1/M)·Σ_j |x_j − x_{(j−1) mod M}| (`'cyclic'`).
 *
 * **Conventions.**
 * - Same units as y; lower is better. A point mass (σ = 0, or identical samples) gives the absolute error |y − μ|.
 * - The fair estimator is unbiased for the CRPS of the distribution the samples come from and needs M ≥ 2;
 *   the cyclic one depends on sample order (reproduced for uncertainty_metrics only).
 * - 2Φ(z) − 1 is evaluated as erf(z/√2) (no cancellation in the tails).
 * - Any finite y, μ, σ and draws, from subnormals to ±1.8e308: a row whose values lie outside [2^-100, 2^100] is
 *   computed scaled by a power of two (the CRPS is in the unit of y), so nothing overflows or underflows; a CRPS
 *   that itself exceeds float64 (|y − μ| of ±1e308) is `UM_NOT_FINITE`, not Infinity.
 * - A forecast is `{ mean, std }` or `{ samples }` (with `numSamples` for a flat array), never both.
 *
 * **References.**
 * - Gneiting & Raftery, JASA 2007, doi:10.1198/016214506000001437 (CRPS, energy form, Normal closed form).
 * - Ferro, "Fair scores for ensemble forecasts", Q. J. R. Meteorol. Soc. 2014, doi:10.1002/qj.2270.
 * - Zamo & Naveau, "Estimation of the CRPS for ensemble forecasts", Math. Geosci. 2018, doi:10.1007/s11004-017-9709-7.
 *
 * @param observations N observed values.
 * @param forecast `{ mean, std }` (N each, std ≥ 0) or `{ samples }` (N rows of draws, or a flat typed array with
 *   `numSamples`).
 * @param options `estimator`, `preset`.
 * @returns `Float64Array` of N scores.
 * @throws {UMError} on invalid input or options; `UM_OPTION` for a forecast with both forms or an unknown key;
 *   `UM_NOT_FINITE` for a CRPS beyond float64.
 * @example
 * ```js
 * import { crpsPerExample } from 'uncertainty-metrics';
 * Array.from(crpsPerExample([0, 3], { mean: [0, 0], std: [1, 0] })); // ≈ [0.2336949773, 3]
 * // draws 0, 1, 2, 3 at y = 1.5: E|X − y| = 1, Σ_{j≠k} |x_j − x_k| = 20
 * Array.from(crpsPerExample([1.5], { samples: [[0, 1, 2, 3]] })); // ≈ [0.1666666667]
 * Array.from(crpsPerExample([1.5], { samples: [[0, 1, 2, 3]] }, { estimator: 'nrg' })); // => [0.375]
 * Array.from(crpsPerExample([1.5], { samples: [[0, 1, 2, 3]] }, { estimator: 'cyclic' })); // => [0.25]
 * ```
 */
export function crpsPerExample(
  observations: ArrayLike<number>,
  forecast: CrpsForecast,
  options: CrpsOptions = {},
): Float64Array {
  checkOptions('crpsPerExample', options, ['estimator', 'preset']);
  return crpsRows('crpsPerExample', observations, forecast, options);
}
