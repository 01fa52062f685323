import { samplesPerWeight, weightArray, weightUnit, type WeightOptions } from '../input/weights.js';
import { roundHalfEven } from '../binning/numpy.js';
import { fail } from '../errors/fail.js';
import type { Labels, Scores } from '../input/types.js';
import { calibrationPairs, type TargetOptions } from './pairs.js';
import { INPUT_KEYS, checkOptions } from '../errors/checkOptions.js';

/** Options of {@link smoothEce}. */
export interface SmoothEceOptions extends TargetOptions, WeightOptions {
  /** Fixed kernel bandwidth σ in [2^-10, 1]; default: chosen automatically as the fixed point σ = smECE_σ (≥ 2^-10). */
  bandwidth?: number;
  /** Smallest bandwidth the automatic search accepts (default 0.001, as relplot). */
  eps?: number;
}

/** Linear splatting of weights v at positions f onto a grid of g points over [0, 1] (relplot `smooth_round_to_grid`). */
function roundToGrid(f: Float64Array, v: ArrayLike<number>, g: number): Float64Array {
  const values = new Float64Array(g);
  for (let i = 0; i < f.length; i++) {
    const x = (f[i] as number) * (g - 1);
    const bin = Math.min(Math.max(Math.trunc(x), 0), g - 2);
    const frac = x - bin;
    const w = v[i] as number;
    values[bin] = (values[bin] as number) + (1 - frac) * w;
    values[bin + 1] = (values[bin + 1] as number) + frac * w;
  }
  return values;
}

/** Gaussian kernel N(0.5, σ²) on linspace(0, 1, g) (relplot `kernel_ev`). */
function kernelValues(sigma: number, g: number): Float64Array {
  const out = new Float64Array(g);
  const step = 1 / (g - 1);
  const variance = sigma ** 2;
  const norm = Math.sqrt(2 * Math.PI) * sigma;
  for (let k = 0; k < g; k++) {
    const t = k === g - 1 ? 1 : k * step;
    out[k] = Math.exp((-(t - 0.5) * (t - 0.5)) / (2 * variance)) / norm;
  }
  return out;
}

/**
 * Convolution with reflection at both ends of [0, 1] (relplot `ReflectedGaussianKernel.convolve`); internal, exported
 * for its test.
 */
export function reflectedConvolve(values: Float64Array, kernel: Float64Array): Float64Array {
  const g = values.length;
  // ext = [reverse(values)[:-1], values, reverse(values)[1:]], length 3g − 2
  const ext = new Float64Array(3 * g - 2);
  for (let j = 0; j < g - 1; j++) ext[j] = values[g - 1 - j] as number;
  ext.set(values, g - 1);
  for (let j = 0; j < g - 1; j++) ext[2 * g - 1 + j] = values[g - 2 - j] as number;
  // 'valid' convolution, indices g//2 … g//2 + g − 1 of its 2g − 1 outputs: out[j] = Σ_k ext[j + k]·kernel[g − 1 − k]
  const start = Math.floor(g / 2);
  const out = new Float64Array(g);
  // N pairs splat onto at most 2N of the g ≥ 1001 grid points: with few pairs the grid is mostly zeros. A product
  // with a zero is ±0 (the kernel is finite), which leaves the running sum unchanged (it starts at +0 and is never
  // −0 in round-to-nearest), so summing only the non-zero entries, in the same order, gives the same bits in
  // O(g · non-zero) instead of O(g²)
  let nonZero = 0;
  for (let i = 0; i < ext.length; i++) if (ext[i] !== 0) nonZero++;
  if (2 * nonZero < ext.length) {
    const at = new Int32Array(nonZero);
    for (let i = 0, q = 0; i < ext.length; i++) if (ext[i] !== 0) at[q++] = i;
    let first = 0;
    for (let j = 0; j < g; j++) {
      const base = start + j;
      while (first < nonZero && (at[first] as number) < base) first++;
      let s = 0;
      for (let q = first; q < nonZero && (at[q] as number) < base + g; q++) {
        const i = at[q] as number;
        s += (ext[i] as number) * (kernel[g - 1 - (i - base)] as number);
      }
      out[j] = s;
    }
    return out;
  }
  for (let j = 0; j < g; j++) {
    let s = 0;
    const base = start + j;
    for (let k = 0; k < g; k++) s += (ext[base + k] as number) * (kernel[g - 1 - k] as number);
    out[j] = s;
  }
  return out;
}

/** Kernel smoothing of weights v at f, evaluated at t (relplot `GaussianKernel.apply` with reflection). */
function apply(f: Float64Array, v: ArrayLike<number>, t: Float64Array, sigma: number): Float64Array {
  const g = Math.floor(Math.max(2000, roundHalfEven(20 / sigma)) / 2) + 1;
  const smoothed = reflectedConvolve(roundToGrid(f, v, g), kernelValues(sigma, g));
  const bucket = 1 / (g - 1);
  const out = new Float64Array(t.length);
  for (let i = 0; i < t.length; i++) {
    const x = t[i] as number;
    const ind = Math.min(Math.max(Math.trunc(x * (g - 1)), 0), g - 2);
    const residual = (x - ind * bucket) / bucket;
    out[i] = (smoothed[ind] as number) * (1 - residual) + (smoothed[ind + 1] as number) * residual;
  }
  return out;
}

/** smECE at a fixed bandwidth (relplot `smooth_ece`); internal kernel. */
export function smoothEceAt(f: Float64Array, residual: Float64Array, sigma: number, w?: Float64Array): number {
  const m = Math.max(roundHalfEven(10 / sigma), 200);
  const t = new Float64Array(m);
  const step = 1 / (m - 1);
  for (let k = 0; k < m; k++) t[k] = k === m - 1 ? 1 : k * step;
  // frequency weights scale each pair's mass (splatting is linear: the same as repeating the pair)
  const ones = w ?? new Float64Array(f.length).fill(1);
  const ys = apply(f, w === undefined ? residual : residual.map((r, i) => r * (w[i] as number)), t, sigma);
  const dens = apply(f, ones, t, sigma);
  // relplot's density floor of 0.0001 samples, in weight units (see samplesPerWeight)
  const floor = w === undefined ? 0.0001 : 0.0001 / samplesPerWeight(w, weightUnit(w));
  let num = 0;
  let den = 0;
  for (let k = 0; k < m; k++) {
    const d = (dens[k] as number) + floor;
    num += Math.abs((ys[k] as number) / d) * d;
    den += d;
  }
  return num / den;
}

/**
 * Smooth ECE (Błasiok & Nakkiran): the calibration error of a kernel-smoothed reliability curve, with the bandwidth
 * chosen where it equals the error itself — a consistent, bin-free calibration measure.
 *
 * **Formula.** With residuals r_i = s_i − o_i, a Gaussian kernel K_σ reflected at 0 and 1, and an evaluation mesh t:
 * r̂(t) = Σ_i K_σ(t, s_i) r_i / (Σ_i K_σ(t, s_i) + 10⁻⁴), δ̂(t) = Σ_i K_σ(t, s_i) + 10⁻⁴;
 * smECE_σ = Σ_t |r̂(t)|·δ̂(t) / Σ_t δ̂(t). The automatic σ* is the largest σ (to 2⁻¹⁰ by bisection on (0, 1]) with
 * σ ≥ smECE_σ, and smECE = smECE_{σ*}.
 *
 * **Conventions.**
 * - Reproduces relplot 1.0.3 step by step: linear splatting onto max(2000, round(20/σ))//2 + 1 grid points,
 *   reflected discrete convolution, linear interpolation onto max(round(10/σ), 200) mesh points, the 10⁻⁴ density
 *   floor, bisection with 10 refinements and eps = 0.001.
 * - Top label by default; `target: 'positive-class'` measures P(y = 1) of two-class predictions.
 * - The convolution is computed directly (relplot's scipy may use an FFT; results agree to ~1e-15).
 *
 * **References.**
 * - Błasiok & Nakkiran, "Smooth ECE: Principled Reliability Diagrams via Kernel Smoothing", ICLR 2024,
 *   arXiv:2309.12236.
 * - Błasiok, Gopalan, Hu & Nakkiran, "A Unifying Theory of Distance from Calibration", STOC 2023, arXiv:2211.16886.
 *
 * @param labels N integer labels.
 * @param scores [N, C] scores of the declared kind.
 * @param options `bandwidth`, `eps`, `target` and input options.
 * @returns `{ value, bandwidth }`: smECE and the σ used.
 * @throws {UMError} on invalid input or options (`bandwidth` outside [2^-10, 1]: its kernel grid has 20/σ points).
 * @example
 * ```js
 * import { smoothEce } from 'uncertainty-metrics';
 * // relplot's own check: f = [0.25, 0.25, 0.55, 0.75, 0.75] against y = [0, 0, 1, 1, 1] (as positive-class pairs)
 * const r = smoothEce([0, 0, 1, 1, 1], [[0.75, 0.25], [0.75, 0.25], [0.45, 0.55], [0.25, 0.75], [0.25, 0.75]], { target: 'positive-class' });
 * [r.value, r.bandwidth]; // ≈ [0.19896183528561726, 0.2001953125]
 * ```
 */
export function smoothEce(
  labels: Labels,
  scores: Scores,
  options: SmoothEceOptions = {},
): { value: number; bandwidth: number } {
  checkOptions('smoothEce', options, INPUT_KEYS, ['target', 'bandwidth', 'eps', 'weights']);
  const fn = 'smoothEce';
  const eps = options.eps ?? 0.001;
  if (typeof eps !== 'number' || !(eps > 0 && eps < 1))
    fail('UM_OPTION', fn, 'options.eps', 'be a number in (0, 1)', { value: eps });
  const fixed = options.bandwidth;
  // the kernel grid has 20/σ points and the direct convolution costs its square: σ = 1e-308 asked for an array of
  // Infinity; 2^-10 is the finest bandwidth the automatic search reaches
  if (fixed !== undefined && (typeof fixed !== 'number' || !(fixed >= 2 ** -10 && fixed <= 1))) {
    fail('UM_OPTION', fn, 'options.bandwidth', 'be a number in [2^-10, 1] (0.0009765625 … 1)', {
      value: fixed,
      hint: 'the automatic search goes down to 2^-10; a finer kernel needs a grid of 20/bandwidth points',
    });
  }
  const { weights: _w, ...rest } = options;
  const { s, o } = calibrationPairs(fn, labels, scores, rest);
  const w = weightArray(fn, options.weights, s.length);
  const residual = Float64Array.from(s, (v, i) => v - (o[i] as number));
  if (fixed !== undefined) return { value: smoothEceAt(s, residual, fixed, w), bandwidth: fixed };
  const predicate = (alpha: number) => alpha < eps || alpha < smoothEceAt(s, residual, alpha, w);
  let sigma = 1;
  if (!predicate(1)) {
    let start = 1;
    let end = 0;
    for (let k = 0; k < 10; k++) {
      const mid = (start + end) / 2;
      if (predicate(mid)) end = mid;
      else start = mid;
    }
    sigma = start;
  }
  return { value: smoothEceAt(s, residual, sigma, w), bandwidth: sigma };
}
