import type { ProbMatrix } from './types.js';

/**
 * The natural-log probabilities of a matrix converted from logits or log-probabilities, kept as the scores themselves
 * plus two numbers per row instead of an N × C array (internal). The engine's batches (every metric function,
 * `evaluate`, the states' updates) read only ln p of each row's label (the NLL), so an N × C float64 copy of every
 * log-probability — as large as the probabilities, twice the float32 file `um metrics` read — was memory held for
 * N numbers. Entry (j, k) is recomputed exactly as the conversion computed it:
 * - logits: `(z − shift[j]) − logSum[j]`, the same two float64 subtractions (so the same bits) as the reference loop
 *   and the WebAssembly kernel, from the row's maximum and ln Σ e^{z − max} the conversion used;
 * - log-probabilities: the score itself.
 * The scores are read where they are: the caller's array, which a batch only borrows for the call that validated it
 * (a state's stores copy what they keep), so it cannot change meanwhile. Scores converted in place (input/lent.ts) are
 * gone: their `value` gives ln p at each row's label, kept by the conversion, and nothing else.
 */
export interface LogRows {
  /** Score (r, k) of the input as the conversion read it (a validated number); ln p itself when there is no shift. */
  readonly value: (r: number, k: number) => number;
  /** Per input row: the maximum subtracted (logits only). */
  readonly shift: Float64Array | undefined;
  /** Per input row: ln Σ_k e^{z_k − max} (logits only). */
  readonly logSum: Float64Array | undefined;
  /** Row j of the matrix is input row `rows[j]` (undefined: row j) — the kept rows of a weighting. */
  readonly rows: Int32Array | undefined;
}

const table = new WeakMap<ProbMatrix, LogRows>();

/** Keeps `rows` as the log-probabilities of `p` (which then has no `logData`). */
export function rememberLogRows(p: ProbMatrix, rows: LogRows): void {
  table.set(p, rows);
}

/** The compact log-probabilities of `p`, if it has them. */
export function logRowsOf(p: ProbMatrix): LogRows | undefined {
  return table.get(p);
}

/** The log-probabilities of rows `keep` of a matrix whose own are `from`: the same scores, the row map composed. */
export function keptLogRows(from: LogRows, keep: Int32Array): LogRows {
  const map = from.rows;
  let rows = keep;
  if (map !== undefined) {
    rows = new Int32Array(keep.length);
    for (let j = 0; j < keep.length; j++) rows[j] = map[keep[j] as number] as number;
  }
  return { value: from.value, shift: from.shift, logSum: from.logSum, rows };
}

/**
 * ln p(j, k) of validated probabilities from logits or log-probabilities — from `logData` or from the compact rows —
 * or undefined when the matrix keeps none (probabilities given as such) (internal).
 */
export function logProbAccess(p: ProbMatrix): ((j: number, k: number) => number) | undefined {
  const full = p.logData;
  if (full !== undefined) {
    const c = p.numClasses;
    return (j, k) => full[j * c + k] as number;
  }
  const r = table.get(p);
  if (r === undefined) return undefined;
  const { value, shift, logSum, rows } = r;
  if (shift === undefined || logSum === undefined) {
    return rows === undefined ? value : (j, k) => value(rows[j] as number, k);
  }
  return (j, k) => {
    const i = rows === undefined ? j : (rows[j] as number);
    return value(i, k) - (shift[i] as number) - (logSum[i] as number);
  };
}
