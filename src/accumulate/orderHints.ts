import type { LabeledBatch } from '../input/types.js';
import { weightUnit } from '../input/weights.js';
import type { Pairs } from '../select/selectPairs.js';
import { argsort } from '../kernels/argsort.js';
import { kernelGeneration } from '../kernels/rowStats.js';
import { gather } from '../math/gather.js';

/**
 * Sort orders carried over between weightings of the same rows (a bootstrap's resamples, see `prepareSuite`). The
 * rows never change, only which of them are kept (weight > 0, in their order) and their weights; argsort is stable, so
 * the ascending order of a kept subset's keys is the prepared rows' order with the other rows left out — an O(N)
 * filter instead of a sort. Such an order is only ever a candidate: it is checked in O(N) ({@link isStableOrder}'s checks,
 * which `canonicalSort` makes while it gathers the entries) before it stands for `argsort(keys)`, so a wrong hint costs
 * the sort it was meant to save, never a different result (internal). Per-row values and row-wise selections of the
 * prepared rows are computed once too, and gathered for each weighting ({@link RowOrigin.values}, `rowPairs`).
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

  /**
   * A per-row value of the batch's rows (a mean store's values: `compute` must give each row a value of that row alone,
   * as every mean request's values are), read from the prepared rows' values — computed once under `key` — instead of
   * computed again on every weighting's copy; the same numbers. Computed on the batch when the batch is the prepared
   * rows themselves (it may be a caller's validated matrix, not only the prepared suite's) or when the prepared rows'
   * values throw (their error, if any, is the batch's own).
   */
  values(key: string, compute: (rows: LabeledBatch) => Float64Array, batch: LabeledBatch): Float64Array {
    const rows = this.rows;
    if (rows === undefined) return compute(batch);
    const all = this.orders.values(key, () => compute(this.source));
    return all === null ? compute(batch) : gather(all, rows);
  }

  /**
   * A row-wise selection of the batch's rows — one pair per row, in row order (one group, no threshold): each row's
   * score and outcome are its own — read from the prepared rows' selection, made once under `key`, with the batch's
   * weights; `select` on the batch where {@link values} computes on it, or where the prepared selection is not one
   * pair per row.
   */
  rowPairs(key: string, select: (rows: LabeledBatch) => Pairs[], batch: LabeledBatch): Pairs[] {
    const rows = this.rows;
    if (rows === undefined) return select(batch);
    const all = this.orders.selection(key, () => select(this.source));
    const one = all?.length === 1 ? (all[0] as Pairs) : undefined;
    if (one === undefined || one.scores.length !== this.source.p.n) return select(batch);
    return [
      {
        scores: gather(one.scores, rows),
        outcomes: gather(one.outcomes, rows),
        weights: batch.w,
        unit: weightUnit(batch.w),
      },
    ];
  }
}

/** The ascending orders of key columns of one set of prepared rows, by name, each computed once; and their per-row values. */
export class OrderCache {
  private readonly orders = new Map<string, Uint32Array | null>();
  private readonly rowValues = new Map<string, Float64Array | null>();

  private readonly selections = new Map<string, Pairs[] | null>();
  /** The kernel switch the values and selections were computed under (see {@link current}). */
  private generation = kernelGeneration();

  /**
   * Forgets the values and selections after `useKernels`: another kernel may round a per-row value differently, and a
   * prepared suite gives what the active kernel gives (the orders are of the keys alone: kept).
   */
  private current(): void {
    const g = kernelGeneration();
    if (g === this.generation) return;
    this.generation = g;
    this.rowValues.clear();
    this.selections.clear();
  }

  /** The selection `select()` gives, made once (`null`: it threw). */
  selection(key: string, select: () => Pairs[]): Pairs[] | null {
    this.current();
    return once(this.selections, key, select);
  }

  /** The per-row values `compute()` gives, computed once (`null`: it threw). */
  values(key: string, compute: () => Float64Array): Float64Array | null {
    this.current();
    return once(this.rowValues, key, compute);
  }

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
 * ascending position — the one stable ascending order. The reference of the check `canonicalSort` makes in its
 * gathering pass (test/accumulate/orderHints.test.ts holds the two to the same verdicts).
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

/** `make()` under `key` in `memo`, made on the first call (`null` when it threw: the caller computes on its batch). */
function once<T>(memo: Map<string, T | null>, key: string, make: () => T): T | null {
  let got = memo.get(key);
  if (got === undefined) {
    try {
      got = make();
    } catch {
      got = null;
    }
    memo.set(key, got);
  }
  return got;
}
