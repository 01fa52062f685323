import { fail } from '../errors/fail.js';
import { VERSION } from '../version.js';

/** The calibrators this library fits. */
export type CalibratorKind =
  'temperature' | 'mc-temperature' | 'platt' | 'histogram-binning' | 'isotonic' | 'top-binning';

export const CALIBRATOR_KINDS: readonly CalibratorKind[] = [
  'temperature',
  'mc-temperature',
  'platt',
  'histogram-binning',
  'isotonic',
  'top-binning',
];

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

/**
 * The temperatures a calibrator may hold and a fit may search, [1e-6, 1e12] (internal; documented in fitTemperature).
 * Below 1e-6, 1/T amplifies the rounding of float64 log-probabilities (~1e-16·ln C) past 1e-10 and every gap of more
 * than ~1e-3 nats is already one-hot; above 1e12, real diverged logits are covered (gnb_raw's ±5e10 logits fit at
 * T ≈ 5.2e8) and a search over ln T ∈ [−13.8, 27.6] stays a few Newton passes.
 */
export const TEMPERATURE_RANGE: readonly [number, number] = [1e-6, 1e12];
export const TEMPERATURE_RANGE_TEXT = '[1e-6, 1e12]';

/** Reads a field of a JSON object (internal). */
export function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/** A finite number field, optionally bounded, or `UM_CALIBRATOR` (internal). */
export function numberField(
  fn: string,
  obj: unknown,
  path: string,
  key: string,
  check: (v: number) => boolean = () => true,
  requirement = 'be a finite number',
): number {
  const v = field(obj, key);
  if (typeof v !== 'number' || !Number.isFinite(v) || !check(v))
    fail('UM_CALIBRATOR', fn, `${path}.${key}`, requirement, { value: v });
  return v;
}

/** A whole-number field in [min, max], or `UM_CALIBRATOR` (internal). */
export function wholeField(
  fn: string,
  obj: unknown,
  path: string,
  key: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  return numberField(
    fn,
    obj,
    path,
    key,
    (v) => Number.isInteger(v) && v >= min && v <= max,
    max === Number.MAX_SAFE_INTEGER ? `be an integer ≥ ${min}` : `be an integer in [${min}, ${max}]`,
  );
}

/** A boolean field, or `UM_CALIBRATOR` (internal). */
export function booleanField(fn: string, obj: unknown, path: string, key: string): boolean {
  const v = field(obj, key);
  if (typeof v !== 'boolean') fail('UM_CALIBRATOR', fn, `${path}.${key}`, 'be true or false', { value: v });
  return v;
}

/** The `diagnostics` object of a calibrator, or `UM_CALIBRATOR` (internal). */
export function diagnosticsField(fn: string, params: unknown): object {
  const d = field(params, 'diagnostics');
  if (d === null || typeof d !== 'object' || Array.isArray(d))
    fail('UM_CALIBRATOR', fn, 'params.diagnostics', 'be an object', { value: d });
  return d;
}

/**
 * A temperature (in {@link TEMPERATURE_RANGE}) and its search diagnostics, checked field by field: NLLs ≥ 0 (null is
 * how JSON writes the infinite NLL of an exact zero at a label), a whole number of evaluations, the flags and the
 * searched interval (internal; shared by the temperature and mc-temperature kinds).
 */
export function readTemperatureFields(fn: string, params: unknown): { temperature: number; diagnostics: object } {
  const [lo, hi] = TEMPERATURE_RANGE;
  // a non-positive or non-number temperature keeps its own message; a positive one outside the range names the range
  numberField(fn, params, 'params', 'temperature', (v) => v > 0, 'be a finite number > 0');
  const temperature = numberField(
    fn,
    params,
    'params',
    'temperature',
    (v) => v >= lo && v <= hi,
    `be in ${TEMPERATURE_RANGE_TEXT} (the temperatures a fit can produce)`,
  );
  const d = diagnosticsField(fn, params);
  for (const key of ['nllBefore', 'nllAfter']) {
    const v = field(d, key);
    if (v !== null && (typeof v !== 'number' || !(v >= 0)))
      fail('UM_CALIBRATOR', fn, `params.diagnostics.${key}`, 'be a number ≥ 0 (null for Infinity)', { value: v });
  }
  wholeField(fn, d, 'params.diagnostics', 'evaluations', 0);
  booleanField(fn, d, 'params.diagnostics', 'converged');
  const atBound = field(d, 'atBound');
  if (atBound !== null && atBound !== 'lower' && atBound !== 'upper')
    fail('UM_CALIBRATOR', fn, 'params.diagnostics.atBound', "be 'lower', 'upper' or null", { value: atBound });
  const bounds = numbersField(fn, d, 'params.diagnostics', 'bounds', 2);
  // informational only: files fitted before the range existed may record a wider interval
  if (!((bounds[0] as number) > 0 && (bounds[0] as number) < 1 && (bounds[1] as number) > 1)) {
    fail('UM_CALIBRATOR', fn, 'params.diagnostics.bounds', 'be [T_min, T_max] with 0 < T_min < 1 < T_max', {
      value: bounds,
    });
  }
  return { temperature, diagnostics: d };
}

/** An array of finite numbers field, or `UM_CALIBRATOR` (internal). */
export function numbersField(fn: string, obj: unknown, path: string, key: string, length?: number): number[] {
  const v = field(obj, key);
  if (!Array.isArray(v) || (length !== undefined && v.length !== length)) {
    fail(
      'UM_CALIBRATOR',
      fn,
      `${path}.${key}`,
      length === undefined ? 'be an array of numbers' : `be an array of ${length} numbers`,
      { value: v },
    );
  }
  // every index, holes included (forEach skipped a hole, which then read as undefined: NaN probabilities)
  for (let i = 0; i < v.length; i++) {
    const x: unknown = v[i];
    if (typeof x !== 'number' || !Number.isFinite(x))
      fail('UM_CALIBRATOR', fn, `${path}.${key}`, 'hold finite numbers', { index: [i], value: x });
  }
  return v as number[];
}

/**
 * Validates the header of a calibrator given to `fn` and that it is of `kind`: every field present and of the right
 * type, so a corrupted or foreign file fails here with `UM_CALIBRATOR` instead of producing numbers (internal).
 */
export function readHeader<K extends CalibratorKind>(fn: string, params: unknown, kind: K): CalibratorHeader<K> {
  if (params === null || typeof params !== 'object' || Array.isArray(params)) {
    fail('UM_CALIBRATOR', fn, 'params', 'be a calibrator object (from a fit… function or parseCalibrator)', {
      value: params,
    });
  }
  if (field(params, 'format') !== 'uncertainty-metrics/calibrator') {
    fail('UM_CALIBRATOR', fn, 'params.format', 'be "uncertainty-metrics/calibrator"', {
      value: field(params, 'format'),
    });
  }
  if (field(params, 'version') !== 1)
    fail('UM_CALIBRATOR', fn, 'params.version', 'be 1 (the calibrator layout this library reads)', {
      value: field(params, 'version'),
    });
  const k = field(params, 'kind');
  if (k !== kind) {
    fail('UM_CALIBRATOR', fn, 'params.kind', `be "${kind}"`, {
      value: k,
      ...(typeof k === 'string' && CALIBRATOR_KINDS.includes(k as CalibratorKind)
        ? { hint: `apply it with the ${k} calibrator` }
        : {}),
    });
  }
  const library = field(params, 'library');
  if (typeof library !== 'string')
    fail('UM_CALIBRATOR', fn, 'params.library', 'be a version string', { value: library });
  const f = field(params, 'fittedOn');
  const n = numberField(fn, f, 'params.fittedOn', 'n', (v) => Number.isInteger(v) && v >= 1, 'be an integer ≥ 1');
  const numClasses = numberField(
    fn,
    f,
    'params.fittedOn',
    'numClasses',
    (v) => Number.isInteger(v) && v >= 2,
    'be an integer ≥ 2',
  );
  const input = field(f, 'input');
  if (input !== 'probs' && input !== 'logits' && input !== 'logprobs')
    fail('UM_CALIBRATOR', fn, 'params.fittedOn.input', "be 'probs', 'logits' or 'logprobs'", { value: input });
  const binary = field(f, 'binary');
  if (typeof binary !== 'boolean')
    fail('UM_CALIBRATOR', fn, 'params.fittedOn.binary', 'be true or false', { value: binary });
  const s = field(f, 'numMembers');
  const fittedOn: FittedOn =
    s === undefined
      ? { n, numClasses, input, binary }
      : {
          n,
          numClasses,
          input,
          binary,
          numMembers: numberField(
            fn,
            f,
            'params.fittedOn',
            'numMembers',
            (v) => Number.isInteger(v) && v >= 1,
            'be an integer ≥ 1',
          ),
        };
  return { format: 'uncertainty-metrics/calibrator', version: 1, library, kind, fittedOn };
}

/** Rejects data whose number of classes differs from the calibrator's (internal). */
export function checkClasses(fn: string, params: CalibratorHeader, numClasses: number): void {
  if (numClasses !== params.fittedOn.numClasses) {
    fail(
      'UM_CALIBRATOR',
      fn,
      'scores',
      `have the ${params.fittedOn.numClasses} classes the ${params.kind} calibrator was fitted on`,
      { value: `${numClasses} classes` },
    );
  }
}
