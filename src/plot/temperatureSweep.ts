import { scaleMatrix } from '../calibrate/applyTemperature.js';
import { fitTemperature } from '../calibrate/fitTemperature.js';
import { logProbabilities } from '../calibrate/temperatureCore.js';
import { calibrationDefinition } from '../calibration/calibrationError.js';
import { UCE } from '../calibration/uce.js';
import type { Member } from '../engine/computation.js';
import type { MetricDefinition } from '../engine/definition.js';
import { valueOf } from '../engine/inputs.js';
import { runSuite, type Suite } from '../engine/suite.js';
import { fail } from '../errors/fail.js';
import { INPUT_KEYS, checkOptions } from '../errors/checkOptions.js';
import { MAX_COUNT } from '../errors/checkCount.js';
import { within } from '../errors/within.js';
import { TEMPERATURE_RANGE, TEMPERATURE_RANGE_TEXT } from '../calibrate/params.js';
import type { InputOptions, Labels, Scores } from '../input/types.js';
import { probMatrix } from '../input/probMatrix.js';
import { markValidated } from '../input/validated.js';
import { NLL } from '../scores/nll.js';
import { emitWarning, type WarningOptions } from '../warnings/warnings.js';

/** Metrics of temperature-scaled predictions over a range of temperatures, and the NLL-optimal temperature. */
export interface TemperatureSweep {
  readonly rows: ReadonlyArray<{
    readonly metric: 'NLL' | 'ECE' | 'UCE';
    readonly temperature: number;
    readonly value: number;
  }>;
  /** The fitted (NLL-optimal) temperature and the metrics there. */
  readonly optimum: { readonly temperature: number; readonly NLL: number; readonly ECE: number; readonly UCE: number };
}

/** Options of {@link temperatureSweep}. */
export interface TemperatureSweepOptions extends InputOptions, WarningOptions {
  /** Temperatures to evaluate, each in [1e-6, 1e12] (default 41 points from T* ÷ 4 to 4·T* on a log scale, plus T = 1). */
  temperatures?: readonly number[];
}

/**
 * NLL, ECE and UCE of softmax(z / T) over a range of temperatures, with the NLL-optimal T — the data of the UCE paper's
 * Fig. 5 (metrics compared at the optimal temperature), for {@link temperatureChart}.
 *
 * **Formula.** For each T: {@link uncertainty-metrics!nll}, {@link uncertainty-metrics!ece},
 * {@link uncertainty-metrics!uce} of {@link uncertainty-metrics!applyTemperature} with T; T* from
 * {@link fitTemperature}.
 *
 * **Conventions.**
 * - Probabilities are scaled as ln p / T (see {@link fitTemperature}); 15 equal-width bins for ECE and UCE.
 * - A label of probability exactly 0 makes the NLL Infinity at every temperature: one `UM_W_INFINITE` warning.
 *
 * **References.**
 * - "Uncertainty Calibration Error…", ICLR 2020 submission, Fig. 5; Guo et al., ICML 2017, arXiv:1706.04599.
 *
 * @param labels N integer labels.
 * @param scores [N, C] logits (declare `input: 'logits'`), log-probabilities or probabilities.
 * @param options `temperatures`, input options and `onWarning`.
 * @returns a {@link TemperatureSweep}.
 * @throws {UMError} on invalid input or options.
 * @example
 * ```js
 * import { temperatureSweep } from 'uncertainty-metrics/plot';
 * const s = temperatureSweep([0, 1, 1], [[3, 0], [0, 3], [3, 0]], { input: 'logits', temperatures: [1, 2] });
 * [s.rows.length, s.optimum.temperature > 1]; // => [6, true]
 * ```
 */
export function temperatureSweep(
  labels: Labels,
  scores: Scores,
  options: TemperatureSweepOptions = {},
): TemperatureSweep {
  const fn = 'temperatureSweep';
  checkOptions(fn, options, INPUT_KEYS, ['temperatures', 'onWarning']);
  const { temperatures, onWarning: _w, ...input } = options;
  if (temperatures !== undefined) {
    if (!Array.isArray(temperatures) || temperatures.length === 0)
      fail('UM_OPTION', fn, 'options.temperatures', 'be a non-empty array of numbers > 0', { value: temperatures });
    if (temperatures.length > MAX_COUNT)
      fail('UM_OPTION', fn, 'options.temperatures', `hold at most ${MAX_COUNT} temperatures`, { value: temperatures });
    Array.from(temperatures).forEach((t, i) => {
      if (typeof t !== 'number' || !(t > 0) || !Number.isFinite(t))
        fail('UM_OPTION', fn, 'options.temperatures', 'be finite numbers > 0', { index: [i], value: t });
      // the temperatures a calibrator can hold (applyTemperature's range), so every row is a scaled softmax
      if (t < TEMPERATURE_RANGE[0] || t > TEMPERATURE_RANGE[1])
        fail('UM_OPTION', fn, 'options.temperatures', `be in ${TEMPERATURE_RANGE_TEXT}`, { index: [i], value: t });
    });
  }
  const result = within(fn, () => sweep(labels, scores, input, temperatures));
  // the NLLs are computed quietly, one per temperature: an infinite one is said once (it was silent)
  if (result.rows.some((r) => r.value === Infinity) || result.optimum.NLL === Infinity) {
    emitWarning(options, {
      code: 'UM_W_INFINITE',
      fn,
      message: `${fn}: a label has probability exactly 0, so the NLL is Infinity at every temperature`,
    });
  }
  return result;
}

/**
 * NLL, ECE and UCE with their default options, as one computation: the three public functions' definitions on one
 * validated batch, so the labels are read and the row statistics computed once per temperature, not once per metric
 * (each value is the function's own: every metric has its own stores).
 */
const METRICS = ['NLL', 'ECE', 'UCE'] as const;
const DEFINITIONS: Record<(typeof METRICS)[number], MetricDefinition> = {
  NLL: NLL as MetricDefinition,
  ECE: calibrationDefinition('ece') as MetricDefinition,
  UCE: UCE as MetricDefinition,
};
let members: Member[] | undefined;
const SWEEP: Suite<Record<(typeof METRICS)[number], number>> = {
  name: 'temperatureSweep',
  keys: [],
  // resolved once (the defaults do not depend on the data): the computation's plan is kept with the list
  members: (fn) =>
    (members ??= METRICS.map((key) => ({ key, def: DEFINITIONS[key], config: DEFINITIONS[key].resolve(fn, {}) }))),
  assemble: (outcomes) => {
    const out = {} as Record<(typeof METRICS)[number], number>;
    for (const key of METRICS) out[key] = valueOf(outcomes.get(key)) as number;
    return out;
  },
};

function sweep(
  labels: Labels,
  scores: Scores,
  input: InputOptions,
  temperatures: readonly number[] | undefined,
): TemperatureSweep {
  const fitted = fitTemperature(labels, scores, { ...input, onWarning: () => undefined });
  const t0 = fitted.temperature;
  // the default grid stays within the temperatures a calibrator can hold (a fit at a bound of the range)
  const inRange = (t: number) => t >= TEMPERATURE_RANGE[0] && t <= TEMPERATURE_RANGE[1];
  const grid =
    temperatures ??
    [...Array.from({ length: 41 }, (_, i) => t0 * 4 ** ((i - 20) / 20)), 1].filter(inRange).sort((a, b) => a - b);
  // applyTemperature's scaling (scaleMatrix) of the scores validated once, with their log-probabilities: from
  // probabilities, ln p was taken again at every one of the ~43 temperatures, and each metric read the labels and row
  // statistics apart (measured on mlp_overfit's 2000 × 10 probabilities: 70 → 57 ms a sweep, the same numbers)
  const p = probMatrix('temperatureSweep', scores, input);
  const logged = p.logData !== undefined ? p : markValidated({ ...p, logData: logProbabilities(p) });
  const at = (t: number) =>
    runSuite(SWEEP, 'temperatureSweep', labels, scaleMatrix(logged, t), { onWarning: () => undefined });
  const rows = grid.flatMap((t) => {
    const m = at(t);
    return METRICS.map((metric) => ({ metric, temperature: t, value: m[metric] }));
  });
  return { rows, optimum: { temperature: t0, ...at(t0) } };
}
