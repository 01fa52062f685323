import type { LabeledBatch } from '../input/types.js';
import { argsort } from '../kernels/argsort.js';

/**
 * Sort orders carried over between weightings of the same rows (a bootstrap's resamples, see `prepareSuite`). The
 * rows never change, only which of them are kept (weight > 0, in their order) and their weights; argsort is stable, so
 * the ascending order of a kept subset's keys is the prepared rows' order with the other rows left out — an O(N)
 * filter instead of a sort. Such an order is only ever a candidate: {@link isStableOrder} checks it in O(N) before it
 * stands for `argsort(keys)`, so a wrong hint costs the sort it was meant to save, never a different result (internal).
 */

/**
 * The prepared rows a batch was gathered from: batch row j is prepared row `rows[j]` (`undefined`: every row, in
 * order); `source` is the prepared rows themselves, unweighted (the key columns are read from it).
 */
export class RowOrigin {
  private positions: Int32Array | undefined;

  constructor(
    readonly source: LabeledBatch,
    readonly rows: Int32Array | undefined,
    readonly orders: OrderCache,
  ) {}

  /** The prepared order `full` restricted to the batch's rows, as positions in the batch. */
  restrict(full: Uint32Array): Uint32Array {
    const rows = this.rows;
    if (rows === undefined) return full;
    if (this.positions === undefined) {
      this.positions = new Int32Array(this.source.p.n).fill(-1);
      for (let j = 0; j < rows.length; j++) this.positions[rows[j] as number] = j;
    }
    const at = this.positions;
    const out = new Uint32Array(rows.length);
    let m = 0;
    for (let r = 0; r < full.length && m < out.length; r++) {
      const j = at[full[r] as number] as number;
      if (j >= 0) out[m++] = j;
    }
    return m === out.length ? out : out.subarray(0, m);
  }
}

/** The ascending orders of key columns of one set of prepared rows, by name, each computed once. */
export class OrderCache {
  private readonly orders = new Map<string, Uint32Array | null>();

  /** The order of the keys `keys()` gives (`undefined`: no such column; then none is kept). */
  order(name: string, keys: () => ArrayLike<number> | undefined): Uint32Array | null {
    let got = this.orders.get(name);
    if (got === undefined) {
      const k = keys();
      got = k === undefined ? null : argsort(k);
      this.orders.set(name, got);
    }
    return got;
  }
}

const ORIGINS = new WeakMap<object, RowOrigin>();

/** Notes that `of` (a batch's matrix) holds rows of prepared data. */
export function setOrigin(of: object, origin: RowOrigin): void {
  ORIGINS.set(of, origin);
}

/** The prepared rows `of` holds, if noted. */
export function originOf(of: object): RowOrigin | undefined {
  return ORIGINS.get(of);
}

/**
 * Whether `order` is exactly `argsort(keys)`, given `sorted` = keys read in that order (`keys[order[r]]`, gathered
 * by the caller anyway): a permutation of the n positions with ascending keys (−0 equal to 0) and equal keys in
 * ascending position — the one stable ascending order.
 */
export function isStableOrder(sorted: ArrayLike<number>, order: Uint32Array, n: number): boolean {
  if (order.length !== n || sorted.length !== n) return false;
  const seen = new Uint8Array(n);
  for (let r = 0; r < n; r++) {
    const i = order[r] as number;
    if (i >= n || seen[i] === 1) return false;
    seen[i] = 1;
  }
  for (let r = 1; r < n; r++) {
    const a = sorted[r - 1] as number;
    const b = sorted[r] as number;
    if (!(a < b || (a === b && (order[r - 1] as number) < (order[r] as number)))) return false;
  }
  return true;
}

/** A candidate order per key array (pairs' scores) or per class of a class-columns object, made on first use. */
const HINTS = new WeakMap<object, (k: number) => Uint32Array | undefined>();

/** Gives `of` (a scores array, or class columns: one order per class) a candidate order, computed when asked. */
export function hintOrder(of: object, hint: (k: number) => Uint32Array | undefined): void {
  HINTS.set(of, hint);
}

/** The candidate order of `of` (class k of class columns; 0 for a scores array), if it has one. */
export function orderHint(of: object, k = 0): Uint32Array | undefined {
  return HINTS.get(of)?.(k);
}
