import { INPUT_KEYS, checkOptions } from '../errors/checkOptions.js';
import { probMatrix } from '../input/probMatrix.js';
import type { InputOptions, ProbMatrix, Scores } from '../input/types.js';
import { markValidated } from '../input/validated.js';
import type { TemperatureParams } from './fitTemperature.js';
import { checkClasses, readHeader, readTemperatureFields } from './params.js';
import { logProbabilities } from './temperatureCore.js';

/** Validates temperature parameters (internal; shared with parseCalibrator). */
export function readTemperature(fn: string, params: unknown): TemperatureParams {
  const h = readHeader(fn, params, 'temperature');
  const { temperature, diagnostics } = readTemperatureFields(fn, params);
  return { ...h, temperature, diagnostics: diagnostics as TemperatureParams['diagnostics'] };
}

/**
 * log softmax(ℓ / T) of one row, written to `out` at `o`: from d_k = ℓ_k − max ℓ ≤ 0, so d_k / T ≤ 0 never
 * overflows, exp(d_k / T) ≤ 1 with one term exactly 1, and the log-sum lies in [0, ln C] — finite for every T in the
 * calibrator range and every row (entries ℓ = −∞, exact zeros, stay −∞ and give probability 0). Internal.
 */
export function scaledLogSoftmax(
  l: Float64Array,
  o: number,
  c: number,
  inv: number,
  out: Float64Array,
  to: number,
): void {
  let max = -Infinity;
  for (let k = 0; k < c; k++) max = Math.max(max, l[o + k] as number);
  let sum = 0;
  for (let k = 0; k < c; k++) sum += Math.exp(((l[o + k] as number) - max) * inv);
  const lse = Math.log(sum);
  for (let k = 0; k < c; k++) out[to + k] = ((l[o + k] as number) - max) * inv - lse;
}

/** softmax(ℓ / T) row by row, with exact log-probabilities kept (internal). */
export function scaleMatrix(p: ProbMatrix, t: number): ProbMatrix {
  const l = logProbabilities(p);
  const c = p.numClasses;
  const data = new Float64Array(p.n * c);
  const logData = new Float64Array(p.n * c);
  const inv = 1 / t;
  for (let o = 0; o < data.length; o += c) {
    scaledLogSoftmax(l, o, c, inv, logData, o);
    for (let k = 0; k < c; k++) data[o + k] = Math.exp(logData[o + k] as number);
  }
  return markValidated({
    kind: 'probabilities',
    data,
    logData,
    n: p.n,
    numClasses: c,
    input: 'logprobs',
    binary: p.binary,
  });
}

/**
 * Applies a fitted temperature: the calibrated probabilities softmax(z / T) (σ(z / T) for a binary head).
 *
 * **Formula.** p̂_ik = exp(z_ik / T) / Σ_j exp(z_ij / T), computed from log-probabilities ℓ = z − LSE(z), which
 * gives the same result.
 *
 * **Conventions.**
 * - The parameters are validated (`UM_CALIBRATOR` for a malformed object, another kind, a T outside [1e-6, 1e12] —
 *   see {@link parseCalibrator} — or data with another number of classes); the scores are declared like every input
 *   (logits, log-probabilities or probabilities).
 * - Computed from ℓ_k − max ℓ ≤ 0, so nothing overflows: every valid T and every valid row give finite
 *   probabilities summing to 1 (T = 1e-6: one-hot on the argmax, ties shared; T = 1e12: uniform over non-zero
 *   entries to ~1e-10).
 * - Returns validated probabilities (with exact log-probabilities) that every metric accepts directly. The
 *   predicted class never changes.
 *
 * **References.**
 * - Guo, Pleiss, Sun & Weinberger, ICML 2017, arXiv:1706.04599.
 *
 * @param params from {@link fitTemperature} or {@link parseCalibrator}.
 * @param scores [N, C] scores of the declared kind (same classes as at fitting).
 * @param options input options.
 * @returns validated probabilities [N, C].
 * @throws {UMError} `UM_CALIBRATOR` for bad parameters or mismatched classes; input errors as every metric.
 * @example
 * ```js
 * import { applyTemperature, fitTemperature } from 'uncertainty-metrics';
 * const t = fitTemperature([0, 1, 1], [[4, 0], [0, 4], [4, 0]], { input: 'logits' });
 * Array.from(applyTemperature({ ...t, temperature: 2 }, [[4, 0]], { input: 'logits' }).data); // ≈ [0.880797078, 0.119202922]
 * ```
 */
export function applyTemperature(params: TemperatureParams, scores: Scores, options: InputOptions = {}): ProbMatrix {
  return applyTemperatureAs('applyTemperature', params, scores, options);
}

/** {@link applyTemperature} naming `fn` in errors (internal; shared with applyCalibrator). */
export function applyTemperatureAs(fn: string, params: unknown, scores: Scores, options: InputOptions): ProbMatrix {
  const t = readTemperature(fn, params);
  checkOptions(fn, options, INPUT_KEYS);
  const p = probMatrix(fn, scores, options);
  checkClasses(fn, t, p.numClasses);
  return scaleMatrix(p, t.temperature);
}
