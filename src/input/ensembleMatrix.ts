import { fail } from '../errors/fail.js';
import { DEFAULT_SUM_TOLERANCE, convertRows } from './probMatrix.js';
import type { EnsembleMatrix, EnsembleOptions, EnsembleScores, ScoreKind } from './types.js';
import { isValidatedEnsemble, markValidated } from './validated.js';

const KINDS: readonly ScoreKind[] = ['probs', 'logits', 'logprobs'];

function isFloatArray(value: unknown): value is Float32Array | Float64Array {
  return value instanceof Float64Array || value instanceof Float32Array;
}

function positiveInteger(fn: string, argument: string, value: unknown, min: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    fail('UM_OPTION', fn, argument, `be an integer ≥ ${min}`, { value });
  }
  return value;
}

/**
 * Validates stacked ensemble scores [S, N, C] of a declared kind and converts them to probabilities (and
 * log-probabilities for logits). Internal form of `toEnsemble`; `fn` names the public function in errors, whose
 * indices are [member, row, class].
 */
export function ensembleMatrix(fn: string, scores: EnsembleScores, options: EnsembleOptions = {}): EnsembleMatrix {
  const input = options.input ?? 'probs';
  if (!KINDS.includes(input))
    fail('UM_OPTION', fn, 'options.input', `be one of 'probs', 'logits', 'logprobs'`, { value: input });
  if (isValidatedEnsemble(scores)) {
    if (options.input !== undefined && options.input !== 'probs') {
      fail('UM_OPTION', fn, 'options.input', `be 'probs' or omitted when the ensemble is already validated`, {
        value: options.input,
      });
    }
    return scores;
  }
  const tolerance = options.sumTolerance ?? DEFAULT_SUM_TOLERANCE;
  if (typeof tolerance !== 'number' || Number.isNaN(tolerance) || tolerance < 0) {
    fail('UM_OPTION', fn, 'options.sumTolerance', 'be a number ≥ 0', { value: tolerance });
  }
  const arg = input;
  let s: number;
  let n: number;
  let c: number;
  let member: (m: number) => { get: (i: number, k: number) => unknown; flat?: Float32Array | Float64Array };
  if (isFloatArray(scores)) {
    s = positiveInteger(fn, 'options.numMembers', options.numMembers, 1);
    c = positiveInteger(fn, 'options.numClasses', options.numClasses, 2);
    if (scores.length === 0) fail('UM_EMPTY', fn, arg, 'hold at least one row', { value: 0 });
    if (scores.length % (s * c) !== 0) {
      fail('UM_SHAPE', fn, arg, `have a length that is a multiple of numMembers × numClasses (${s * c})`, {
        value: scores.length,
      });
    }
    n = scores.length / (s * c);
    const nn = n;
    member = (m) => {
      const view = scores.subarray(m * nn * c, (m + 1) * nn * c);
      return { get: (i, k) => view[i * c + k], flat: view };
    };
  } else if (Array.isArray(scores)) {
    s = scores.length;
    if (s === 0) fail('UM_EMPTY', fn, arg, 'hold at least one member', { value: scores });
    if (options.numMembers !== undefined && options.numMembers !== s) {
      fail('UM_SHAPE', fn, arg, `hold numMembers (${options.numMembers}) members`, { value: s });
    }
    const first: unknown = scores[0];
    if (isFloatArray(first)) {
      c = positiveInteger(fn, 'options.numClasses', options.numClasses, 2);
      if (first.length % c !== 0)
        fail('UM_SHAPE', fn, arg, `have members whose length is a multiple of numClasses (${c})`, {
          index: [0],
          value: first.length,
        });
      n = first.length / c;
    } else if (Array.isArray(first) && first.length > 0 && Array.isArray(first[0])) {
      n = first.length;
      c = (first[0] as unknown[]).length;
      if (options.numClasses !== undefined && options.numClasses !== c) {
        fail('UM_SHAPE', fn, arg, `have rows of length numClasses (${options.numClasses})`, {
          index: [0, 0],
          value: c,
        });
      }
      if (c < 2) fail('UM_OPTION', fn, `${arg}[0][0].length`, 'be an integer ≥ 2', { value: c });
    } else if (Array.isArray(first) && first.length === 0) {
      fail('UM_EMPTY', fn, arg, 'hold at least one row', { index: [0], value: 0 });
    } else {
      fail('UM_SHAPE', fn, arg, 'be stacked member outputs [S, N, C]: an array of member matrices', {
        index: [0],
        value: first,
        hint: 'for one model use the single-prediction functions',
      });
    }
    if (n === 0) fail('UM_EMPTY', fn, arg, 'hold at least one row', { value: 0 });
    const nn = n;
    const cc = c;
    const members = scores as ReadonlyArray<unknown>;
    for (let m = 0; m < s; m++) {
      const mem = members[m];
      if (isFloatArray(mem)) {
        if (mem.length !== nn * cc)
          fail('UM_SHAPE', fn, arg, `have members of ${nn} rows × ${cc} classes like member 0`, {
            index: [m],
            value: mem.length,
          });
      } else if (!Array.isArray(mem) || mem.length !== nn) {
        fail('UM_SHAPE', fn, arg, `have members of ${nn} rows like member 0`, { index: [m], value: mem });
      } else {
        for (let i = 0; i < nn; i++) {
          const row: unknown = mem[i];
          if (!Array.isArray(row) && !isFloatArray(row))
            fail('UM_SHAPE', fn, arg, `be a row of ${cc} numbers`, { index: [m, i], value: row });
          if ((row as ArrayLike<unknown>).length !== cc)
            fail('UM_SHAPE', fn, arg, `be a row of ${cc} numbers like row 0 of member 0`, {
              index: [m, i],
              value: row,
            });
        }
      }
    }
    member = (m) => {
      const mem = members[m];
      if (isFloatArray(mem)) return { get: (i, k) => mem[i * cc + k], flat: mem };
      const rows = mem as ReadonlyArray<ArrayLike<unknown>>;
      return { get: (i, k) => (rows[i] as ArrayLike<unknown>)[k] };
    };
  } else {
    fail(
      'UM_SHAPE',
      fn,
      arg,
      'be stacked member outputs [S, N, C] (an array of member matrices, or a flat typed array with numMembers and numClasses)',
      { value: scores },
    );
  }
  const data = new Float64Array(s * n * c);
  const logData = input === 'probs' ? undefined : new Float64Array(s * n * c);
  for (let m = 0; m < s; m++) {
    const { get, flat } = member(m);
    const r = convertRows(fn, arg, get, n, c, input, tolerance, [m], input === 'probs' ? undefined : flat);
    data.set(r.data, m * n * c);
    if (logData !== undefined && r.logData !== undefined) logData.set(r.logData, m * n * c);
  }
  const out: EnsembleMatrix =
    logData === undefined
      ? { kind: 'ensemble', data, numMembers: s, n, numClasses: c, input }
      : { kind: 'ensemble', data, logData, numMembers: s, n, numClasses: c, input };
  return markValidated(out);
}
