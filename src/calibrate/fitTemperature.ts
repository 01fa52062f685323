import { INPUT_KEYS, checkOptions } from '../errors/checkOptions.js';
import { labelArray } from '../input/labelArray.js';
import { probMatrix } from '../input/probMatrix.js';
import type { InputOptions, Labels, Scores } from '../input/types.js';
import { header, type CalibratorHeader } from './params.js';
import { logProbabilities, scaledLogProbability, searchTemperature, type TemperatureDiagnostics, type TemperatureSearchOptions } from './temperatureCore.js';

/** A fitted temperature: plain JSON. */
export interface TemperatureParams extends CalibratorHeader<'temperature'> {
  /** T > 0: the calibrated prediction is softmax(z / T) (σ(z / T) for a binary head). */
  readonly temperature: number;
  readonly diagnostics: TemperatureDiagnostics;
}

/** Options of {@link fitTemperature}. */
export type FitTemperatureOptions = InputOptions & TemperatureSearchOptions;

export const SEARCH_KEYS = ['bounds', 'tolerance', 'maxEvaluations', 'onWarning'] as const;

/**
 * Temperature scaling: the single T > 0 that minimises the negative log-likelihood of softmax(z / T) on held-out
 * data — Guo et al.'s post-hoc calibration, which changes confidence but never the predicted class.
 *
 * **Formula.** T* = argmin_{T ∈ [T_min, T_max]} (1/N)·Σ_i −log softmax(z_i / T)_{y_i}; for a binary head
 * −log σ(±z_i / T).
 *
 * **Conventions.**
 * - Searched on ln T by Brent's method (bracket [0.001, 1000] by default, tolerance 1e-10 on ln T); the result is
 *   the best of the Brent iterate, both bounds and T = 1, so its NLL is never worse than at T = 1.
 * - A T at a bound gives a `UM_W_BOUND` warning and `diagnostics.atBound` (e.g. logits of ±5e10 whose NLL keeps
 *   falling as T grows); the parameters stay finite.
 * - Logits, log-probabilities or probabilities (used as ln p: softmax(ln p / T) = p^{1/T} normalised) are all
 *   declared; log-softmax via log-sum-exp in float64. Binary heads (`binary: true`, one logit per row) use σ(z / T).
 * - An exact 0 at a label makes the NLL infinite for every T: T = 1 is kept with a `UM_W_INFINITE` warning.
 *
 * **References.**
 * - Guo, Pleiss, Sun & Weinberger, "On Calibration of Modern Neural Networks", ICML 2017, arXiv:1706.04599.
 * - Brent, "Algorithms for Minimization without Derivatives", 1973, ch. 5.
 *
 * @param labels N integer labels of a validation split.
 * @param scores [N, C] logits (declare `input: 'logits'`), log-probabilities or probabilities; a vector with `binary: true`.
 * @param options input options, `bounds`, `tolerance`, `maxEvaluations`, `onWarning`.
 * @returns {@link TemperatureParams} (plain JSON: kind, T, what it was fitted on, diagnostics).
 * @throws {UMError} on invalid input or options.
 * @example
 * ```js
 * import { fitTemperature } from 'uncertainty-metrics';
 * // over-confident logits: one of three confident predictions is wrong, so T > 1 softens them
 * const t = fitTemperature([0, 1, 1], [[4, 0], [0, 4], [4, 0]], { input: 'logits' });
 * t.temperature > 1 && t.diagnostics.nllAfter < t.diagnostics.nllBefore; // => true
 * ```
 */
export function fitTemperature(labels: Labels, scores: Scores, options: FitTemperatureOptions = {}): TemperatureParams {
  const fn = 'fitTemperature';
  checkOptions(fn, options, INPUT_KEYS, SEARCH_KEYS);
  const p = probMatrix(fn, scores, options);
  const y = labelArray(fn, labels, p.n, p.numClasses);
  const l = logProbabilities(p);
  const c = p.numClasses;
  const nll = (t: number) => {
    const inv = 1 / t;
    let sum = 0;
    for (let i = 0; i < p.n; i++) sum -= scaledLogProbability(l, i * c, c, y[i] as number, inv);
    return sum / p.n;
  };
  const { temperature, diagnostics } = searchTemperature(fn, nll, options);
  return { ...header('temperature', { n: p.n, numClasses: c, input: p.input, binary: p.binary }), temperature, diagnostics };
}
