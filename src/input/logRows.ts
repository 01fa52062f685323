import { gatherInt } from '../math/gather.js';
import type { ProbMatrix } from './types.js';

/**
 * The log-probabilities an engine batch converted from logits or log-probabilities keeps: ln p at each row's label,
 * one float64 per row, instead of an N × C array (internal). Its metrics read no other (the NLL reads ln p_{i,y_i};
 * the entropies, Brier and the rest read the probabilities), and an N × C float64 copy of every log-probability — as
 * large as the probabilities, twice the float32 file `um metrics` read — was memory held for those N numbers. Each is
 * the conversion's own value for that entry (the kernel's or the reference's), so the bits are those of
 * `toProbabilities`' `logData`. Reading another entry is a programming error and throws.
 */
export interface LogRows {
  /** Per input row: ln p at its label (NaN where the label is refused: that batch throws before it is read). */
  readonly atLabel: Float64Array;
  /** Per input row: the label `atLabel` is at. */
  readonly labels: Int32Array;
  /** Row j of the matrix is input row `rows[j]` (undefined: row j) — the kept rows of a weighting. */
  readonly rows: Int32Array | undefined;
}

const table = new WeakMap<ProbMatrix, LogRows>();

/** Keeps `rows` as the log-probabilities of `p` (which then has no `logData`). */
export function rememberLogRows(p: ProbMatrix, rows: LogRows): void {
  table.set(p, rows);
}

/** The log-probabilities at the labels `p` keeps, if it keeps them so. */
export function logRowsOf(p: ProbMatrix): LogRows | undefined {
  return table.get(p);
}

/** The log-probabilities of rows `keep` of a matrix whose own are `from`: the same values, the row map composed. */
export function keptLogRows(from: LogRows, keep: Int32Array): LogRows {
  const rows = from.rows === undefined ? keep : gatherInt(from.rows, keep);
  return { atLabel: from.atLabel, labels: from.labels, rows };
}

/**
 * ln p(j, k) of validated probabilities from logits or log-probabilities — from `logData`, or at row j's label from
 * the engine batch's {@link LogRows} — or undefined when the matrix keeps none (probabilities given as such)
 * (internal).
 */
export function logProbAccess(p: ProbMatrix): ((j: number, k: number) => number) | undefined {
  const full = p.logData;
  if (full !== undefined) {
    const c = p.numClasses;
    return (j, k) => full[j * c + k] as number;
  }
  const r = table.get(p);
  if (r === undefined) return undefined;
  const { atLabel, labels, rows } = r;
  return (j, k) => {
    const i = rows === undefined ? j : (rows[j] as number);
    if (labels[i] !== k) throw new Error(`internal: ln p of row ${j}, class ${k} is not kept (only at the labels)`);
    return atLabel[i] as number;
  };
}
