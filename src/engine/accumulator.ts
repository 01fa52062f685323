import { ClassSweep, type SweepConsumer } from '../accumulate/classSweep.js';
import { FixedBinsStore, type FixedSpec } from '../accumulate/fixedBins.js';
import type { BinSums } from '../binning/binSums.js';
import { GridStore } from '../accumulate/grid.js';
import { KeptEntriesStore } from '../accumulate/keptEntries.js';
import { MeanStore } from '../accumulate/meanStore.js';
import { RowsStore } from '../accumulate/rowsStore.js';
import type { JsonPath } from '../accumulate/store.js';
import { type Store } from '../accumulate/store.js';
import type { Precision } from '../binning/types.js';
import { hintOrder, originOf, type RowOrigin } from '../accumulate/orderHints.js';
import {
  ColumnBlocks,
  keptColumns,
  lentColumns,
  readsClassColumns,
  type ClassColumns,
} from '../select/classColumns.js';
import { groupCount, selectionKey, selectPairs, type Pairs, type SelectionSpec } from '../select/selectPairs.js';
import type { CustomStore } from '../accumulate/store.js';
import type { Batch, StoreRequest } from './definition.js';

/** The distinct requests of a list of requests (a computation's, planned once per list: see `Computation`). */
const PLANS = new WeakMap<
  readonly StoreRequest[],
  { keys: readonly string[]; distinct: readonly StoreRequest[]; index: readonly number[] }
>();

/** The key under which equal requests share one store. */
export function requestKey(r: StoreRequest): string {
  switch (r.kind) {
    case 'fixed-bins':
      return `fixed-bins|${selectionKey(r.selection)}|${JSON.stringify(r.spec)}`;
    case 'entries':
      return `entries|${selectionKey(r.selection)}`;
    case 'grid':
      return `grid|${selectionKey(r.selection)}|${r.cellBits}|${r.offset ?? 0}`;
    case 'mean':
      return `mean|${r.key}`;
    case 'rows':
      return 'rows';
    case 'custom':
      return `custom|${r.key}`;
  }
}

function storeOf(fn: string, r: StoreRequest, numClasses: number): Store {
  switch (r.kind) {
    case 'fixed-bins':
      return new FixedBinsStore(fn, r.spec, groupCount(r.selection, numClasses));
    case 'entries':
      return new KeptEntriesStore(groupCount(r.selection, numClasses));
    case 'grid':
      return new GridStore(groupCount(r.selection, numClasses), r.cellBits, r.offset ?? 0);
    case 'mean':
      return new MeanStore();
    case 'rows':
      return new RowsStore(numClasses);
    case 'custom':
      return r.make(numClasses);
  }
}

/**
 * A candidate order for the scores of a one-group selection of a batch of prepared rows: the prepared rows' order of
 * the same selection, restricted to the batch's rows (see orderHints.ts; checked before it is used).
 */
function hintPairs(pairs: Pairs, s: SelectionSpec, key: string, origin: RowOrigin): void {
  hintOrder(pairs.scores, () => {
    const full = origin.orders.order(`pairs|${key}`, () => {
      const all = selectPairs(origin.source.p, origin.source.y, undefined, s);
      return all.length === 1 ? (all[0] as Pairs).scores : undefined;
    });
    return full === null ? undefined : origin.restrict(full);
  });
}

/** A candidate order per class column of a batch of prepared rows, as {@link hintPairs}. */
function hintColumns(cols: ClassColumns, precision: Precision, origin: RowOrigin): void {
  let blocks: ColumnBlocks | undefined;
  hintOrder(cols, (k) => {
    const full = origin.orders.order(`columns|${precision}|${k}`, () => {
      blocks ??= new ColumnBlocks([{ cols: lentColumns(origin.source, precision), threshold: null }]);
      return blocks.column(k).scores;
    });
    return full === null ? undefined : origin.restrict(full);
  });
}

/**
 * The stores of a set of requests, one per distinct key, for data of `numClasses` classes: each batch is selected
 * once per distinct selection and each value computed once per distinct key, whatever the number of metrics that read
 * them (internal; shared by the public functions, `evaluate` and the mergeable states).
 */
export class Accumulator {
  readonly keys: readonly string[];
  readonly stores: Store[];
  /** The distinct requests, one per store (in the order of `stores`). */
  readonly requests: readonly StoreRequest[];
  /** For each request given, the index of its store. */
  readonly index: readonly number[];

  constructor(
    readonly fn: string,
    requests: readonly StoreRequest[],
    readonly numClasses: number,
    stores?: Store[],
  ) {
    let plan = PLANS.get(requests);
    if (plan === undefined) {
      const keys: string[] = [];
      const distinct: StoreRequest[] = [];
      const index = requests.map((r) => {
        const k = requestKey(r);
        let i = keys.indexOf(k);
        if (i < 0) {
          i = keys.length;
          keys.push(k);
          distinct.push(r);
        }
        return i;
      });
      plan = { keys, distinct, index };
      PLANS.set(requests, plan);
    }
    this.index = plan.index;
    this.keys = plan.keys;
    this.requests = plan.distinct;
    this.stores = stores ?? this.requests.map((r) => storeOf(fn, r, numClasses));
    // every binning a kept store will be read in (several metrics may share it)
    requests.forEach((r, i) => {
      const store = this.stores[this.index[i] as number];
      if (r.kind === 'entries' && r.binning !== undefined && store instanceof KeptEntriesStore) store.hint(r.binning);
    });
  }

  /** The stores of requests `from … from + count − 1` (a metric's own, in its order). */
  storesOf(from: number, count: number): Store[] {
    return this.index.slice(from, from + count).map((i) => this.stores[i] as Store);
  }

  /**
   * Adds one validated batch to every store. The class-wise selections (every class, grouped by class) are read as
   * class columns, never copied pair by pair: fixed bins sum them at once, and kept entries keep the batch itself —
   * unless `keep`, when they keep one class-major copy. Without `keep` the caller lends the batch: its arrays must not
   * change until the stores are finished (no code outside the library runs in between — as in a function call); a
   * caller that returns to its user before finishing (a state) passes `keep`.
   */
  add(batch: Batch, keep = false): void {
    const origin = originOf(batch.p);
    const selections = new Map<string, Pairs[]>();
    const pairs = (s: SelectionSpec): Pairs[] => {
      const k = selectionKey(s);
      let got = selections.get(k);
      if (got === undefined) {
        const select = (b: Batch) => selectPairs(b.p, b.y, b.w, s);
        // a weighting of prepared rows reads a row-wise selection (one pair per row) from theirs, made once
        got =
          origin !== undefined && s.groupBy === 'none' && s.threshold === null && s.target !== 'all-classes'
            ? origin.rowPairs(k, select, batch)
            : select(batch);
        selections.set(k, got);
        if (origin !== undefined && got.length === 1) hintPairs(got[0] as Pairs, s, k, origin);
      }
      return got;
    };
    // one reading of the batch as class columns per precision, lent and (for kept entries) copied once
    const lent = new Map<Precision, ClassColumns>();
    const copied = new Map<Precision, ClassColumns>();
    const columns = (s: SelectionSpec, copy: boolean): ClassColumns => {
      const cache = copy ? copied : lent;
      let got = cache.get(s.precision);
      if (got === undefined) {
        got = copy ? keptColumns(columns(s, false)) : lentColumns(batch, s.precision);
        cache.set(s.precision, got);
        if (!copy && origin !== undefined) hintColumns(got, s.precision, origin);
      }
      return got;
    };
    const swept = keep ? new Set<Store>() : this.sweep(columns);
    this.requests.forEach((r, i) => {
      const store = this.stores[i] as Store;
      switch (r.kind) {
        case 'fixed-bins':
          if (swept.has(store)) return;
          if (readsClassColumns(r.selection))
            (store as FixedBinsStore).addColumns(columns(r.selection, false), r.selection.threshold);
          else (store as FixedBinsStore).add(pairs(r.selection));
          return;
        case 'entries':
          if (swept.has(store)) return;
          if (readsClassColumns(r.selection))
            // a store counting its entries (two passes over a file) reads the batch at once: no copy to keep
            (store as KeptEntriesStore).addColumns(
              columns(r.selection, keep && !(store as KeptEntriesStore).counts),
              r.selection.threshold,
            );
          else (store as KeptEntriesStore).add(pairs(r.selection));
          return;
        case 'grid':
          (store as GridStore).add(pairs(r.selection));
          return;
        case 'mean':
          // a weighting of prepared rows reads their values, computed once (each row's value is its own)
          (store as MeanStore).add(
            origin === undefined ? r.values(batch, this.fn) : origin.values(r.key, (b) => r.values(b, this.fn), batch),
            batch.w,
          );
          return;
        case 'rows':
          (store as RowsStore).add(batch.p, batch.y, batch.w);
          return;
        case 'custom':
          (store as CustomStore).add(batch);
      }
    });
  }

  /**
   * One sweep per precision over the class columns of a lent batch, for every class-wise store it can bin
   * (equal-width fixed bins, kept entries read in quantile bins) — when one of them reads every entry (no threshold), so
   * reading the whole columns is needed anyway. The fixed bins are left to the sweep; the kept entries keep the batch
   * too (other binnings read it). Returns the fixed-bins stores left to it.
   */
  private sweep(columns: (s: SelectionSpec, copy: boolean) => ClassColumns): Set<Store> {
    const groups = new Map<
      Precision,
      { fixed: [FixedBinsStore, SelectionSpec][]; kept: [KeptEntriesStore, SelectionSpec][] }
    >();
    this.requests.forEach((r, i) => {
      if ((r.kind !== 'fixed-bins' && r.kind !== 'entries') || !readsClassColumns(r.selection)) return;
      const store = this.stores[i] as Store;
      const p = r.selection.precision;
      let g = groups.get(p);
      if (g === undefined) {
        g = { fixed: [], kept: [] };
        groups.set(p, g);
      }
      if (r.kind === 'fixed-bins' && r.spec.scheme === 'equal-width')
        g.fixed.push([store as FixedBinsStore, r.selection]);
      else if (r.kind === 'entries') g.kept.push([store as KeptEntriesStore, r.selection]);
    });
    const swept = new Set<Store>();
    for (const [, g] of groups) {
      const all = [...g.fixed, ...g.kept].map(([, s]) => s);
      if (all.length === 0 || !all.some((s) => s.threshold === null)) continue;
      const cols = columns(all[0] as SelectionSpec, false);
      const consumers: SweepConsumer[] = [];
      for (const [store, s] of g.fixed) {
        const spec = store.spec as Extract<FixedSpec, { scheme: 'equal-width' }>;
        consumers.push({
          threshold: s.threshold,
          equalWidth: {
            spec,
            sums: (k) => store.groups[k] as BinSums,
            weighted: (w, unit) => store.noteWeights(w, unit),
          },
        });
      }
      const kept: KeptEntriesStore[] = [];
      for (const [store, s] of g.kept) {
        store.addColumns(cols, s.threshold);
        const counts = store.sweepBins();
        if (counts.length === 0) continue;
        kept.push(store);
        consumers.push({
          threshold: s.threshold,
          quantile: { bins: counts, keep: (k, bins) => store.keepClassBins(k, counts, bins) },
        });
      }
      const sweep = new ClassSweep([{ cols, threshold: null }], consumers);
      for (const [store] of g.fixed) {
        store.defer(sweep);
        swept.add(store);
      }
      for (const store of kept) store.shareSweep(sweep);
      for (const [store] of g.kept) swept.add(store);
    }
    return swept;
  }

  /** Adds the stores of another accumulator of the same requests and classes (exact). */
  merge(other: Accumulator): void {
    this.stores.forEach((s, i) => s.merge(other.stores[i] as Store));
  }

  /** The stores' plain forms (`typed`: see {@link Store.toJSON}). */
  toJSON(typed = false): unknown[] {
    return this.stores.map((s) => s.toJSON(typed));
  }

  /** Reads {@link toJSON}'s form, checking every store against these requests. */
  static fromJSON(
    fn: string,
    requests: readonly StoreRequest[],
    numClasses: number,
    json: unknown,
    at: JsonPath,
  ): Accumulator {
    const shape = new Accumulator(fn, requests, numClasses);
    const list = at.array(json, shape.stores.length);
    const stores = shape.requests.map((r, i): Store => {
      const here = at.at(i);
      switch (r.kind) {
        case 'fixed-bins':
          return FixedBinsStore.fromJSON(list[i], here, fn, r.spec, groupCount(r.selection, numClasses));
        case 'entries':
          return KeptEntriesStore.fromJSON(list[i], here, groupCount(r.selection, numClasses));
        case 'grid':
          return GridStore.fromJSON(list[i], here, groupCount(r.selection, numClasses), r.cellBits, r.offset ?? 0);
        case 'mean':
          return MeanStore.fromJSON(list[i], here);
        case 'rows':
          return RowsStore.fromJSON(list[i], here, numClasses);
        case 'custom':
          return r.load(list[i], here, numClasses);
      }
    });
    return new Accumulator(fn, requests, numClasses, stores);
  }
}
