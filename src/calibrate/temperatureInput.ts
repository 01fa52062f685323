import { ensembleMatrix } from '../input/ensembleMatrix.js';
import { probMatrix } from '../input/probMatrix.js';
import type { EnsembleOptions, EnsembleScores, InputOptions, ScoreKind, Scores } from '../input/types.js';
import { temperatureRows } from '../kernels/temperatureRows.js';
import { temperatureRowSums, type TemperatureRowSums } from '../kernels/temperatureTypes.js';

/**
 * What a temperature fit reads (internal): values z, row-major [rows, c] (rows = S·N member-major for an ensemble),
 * whose softmax(z) is the prediction at T = 1 — the logits as given, or log-probabilities — and the pass at β = 1,
 * already computed.
 */
export interface TemperatureValues {
  readonly values: Float32Array | Float64Array;
  readonly rows: number;
  readonly c: number;
  readonly input: ScoreKind;
  /** The per-row sums of the last pass; `beta` says at which β (1 on return). */
  readonly sums: TemperatureRowSums;
  beta: number;
}

function isFloatArray(value: unknown): value is Float32Array | Float64Array {
  return value instanceof Float64Array || value instanceof Float32Array;
}

function wholeAtLeast(v: unknown, min: number): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= min;
}

/** A sumTolerance the validators would accept (absent, or a number ≥ 0). */
function validTolerance(t: unknown): boolean {
  return t === undefined || (typeof t === 'number' && t >= 0);
}

/** Log-probabilities of validated probabilities (exact ones kept from logits or log-probabilities). */
function logOf(data: Float32Array | Float64Array, logData: Float64Array | undefined): Float64Array {
  if (logData !== undefined) return logData;
  const out = new Float64Array(data.length);
  for (let i = 0; i < out.length; i++) out[i] = Math.log(data[i] as number);
  return out;
}

/**
 * Flat logits are read as they are, not converted: the pass at β = 1 finds every row maximum, and a row whose
 * maximum is not finite (a NaN, a +∞, or only −∞) holds an invalid entry — then the full validator runs, and throws
 * the same error, naming the same first bad entry, as for any other input. Everything else (nested arrays,
 * probabilities, log-probabilities, binary heads, a malformed shape) is validated and converted as before.
 */
function screened(
  fast: { values: Float32Array | Float64Array; rows: number; c: number } | null,
  full: () => { values: Float64Array; rows: number; c: number; input: ScoreKind },
): TemperatureValues {
  if (fast !== null) {
    const sums = temperatureRowSums(fast.rows);
    temperatureRows(fast.values, fast.rows, fast.c, 1, sums);
    let valid = true;
    for (let i = 0; i < fast.rows && valid; i++) valid = Number.isFinite(sums.max[i]);
    if (valid) return { ...fast, input: 'logits', sums, beta: 1 };
  }
  const f = full();
  const sums = temperatureRowSums(f.rows);
  temperatureRows(f.values, f.rows, f.c, 1, sums);
  return { ...f, sums, beta: 1 };
}

/** The values of a single model's scores for fitTemperature; `binary` tells whether it was a binary head (internal). */
export function temperatureInput(
  fn: string,
  scores: Scores,
  options: InputOptions,
): TemperatureValues & { binary: boolean } {
  const c = options.numClasses;
  const fast =
    options.input === 'logits' &&
    (options.binary === undefined || options.binary === false) &&
    validTolerance(options.sumTolerance) &&
    isFloatArray(scores) &&
    wholeAtLeast(c, 2) &&
    scores.length > 0 &&
    scores.length % c === 0
      ? { values: scores, rows: scores.length / c, c }
      : null;
  let binary = false;
  const v = screened(fast, () => {
    const p = probMatrix(fn, scores, options);
    binary = p.binary;
    return { values: logOf(p.data, p.logData), rows: p.n, c: p.numClasses, input: p.input };
  });
  return { ...v, binary };
}

/** The values of stacked member scores [S, N, C] for fitMcTemperature, with S and N (internal). */
export function mcTemperatureInput(
  fn: string,
  members: EnsembleScores,
  options: EnsembleOptions,
): TemperatureValues & { numMembers: number; n: number } {
  const { numMembers: s, numClasses: c } = options;
  const fast =
    options.input === 'logits' &&
    validTolerance(options.sumTolerance) &&
    isFloatArray(members) &&
    wholeAtLeast(s, 1) &&
    wholeAtLeast(c, 2) &&
    members.length > 0 &&
    members.length % (s * c) === 0
      ? { values: members, rows: members.length / c, c }
      : null;
  let numMembers = fast === null ? 0 : (s as number);
  const v = screened(fast, () => {
    const e = ensembleMatrix(fn, members, options);
    numMembers = e.numMembers;
    return { values: logOf(e.data, e.logData), rows: e.numMembers * e.n, c: e.numClasses, input: e.input };
  });
  return { ...v, numMembers, n: v.rows / numMembers };
}
