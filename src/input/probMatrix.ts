import { isList } from './isList.js';
import { fail } from '../errors/fail.js';
import { activeKernel, computeRowStats, rememberRowStats } from '../kernels/rowStats.js';
import { softmaxRowsWasm } from '../kernels/softmaxWasm.js';
import type { RowStats, RowStatsMode } from '../kernels/rowStatsTypes.js';
import type { InputOptions, ProbMatrix, Scores, ScoreKind } from './types.js';
import { isValidatedProbMatrix, markValidated } from './validated.js';
import { rememberLogRows, type LogRows } from './logRows.js';
import { checkNotSpent, inPlaceOutput } from './lent.js';
import { nestedCopy, numericCopy } from './numericCopy.js';
import { binaryMatrix } from './binaryMatrix.js';

const KINDS: readonly ScoreKind[] = ['probs', 'logits', 'logprobs'];
/** Default largest accepted |Σ_k p_k − 1|. */
export const DEFAULT_SUM_TOLERANCE = 1e-3;

function isFloatArray(value: unknown): value is Float32Array | Float64Array {
  return value instanceof Float64Array || value instanceof Float32Array;
}

/** Arrays and typed arrays only (see isList): a row or vector is sized from its length before it is read. */
export function isArrayLike(value: unknown): value is ArrayLike<unknown> {
  return isList(value);
}

export function checkFinite(fn: string, arg: string, v: unknown, index: number[], allowMinusInfinity: boolean): number {
  if (typeof v !== 'number' || Number.isNaN(v) || v === Infinity || (v === -Infinity && !allowMinusInfinity)) {
    fail('UM_NOT_FINITE', fn, arg, allowMinusInfinity ? 'be a finite number or -Infinity' : 'be a finite number', {
      index,
      value: v,
    });
  }
  return v;
}

/**
 * Validates and converts scores of a declared kind into probabilities. Internal form of
 * {@link toProbabilities}; `fn` is the public function named in error messages. With `compact` (the engine's
 * batches, given their labels, unvalidated) logits and log-probabilities keep ln p at each row's label only
 * (`logRowsOf`, read through `logProbAccess`) instead of an N × C `logData`, and scores lent to the conversion
 * (input/lent.ts) are converted in place.
 */
export function probMatrix(
  fn: string,
  scores: Scores,
  options: InputOptions = {},
  statsMode: RowStatsMode = 0,
  given?: RowStats,
  compact?: { readonly labels: unknown },
): ProbMatrix {
  const input = options.input ?? 'probs';
  if (!KINDS.includes(input)) {
    fail('UM_OPTION', fn, 'options.input', `be one of 'probs', 'logits', 'logprobs'`, { value: input });
  }
  if (isValidatedProbMatrix(scores)) {
    if (options.input !== undefined && options.input !== 'probs') {
      fail('UM_OPTION', fn, 'options.input', `be 'probs' or omitted when scores are validated probabilities`, {
        value: options.input,
      });
    }
    if (options.binary !== undefined && options.binary !== scores.binary) {
      fail(
        'UM_OPTION',
        fn,
        'options.binary',
        `be omitted (or ${String(scores.binary)}) when scores are validated probabilities`,
        {
          value: options.binary,
        },
      );
    }
    if (options.numClasses !== undefined && options.numClasses !== scores.numClasses) {
      fail('UM_OPTION', fn, 'options.numClasses', `equal the validated matrix's ${scores.numClasses} classes`, {
        value: options.numClasses,
      });
    }
    return scores;
  }
  const tolerance = options.sumTolerance ?? DEFAULT_SUM_TOLERANCE;
  if (typeof tolerance !== 'number' || Number.isNaN(tolerance) || tolerance < 0) {
    fail('UM_OPTION', fn, 'options.sumTolerance', 'be a number ≥ 0', { value: tolerance });
  }
  if (options.binary === true) return markValidated(binaryMatrix(fn, scores, input, options.numClasses));
  if (options.binary !== undefined && options.binary !== false) {
    fail('UM_OPTION', fn, 'options.binary', 'be true or false', { value: options.binary });
  }

  const arg = input;
  let n: number;
  let numClasses: number;
  let get: (i: number, k: number) => unknown;
  let flat: Float32Array | Float64Array | undefined;
  let ownCopy = false;
  if (isFloatArray(scores)) {
    const c = options.numClasses;
    if (c === undefined) {
      fail('UM_OPTION', fn, 'options.numClasses', `be given when ${arg} is a flat ${scores.constructor.name}`);
    }
    checkNumClasses(fn, c);
    if (scores.length % c !== 0) {
      fail('UM_SHAPE', fn, arg, `have a length that is a multiple of numClasses (${c})`, { value: scores.length });
    }
    numClasses = c;
    n = scores.length / c;
    checkNotSpent(scores);
    flat = scores;
    get = (i, k) => scores[i * c + k];
  } else if (Array.isArray(scores)) {
    n = scores.length;
    if (n === 0) fail('UM_EMPTY', fn, arg, 'hold at least one row', { value: scores });
    const first: unknown = scores[0];
    if (!isArrayLike(first)) {
      fail('UM_SHAPE', fn, arg, 'be a matrix with one row per example', {
        index: [0],
        value: first,
        hint: 'pass binary: true for a vector of P(y = 1)',
      });
    }
    numClasses = first.length;
    if (options.numClasses !== undefined && options.numClasses !== numClasses) {
      fail('UM_SHAPE', fn, arg, `have rows of length numClasses (${options.numClasses})`, {
        index: [0],
        value: first,
      });
    }
    checkNumClasses(fn, numClasses, `${arg}[0].length`);
    const rows = scores as ReadonlyArray<unknown>;
    for (let i = 1; i < n; i++) {
      const row = rows[i];
      if (!isArrayLike(row) || row.length !== numClasses) {
        fail('UM_SHAPE', fn, arg, `be a row of ${numClasses} numbers like row 0`, { index: [i], value: row });
      }
    }
    get = (i, k) => (rows[i] as ArrayLike<unknown>)[k];
    // probabilities are validated as a typed array is (the fused row pass; a flagged row is re-checked through `get`,
    // so an error names the entry as given): checking entry by entry through `get` was most of a nested matrix's
    // conversion. (Logits and log-probabilities are copied as numbers by convertRows for the kernel.)
    // (a getter that throws: the entry-by-entry check reads the rows in order, so the first bad entry is still named)
    if (input === 'probs') {
      try {
        flat = nestedCopy(rows as ReadonlyArray<ArrayLike<unknown>>, n, numClasses);
        ownCopy = true;
      } catch {
        flat = undefined;
      }
    }
  } else {
    fail('UM_SHAPE', fn, arg, 'be a number[][] or a Float32Array/Float64Array with options.numClasses', {
      value: scores,
    });
  }
  if (n === 0) fail('UM_EMPTY', fn, arg, 'hold at least one row', { value: 0 });

  const { data, logData, logRows, stats } = convertRows(
    fn,
    arg,
    get,
    n,
    numClasses,
    input,
    tolerance,
    [],
    flat,
    statsMode,
    given,
    compact,
    ownCopy,
  );
  const matrix: ProbMatrix =
    logData === undefined
      ? { kind: 'probabilities', data, n, numClasses, input, binary: false }
      : { kind: 'probabilities', data, logData, n, numClasses, input, binary: false };
  if (stats !== undefined) rememberRowStats(matrix, stats);
  if (logRows !== undefined) rememberLogRows(matrix, logRows);
  return markValidated(matrix);
}

/**
 * Validates the n × c values `get(i, k)` of the declared kind and converts them to probabilities (and, for logits
 * and log-probabilities, natural-log probabilities). `prefix` is prepended to every error index (the member of an
 * ensemble). A typed array of probabilities (`flat`) is returned as is, validated by the fused row pass (which also
 * returns its row statistics, of `statsMode`): rows the pass flags (minimum, maximum or sum) are re-checked entry by
 * entry, so the error names the first bad entry exactly as the reference loop does. Internal.
 */
export function convertRows(
  fn: string,
  arg: string,
  get: (i: number, k: number) => unknown,
  n: number,
  c: number,
  input: ScoreKind,
  tolerance: number,
  prefix: readonly number[],
  flat?: Float32Array | Float64Array,
  statsMode: RowStatsMode = 0,
  given?: RowStats,
  compact?: { readonly labels: unknown },
  ownCopy = false,
): { data: Float32Array | Float64Array; logData?: Float64Array; logRows?: LogRows; stats?: RowStats } {
  if (input === 'probs' && flat !== undefined) {
    // `given`: the statistics of exactly these rows, computed elsewhere (the parallel pass)
    let stats =
      given !== undefined && given.max.length === n && given.mode >= statsMode
        ? given
        : computeRowStats(flat, n, c, statsMode);
    const { min, max, sum, sumSlack } = stats;
    // A row passes the screen when min ≥ 0, max ≤ 1 and |sum − 1| ≤ tolerance less the sum's own rounding bound (per
    // unit of Σ|p|, at most 1 + tolerance on a row that passes; each comparison is false for NaN); any other row is
    // checked exactly, which throws or (at the margin) passes.
    const margin = tolerance - sumSlack * 1.01 * (1 + tolerance);
    let rewritten = false;
    for (let i = 0; i < n; i++) {
      if ((min[i] as number) >= 0 && (max[i] as number) <= 1 && Math.abs((sum[i] as number) - 1) <= margin) continue;
      // `flat` is the conversion's own copy of `get`'s values (a nested matrix): the row is stored as checked, so a
      // getter that gives another value when read again cannot leave an unchecked value behind
      checkProbRows(fn, arg, get, i, i + 1, c, tolerance, prefix, flat, ownCopy);
      rewritten ||= ownCopy;
    }
    if (rewritten) stats = computeRowStats(flat, n, c, statsMode);
    return { data: flat, stats };
  }
  if (input === 'probs') {
    const data = new Float64Array(n * c);
    checkProbRows(fn, arg, get, 0, n, c, tolerance, prefix, data, true);
    return { data };
  }

  // the engine's batches (`compact`, with their labels, unvalidated) keep ln p at each row's label only (logRows.ts);
  // lent scores with room get the probabilities written over them (lent.ts)
  const labels = compact === undefined ? undefined : labelHints(compact.labels, n, c);
  const inPlace = labels !== undefined && flat !== undefined ? inPlaceOutput(flat, n, c) : undefined;
  const data = inPlace ?? new Float64Array(n * c);
  const logData = labels === undefined ? new Float64Array(n * c) : undefined;
  const atLabel = labels === undefined ? undefined : new Float64Array(n);
  const logits = input === 'logits';
  const row = new Float64Array(c);
  const ex = new Float64Array(c);
  /** The reference conversion of rows [from, to): validation entry by entry, `Math.exp`, one division per entry. */
  const reference = (from: number, to: number): void => {
    for (let i = from; i < to; i++) {
      let max = -Infinity;
      for (let k = 0; k < c; k++) {
        const raw = get(i, k);
        // the index array is built only for a value that fails
        const v =
          typeof raw === 'number' && raw === raw && raw !== Infinity
            ? raw
            : checkFinite(fn, arg, raw, [...prefix, i, k], true);
        if (input === 'logprobs' && v > 0) {
          fail('UM_PROB_RANGE', fn, arg, 'be ≤ 0 (a log-probability)', { index: [...prefix, i, k], value: v });
        }
        row[k] = v;
        if (v > max) max = v;
      }
      if (max === -Infinity) {
        fail('UM_NOT_FINITE', fn, arg, 'contain at least one finite value', { index: [...prefix, i] });
      }
      // exp(z − m) is exact in its argument when z and m are close; dividing by the sum (rather than subtracting a
      // rounded log-sum-exp) keeps every probability within a few ulps whatever the size of m.
      let sum = 0;
      for (let k = 0; k < c; k++) {
        const e = Math.exp((row[k] as number) - max);
        ex[k] = e;
        sum += e;
      }
      if (input === 'logprobs') {
        // Σ_k exp(v_k) = exp(max) · sum
        const total = Math.exp(max) * sum;
        if (Math.abs(total - 1) > tolerance) {
          fail('UM_ROW_SUM', fn, arg, `log-sum-exp to 0 (probabilities summing to 1, tolerance ${tolerance})`, {
            index: [...prefix, i],
            value: total,
          });
        }
        for (let k = 0; k < c; k++) data[i * c + k] = Math.exp(row[k] as number);
        if (logData !== undefined) for (let k = 0; k < c; k++) logData[i * c + k] = row[k] as number;
        else (atLabel as Float64Array)[i] = atOf(row, (labels as Int32Array)[i] as number);
      } else {
        // log-softmax: (z − m) − ln Σ exp(z − m); the first difference is exact for the largest entries
        const logSum = Math.log(sum);
        for (let k = 0; k < c; k++) data[i * c + k] = (ex[k] as number) / sum;
        if (logData !== undefined) for (let k = 0; k < c; k++) logData[i * c + k] = (row[k] as number) - max - logSum;
        else (atLabel as Float64Array)[i] = atOf(row, (labels as Int32Array)[i] as number) - max - logSum;
      }
    }
  };
  // Logits by the WebAssembly kernel when it is the selected backend (every path — function, state, stream, threads —
  // converts through here, so they agree bit for bit): its exponential is within 1 ulp of Math.exp, so each entry is
  // within a few ulps of the reference's (test/kernels/softmax.test.ts). A row it stops at (a maximum that is NaN or
  // ±∞) goes through the reference, which names the bad entry exactly as before.
  const kernel = logits ? activeKernel() : null;
  if (kernel === null) reference(0, n);
  else {
    const values = flat ?? numericCopy(get, n, c);
    const logOut = logData ?? { labels: labels as Int32Array, atLabel: atLabel as Float64Array };
    for (let i = 0; i < n;) {
      const stop = softmaxRowsWasm(kernel, values, i, n, c, data, logOut);
      if (stop === n) break;
      reference(stop, stop + 1);
      i = stop + 1;
    }
  }
  // the statistics the caller's metrics read, in one pass now: read lazily, each mode a metric asks first (the top
  // label's 0, then Brier's 1, the entropy's 2) was one more pass over the whole matrix and its columns
  const stats = statsMode > 0 ? computeRowStats(data, n, c, statsMode) : undefined;
  const withStats = stats === undefined ? {} : { stats };
  if (logData !== undefined) return { data, logData, ...withStats };
  return {
    data,
    logRows: { atLabel: atLabel as Float64Array, labels: labels as Int32Array, rows: undefined },
    ...withStats,
  };
}

/**
 * Each row's label as `labelArray` will accept it (an integer in [0, c)), −1 where it will not (that batch's labels
 * throw right after the conversion); undefined when `labels` is not n entries (which throws too: the conversion then
 * keeps every log-probability, as for any other caller).
 */
function labelHints(labels: unknown, n: number, c: number): Int32Array | undefined {
  if (labels === null || typeof labels !== 'object' || (labels as { length?: unknown }).length !== n) return undefined;
  const list = labels as ArrayLike<unknown>;
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const y = list[i];
    out[i] = typeof y === 'number' && Number.isInteger(y) && y >= 0 && y < c ? y : -1;
  }
  return out;
}

/** Entry y of a row, NaN for the −1 of a label that will be refused. */
function atOf(row: Float64Array, y: number): number {
  return y < 0 ? NaN : (row[y] as number);
}

function checkNumClasses(fn: string, c: number, argument = 'options.numClasses'): void {
  if (!Number.isInteger(c) || c < 2) {
    fail('UM_OPTION', fn, argument, 'be an integer ≥ 2 (use binary: true for a vector of P(y = 1))', { value: c });
  }
}

/** Checks rows [from, to) of probabilities entry by entry (finite, in [0, 1], row sum), copying them into `data` when `copy`. */
function checkProbRows(
  fn: string,
  arg: string,
  get: (i: number, k: number) => unknown,
  from: number,
  to: number,
  c: number,
  tolerance: number,
  prefix: readonly number[],
  data: Float32Array | Float64Array,
  copy: boolean,
): void {
  for (let i = from; i < to; i++) {
    let sum = 0;
    for (let k = 0; k < c; k++) {
      const raw = get(i, k);
      const v =
        typeof raw === 'number' && raw === raw && raw !== Infinity && raw !== -Infinity
          ? raw
          : checkFinite(fn, arg, raw, [...prefix, i, k], false);
      if (v < 0 || v > 1) fail('UM_PROB_RANGE', fn, arg, 'be in [0, 1]', { index: [...prefix, i, k], value: v });
      if (copy) data[i * c + k] = v;
      sum += v;
    }
    if (Math.abs(sum - 1) > tolerance) {
      fail('UM_ROW_SUM', fn, arg, `sum to 1 (tolerance ${tolerance})`, {
        index: [...prefix, i],
        value: sum,
        hint: `declare input: 'logits' or 'logprobs' if these are not probabilities, or raise sumTolerance`,
      });
    }
  }
}
