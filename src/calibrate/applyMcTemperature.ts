import { ENSEMBLE_KEYS, checkOptions } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import { ensembleMatrix } from '../input/ensembleMatrix.js';
import type { EnsembleOptions, EnsembleScores, ProbMatrix } from '../input/types.js';
import { markValidated } from '../input/validated.js';
import { memberLogProbabilities, type McTemperatureParams } from './fitMcTemperature.js';
import { scaledLogSoftmax } from './applyTemperature.js';
import { checkClasses, field, readHeader, readTemperatureFields } from './params.js';

/** Validates MC temperature parameters (internal; shared with parseCalibrator). */
export function readMcTemperature(fn: string, params: unknown): McTemperatureParams {
  const h = readHeader(fn, params, 'mc-temperature');
  const { temperature, diagnostics } = readTemperatureFields(fn, params);
  const objective = field(params, 'objective');
  if (objective !== 'predictive' && objective !== 'mean-nll')
    fail('UM_CALIBRATOR', fn, 'params.objective', "be 'predictive' or 'mean-nll'", { value: objective });
  return { ...h, temperature, objective, diagnostics: diagnostics as McTemperatureParams['diagnostics'] };
}

/**
 * Applies an MC-dropout / ensemble temperature: the averaged predictive distribution of the scaled passes.
 *
 * **Formula.** p̂(x) = (1/S)·Σ_s softmax(z_s(x) / T) (Laves et al. 2019, eq. 9); ln p̂ by log-sum-exp over passes.
 *
 * **Conventions.**
 * - Any number of passes S may be given (MC dropout draws new passes at test time); the classes must match.
 * - Returns validated probabilities [N, C] (with exact log-probabilities) that every metric accepts. T is validated
 *   to [1e-6, 1e12] (see {@link parseCalibrator}) and each pass is scaled from ℓ_k − max ℓ ≤ 0, so every valid T and
 *   pass gives finite probabilities summing to 1.
 *
 * **References.**
 * - Laves et al., arXiv:1909.13550, eq. 9.
 *
 * @param params from {@link fitMcTemperature} or {@link parseCalibrator}.
 * @param members [S, N, C] scores of the declared kind.
 * @param options ensemble input options.
 * @returns validated probabilities [N, C].
 * @throws {UMError} `UM_CALIBRATOR` for bad parameters or mismatched classes; input errors as every metric.
 * @example
 * ```js
 * import { applyMcTemperature, fitMcTemperature } from 'uncertainty-metrics';
 * const z = [[[4, 0]], [[0, 0]]];
 * const t = fitMcTemperature([0], z, { input: 'logits' });
 * Array.from(applyMcTemperature({ ...t, temperature: 1 }, z, { input: 'logits' }).data); // ≈ [0.741006895, 0.258993105]
 * ```
 */
export function applyMcTemperature(
  params: McTemperatureParams,
  members: EnsembleScores,
  options: EnsembleOptions = {},
): ProbMatrix {
  return applyMcTemperatureAs('applyMcTemperature', params, members, options);
}

/** {@link applyMcTemperature} naming `fn` in errors (internal; shared with applyCalibrator). */
export function applyMcTemperatureAs(
  fn: string,
  params: unknown,
  members: EnsembleScores,
  options: EnsembleOptions,
): ProbMatrix {
  const t = readMcTemperature(fn, params);
  checkOptions(fn, options, ENSEMBLE_KEYS);
  const e = ensembleMatrix(fn, members, options);
  checkClasses(fn, t, e.numClasses);
  const l = memberLogProbabilities(e);
  const { numMembers: s, n, numClasses: c } = e;
  const inv = 1 / t.temperature;
  const logData = new Float64Array(n * c);
  const data = new Float64Array(n * c);
  const scaled = new Float64Array(s * c);
  for (let i = 0; i < n; i++) {
    // scaled log-softmax of every pass, then ln p̄_k = LSE_s − ln S
    for (let m = 0; m < s; m++) scaledLogSoftmax(l, (m * n + i) * c, c, inv, scaled, m * c);
    for (let k = 0; k < c; k++) {
      let max = -Infinity;
      for (let m = 0; m < s; m++) max = Math.max(max, scaled[m * c + k] as number);
      let sum = 0;
      if (max !== -Infinity) for (let m = 0; m < s; m++) sum += Math.exp((scaled[m * c + k] as number) - max);
      const v = max === -Infinity ? -Infinity : max + Math.log(sum / s);
      logData[i * c + k] = v;
      data[i * c + k] = Math.exp(v);
    }
  }
  return markValidated({ kind: 'probabilities', data, logData, n, numClasses: c, input: 'logprobs', binary: false });
}
