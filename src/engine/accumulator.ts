import { FixedBinsStore } from '../accumulate/fixedBins.js';
import { GridStore } from '../accumulate/grid.js';
import { KeptEntriesStore } from '../accumulate/keptEntries.js';
import { MeanStore } from '../accumulate/meanStore.js';
import { RowsStore } from '../accumulate/rowsStore.js';
import type { JsonPath } from '../accumulate/store.js';
import { type Store } from '../accumulate/store.js';
import { groupCount, selectionKey, selectPairs, type Pairs, type SelectionSpec } from '../select/selectPairs.js';
import type { CustomStore } from '../accumulate/store.js';
import type { Batch, StoreRequest } from './definition.js';

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
    const keys: string[] = [];
    const distinct: StoreRequest[] = [];
    this.index = requests.map((r) => {
      const k = requestKey(r);
      let i = keys.indexOf(k);
      if (i < 0) {
        i = keys.length;
        keys.push(k);
        distinct.push(r);
      }
      return i;
    });
    this.keys = keys;
    this.requests = distinct;
    this.stores = stores ?? distinct.map((r) => storeOf(fn, r, numClasses));
  }

  /** The stores of requests `from … from + count − 1` (a metric's own, in its order). */
  storesOf(from: number, count: number): Store[] {
    return this.index.slice(from, from + count).map((i) => this.stores[i] as Store);
  }

  /** Adds one validated batch to every store. */
  add(batch: Batch): void {
    const selections = new Map<string, Pairs[]>();
    const pairs = (s: SelectionSpec): Pairs[] => {
      const k = selectionKey(s);
      let got = selections.get(k);
      if (got === undefined) {
        got = selectPairs(batch.p, batch.y, batch.w, s);
        selections.set(k, got);
      }
      return got;
    };
    this.requests.forEach((r, i) => {
      const store = this.stores[i] as Store;
      switch (r.kind) {
        case 'fixed-bins':
          (store as FixedBinsStore).add(pairs(r.selection));
          return;
        case 'entries':
          (store as KeptEntriesStore).add(pairs(r.selection));
          return;
        case 'grid':
          (store as GridStore).add(pairs(r.selection));
          return;
        case 'mean':
          (store as MeanStore).add(r.values(batch, this.fn), batch.w);
          return;
        case 'rows':
          (store as RowsStore).add(batch.p, batch.y, batch.w);
          return;
        case 'custom':
          (store as CustomStore).add(batch);
      }
    });
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
