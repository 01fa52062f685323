import type { Bin, BinningSpec } from '../binning/types.js';
import { ColumnBlocks, type ClassColumns, type ColumnChunk } from '../select/classColumns.js';
import { ClassHistogram } from './classHistogram.js';
import { inCanonicalOrder, mergeSortedRuns, type SortedRun } from './sortedRuns.js';
import { orderHint } from './orderHints.js';
import { canonicalSort } from './canonicalSort.js';
import { ClassSweep, sweepsQuantile } from './classSweep.js';
import type { Pairs } from '../select/selectPairs.js';
import { numberList, outcomeBytes, type JsonPath, type Store } from './store.js';

/** The entries of one group as columns (weights `undefined` when every weight is 1). */
export interface EntryColumns {
  readonly scores: Float64Array;
  readonly outcomes: Float64Array;
  readonly weights: Float64Array | undefined;
  /** The weights' scale (see `WeightOptions`). */
  readonly unit: number;
}

/** {@link EntryColumns} whose scores may be float32 values in a `Float32Array` (a view, see {@link KeptEntriesStore.view}). */
export interface EntryView {
  readonly scores: Float32Array | Float64Array;
  readonly outcomes: Float64Array;
  /** Class columns: the positions of the outcomes equal to 1. */
  readonly positives?: Int32Array;
  readonly weights: Float64Array | undefined;
  readonly unit: number;
}

/**
 * What one add (or a merged store) brought: one list of pairs per group, a batch read as class columns, or a
 * one-group store's entries in the canonical order (a worker's chunk, or the merge of such runs).
 */
type Chunk = { readonly groups: readonly Pairs[] } | ColumnChunk | { readonly run: SortedRun };

const isColumns = (c: Chunk): c is ColumnChunk => 'cols' in c;
const isRun = (c: Chunk): c is { readonly run: SortedRun } => 'run' in c;

/** A run as pairs: byte outcomes copied as float64 ones (for the rare reads of one run as it came). */
function runPairs(r: SortedRun): Pairs {
  return r.outcomes instanceof Float64Array
    ? { scores: r.scores, outcomes: r.outcomes, weights: r.weights, unit: r.unit }
    : { scores: r.scores, outcomes: new Float64Array(r.outcomes), weights: r.weights, unit: r.unit };
}

/**
 * Every entry of every group, as it came (O(entries) memory). What the order-based metrics keep in exact mode —
 * equal-mass and Ding's bins, AUROC, AUPR, AURC: they read the entries in {@link sorted} order when finishing, or,
 * for unweighted equal-mass bins, only the B − 1 cut ranks, found by selection over {@link view} as they came
 * (binning/quantileSelect.ts) — or read off the sorted entries when a streamed file's merged runs already hold them
 * in the canonical order; every sum over them is exact, so the result depends on the set of entries only, never
 * on their order or batching. The class-wise selections keep each batch as class columns (`addColumns`: the batch's
 * own arrays while the computation that lent them runs, else one class-major copy), read a block of classes at a time
 * (internal).
 */
export class KeptEntriesStore implements Store {
  readonly kind = 'entries';
  private readonly chunks: Chunk[] = [];
  private readonly sortedCache: (SortedRun | undefined)[];
  /** The class columns being read (every chunk a column chunk), made on first read. */
  private blocks: ColumnBlocks | undefined;
  /** The bin counts of the equal-mass (`'quantile'`) bins the store will be read in (from the requests). */
  private readonly hinted = new Set<number>();
  /** Per bin count, every class's unweighted quantile bins, computed by a sweep over the class columns. */
  private readonly classBinsCache = new Map<number, (Bin[] | null)[]>();
  /** A sweep of another store's that fills {@link classBinsCache} too (a lent batch). */
  private sweep: ClassSweep | undefined;
  /** Whether some request reads the store in a binning other than this library's equal-mass one. */
  private otherReads = false;
  /** Pass 1 of two over a file (see classHistogram.ts): class columns counted per bucket, not kept. */
  histogram: ClassHistogram | undefined;
  /** Whether class columns go to {@link histogram} (set by {@link countColumns}). */
  private counting = false;
  /** Whether class columns are counted (read at once, not kept: a lent batch needs no copy). */
  get counts(): boolean {
    return this.counting;
  }

  /** Whether {@link classBinsCache} holds the bins of both passes (no entries are kept then). */
  private resolved = false;

  constructor(readonly groups: number) {
    this.sortedCache = new Array<SortedRun | undefined>(groups).fill(undefined);
  }

  /** Bins of a group in a binning (by key), kept until the store changes (AECE and AMCE read the same Ding bins). */
  private readonly binsMemo = new Map<string, Bin[] | null>();

  /** The bins `make` computes for `key`, computed once until the next add or merge; fresh objects on every call. */
  memoBins(key: string, make: () => Bin[] | null): Bin[] | null {
    let got = this.binsMemo.get(key);
    if (got === undefined) {
      got = make();
      this.binsMemo.set(key, got);
    }
    return got === null ? null : got.map((b) => ({ ...b }));
  }

  private changed(): void {
    this.binsMemo.clear();
    this.sortedCache.fill(undefined);
    this.blocks = undefined;
    this.classBinsCache.clear();
    this.sweep = undefined;
  }

  /** Notes a binning the store will be read in (so one sweep computes every one of them). */
  hint(spec: BinningSpec): void {
    if (sweepsQuantile(spec)) this.hinted.add(spec.bins);
    else this.otherReads = true;
  }

  /**
   * Pass 1 of two (internal; the CLI on a re-readable, unweighted file): class columns are counted per bucket of their
   * keys instead of kept, when every binning the store is read in is this library's equal-mass one. Returns whether
   * it will.
   */
  countColumns(): boolean {
    this.counting = this.hinted.size > 0 && !this.otherReads && this.chunks.length === 0;
    return this.counting;
  }

  /** Installs every class's bins of both passes (per bin count of {@link sweepBins}' order: `bins[i][k]`). */
  resolveClassBins(counts: readonly number[], bins: readonly (Bin[] | null)[][]): void {
    this.classBinsCache.clear();
    for (let k = 0; k < this.groups; k++)
      this.keepClassBins(
        k,
        counts,
        bins.map((b) => b[k] as Bin[] | null),
      );
    this.resolved = true;
  }

  /** The bin counts the store is read in (equal-mass, this library's construction). */
  get quantileBins(): number[] {
    return [...this.hinted];
  }

  /** The bin counts a sweep should compute for this store (every hinted one; `[]` when the store is not swept). */
  sweepBins(): number[] {
    return this.sweepable() ? [...this.hinted] : [];
  }

  /** Whether every chunk is class columns (what a sweep reads). */
  private sweepable(): boolean {
    return this.chunks.length > 0 && this.chunks.every(isColumns);
  }

  /** Lets a sweep over a lent batch fill this store's class bins (it must compute every {@link sweepBins}). */
  shareSweep(sweep: ClassSweep): void {
    this.sweep = sweep;
  }

  /** Keeps class k's bins of each bin count a sweep computed. */
  keepClassBins(k: number, counts: readonly number[], bins: readonly (Bin[] | null)[]): void {
    counts.forEach((b, i) => {
      let all = this.classBinsCache.get(b);
      if (all === undefined) {
        all = new Array<Bin[] | null>(this.groups).fill(null);
        this.classBinsCache.set(b, all);
      }
      all[k] = bins[i] as Bin[] | null;
    });
  }

  /**
   * Group k's equal-mass (`'quantile'`) bins by a sweep over the class columns (every class binned at once, then kept
   * until the store changes); `undefined` when the store or the binning is not swept.
   */
  classBins(k: number, spec: BinningSpec): Bin[] | null | undefined {
    if (this.resolved) {
      const all = this.classBinsCache.get(sweepsQuantile(spec) ? spec.bins : -1);
      if (all === undefined) throw new Error(`KeptEntriesStore: no two-pass bins for ${JSON.stringify(spec)}`);
      return all[k];
    }
    if (!sweepsQuantile(spec) || !this.sweepable()) return undefined;
    let all = this.classBinsCache.get(spec.bins);
    if (all === undefined) {
      this.sweep?.run();
      all = this.classBinsCache.get(spec.bins);
    }
    if (all === undefined) {
      this.hinted.add(spec.bins);
      const counts = [...this.hinted];
      const own = new ClassSweep(this.chunks as ColumnChunk[], [
        { threshold: null, quantile: { bins: counts, keep: (c, bins) => this.keepClassBins(c, counts, bins) } },
      ]);
      own.run();
      all = this.classBinsCache.get(spec.bins);
    }
    return all?.[k];
  }

  add(pairs: readonly Pairs[]): void {
    if (pairs.some((g) => g.scores.length > 0)) {
      this.chunks.push({ groups: pairs });
      this.changed();
    }
  }

  /** Adds a batch read as class columns: group k keeps the entries of class k above `threshold` (`null`: all). */
  addColumns(cols: ClassColumns, threshold: number | null): void {
    if (cols.n === 0) return;
    if (this.counting) {
      this.histogram ??= new ClassHistogram(
        cols.numClasses,
        threshold,
        cols.round || cols.data instanceof Float32Array,
      );
      this.histogram.add(cols);
      return;
    }
    this.chunks.push({ cols, threshold });
    this.changed();
  }

  merge(other: Store): void {
    const o = other as KeptEntriesStore;
    if (o.histogram !== undefined) {
      if (this.histogram === undefined) this.histogram = o.histogram;
      else this.histogram.merge(o.histogram);
    }
    if (o.chunks.length === 0) return;
    this.chunks.push(...o.chunks);
    this.changed();
  }

  /**
   * The entries of group k in the canonical order: ascending score, and within equal scores outcome 0 before 1, then
   * ascending weight — so every computation that walks them in order (cuts, bins, sweeps, running sums) gives the
   * same bits for the same set of entries, however they arrived. Computed once until the next add or merge. Merged
   * from sorted runs whose outcomes are bytes (a worker's chunks), the outcomes stay 0/1 bytes.
   */
  sorted(k: number): SortedRun {
    const cached = this.sortedCache[k];
    if (cached !== undefined) return cached;
    const runs = this.sortedRuns();
    if (runs !== undefined) {
      // chunks sorted where they were made (worker threads): merged, not sorted again; the merge replaces them
      const out = runs.length === 1 ? (runs[0] as SortedRun) : mergeSortedRuns(runs);
      this.chunks.splice(0, this.chunks.length, { run: out });
      this.sortedCache[0] = out;
      return out;
    }
    const e = this.view(k);
    const out = canonicalSort(e, orderHint(e.scores));
    // class columns are sorted once per finish: caching every class would keep a sorted copy of every entry
    if (this.blocks === undefined) this.sortedCache[k] = out;
    return out;
  }

  /** Whether group k's entries in the canonical order are kept or merged from sorted runs (no sort needed). */
  sortedAtHand(k: number): boolean {
    return this.sortedCache[k] !== undefined || this.sortedRuns() !== undefined;
  }

  get groupCount(): number {
    return this.groups;
  }

  /**
   * The entries of group k as they came, possibly as views into scratch that the next `view` or {@link sorted} call
   * on this store reuses (class columns: float32 values in a `Float32Array`) — for reading once, not keeping.
   */
  view(k: number): EntryView {
    if (this.chunks.length > 0 && this.chunks.every(isColumns)) {
      this.blocks ??= new ColumnBlocks(this.chunks);
      return this.blocks.column(k);
    }
    const e = this.entries(k);
    // merged byte outcomes as float64 ones, for the rare reads of the entries as they came (peers' equal-mass bins)
    return e.outcomes instanceof Float64Array
      ? { ...e, outcomes: e.outcomes }
      : { ...e, outcomes: new Float64Array(e.outcomes) };
  }

  /** Group k's weights and their scale, without its outcomes (which {@link view} copies from merged bytes). */
  weightsAt(k: number): { weights: Float64Array | undefined; unit: number } {
    const e = this.chunks.length > 0 && this.chunks.every(isColumns) ? this.view(k) : this.entries(k);
    return { weights: e.weights, unit: e.unit };
  }

  /** The entries of group k, concatenated (weights only when some chunk had weights); arrays of its own or a chunk's. */
  entries(k: number): SortedRun {
    if (this.sortedRuns() !== undefined) return this.sorted(k);
    const chunks: Pairs[] = [];
    for (const c of this.chunks) {
      const g = isColumns(c) ? columnPairs(c, k) : isRun(c) ? runPairs(c.run) : (c.groups[k] as Pairs);
      if (g.scores.length > 0) chunks.push(g);
    }
    if (chunks.length === 1) {
      const c = chunks[0] as Pairs;
      return { scores: c.scores, outcomes: c.outcomes, weights: c.weights, unit: c.unit };
    }
    const n = chunks.reduce((a, c) => a + c.scores.length, 0);
    const weighted = chunks.some((c) => c.weights !== undefined);
    const scores = new Float64Array(n);
    const outcomes = new Float64Array(n);
    const weights = weighted ? new Float64Array(n) : undefined;
    let at = 0;
    for (const c of chunks) {
      scores.set(c.scores, at);
      outcomes.set(c.outcomes, at);
      if (weights !== undefined) {
        if (c.weights === undefined) weights.fill(1, at, at + c.scores.length);
        else weights.set(c.weights, at);
      }
      at += c.scores.length;
    }
    return { scores, outcomes, weights, unit: chunks[0]?.unit ?? 1 };
  }

  /** A one-group store's chunks when every one is entries in the canonical order (read by merging them). */
  private sortedRuns(): SortedRun[] | undefined {
    if (this.groups !== 1 || this.chunks.length === 0) return undefined;
    const runs: SortedRun[] = [];
    for (const c of this.chunks) {
      if (!isRun(c)) return undefined;
      runs.push(c.run);
    }
    return runs;
  }

  /**
   * The JSON form (`typed`: long lists as `Float64Array`s, a worker thread's transfer form, with a one-group store's
   * outcomes as a `Uint8Array` when every one is 0 or 1). A one-group store's entries are written in the canonical order, marked `sorted`, so
   * that the thread merging chunks merges sorted runs instead of sorting every entry again (the order of entries never
   * changes a result), keeping them at 9 bytes per entry until then.
   */
  toJSON(typed = false): unknown {
    if (this.groups === 1 && this.chunks.length > 0 && !this.chunks.some(isColumns)) {
      const e = this.sorted(0);
      return {
        sorted: true,
        groups: [
          {
            scores: numberList(e.scores, typed),
            outcomes: (typed ? outcomeBytes(e.outcomes) : undefined) ?? numberList(e.outcomes, typed),
            ...(e.weights === undefined ? {} : { weights: numberList(e.weights, typed) }),
          },
        ],
      };
    }
    return {
      ...(this.histogram === undefined ? {} : { histogram: this.histogram.toJSON(typed) }),
      groups: Array.from({ length: this.groups }, (_, k) => {
        const e = this.entries(k);
        return {
          scores: numberList(e.scores, typed),
          outcomes: numberList(e.outcomes, typed),
          ...(e.weights === undefined ? {} : { weights: numberList(e.weights, typed) }),
        };
      }),
    };
  }

  /** Reads {@link toJSON}'s form for `groups` groups, checking every entry. */
  static fromJSON(json: unknown, at: JsonPath, groups: number): KeptEntriesStore {
    const s = new KeptEntriesStore(groups);
    const h = at.object(json).histogram;
    if (h !== undefined) s.histogram = ClassHistogram.fromJSON(h, at.at('histogram'), groups);
    const g = at.at('groups').array(at.object(json).groups, groups);
    const runs: SortedRun[] = [];
    g.forEach((x, k) => {
      const here = at.at('groups').at(k);
      const o = here.object(x);
      const scores = here.at('scores').numbers(o.scores);
      const outcomes = here.at('outcomes').flags(o.outcomes, scores.length);
      const weights =
        o.weights === undefined
          ? undefined
          : here.at('weights').numbers(o.weights, scores.length, (v) => v > 0, 'be a finite number > 0');
      runs.push({ scores, outcomes, weights, unit: 1 });
    });
    const first = runs[0] as SortedRun;
    if (groups === 1 && at.object(json).sorted === true && inCanonicalOrder(first)) {
      if (first.scores.length > 0) s.chunks.push({ run: first });
      return s;
    }
    s.add(runs.map(runPairs));
    return s;
  }
}

/** Class k of one column chunk as fresh pairs (a chunk's blocks reused while its classes are read in order). */
const chunkBlocks = new WeakMap<ColumnChunk, ColumnBlocks>();
function columnPairs(chunk: ColumnChunk, k: number): Pairs {
  let blocks = chunkBlocks.get(chunk);
  if (blocks === undefined) {
    blocks = new ColumnBlocks([chunk]);
    chunkBlocks.set(chunk, blocks);
  }
  const v = blocks.column(k);
  return {
    scores: Float64Array.from(v.scores),
    outcomes: v.outcomes.slice(),
    weights: v.weights?.slice(),
    unit: v.unit,
  };
}
