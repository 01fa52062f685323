import { INPUT_KEYS, checkOptions } from '../errors/checkOptions.js';
import { labelArray } from '../input/labelArray.js';
import type { InputOptions, Labels, Scores } from '../input/types.js';
import { header, type CalibratorHeader } from './params.js';
import { newtonTemperature, type TemperatureDiagnostics, type TemperatureSearchOptions } from './temperatureCore.js';
import { temperatureInput } from './temperatureInput.js';
import { meanNllPass } from './temperaturePasses.js';

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
 * - The NLL is convex in β = 1/T, so its minimiser is the zero of its increasing derivative: safeguarded Halley steps
 *   (Newton's, corrected by the third derivative) on ln β from T = 1, each one pass over the data giving the NLL and its
 *   first three derivatives, inside a bracket that every pass shrinks (search interval [0.001, 1000] by default), until
 *   the step in ln T is below the tolerance (1e-10): typically 4–6 passes (`diagnostics.evaluations`). That last point
 *   is returned (T = 1 if strictly better); a bound is tried only when the steps creep towards it without converging.
 * - One pass is a fused WebAssembly SIMD loop (exponential within 1 ulp of `Math.exp`; `useKernels('reference')` runs
 *   the TypeScript loop). Flat `Float32Array`/`Float64Array` logits are read as given — no probabilities are formed —
 *   and an invalid row (NaN, +∞, only −∞) is reported exactly as {@link toProbabilities} reports it.
 * - `bounds` must lie within [1e-6, 1e12], the temperatures a calibrator may hold (`UM_OPTION` otherwise): below
 *   1e-6, 1/T amplifies the rounding of float64 log-probabilities (~1e-16·ln C) past 1e-10 and every gap above
 *   ~1e-3 nats is already one-hot; 1e12 covers diverged logits (the bundled gnb_raw, ±5e10, fits T ≈ 5.2e8).
 * - A T at a bound gives a `UM_W_BOUND` warning and `diagnostics.atBound` (e.g. logits of ±5e10 whose NLL keeps
 *   falling as T grows); the parameters stay finite. Also when the NLL is flat out to the bound (separable data: the
 *   exponentials underflow and the NLL is exactly 0 from some T down): the bound is reported, with the warning.
 * - Logits, log-probabilities or probabilities (used as ln p: softmax(ln p / T) = p^{1/T} normalised) are all
 *   declared; log-softmax via log-sum-exp in float64. Binary heads (`binary: true`, one logit per row) use σ(z / T).
 * - An exact 0 at a label makes the NLL infinite for every T: T = 1 is kept with a `UM_W_INFINITE` warning.
 *
 * **References.**
 * - Guo, Pleiss, Sun & Weinberger, "On Calibration of Modern Neural Networks", ICML 2017, arXiv:1706.04599.
 * - Nocedal & Wright, "Numerical Optimization", 2nd ed., Springer 2006, ch. 3 (Newton's method with step halving),
 *   doi:10.1007/978-0-387-40065-5.
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
  const v = temperatureInput(fn, scores, options);
  const y = labelArray(fn, labels, v.rows, v.c);
  const { temperature, diagnostics } = newtonTemperature(fn, meanNllPass(v, y), options);
  return {
    ...header('temperature', { n: v.rows, numClasses: v.c, input: v.input, binary: v.binary }),
    temperature,
    diagnostics,
  };
}
