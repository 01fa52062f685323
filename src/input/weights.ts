import { fail } from '../errors/fail.js';
import type { ProbMatrix } from './types.js';
import { markValidated } from './validated.js';
import { gather } from '../math/gather.js';

/** Options of every function that accepts sample weights. */
export interface WeightOptions {
  /**
   * One non-negative weight per row (frequency weights: a row of weight w counts as w copies of itself; weight 0
   * leaves it out). Default: every row weighs 1.
   */
  weights?: ArrayLike<number>;
}

/**
 * Validates weights against `n` rows: finite, ≥ 0, not all 0 (and whole numbers where `integer`). Returns them as
 * a `Float64Array`, or `undefined` when none were given (internal).
 */
export function weightArray(fn: string, weights: unknown, n: number, integer = false, allowZeroTotal = false): Float64Array | undefined {
  if (weights === undefined) return undefined;
  if (weights === null || typeof weights !== 'object' || typeof (weights as { length?: unknown }).length !== 'number') {
    fail('UM_SHAPE', fn, 'options.weights', 'be an array of numbers, one per row', { value: weights });
  }
  const w = weights as ArrayLike<unknown>;
  if (w.length !== n) fail('UM_SHAPE', fn, 'options.weights', `have one weight per row (${n})`, { value: w.length });
  const out = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const v = w[i];
    if (typeof v !== 'number' || !Number.isFinite(v)) fail('UM_NOT_FINITE', fn, 'options.weights', 'be a finite number', { index: [i], value: v });
    if (v < 0) fail('UM_OPTION', fn, 'options.weights', 'be ≥ 0', { index: [i], value: v });
    if (integer && !Number.isInteger(v)) fail('UM_OPTION', fn, 'options.weights', 'be whole numbers here (frequency weights: this metric counts repeated samples)', { index: [i], value: v });
    out[i] = v;
    total += v;
  }
  if (total === 0 && !allowZeroTotal) fail('UM_EMPTY', fn, 'options.weights', 'not all be 0', { value: 0 });
  return out;
}

/** The rows of weight > 0 of validated probabilities and labels (the same objects when none is 0) (internal). */
export function positiveRows(p: ProbMatrix, y: Int32Array, w: Float64Array | undefined): { p: ProbMatrix; y: Int32Array; w: Float64Array | undefined } {
  if (w === undefined || w.every((v) => v > 0)) return { p, y, w };
  const keep: number[] = [];
  for (let i = 0; i < w.length; i++) if ((w[i] as number) > 0) keep.push(i);
  const c = p.numClasses;
  const data = new Float64Array(keep.length * c);
  const logData = p.logData === undefined ? undefined : new Float64Array(keep.length * c);
  keep.forEach((i, j) => {
    for (let k = 0; k < c; k++) {
      data[j * c + k] = p.data[i * c + k] as number;
      if (logData !== undefined) logData[j * c + k] = p.logData?.[i * c + k] as number;
    }
  });
  const q: ProbMatrix =
    logData === undefined
      ? { kind: 'probabilities', data: p.data instanceof Float32Array ? Float32Array.from(data) : data, n: keep.length, numClasses: c, input: p.input, binary: p.binary }
      : { kind: 'probabilities', data, logData, n: keep.length, numClasses: c, input: p.input, binary: p.binary };
  return { p: markValidated(q), y: Int32Array.from(keep, (i) => y[i] as number), w: gather(w, keep) };
}
