/**
 * Order statistics without a full sort: radix selection on the IEEE-754 bit patterns (internal).
 *
 * Every value gets a signed 32-bit key whose order is the values' order: the float32 bit pattern when every value is
 * a float32 value ("narrow": then equal keys mean equal values), else the high word of the float64 pattern (equal keys
 * mean equal sign, exponent and top 20 mantissa bits). One pass counts the keys' top 16 bits (the bucket: sign,
 * exponent and the leading mantissa bits); prefix sums place every bucket in sorted order, so the bucket holding any
 * rank is known. Only the buckets that hold a requested rank (and their non-empty neighbours, which hold the values
 * just below and above it) are gathered, in a second pass; a small bucket is sorted, a large one is counted again on
 * the key's low 16 bits — narrow keys are then exact, and only a sub-bucket of wide keys (values equal in their top 32
 * bits) is ever sorted. A rank's value is the value `Float64Array.from(values).sort()` has there (−0 before 0); the
 * counts below and up to it compare numerically (−0 = 0).
 *
 * One selection at a time: the bucket tables are module scratch, cleared over the range used when the selection is
 * released (JavaScript runs one call at a time; nothing here is re-entrant). Below {@link SELECT_MIN} values a sorted
 * copy ({@link SortedRanks}) answers the same questions for less.
 */

import { argsort } from '../kernels/argsort.js';
import { columnKernel, gatherPositions, WASM_COLUMN_MAX, type ColumnKernel } from '../kernels/columnsWasm.js';
import { gather } from '../math/gather.js';
import { checkFree, checkOwner, dropScratch, gatheredRoom, selectionKeys, takeScratch } from './selectionScratch.js';
import {
  BUCKETS,
  bucketOfValue,
  gatherPass,
  gatherPassWith,
  atMostCount,
  narrowBitsSums,
  narrowPass,
  narrowSumsPass,
  narrowValue,
  prefixPass,
  radixTables,
  rangeBuckets,
  widePass,
  ZERO_KEY,
} from './radixPasses.js';

/** A gathered bucket up to this size is sorted outright; a larger one is counted again on the low 16 bits. */
const SMALL = 2048;

/** Number of entries of ascending `v` that are < x (`strict`) or ≤ x. */
function countBelow(v: Float64Array, x: number, strict: boolean): number {
  let lo = 0;
  let hi = v.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const e = v[mid] as number;
    if (strict ? e < x : e <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The value at a rank, and how many values are below it and up to it (so [less, lessEq) is its block of ties). */
export interface RankBlock {
  readonly value: number;
  readonly less: number;
  readonly lessEq: number;
}

/** A gathered bucket: its first rank, where its entries lie in the gathered arrays, and what was derived from them. */
interface Gathered {
  readonly bucket: number;
  readonly rank: number;
  readonly offset: number;
  readonly size: number;
  sorted?: Float64Array;
  /**
   * Large buckets: entries per low-16-bit sub-bucket as prefix sums over the sub-buckets from `subLow` to the highest
   * one used, and the sorted sub-buckets asked for.
   */
  sub?: Int32Array;
  subLow?: number;
  subSorted?: Map<number, Float64Array>;
}

/** What a counting pass found: narrow or wide keys, the range of buckets used. */
interface KeyPass {
  readonly narrow: boolean;
  readonly low: number;
  readonly high: number;
}

/** What the equal-mass constructions read: values at ranks and their blocks of ties (internal). */
export interface RankSource {
  readonly n: number;
  readonly values: ArrayLike<number>;
  /** Marks rank r to be read (before {@link gather}). */
  want(r: number): void;
  /** Prepares the ranks marked (`extra`: a column to gather along, see {@link RankSelection.gather}). */
  gather(extra?: ArrayLike<number>): void;
  block(r: number): RankBlock;
  valueAt(r: number): number;
  release(): void;
}

/**
 * A {@link RankSource} over a sorted copy — for few values, where the radix argsort costs less than the passes over a
 * selection's bucket tables, whose size does not shrink with N (internal).
 */
export class SortedRanks implements RankSource {
  readonly n: number;
  readonly values: ArrayLike<number>;
  private readonly sorted: Float64Array;

  constructor(values: ArrayLike<number>) {
    const n = values.length;
    this.n = n;
    this.values = values;
    // the radix argsort (several times faster than Float64Array.prototype.sort), which keeps ±0 in input order:
    // the zeros are rewritten as the numeric sort has them, every −0 first
    const sorted = gather(values, argsort(values));
    const from = countBelow(sorted, 0, true);
    const to = countBelow(sorted, 0, false);
    let negative = 0;
    for (let j = from; j < to; j++) if (Object.is(sorted[j], -0)) negative++;
    if (negative > 0) {
      sorted.fill(-0, from, from + negative);
      sorted.fill(0, from + negative, to);
    }
    this.sorted = sorted;
  }

  want(): void {}

  gather(): void {}

  block(r: number): RankBlock {
    return sortedBlock(this.sorted, r, 0);
  }

  valueAt(r: number): number {
    return this.sorted[r] as number;
  }

  release(): void {}
}

/**
 * The sorted view of N finite values, read at a few ranks by radix selection (internal): `RankSelection.of(values)`,
 * mark the ranks to read with {@link RankSelection.want}, {@link RankSelection.gather} once, read with
 * {@link RankSelection.block} / {@link RankSelection.valueAt}, and {@link RankSelection.release} when done.
 */
export class RankSelection implements RankSource {
  readonly n: number;
  readonly values: ArrayLike<number>;
  /**
   * The order-preserving key of every value (bucket = (key >> 16) + 2^15): up to 2^18 keys a view of the module's
   * scratch (selectionScratch.ts), valid until another selection is made.
   */
  readonly keys: Int32Array;
  /** Whether every value is a float32 value (keys identify values, ±0 aside). */
  readonly narrow: boolean;
  /** The lowest and highest bucket holding a value. */
  readonly low: number;
  readonly high: number;
  /** The non-empty buckets, ascending. */
  readonly occupied: Int32Array;
  /** The count of keys ≤ the `atMost` key given to {@link withSums} (class columns). */
  atMost = 0;
  /** The column kernel that counted the values and still holds them (class columns): it gathers them too. */
  private kernel: ColumnKernel | null = null;
  private gathered: Gathered[] = [];
  private gatheredKeys: Int32Array = new Int32Array(0);
  private gatheredValues: Float64Array = new Float64Array(0);
  /** An extra column gathered along (e.g. outcomes), same layout as the values. */
  private gatheredExtra: Float64Array | undefined;
  private released = false;

  /** The module's bucket tables (see radixPasses.ts), held for this selection until {@link release}. */
  private readonly counts: Int32Array;
  private readonly slot: Int32Array;

  private constructor(values: ArrayLike<number>, keys: Int32Array, pass: KeyPass) {
    this.n = values.length;
    this.values = values;
    this.keys = keys;
    this.narrow = pass.narrow;
    this.low = pass.low;
    this.high = pass.high;
    ({ counts: this.counts, slot: this.slot } = radixTables());
    takeScratch(this);
    this.occupied = prefixPass(this.counts, this.low, this.high, Math.min(this.n, this.high - this.low + 1));
  }

  /** Counts the buckets of `values` (N ≥ 1, finite): narrow keys when every value is a float32 value. */
  static of(values: ArrayLike<number>, keys = selectionKeys(values.length)): RankSelection {
    checkFree('of');
    const n = values.length;
    const { counts } = radixTables();
    const stop = narrowPass(values, keys, n, counts);
    if (stop === n) return new RankSelection(values, keys, { narrow: true, ...rangeBuckets() });
    if (stop > 0) {
      const { low, high } = rangeBuckets();
      counts.fill(0, low, high + 1);
    }
    widePass(values, keys, n, counts);
    return new RankSelection(values, keys, { narrow: false, ...rangeBuckets() });
  }

  /**
   * {@link of} for float32 values with outcomes 0 or 1, adding in the same pass each bucket's Σ value into `score[h]`
   * and Σ outcome into `ones[h]` (both zero over the buckets on entry). The entries of a bucket share their float32
   * sign and exponent, so each bucket's float64 sum is exact below 2^29 entries. `null`, with the tables and `score`,
   * `ones` cleared again, when a value is not a float32 value, an outcome is not 0 or 1, or N ≥ 2^29. `positives`,
   * when given, lists the positions of the outcomes equal to 1 (class columns: the outcomes are then not read), and
   * the pass then also counts the keys ≤ `atMost` ({@link RankSelection.atMost}).
   */
  static withSums(
    values: ArrayLike<number>,
    outcomes: ArrayLike<number>,
    score: Float64Array,
    ones: Float64Array,
    keys?: Int32Array,
    positives?: Int32Array,
    atMost = -1,
  ): RankSelection | null {
    checkFree('withSums');
    const n = values.length;
    if (n >= 2 ** 29) return null;
    const { counts } = radixTables();
    if (values instanceof Float32Array && positives !== undefined) {
      // float32 values (class columns): their bits are the keys unless a value has its sign bit set
      const bits = new Int32Array(values.buffer, values.byteOffset, n);
      const kernel = n <= WASM_COLUMN_MAX ? columnKernel() : null;
      const stop = narrowBitsSums(bits, values, positives, score, ones, n, counts, atMost, kernel);
      const { low, high } = rangeBuckets();
      if (stop === n) {
        const sel = new RankSelection(values, bits, { narrow: true, low, high });
        sel.atMost = atMostCount();
        sel.kernel = kernel;
        return sel;
      }
      if (stop > 0) {
        counts.fill(0, low, high + 1);
        score.fill(0, low, high + 1);
        ones.fill(0, low, high + 1);
      }
    }
    keys ??= selectionKeys(n);
    const stop = narrowSumsPass(values, outcomes, keys, score, ones, n, counts);
    const { low, high } = rangeBuckets();
    if (stop === n) return new RankSelection(values, keys, { narrow: true, low, high });
    if (stop > 0) {
      counts.fill(0, low, high + 1);
      score.fill(0, low, high + 1);
      ones.fill(0, low, high + 1);
    }
    return null;
  }

  /** The bucket of value v's key (v one of the values, or any value when wide). */
  bucketOf(v: number): number {
    return bucketOfValue(v, this.narrow);
  }

  /** Entries in buckets below bucket h, for h in [low, high + 1] (the module's table: read it before {@link release}). */
  get starts(): Int32Array {
    return this.counts;
  }

  /** The bucket holding rank r (0 ≤ r < N). */
  bucketOfRank(r: number): number {
    let lo = this.low;
    let hi = this.high;
    // the last h with start(h) ≤ r
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((this.counts[mid] as number) <= r) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Marks bucket h (non-empty) for gathering. */
  private mark(h: number): void {
    checkOwner(this, 'want');
    if ((this.slot[h] as number) >= 0) return;
    this.slot[h] = this.gathered.length;
    const rank = this.counts[h] as number;
    this.gathered.push({ bucket: h, rank, offset: 0, size: (this.counts[h + 1] as number) - rank });
  }

  /** Marks bucket h to be gathered (an empty bucket, or one outside the range used, is ignored). */
  wantBucket(h: number): void {
    if (h < this.low || h > this.high || this.counts[h + 1] === this.counts[h]) return;
    this.mark(h);
  }

  /**
   * Marks rank r to be read, with the buckets just below and above its own (they hold the nearest smaller and larger
   * values when its block of ties begins or ends at its bucket's edge). Call before {@link gather}.
   */
  want(r: number): void {
    const h = this.bucketOfRank(r);
    this.mark(h);
    const start = this.counts[h] as number;
    const end = this.counts[h + 1] as number;
    if (start > 0) this.mark(this.bucketOfRank(start - 1));
    if (end < this.n) this.mark(this.bucketOfRank(end));
  }

  /** Gathers the marked buckets' keys, values and the `extra` column (same length as the values), in input order. */
  gather(extra?: ArrayLike<number>): void {
    checkOwner(this, 'gather');
    this.gathered.sort((a, b) => a.bucket - b.bucket);
    let total = 0;
    this.gathered = this.gathered.map((g, s) => {
      this.slot[g.bucket] = s;
      const out = { ...g, offset: total };
      total += g.size;
      return out;
    });
    const room = gatheredRoom(total, extra !== undefined);
    this.gatheredKeys = room.keys;
    this.gatheredValues = room.values;
    this.gatheredExtra = room.extra;
    const fill = Int32Array.from(this.gathered, (g) => g.offset);
    if (this.kernel !== null) {
      const buckets = Int32Array.from(this.gathered, (g) => g.bucket);
      const positions = gatherPositions(this.kernel, buckets, fill, total);
      const { keys, values } = this;
      const ge = this.gatheredExtra;
      for (let p = 0; p < total; p++) {
        const i = positions[p] as number;
        this.gatheredKeys[p] = keys[i] as number;
        this.gatheredValues[p] = values[i] as number;
        if (ge !== undefined) ge[p] = (extra as ArrayLike<number>)[i] as number;
      }
      return;
    }
    if (extra === undefined)
      gatherPass(this.keys, this.values, this.n, this.slot, fill, this.gatheredKeys, this.gatheredValues);
    else
      gatherPassWith(
        this.keys,
        this.values,
        extra,
        this.n,
        this.slot,
        fill,
        this.gatheredKeys,
        this.gatheredValues,
        this.gatheredExtra as Float64Array,
      );
  }

  /** The gathered bucket h (it must have been marked). */
  private bucket(h: number): Gathered {
    checkOwner(this, 'bucket');
    const s = this.slot[h] as number;
    if (s < 0) throw new Error(`RankSelection: bucket ${h} was not gathered (internal)`);
    return this.gathered[s] as Gathered;
  }

  /** The entries of gathered bucket h: keys, values and extra columns (views, in input order). */
  entriesOf(h: number): { keys: Int32Array; values: Float64Array; extra: Float64Array | undefined } {
    const g = this.bucket(h);
    const end = g.offset + g.size;
    return {
      keys: this.gatheredKeys.subarray(g.offset, end),
      values: this.gatheredValues.subarray(g.offset, end),
      extra: this.gatheredExtra?.subarray(g.offset, end),
    };
  }

  /** Rank r's value and block of ties (r among the wanted ranks, or in a gathered bucket). */
  block(r: number): RankBlock {
    const g = this.bucket(this.bucketOfRank(r));
    const local = r - g.rank;
    if (g.size <= SMALL) {
      g.sorted ??= sortSmall(this.gatheredValues.slice(g.offset, g.offset + g.size));
      return sortedBlock(g.sorted, local, g.rank);
    }
    const sub = (g.sub ??= this.subCounts(g));
    // the last sub-bucket s with sub[s] ≤ local (s counted from subLow)
    let lo = 0;
    let hi = sub.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((sub[mid] as number) <= local) lo = mid;
      else hi = mid - 1;
    }
    const key = ((g.bucket - 0x8000) << 16) | (lo + (g.subLow as number));
    const from = sub[lo] as number;
    if (this.narrow && key !== ZERO_KEY)
      return { value: narrowValue(key), less: g.rank + from, lessEq: g.rank + (sub[lo + 1] as number) };
    g.subSorted ??= new Map();
    let sorted = g.subSorted.get(lo);
    if (sorted === undefined) {
      sorted = new Float64Array((sub[lo + 1] as number) - from);
      const gk = this.gatheredKeys;
      const gv = this.gatheredValues;
      let j = 0;
      for (let p = g.offset; p < g.offset + g.size; p++) if ((gk[p] as number) === key) sorted[j++] = gv[p] as number;
      sorted.sort();
      g.subSorted.set(lo, sorted);
    }
    return sortedBlock(sorted, local - from, g.rank + from);
  }

  /** Rank r's value (as in `Float64Array.from(values).sort()[r]`). */
  valueAt(r: number): number {
    return this.block(r).value;
  }

  /**
   * Entries per low-16-bit sub-bucket of a large gathered bucket, as prefix sums over the range of sub-buckets used
   * (from `g.subLow`): a bucket's values often span few of its 65 536 sub-buckets (crowded or tied scores), and a
   * table of them all, zeroed and summed per bucket and selection, was most of the time of reading such buckets.
   */
  private subCounts(g: Gathered): Int32Array {
    const gk = this.gatheredKeys;
    const end = g.offset + g.size;
    let low = BUCKETS;
    let high = -1;
    for (let p = g.offset; p < end; p++) {
      const s = (gk[p] as number) & 0xffff;
      if (s < low) low = s;
      if (s > high) high = s;
    }
    const sub = new Int32Array(high - low + 2);
    for (let p = g.offset; p < end; p++) {
      const s = ((gk[p] as number) & 0xffff) - low + 1;
      sub[s] = (sub[s] as number) + 1;
    }
    for (let s = 1; s < sub.length; s++) sub[s] = (sub[s] as number) + (sub[s - 1] as number);
    g.subLow = low;
    return sub;
  }

  /** Clears the module's bucket tables (call once, when done). */
  release(): void {
    if (this.released) return;
    this.released = true;
    dropScratch(this);
    for (const g of this.gathered) this.slot[g.bucket] = -1;
    this.counts.fill(0, this.low, this.high + 2);
  }
}

/** −0 before 0, as `Float64Array.prototype.sort` orders them. */
const before = (x: number, y: number): boolean =>
  x < y || (x === 0 && y === 0 && Object.is(x, -0) && !Object.is(y, -0));

/**
 * Sorts in place as `Float64Array.prototype.sort` does (−0 before 0): an insertion sort for the few values of a
 * gathered bucket (a native sort call costs more than sorting two dozen values), the native sort beyond.
 */
function sortSmall(a: Float64Array): Float64Array {
  if (a.length > 48) return a.sort();
  for (let i = 1; i < a.length; i++) {
    const x = a[i] as number;
    let j = i - 1;
    while (j >= 0 && before(x, a[j] as number)) {
      a[j + 1] = a[j] as number;
      j--;
    }
    a[j + 1] = x;
  }
  return a;
}

/** The block of ties of position `local` of ascending `sorted`, whose first entry has rank `rank`. */
function sortedBlock(sorted: Float64Array, local: number, rank: number): RankBlock {
  const value = sorted[local] as number;
  return { value, less: rank + countBelow(sorted, value, true), lessEq: rank + countBelow(sorted, value, false) };
}

/**
 * The values at `ranks` of the ascending values (each in [0, N)), as `Float64Array.from(values).sort()` has them, by
 * radix selection: O(N) passes plus sorts of the few small buckets that hold a rank (internal). Asked for a quarter
 * of the ranks or more (a peer's equal-mass edges with B near N), a sorted copy answers: the selection then gathers
 * most buckets and finds every rank's bucket and block one by one (~3× the time at N = 3 000, B = N).
 */
export function valuesAtRanks(values: ArrayLike<number>, ranks: readonly number[]): Float64Array {
  const sel = 4 * ranks.length >= values.length ? new SortedRanks(values) : rankSource(values);
  try {
    for (const r of ranks) sel.want(r);
    sel.gather();
    return Float64Array.from(ranks, (r) => sel.valueAt(r));
  } finally {
    sel.release();
  }
}

/**
 * Below this many values a sorted copy is cheaper than a selection (measured on float32 softmax columns: the sorted
 * copy wins below ~3 000 values, the selection by 3× at 50 000).
 */
export const SELECT_MIN = 3000;

/** A selection over `values`, or a sorted copy when there are few (internal). */
export function rankSource(values: ArrayLike<number>): RankSource {
  return values.length < SELECT_MIN ? new SortedRanks(values) : RankSelection.of(values);
}
