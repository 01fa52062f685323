import { fail } from '../errors/fail.js';
import { VERSION } from '../version.js';

/** The calibrators this library fits. */
export type CalibratorKind = 'temperature' | 'mc-temperature' | 'platt' | 'histogram-binning' | 'isotonic' | 'top-binning';

export const CALIBRATOR_KINDS: readonly CalibratorKind[] = ['temperature', 'mc-temperature', 'platt', 'histogram-binning', 'isotonic', 'top-binning'];

/** What a calibrator was fitted on. */
export interface FittedOn {
  /** Examples. */
  readonly n: number;
  /** Classes C (2 for binary heads). */
  readonly numClasses: number;
  /** Declared kind of the scores it was fitted on. */
  readonly input: 'probs' | 'logits' | 'logprobs';
  /** A binary head (one score per example). */
  readonly binary: boolean;
  /** Ensemble members or MC-dropout passes S (stacked inputs only). */
  readonly numMembers?: number;
}

/** The part every fitted calibrator shares: plain JSON, self-describing. */
export interface CalibratorHeader<K extends CalibratorKind = CalibratorKind> {
  readonly format: 'uncertainty-metrics/calibrator';
  /** Version of this JSON layout (1). */
  readonly version: 1;
  /** Library version that fitted it. */
  readonly library: string;
  readonly kind: K;
  readonly fittedOn: FittedOn;
}

/** The header of a newly fitted calibrator (internal). */
export function header<K extends CalibratorKind>(kind: K, fittedOn: FittedOn): CalibratorHeader<K> {
  return { format: 'uncertainty-metrics/calibrator', version: 1, library: VERSION, kind, fittedOn };
}

/** Reads a field of a JSON object (internal). */
export function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/** A finite number field, optionally bounded, or `UM_CALIBRATOR` (internal). */
export function numberField(fn: string, obj: unknown, path: string, key: string, check: (v: number) => boolean = () => true, requirement = 'be a finite number'): number {
  const v = field(obj, key);
  if (typeof v !== 'number' || !Number.isFinite(v) || !check(v)) fail('UM_CALIBRATOR', fn, `${path}.${key}`, requirement, { value: v });
  return v;
}

/** An array of finite numbers field, or `UM_CALIBRATOR` (internal). */
export function numbersField(fn: string, obj: unknown, path: string, key: string, length?: number): number[] {
  const v = field(obj, key);
  if (!Array.isArray(v) || (length !== undefined && v.length !== length)) {
    fail('UM_CALIBRATOR', fn, `${path}.${key}`, length === undefined ? 'be an array of numbers' : `be an array of ${length} numbers`, { value: v });
  }
  v.forEach((x: unknown, i) => {
    if (typeof x !== 'number' || !Number.isFinite(x)) fail('UM_CALIBRATOR', fn, `${path}.${key}`, 'hold finite numbers', { index: [i], value: x });
  });
  return v as number[];
}

/**
 * Validates the header of a calibrator given to `fn` and that it is of `kind`: every field present and of the right
 * type, so a corrupted or foreign file fails here with `UM_CALIBRATOR` instead of producing numbers (internal).
 */
export function readHeader<K extends CalibratorKind>(fn: string, params: unknown, kind: K): CalibratorHeader<K> {
  if (params === null || typeof params !== 'object' || Array.isArray(params)) {
    fail('UM_CALIBRATOR', fn, 'params', 'be a calibrator object (from a fit… function or parseCalibrator)', { value: params });
  }
  if (field(params, 'format') !== 'uncertainty-metrics/calibrator') {
    fail('UM_CALIBRATOR', fn, 'params.format', 'be "uncertainty-metrics/calibrator"', { value: field(params, 'format') });
  }
  if (field(params, 'version') !== 1) fail('UM_CALIBRATOR', fn, 'params.version', 'be 1 (the calibrator layout this library reads)', { value: field(params, 'version') });
  const k = field(params, 'kind');
  if (k !== kind) {
    fail('UM_CALIBRATOR', fn, 'params.kind', `be "${kind}"`, { value: k, ...(typeof k === 'string' && CALIBRATOR_KINDS.includes(k as CalibratorKind) ? { hint: `apply it with the ${k} calibrator` } : {}) });
  }
  const library = field(params, 'library');
  if (typeof library !== 'string') fail('UM_CALIBRATOR', fn, 'params.library', 'be a version string', { value: library });
  const f = field(params, 'fittedOn');
  const n = numberField(fn, f, 'params.fittedOn', 'n', (v) => Number.isInteger(v) && v >= 1, 'be an integer ≥ 1');
  const numClasses = numberField(fn, f, 'params.fittedOn', 'numClasses', (v) => Number.isInteger(v) && v >= 2, 'be an integer ≥ 2');
  const input = field(f, 'input');
  if (input !== 'probs' && input !== 'logits' && input !== 'logprobs') fail('UM_CALIBRATOR', fn, 'params.fittedOn.input', "be 'probs', 'logits' or 'logprobs'", { value: input });
  const binary = field(f, 'binary');
  if (typeof binary !== 'boolean') fail('UM_CALIBRATOR', fn, 'params.fittedOn.binary', 'be true or false', { value: binary });
  const s = field(f, 'numMembers');
  const fittedOn: FittedOn =
    s === undefined
      ? { n, numClasses, input, binary }
      : { n, numClasses, input, binary, numMembers: numberField(fn, f, 'params.fittedOn', 'numMembers', (v) => Number.isInteger(v) && v >= 1, 'be an integer ≥ 1') };
  return { format: 'uncertainty-metrics/calibrator', version: 1, library, kind, fittedOn };
}

/** Rejects data whose number of classes differs from the calibrator's (internal). */
export function checkClasses(fn: string, params: CalibratorHeader, numClasses: number): void {
  if (numClasses !== params.fittedOn.numClasses) {
    fail('UM_CALIBRATOR', fn, 'scores', `have the ${params.fittedOn.numClasses} classes the ${params.kind} calibrator was fitted on`, { value: `${numClasses} classes` });
  }
}
