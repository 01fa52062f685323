import { ENSEMBLE_KEYS, checkOptions } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import { labelArray } from '../input/labelArray.js';
import type { EnsembleMatrix, EnsembleOptions, EnsembleScores, Labels } from '../input/types.js';
import { SEARCH_KEYS } from './fitTemperature.js';
import { header, type CalibratorHeader } from './params.js';
import { newtonTemperature, type TemperatureDiagnostics, type TemperatureSearchOptions } from './temperatureCore.js';
import { mcTemperatureInput } from './temperatureInput.js';
import { meanNllPass, predictivePass } from './temperaturePasses.js';

/**
 * The objective of MC / ensemble temperature scaling:
 * - `'predictive'` — NLL of the averaged predictive distribution p̄ = (1/S)·Σ_s softmax(z_s / T), the prediction
 *   that is actually used (Laves et al. 2019, eq. 9);
 * - `'mean-nll'` — the mean over passes of each pass's NLL, (1/S)·Σ_s NLL(softmax(z_s / T)): the objective of the
 *   entropy-maximisation derivation (Laves et al. 2019, appendix A.2, eqs. 13–16), which calibrates the passes one by one.
 */
export type McTemperatureObjective = 'predictive' | 'mean-nll';

/** A fitted MC-dropout / ensemble temperature: plain JSON. */
export interface McTemperatureParams extends CalibratorHeader<'mc-temperature'> {
  readonly temperature: number;
  readonly objective: McTemperatureObjective;
  readonly diagnostics: TemperatureDiagnostics;
}

/** Options of {@link fitMcTemperature}. */
export interface FitMcTemperatureOptions extends EnsembleOptions, TemperatureSearchOptions {
  /** What T minimises (default `'predictive'`). */
  objective?: McTemperatureObjective;
}

/** Log-probabilities of every member, exact from logits (internal). */
export function memberLogProbabilities(e: EnsembleMatrix): Float64Array {
  if (e.logData !== undefined) return e.logData;
  const out = new Float64Array(e.data.length);
  for (let i = 0; i < out.length; i++) out[i] = Math.log(e.data[i] as number);
  return out;
}

/**
 * Temperature scaling for MC dropout and ensembles: one T shared by all passes (members), applied to each pass's
 * logits before the softmax and before the average.
 *
 * **Formula.** p̂(x) = (1/S)·Σ_s softmax(z_s(x) / T) (Laves et al. 2019, eq. 9); T minimises `'predictive'`:
 * (1/N)·Σ_i −ln p̂(x_i)_{y_i}, or `'mean-nll'`: (1/(S·N))·Σ_s Σ_i −ln softmax(z_s(x_i) / T)_{y_i}.
 *
 * **Conventions.**
 * - `'predictive'` (default) fits the distribution that is used for predictions; `'mean-nll'` fits each pass as a
 *   single model (the appendix derivation). They differ (bundled MNIST deep ensemble: T = 2.078 vs 2.142).
 * - Members stacked [S, N, C] as everywhere (see {@link toEnsemble}); ln p̄ by log-sum-exp over members.
 * - Search as {@link fitTemperature}, on ln T in [0.001, 1000] (bounds within [1e-6, 1e12]), from the objective's
 *   exact derivatives (one pass over the S·N·C logits each): `'mean-nll'` is convex in 1/T (Halley steps, 4–6 passes);
 *   `'predictive'` need not be (Newton steps, a probed bound never ends the search, both bounds compared at the end):
 *   it returns a local minimum reached from T = 1, never worse than T = 1 or either bound. A bound as good as the
 *   minimum (a flat NLL) is preferred, and a T at a bound gives `UM_W_BOUND`.
 *
 * **References.**
 * - Laves, Ihler, Kortmann & Ortmaier, "Well-calibrated Model Uncertainty with Temperature Scaling for Dropout
 *   Variational Inference", arXiv:1909.13550, eq. 9 and appendix A.2.
 * - Guo et al., ICML 2017, arXiv:1706.04599.
 *
 * @param labels N integer labels of a validation split.
 * @param members [S, N, C] logits of the passes/members (declare `input: 'logits'`), or probabilities.
 * @param options `objective`, ensemble input options, `bounds`, `tolerance`, `maxEvaluations`, `onWarning`.
 * @returns {@link McTemperatureParams}.
 * @throws {UMError} on invalid input or options.
 * @example
 * ```js
 * import { fitMcTemperature } from 'uncertainty-metrics';
 * const z = [[[4, 0], [0, 4], [4, 0]], [[3, 0], [0, 5], [5, 0]]]; // 2 passes, 3 examples
 * const p = fitMcTemperature([0, 1, 1], z, { input: 'logits' });
 * const m = fitMcTemperature([0, 1, 1], z, { input: 'logits', objective: 'mean-nll' });
 * [p.temperature > 1, m.temperature > 1, p.objective]; // => [true, true, 'predictive']
 * ```
 */
export function fitMcTemperature(
  labels: Labels,
  members: EnsembleScores,
  options: FitMcTemperatureOptions = {},
): McTemperatureParams {
  const fn = 'fitMcTemperature';
  checkOptions(fn, options, ENSEMBLE_KEYS, SEARCH_KEYS, ['objective']);
  const { objective = 'predictive', bounds, tolerance, maxEvaluations, onWarning, ...input } = options;
  if (objective !== 'predictive' && objective !== 'mean-nll')
    fail('UM_OPTION', fn, 'options.objective', "be 'predictive' or 'mean-nll'", { value: objective });
  const v = mcTemperatureInput(fn, members, input);
  const { numMembers: s, n, c } = v;
  const y = labelArray(fn, labels, n, c);
  const search: TemperatureSearchOptions = {};
  if (bounds !== undefined) search.bounds = bounds;
  if (tolerance !== undefined) search.tolerance = tolerance;
  if (maxEvaluations !== undefined) search.maxEvaluations = maxEvaluations;
  if (onWarning !== undefined) search.onWarning = onWarning;
  // the mean NLL is convex in 1/T; the NLL of the averaged prediction need not be (S > 1)
  const pass = objective === 'mean-nll' ? meanNllPass(v, y) : predictivePass(v, y, s);
  const { temperature, diagnostics } = newtonTemperature(fn, pass, search, objective === 'mean-nll' || s === 1);
  return {
    ...header('mc-temperature', { n, numClasses: c, input: v.input, binary: false, numMembers: s }),
    temperature,
    objective,
    diagnostics,
  };
}
