import { weightArray, type WeightOptions } from '../input/weights.js';
import { automaticBandwidth, smoothEceAt } from './kernelSmoother.js';
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
  const { value, bandwidth } = smoothFit('smoothEce', labels, scores, options);
  return { value, bandwidth };
}

/**
 * The pairs, weights and bandwidth of a smooth ECE, and its value (internal; shared with `smoothReliability`, which
 * draws the curve of the same smoother).
 */
export function smoothFit(
  fn: string,
  labels: Labels,
  scores: Scores,
  options: SmoothEceOptions,
): { s: Float64Array; o: Float64Array; w: Float64Array | undefined; value: number; bandwidth: number } {
  const eps = options.eps ?? 0.001;
  if (typeof eps !== 'number' || !(eps > 0 && eps < 1))
    fail('UM_OPTION', fn, 'options.eps', 'be a number in (0, 1)', { value: eps });
  const fixed = options.bandwidth;
  // the kernel grid has 20/σ points and the convolution costs its square: σ = 1e-308 asked for an array of
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
  const bandwidth = fixed ?? automaticBandwidth(s, residual, eps, w);
  return { s, o, w, value: smoothEceAt(s, residual, bandwidth, w), bandwidth };
}
