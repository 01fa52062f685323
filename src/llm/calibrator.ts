import { applyHistogramBinningAs } from '../calibrate/applyHistogramBinning.js';
import { applyIsotonicAs } from '../calibrate/applyIsotonic.js';
import { applyTemperatureAs } from '../calibrate/applyTemperature.js';
import { fitHistogramBinning, type HistogramBinningParams } from '../calibrate/fitHistogramBinning.js';
import { fitIsotonic, type IsotonicParams } from '../calibrate/fitIsotonic.js';
import { fitTemperature, type TemperatureParams } from '../calibrate/fitTemperature.js';
import { readCalibrator } from '../calibrate/parseCalibrator.js';
import { checkOptions } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import type { ProbMatrix } from '../input/types.js';
import { VERSION } from '../version.js';
import type { WarningOptions } from '../warnings/warnings.js';
import { checkRead, goldIndices } from './gold.js';
import {
  READING_KEYS,
  readResponses,
  readingOf,
  type LabelProbabilities,
  type LabelReading,
} from './labelProbabilities.js';
import { renamed } from './renamed.js';
import type { Provenance } from './rows.js';

/** The calibrators an LLM calibrator wraps. */
export type LlmCalibrationMethod = 'temperature' | 'histogram' | 'isotonic';

/** Options of {@link fitLlmCalibrator}. */
export interface FitLlmCalibratorOptions extends WarningOptions {
  /** Default: `'temperature'` for token log-probabilities, `'isotonic'` for verbal or sampled confidences. */
  method?: LlmCalibrationMethod;
  /** Fit across rows of different provenance (default false: refused). */
  allowMixed?: boolean;
  /** Temperature: the search interval (as {@link fitTemperature}). */
  bounds?: readonly [number, number];
  /** Histogram: number of bins (default 15). */
  bins?: number;
  /** Histogram: bin construction (default `'equal-width'`). */
  binning?: 'equal-width' | 'equal-mass';
}

/** A fitted LLM calibrator: how responses are read, and the calibrator of the label probabilities. Plain JSON. */
export interface LlmCalibratorParams {
  readonly format: 'uncertainty-metrics/llm-calibrator';
  readonly version: 1;
  readonly library: string;
  /** The reading of the fit: verbalizer, response format, position, missing-label policy, confidence words. */
  readonly reading: LabelReading;
  /** The provenance of the rows it was fitted on (`'mixed'` only with `allowMixed`). */
  readonly provenance: Provenance | 'mixed';
  readonly calibrator: TemperatureParams | HistogramBinningParams | IsotonicParams;
}

const METHODS: readonly LlmCalibrationMethod[] = ['temperature', 'histogram', 'isotonic'];

/** Counts of each provenance, e.g. `412 logprob, 37 verbal` (internal). */
function provenanceCounts(provenance: readonly Provenance[]): string {
  const counts = new Map<string, number>();
  for (const p of provenance) counts.set(p, (counts.get(p) ?? 0) + 1);
  return [...counts].map(([p, k]) => `${k} ${p}`).join(', ');
}

/**
 * Fits a calibrator of LLM label probabilities and keeps how they were read, so that applying it to new responses
 * reproduces the training-time mapping.
 *
 * **Formula.** That of the method on the label probabilities: temperature scaling softmax(ln p / T) of the label
 * log-probabilities ({@link fitTemperature}), histogram binning or isotonic regression ({@link fitHistogramBinning},
 * {@link fitIsotonic}).
 *
 * **Conventions.**
 * - Rows of different provenance (token log-probabilities, verbalized confidences, sampled frequencies) state
 *   confidence in different ways, so one map cannot fit them all: mixed rows are refused (`UM_OPTION`) unless
 *   `allowMixed: true`.
 * - The default method is temperature scaling for log-probabilities (it keeps the ranking and the predicted label)
 *   and isotonic regression for verbal and sampled confidences (which cluster on a few values such as 0.8, 0.9).
 * - `gold` has one entry per response read (see {@link goldLabels}).
 * - The stored `reading` holds the verbalizer, response format, answer position, missing-label policy and
 *   confidence words; the wrapped calibrator is the library's own (validated by {@link parseLlmCalibrator}).
 *
 * **References.**
 * - Guo, Pleiss, Sun & Weinberger, ICML 2017, arXiv:1706.04599 (temperature scaling).
 * - Zadrozny & Elkan, KDD 2002 (histogram binning, isotonic regression).
 * - Tian et al., EMNLP 2023, arXiv:2305.14975 (verbalized confidences).
 *
 * @param gold one gold label per response (name or index).
 * @param read label probabilities from {@link labelProbabilities} on a calibration split.
 * @param options `method`, `allowMixed`, `bounds`, `bins`, `binning`, `onWarning`.
 * @returns {@link LlmCalibratorParams}.
 * @throws {UMError} `UM_OPTION` for mixed provenance or bad options; `UM_LABEL`, `UM_SHAPE` for bad gold labels.
 * @example
 * ```js
 * import { fitLlmCalibrator, labelProbabilities } from 'uncertainty-metrics/llm';
 * const judge = (p) => ({ choices: [{ logprobs: { content: [{ token: 'yes', logprob: Math.log(p),
 *   top_logprobs: [{ token: 'yes', logprob: Math.log(p) }, { token: 'no', logprob: Math.log(1 - p) }] }] } }] });
 * // over-confident: 0.95 for yes, right only 3 times in 4
 * const read = labelProbabilities([judge(0.95), judge(0.95), judge(0.95), judge(0.95)], ['yes', 'no']);
 * const cal = fitLlmCalibrator(['yes', 'yes', 'yes', 'no'], read);
 * [cal.calibrator.kind, cal.calibrator.temperature > 1]; // => ['temperature', true]
 * ```
 */
export function fitLlmCalibrator(
  gold: ArrayLike<string | number | null>,
  read: LabelProbabilities,
  options: FitLlmCalibratorOptions = {},
): LlmCalibratorParams {
  const fn = 'fitLlmCalibrator';
  checkOptions(fn, options, ['method', 'allowMixed', 'bounds', 'bins', 'binning', 'onWarning']);
  const r = checkRead(fn, 'read', read);
  if (r.calibrated !== undefined)
    fail('UM_OPTION', fn, 'read', 'be uncalibrated label probabilities (from labelProbabilities)', {
      value: `calibrated by ${r.calibrated}`,
    });
  if (options.allowMixed !== undefined && typeof options.allowMixed !== 'boolean')
    fail('UM_OPTION', fn, 'options.allowMixed', 'be true or false', { value: options.allowMixed });
  const kinds = [...new Set(r.provenance)];
  if (kinds.length > 1 && options.allowMixed !== true)
    fail('UM_OPTION', fn, 'read', 'hold rows of one provenance: their confidences mean different things', {
      value: provenanceCounts(r.provenance),
      hint: 'fit one calibrator per provenance, or pass allowMixed: true',
    });
  const provenance = kinds.length > 1 ? 'mixed' : (kinds[0] as Provenance);
  const method = options.method ?? (provenance === 'logprob' ? 'temperature' : 'isotonic');
  if (!METHODS.includes(method))
    fail('UM_OPTION', fn, 'options.method', `be one of ${METHODS.map((m) => `'${m}'`).join(', ')}`, { value: method });
  const given = (k: 'bounds' | 'bins' | 'binning') => options[k] !== undefined;
  for (const [k, m] of [
    ['bounds', 'temperature'],
    ['bins', 'histogram'],
    ['binning', 'histogram'],
  ] as const)
    if (given(k) && method !== m) fail('UM_OPTION', fn, `options.${k}`, `not be given with method '${method}'`);
  const y = goldIndices(fn, r, gold);
  const calibrator = renamed(fn, () => {
    if (method === 'temperature')
      return fitTemperature(y, r.probs, {
        ...(options.bounds === undefined ? {} : { bounds: options.bounds }),
        ...(options.onWarning === undefined ? {} : { onWarning: options.onWarning }),
      });
    if (method === 'histogram')
      return fitHistogramBinning(y, r.probs, {
        ...(options.bins === undefined ? {} : { bins: options.bins }),
        ...(options.binning === undefined ? {} : { binning: options.binning }),
      });
    return fitIsotonic(y, r.probs);
  });
  return {
    format: 'uncertainty-metrics/llm-calibrator',
    version: 1,
    library: VERSION,
    reading: r.config,
    provenance,
    calibrator,
  };
}

/** Validates an LLM calibrator field by field (internal; `UM_CALIBRATOR` naming the field). */
export function readLlmCalibrator(fn: string, value: unknown): LlmCalibratorParams {
  let p = value;
  if (typeof value === 'string') {
    try {
      p = JSON.parse(value) as unknown;
    } catch {
      fail('UM_CALIBRATOR', fn, 'params', 'be valid JSON', {
        value: value.length > 40 ? `${value.slice(0, 40)}…` : value,
      });
    }
  }
  const o = p as Record<string, unknown>;
  if (o === null || typeof o !== 'object' || Array.isArray(o))
    fail('UM_CALIBRATOR', fn, 'params', 'be an LLM calibrator (from fitLlmCalibrator)', { value: p });
  if (o.format !== 'uncertainty-metrics/llm-calibrator')
    fail('UM_CALIBRATOR', fn, 'params.format', 'be "uncertainty-metrics/llm-calibrator"', { value: o.format });
  if (o.version !== 1) fail('UM_CALIBRATOR', fn, 'params.version', 'be 1', { value: o.version });
  if (typeof o.library !== 'string') fail('UM_CALIBRATOR', fn, 'params.library', 'be a string', { value: o.library });
  if (!['logprob', 'verbal', 'sampled', 'mixed'].includes(o.provenance as string))
    fail('UM_CALIBRATOR', fn, 'params.provenance', "be 'logprob', 'verbal', 'sampled' or 'mixed'", {
      value: o.provenance,
    });
  const stored = o.reading as Record<string, unknown> | null;
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored))
    fail('UM_CALIBRATOR', fn, 'params.reading', 'be an object', { value: stored });
  // every field present: a default filled in here would read responses differently from the fit
  for (const k of ['verbalizer', ...READING_KEYS])
    if (!(k in stored)) fail('UM_CALIBRATOR', fn, `params.reading.${k}`, 'be given', { value: undefined });
  const { verbalizer: v, ...rest } = stored;
  const reading = renamed(
    fn,
    () => readingOf(fn, v, rest, 'params.reading', 'params.reading.verbalizer'),
    'UM_CALIBRATOR',
  );
  const calibrator = readCalibrator(fn, o.calibrator);
  if (!['temperature', 'histogram-binning', 'isotonic'].includes(calibrator.kind))
    fail('UM_CALIBRATOR', fn, 'params.calibrator.kind', "be 'temperature', 'histogram-binning' or 'isotonic'", {
      value: calibrator.kind,
    });
  if (calibrator.fittedOn.numClasses !== reading.verbalizer.labels.length)
    fail(
      'UM_CALIBRATOR',
      fn,
      'params.calibrator.fittedOn.numClasses',
      `be the number of labels (${reading.verbalizer.labels.length})`,
      {
        value: calibrator.fittedOn.numClasses,
      },
    );
  return {
    format: 'uncertainty-metrics/llm-calibrator',
    version: 1,
    library: o.library,
    reading,
    provenance: o.provenance as LlmCalibratorParams['provenance'],
    calibrator: calibrator as LlmCalibratorParams['calibrator'],
  };
}

/**
 * Reads and validates a saved LLM calibrator (JSON text or a parsed object), so that a corrupted or foreign file is
 * rejected here instead of reading responses differently later.
 *
 * **Formula.** Not applicable (validation).
 *
 * **Conventions.**
 * - Checks `format` ("uncertainty-metrics/llm-calibrator"), `version` (1), the provenance, every field of the
 *   reading (all present: none is filled in with a default) and the wrapped calibrator as `parseCalibrator`
 *   does, which must be fitted on as many classes as there are labels.
 *
 * **References.** None.
 *
 * @param json JSON text or an object.
 * @returns {@link LlmCalibratorParams}.
 * @throws {UMError} `UM_CALIBRATOR` naming the first bad field.
 * @example
 * ```js
 * import { fitLlmCalibrator, labelProbabilities, parseLlmCalibrator } from 'uncertainty-metrics/llm';
 * const say = (t) => ({ choices: [{ message: { content: t } }] });
 * const read = labelProbabilities([say('yes, 90%'), say('no, 80%'), say('yes, 70%')], ['yes', 'no']);
 * const cal = fitLlmCalibrator(['yes', 'no', 'no'], read);
 * parseLlmCalibrator(JSON.stringify(cal)).calibrator.kind; // => 'isotonic'
 * ```
 */
export function parseLlmCalibrator(json: string | object): LlmCalibratorParams {
  return readLlmCalibrator('parseLlmCalibrator', json);
}

/**
 * Applies an LLM calibrator: reads the responses exactly as at fitting (same verbalizer, format, position and
 * policy), then calibrates their label probabilities.
 *
 * **Formula.** p̂ = calibrator(p), p the label probabilities read with `params.reading`.
 *
 * **Conventions.**
 * - `responses` are raw responses (read here with the stored reading; only `onInvalid` may differ, e.g.
 *   `'exclude'` at inference), or label probabilities already read, whose reading must equal the stored one
 *   (`UM_CALIBRATOR` otherwise — the mapping would differ).
 * - Rows of another provenance than the fit's are refused (`UM_CALIBRATOR`), unless the calibrator was fitted with
 *   `allowMixed` or `allowMixed: true` is passed here.
 * - Returns the label probabilities with `probs` calibrated and `calibrated` naming the kind; the per-row reports
 *   (`outside`, `bound`, `excluded` …) are those of the reading.
 *
 * **References.** See {@link fitLlmCalibrator}.
 *
 * @param params from {@link fitLlmCalibrator} or {@link parseLlmCalibrator}.
 * @param responses raw responses, or label probabilities read with the same reading.
 * @param options `onInvalid`, `allowMixed`.
 * @returns {@link LabelProbabilities} with calibrated `probs`.
 * @throws {UMError} `UM_CALIBRATOR` for bad parameters or another reading; `UM_RESPONSE` as {@link labelProbabilities}.
 * @example
 * ```js
 * import { applyLlmCalibrator, fitLlmCalibrator, labelProbabilities } from 'uncertainty-metrics/llm';
 * const judge = (p) => ({ choices: [{ logprobs: { content: [{ token: 'yes', logprob: Math.log(p),
 *   top_logprobs: [{ token: 'yes', logprob: Math.log(p) }, { token: 'no', logprob: Math.log(1 - p) }] }] } }] });
 * const train = [judge(0.95), judge(0.95), judge(0.95), judge(0.95)];
 * const cal = fitLlmCalibrator(['yes', 'yes', 'yes', 'no'], labelProbabilities(train, ['yes', 'no']));
 * applyLlmCalibrator(cal, [judge(0.95)]).probs.data[0]; // ≈ 0.75
 * ```
 */
export function applyLlmCalibrator(
  params: LlmCalibratorParams,
  responses: readonly unknown[] | LabelProbabilities,
  options: { onInvalid?: 'error' | 'exclude'; allowMixed?: boolean } = {},
): LabelProbabilities {
  const fn = 'applyLlmCalibrator';
  const p = readLlmCalibrator(fn, params);
  checkOptions(fn, options, ['onInvalid', 'allowMixed']);
  if (options.allowMixed !== undefined && typeof options.allowMixed !== 'boolean')
    fail('UM_OPTION', fn, 'options.allowMixed', 'be true or false', { value: options.allowMixed });
  const onInvalid = options.onInvalid ?? p.reading.onInvalid;
  if (onInvalid !== 'error' && onInvalid !== 'exclude')
    fail('UM_OPTION', fn, 'options.onInvalid', "be 'error' or 'exclude'", { value: onInvalid });
  let read: LabelProbabilities;
  if (Array.isArray(responses)) read = readResponses(fn, responses, { ...p.reading, onInvalid });
  else {
    read = checkRead(fn, 'responses', responses);
    const same = (r: LabelReading): string => {
      try {
        return JSON.stringify({ ...r, onInvalid: null });
      } catch {
        return 'not JSON'; // a forged config (BigInt, cycles) is never the stored reading
      }
    };
    if (read.calibrated !== undefined || same(read.config) !== same(p.reading))
      fail('UM_CALIBRATOR', fn, 'responses', 'be read as at fitting (params.reading), uncalibrated', {
        value:
          read.calibrated === undefined ? 'label probabilities read another way' : `calibrated by ${read.calibrated}`,
        hint: 'pass the raw responses to read them with the stored reading',
      });
  }
  if (p.provenance !== 'mixed' && options.allowMixed !== true) {
    const other = read.provenance.findIndex((x) => x !== p.provenance);
    if (other >= 0)
      fail('UM_CALIBRATOR', fn, 'responses', `give ${p.provenance} rows, as the calibrator was fitted on`, {
        index: [read.rows[other] as number],
        value: read.provenance[other],
        hint: 'pass allowMixed: true to apply it anyway',
      });
  }
  const apply = {
    temperature: applyTemperatureAs,
    'histogram-binning': applyHistogramBinningAs,
    isotonic: applyIsotonicAs,
  }[p.calibrator.kind];
  const probs: ProbMatrix = apply(fn, p.calibrator, read.probs, {});
  return { ...read, probs, calibrated: p.calibrator.kind };
}
