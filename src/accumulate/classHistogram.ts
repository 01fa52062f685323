import type { ClassColumns } from '../select/classColumns.js';
import { isCount, numberList, type JsonPath } from './store.js';

/**
 * Two passes over a re-readable file instead of keeping every class entry (internal; `um metrics` on a file that is
 * streamed): pass 1 counts each class's entries in {@link BUCKETS} buckets of their order-preserving float64 keys
 * (mergeable, O(classes) memory); the buckets holding the ranks next to a cut of an equal-mass binning are "split";
 * pass 2 keeps only the entries of split buckets and sums every other bucket's entries into its segment (the run of
 * whole buckets between two split ones, which lies in one bin). The bins are then those of the sorted entries
 * (`sortedQuantileStatistics`): cuts at round(k·n/B) moved off blocks of ties (`snapCut`), edges at midpoints, sums
 * exact — the same bits, since an exact sum does not depend on how its terms were grouped.
 */
export const BUCKETS = 1 << 17;
/** Key (high word >>> 8: exponent and 12 mantissa bits) of 1.0, the last bucket of one exponent. */
const KEY_TOP = 0x3ff000;
/** The smallest key with a bucket of its own (≈ 2^−32; smaller positive values share bucket 1). */
const KEY0 = KEY_TOP - (BUCKETS - 4);
/** Exponents of the keyed buckets. */
export const EXP0 = KEY0 >>> 12;
export const EXPONENTS = (KEY_TOP >>> 12) - EXP0 + 1;

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
/** The high word's index in {@link u32} (little- or big-endian). */
const HI = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;

/**
 * The bucket of a value ≥ 0, ascending with the value: 0 for zero, 1 for (0, 2^−32), one bucket per 2^−12 of an
 * exponent up to 1, and the last for values above 1 (buckets 1 and the last mix exponents: always kept whole).
 */
export function bucketOf(x: number): number {
  if (x === 0) return 0;
  f64[0] = x;
  const key = (u32[HI] as number) >>> 8;
  if (key < KEY0) return 1;
  if (key > KEY_TOP) return BUCKETS - 1;
  return key - KEY0 + 2;
}

/**
 * The bucket of v ≥ 0 from its high word (as {@link bucketOf}); `hi` is read from an alias of the data, since writing
 * each value to a scratch double to read its bits costs more than the rest of the loop.
 */
function bucketOfWord(v: number, hi: number): number {
  const key = hi >>> 8;
  return v === 0 ? 0 : key < KEY0 ? 1 : key > KEY_TOP ? BUCKETS - 1 : key - KEY0 + 2;
}

/** The high words of float64 data (an alias: element 2·i + HI is value i's), or undefined for other data. */
function highWords(data: ArrayLike<number>): Uint32Array | undefined {
  return data instanceof Float64Array ? new Uint32Array(data.buffer, data.byteOffset, 2 * data.length) : undefined;
}

/** Whether bucket b holds values of one exponent (its entries are summed as integers of that exponent). */
const keyed = (b: number): boolean => b >= 2 && b <= BUCKETS - 2;

/**
 * Pass 1: the number of entries of each class in each bucket (entries above `threshold` only). A chunk's histogram
 * is C · 2^17 counts whatever its rows, so what is done with it per chunk is done in one pass over memory (the state's
 * forms keep the dense counts): read from a state's form, it notes its non-zero buckets, and merging it visits those.
 */
export class ClassHistogram {
  readonly counts: Float64Array;
  /** The indices of the non-zero counts, when known (read from a form and not added to since). */
  private nonzero: Int32Array | undefined;

  constructor(
    readonly numClasses: number,
    readonly threshold: number | null,
    readonly round: boolean,
    counts?: Float64Array,
  ) {
    this.counts = counts ?? new Float64Array(numClasses * BUCKETS);
  }

  add(cols: ClassColumns): void {
    const { n, numClasses: c, data } = cols;
    const thr = this.threshold ?? -Infinity;
    const counts = this.counts;
    const words = cols.round ? undefined : highWords(data);
    this.nonzero = undefined;
    for (let k = 0; k < c; k++) {
      const base = k * BUCKETS;
      // class-major: class k's n values in a row; row-major: every c-th value
      const first = cols.classMajor ? k * n : k;
      const step = cols.classMajor ? 1 : c;
      for (let i = 0, at = first; i < n; i++, at += step) {
        const raw = data[at] as number;
        const v = cols.round ? Math.fround(raw) : raw;
        if (!(v > thr)) continue;
        const b = base + (words === undefined ? bucketOf(v) : bucketOfWord(v, words[2 * at + HI] as number));
        counts[b] = (counts[b] as number) + 1;
      }
    }
  }

  merge(o: ClassHistogram): void {
    const a = this.counts;
    const b = o.counts;
    this.nonzero = undefined;
    const nz = o.nonzero;
    if (nz !== undefined)
      for (let j = 0; j < nz.length; j++) {
        const i = nz[j] as number;
        a[i] = (a[i] as number) + (b[i] as number);
      }
    else for (let i = 0; i < a.length; i++) if (b[i] !== 0) a[i] = (a[i] as number) + (b[i] as number);
  }

  /** Entries of class k. */
  size(k: number): number {
    let n = 0;
    for (let b = k * BUCKETS; b < (k + 1) * BUCKETS; b++) n += this.counts[b] as number;
    return n;
  }

  toJSON(typed: boolean): unknown {
    // a copy of its own (a worker thread transfers it)
    return {
      threshold: this.threshold,
      round: this.round,
      counts: typed ? this.counts.slice() : numberList(this.counts, false),
    };
  }

  static fromJSON(json: unknown, at: JsonPath, numClasses: number): ClassHistogram {
    const o = at.object(json);
    const t = o.threshold;
    if (t !== null && (typeof t !== 'number' || !Number.isFinite(t)))
      at.at('threshold').fail('be null or a finite number', t);
    if (typeof o.round !== 'boolean') at.at('round').fail('be true or false', o.round);
    const counts = countsOf(o.counts, numClasses * BUCKETS);
    if (counts === undefined) {
      // the error naming the bad entry: JsonPath's checks (countsOf only says whether every entry passes them)
      at.at('counts').numbers(o.counts, numClasses * BUCKETS, isCount, 'be an integer ≥ 0');
      throw new Error('ClassHistogram.fromJSON: counts rejected but not by JsonPath');
    }
    const h = new ClassHistogram(numClasses, t as number | null, o.round as boolean, counts.values);
    h.nonzero = counts.nonzero;
    return h;
  }

  /** The nominal cut ranks of B equal-mass bins of n entries (before `snapCut`): round(k·n/B), half up. */
  static ranks(n: number, bins: number): number[] {
    const out: number[] = [];
    for (let k = 1; k < bins; k++) out.push(Math.floor((2 * k * n + bins) / (2 * bins)));
    return out;
  }

  /**
   * Per class, the ascending split buckets for the given bin counts: those holding the nominal rank r of a cut (a
   * cut snapped off its block of ties stays in r's bucket: equal values share a bucket; the values next to it outside
   * the bucket are a neighbouring segment's extremes), and the two buckets that mix exponents.
   */
  splits(binCounts: readonly number[]): Int32Array[] {
    return Array.from({ length: this.numClasses }, (_, k) => {
      const base = k * BUCKETS;
      const n = this.size(k);
      const wanted: number[] = [];
      for (const bins of binCounts) for (const r of ClassHistogram.ranks(n, bins)) if (r > 0 && r < n) wanted.push(r);
      wanted.sort((a, b) => a - b);
      const split = new Set<number>();
      if ((this.counts[base + 1] as number) > 0) split.add(1);
      if ((this.counts[base + BUCKETS - 1] as number) > 0) split.add(BUCKETS - 1);
      let seen = 0;
      let w = 0;
      for (let b = 0; b < BUCKETS && w < wanted.length; b++) {
        seen += this.counts[base + b] as number;
        while (w < wanted.length && (wanted[w] as number) < seen) {
          split.add(b);
          w++;
        }
      }
      return Int32Array.from([...split].sort((a, b) => a - b));
    });
  }
}

/**
 * The counts of a form when every entry is a whole number ≥ 0 (a typed form kept without a copy, as
 * `JsonPath.numbers` does) with the indices of the non-zero ones, else undefined — in one loop without a call per
 * entry: 2^17 entries per class and chunk.
 */
function countsOf(json: unknown, length: number): { values: Float64Array; nonzero: Int32Array } | undefined {
  const typed = json instanceof Float64Array;
  if (!(typed || Array.isArray(json)) || (json as ArrayLike<unknown>).length !== length) return undefined;
  const a = json as ArrayLike<unknown>;
  const values = typed ? json : new Float64Array(length);
  let nonzero = new Int32Array(256);
  let m = 0;
  for (let i = 0; i < length; i++) {
    const x = a[i];
    if (x === 0) continue;
    // a whole number ≥ 0 and finite (isCount), without the call
    if (typeof x !== 'number' || !(x > 0 && x < Infinity && Math.floor(x) === x)) return undefined;
    values[i] = x;
    if (m === nonzero.length) {
      const grow = new Int32Array(2 * m);
      grow.set(nonzero);
      nonzero = grow;
    }
    nonzero[m++] = i;
  }
  return { values, nonzero: nonzero.slice(0, m) };
}

/** What pass 2 sends for one store: its threshold and rounding, and per class the split buckets. */
export interface CollectPlan {
  readonly threshold: number | null;
  readonly round: boolean;
  readonly numClasses: number;
  readonly splits: Int32Array[];
}

/** Pass 2 of one class: the entries of its split buckets, and per segment its count, positives, range and sums. */
export interface CollectedClass {
  scores: Float64Array;
  outcomes: Uint8Array;
  /** Per segment: count, positives, min, max. */
  segments: Float64Array;
  /** Per segment and exponent: Σ⌊m/2^27⌋ and Σ(m mod 2^27) of the entries' integer significands m (exact). */
  sums: Float64Array;
}

/** Significands are split at 2^27 so that 2^25 of their parts sum exactly in a double. */
export const SPLIT = 2 ** 27;
const INV_SPLIT = 2 ** -27;
/** Rows of one chunk: each adds at most one entry per class to a segment's sums, so 2^25 of them keep them exact. */
const FLUSH = 2 ** 25;

/** Per keyed bucket, 2^(1075 − e) of its exponent e: a value times it is its integer significand. */
let scales: Float64Array | undefined;

/**
 * The buckets' significand scales, computed once (not per collector: a collector is made per store and chunk, and
 * 2^17 powers cost more than a small chunk's whole pass).
 */
function significandScales(): Float64Array {
  if (scales === undefined) {
    scales = new Float64Array(BUCKETS);
    for (let b = 2; b <= BUCKETS - 2; b++) scales[b] = 2 ** (1075 - ((b - 2 + KEY0) >>> 12));
  }
  return scales;
}

/**
 * Where each bucket's entries go in pass 2, per class: −1 for a split bucket (kept), else its segment · EXPONENTS +
 * its exponent's index; and per class the number of segments. Read-only once built.
 */
interface SlotLayout {
  readonly key: string;
  readonly slot: Int32Array;
  readonly segments: readonly number[];
}

/**
 * The layouts of the latest plans, newest first: a collector is made per store and chunk, and building the C · 2^17
 * slots cost more than a small chunk's whole pass. Keyed by content, not by the plan object: a worker thread receives
 * a copy of the same plans with every chunk.
 */
const layouts: SlotLayout[] = [];
/** The most bytes of slots kept (at least the newest layout is): 64 MiB, four plans of 32 classes. */
const LAYOUT_BYTES = 2 ** 26;

/** The layout of a plan's splits: built once per plan (and thread), shared read-only by its collectors. */
function slotLayout(plan: CollectPlan): SlotLayout {
  const c = plan.numClasses;
  const key = `${c}:${plan.splits.map((s) => s.join(',')).join(';')}`;
  const at = layouts.findIndex((l) => l.key === key);
  if (at >= 0) {
    const hit = layouts[at] as SlotLayout;
    layouts.splice(at, 1);
    layouts.unshift(hit);
    return hit;
  }
  const slot = new Int32Array(c * BUCKETS);
  const segments: number[] = [];
  for (let k = 0; k < c; k++) {
    const split = plan.splits[k] as Int32Array;
    let seg = 0;
    let s = 0;
    for (let b = 0; b < BUCKETS; b++) {
      if (s < split.length && split[s] === b) {
        slot[k * BUCKETS + b] = -1;
        seg++;
        s++;
      } else slot[k * BUCKETS + b] = seg * EXPONENTS + (keyed(b) ? ((b - 2 + KEY0) >>> 12) - EXP0 : 0);
    }
    segments.push(seg + 1);
  }
  const made: SlotLayout = { key, slot, segments };
  layouts.unshift(made);
  let bytes = 0;
  for (let i = 0; i < layouts.length; i++) {
    bytes += (layouts[i] as SlotLayout).slot.byteLength;
    if (i > 0 && bytes > LAYOUT_BYTES) {
      layouts.length = i;
      break;
    }
  }
  return made;
}

/** Pass 2 for one store over a chunk's batches (entries above the threshold; unweighted rows). */
export class SplitCollector {
  /** Shared with every collector of the same splits: only read. */
  private readonly slot: Int32Array;
  private readonly scale: Float64Array;
  private readonly classes: {
    scores: Float64Array;
    outcomes: Uint8Array;
    kept: number;
    segments: Float64Array;
    sums: Float64Array;
  }[];

  constructor(readonly plan: CollectPlan) {
    const layout = slotLayout(plan);
    this.slot = layout.slot;
    this.scale = significandScales();
    // per class O(segments) work: the chunk's own sums
    this.classes = layout.segments.map((n) => {
      const segments = new Float64Array(4 * n);
      for (let j = 0; j < n; j++) {
        segments[4 * j + 2] = Infinity;
        segments[4 * j + 3] = -Infinity;
      }
      return {
        scores: new Float64Array(1024),
        outcomes: new Uint8Array(1024),
        kept: 0,
        segments,
        sums: new Float64Array(2 * EXPONENTS * n),
      };
    });
  }

  /** Adds n rows: row-major scores [n, C] and labels. */
  add(n: number, scores: ArrayLike<number>, labels: ArrayLike<number>): void {
    const { numClasses: c, round } = this.plan;
    const thr = this.plan.threshold ?? -Infinity;
    const slot = this.slot;
    const scale = this.scale;
    const words = round ? undefined : highWords(scores);
    for (let k = 0; k < c; k++) {
      const cl = this.classes[k] as SplitCollector['classes'][number];
      const { segments, sums } = cl;
      const base = k * BUCKETS;
      for (let i = 0, at = k; i < n; i++, at += c) {
        const raw = scores[at] as number;
        const v = round ? Math.fround(raw) : raw;
        if (!(v > thr)) continue;
        const b = words === undefined ? bucketOf(v) : bucketOfWord(v, words[2 * at + HI] as number);
        const o = labels[i] === k ? 1 : 0;
        const s = slot[base + b] as number;
        if (s < 0) {
          if (cl.kept === cl.scores.length) {
            const grow = new Float64Array(2 * cl.kept);
            grow.set(cl.scores);
            cl.scores = grow;
            const g = new Uint8Array(2 * cl.kept);
            g.set(cl.outcomes);
            cl.outcomes = g;
          }
          cl.scores[cl.kept] = v;
          cl.outcomes[cl.kept++] = o;
          continue;
        }
        const seg = 4 * ((s / EXPONENTS) | 0);
        segments[seg] = (segments[seg] as number) + 1;
        segments[seg + 1] = (segments[seg + 1] as number) + o;
        if (v < (segments[seg + 2] as number)) segments[seg + 2] = v;
        if (v > (segments[seg + 3] as number)) segments[seg + 3] = v;
        // m = v·2^(1075 − e) is v's integer significand; its parts below and above 2^27 sum exactly (≤ 2^25 rows)
        const m = v * (scale[b] as number);
        const hi = Math.floor(m * INV_SPLIT);
        sums[2 * s] = (sums[2 * s] as number) + hi;
        sums[2 * s + 1] = (sums[2 * s + 1] as number) + (m - hi * SPLIT);
      }
    }
  }

  /** Rows a chunk may add before its sums could stop being exact. */
  static readonly MAX_ROWS = FLUSH - 1;

  result(): CollectedClass[] {
    return this.classes.map((cl) => ({
      scores: cl.scores.slice(0, cl.kept),
      outcomes: cl.outcomes.slice(0, cl.kept),
      segments: cl.segments,
      sums: cl.sums,
    }));
  }
}
