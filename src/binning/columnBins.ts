import type { BinSums } from './binSums.js';
import { addCounts, addEqualWidthColumn, denseBank } from './columnSums.js';
import { equalWidthEdges, equalWidthIndex } from './equalWidth.js';
import {
  bucketScratch,
  firstAtLeast,
  quantileBinsOf,
  quantileCutsOf,
  quantileStatistics,
  wantQuantileRanks,
} from './quantileSelect.js';
import { narrowValue } from './radixPasses.js';
import { RankSelection, SELECT_MIN } from './rankSelect.js';
import type { Bin, EqualWidthRule, Precision } from './types.js';

/**
 * Every binning of one class column at once, from one radix selection (internal). The class-wise errors bin the same
 * N entries of each class several ways — SCE in equal-width bins, ACE in equal-mass bins, TACE in equal-mass bins of
 * the entries above 0.01 — and each would otherwise pass over the column two or three times. One counting pass (the
 * selection's histogram of the float32 keys' top 16 bits, with each bucket's exact Σ score and Σ outcome) serves all:
 * - equal-width bins: a bucket whose lowest and highest possible value fall in the same bin (every rule is monotone)
 *   is added whole; the few buckets an edge splits are read entry by entry;
 * - equal-mass bins of the entries above a threshold t: those are the highest N′ = N − #{p ≤ t} values, so their cut
 *   ranks are ranks of the whole column shifted by #{p ≤ t}; buckets below t's are skipped, t's own read entry by
 *   entry;
 * and one gathering pass collects every bucket some binning reads entry by entry. The sums are the exact sums
 * `binStatistics` and `addToBinSums` keep, so every bin is the same bits as theirs.
 */

/** One binning of a column: the entries above `threshold` (`null`: all). */
export type ColumnRequest =
  | {
      readonly kind: 'equal-width';
      readonly threshold: number | null;
      readonly bins: number;
      readonly rule: EqualWidthRule;
      readonly precision: Precision;
      /** The sums the bins are added to. */
      readonly sums: BinSums;
    }
  | { readonly kind: 'quantile'; readonly threshold: number | null; readonly bins: number };

/** An unweighted class column (see `ClassColumn`): scores, outcomes in {0, 1}, the positions of the ones. */
export interface UnweightedColumn {
  readonly scores: Float32Array | Float64Array;
  readonly outcomes: Float64Array;
  readonly positives: Int32Array;
}

/** Scratch of the column filtered by a threshold (fallback path), grown as needed. */
let filtered: { f32: Float32Array; f64: Float64Array; outcomes: Float64Array; positives: Int32Array } | undefined;
let indexScratch = new Int32Array(0);

/** The entries of a column above `t` (views into module scratch, valid until the next call). */
function above(col: UnweightedColumn, t: number): UnweightedColumn {
  const m = col.scores.length;
  if (filtered === undefined || filtered.outcomes.length < m)
    filtered = {
      f32: new Float32Array(m),
      f64: new Float64Array(m),
      outcomes: new Float64Array(m),
      positives: new Int32Array(m),
    };
  const scores = col.scores instanceof Float32Array ? filtered.f32 : filtered.f64;
  const { outcomes, positives } = filtered;
  let at = 0;
  let p = 0;
  for (let j = 0; j < m; j++) {
    const v = col.scores[j] as number;
    if (!(v > t)) continue;
    scores[at] = v;
    const o = col.outcomes[j] as number;
    outcomes[at] = o;
    if (o === 1) positives[p++] = at;
    at++;
  }
  return { scores: scores.subarray(0, at), outcomes: outcomes.subarray(0, at), positives: positives.subarray(0, p) };
}

/** One request on its own (the column too small for a selection, float64 scores, or a sign bit set). */
function alone(col: UnweightedColumn, r: ColumnRequest): Bin[] | null | undefined {
  const f = r.threshold === null ? col : above(col, r.threshold);
  const m = f.scores.length;
  if (r.kind === 'equal-width') {
    if (m === 0) return undefined;
    if (indexScratch.length < m) indexScratch = new Int32Array(m);
    addEqualWidthColumn(
      r.sums,
      r.bins,
      r.rule,
      r.precision,
      f.scores,
      f.outcomes,
      f.positives,
      undefined,
      indexScratch,
    );
    return undefined;
  }
  const bins = m === 0 ? null : quantileStatistics(f.scores, f.outcomes, r.bins, f.positives);
  // the filtered scratch is reused: outcomes of the fallback path were copied into the bins
  return bins;
}

/** The largest float32 key ≤ t for t ≥ 0 (keys of non-negative float32 values are their bits). */
function keyAtMost(t: number): number {
  const f = new Float32Array([t]);
  const bits = new Int32Array(f.buffer)[0] as number;
  return (f[0] as number) > t ? bits - 1 : bits;
}

/** Number of keys ≤ `key`. */
function countAtMost(keys: Int32Array, n: number, key: number): number {
  let c = 0;
  for (let i = 0; i < n; i++) if ((keys[i] as number) <= key) c++;
  return c;
}

/** A threshold's place in the column: entries ≤ t (the lowest ranks) and the bucket t falls in (−1: none). */
interface Cut {
  readonly below: number;
  readonly bucket: number;
}

/**
 * Bins one unweighted class column every way `requests` ask: per request, the quantile bins (`null` when no entry
 * is above its threshold), or `undefined` for equal-width bins (added to the request's sums).
 */
export function columnBins(col: UnweightedColumn, requests: readonly ColumnRequest[]): (Bin[] | null | undefined)[] {
  const values = col.scores;
  const m = values.length;
  if (!(values instanceof Float32Array) || m < SELECT_MIN) return requests.map((r) => alone(col, r));
  const { score: SCORE, ones: ONES } = bucketScratch();
  // the first threshold's count comes with the counting pass
  const first = requests.find((r) => r.threshold !== null && r.threshold >= 0)?.threshold ?? null;
  const firstKey = first === null ? -1 : keyAtMost(first);
  const sel = RankSelection.withSums(values, col.outcomes, SCORE, ONES, undefined, col.positives, firstKey);
  if (sel === null) return requests.map((r) => alone(col, r));
  const { low, high } = sel;
  try {
    // every key is a non-negative float32's bits here (the selection refuses a sign bit)
    const keys = sel.keys;
    const cuts = new Map<number | null, Cut>();
    const cutOf = (t: number | null): Cut => {
      let c = cuts.get(t);
      if (c === undefined) {
        if (t === null || t < 0) c = { below: 0, bucket: -1 };
        else {
          const key = keyAtMost(t);
          c = { below: t === first ? sel.atMost : countAtMost(keys, m, key), bucket: (key >> 16) + 0x8000 };
          sel.wantBucket(c.bucket);
        }
        cuts.set(t, c);
      }
      return c;
    };
    // what each request reads entry by entry: cut ranks, buckets split by an edge, the threshold's bucket
    const plans = requests.map((r) => {
      const cut = cutOf(r.threshold);
      if (r.kind === 'quantile')
        return { cut, ranks: m - cut.below === 0 ? null : wantQuantileRanks(sel, r.bins, cut.below), split: null };
      const split = splitBuckets(sel, r, cut.bucket);
      for (const h of split) sel.wantBucket(h);
      return { cut, ranks: null, split };
    });
    sel.gather(col.outcomes);
    const memo = new Map<string, Bin[]>();
    return requests.map((r, i) => {
      const plan = plans[i] as (typeof plans)[number];
      const t = r.threshold !== null && r.threshold >= 0 ? r.threshold : null;
      if (r.kind === 'quantile') {
        if (plan.ranks === null) return null;
        // the same entries in the same number of bins (a threshold below every score: TACE is ACE) bin alike
        const key = `${plan.cut.below}|${r.bins}`;
        let bins = memo.get(key);
        if (bins === undefined) {
          const cuts = quantileCutsOf(sel, plan.ranks, plan.cut.below, values);
          bins = quantileBinsOf(sel, cuts, plan.cut.below === 0 ? null : t, plan.cut.bucket, SCORE, ONES);
          memo.set(key, bins);
        }
        return bins.slice();
      }
      equalWidthSums(sel, r, t, plan.cut.bucket, plan.split as number[], SCORE, keys, col.positives);
      return undefined;
    });
  } finally {
    SCORE.fill(0, low, high + 1);
    ONES.fill(0, low, high + 1);
    sel.release();
  }
}

/** Per equal-width rule, the keys where its bins begin (see {@link boundaryKeys}). */
const BOUNDARIES = new Map<string, Int32Array>();

/**
 * The float32 keys where a rule's bins begin: entry b − 1 is the smallest key of a non-negative float32 value whose
 * bin is ≥ b (every rule is monotone in p), so a value's bin is the number of entries ≤ its key. Found once per rule by
 * bisection on the keys, with the rule's own function.
 */
function boundaryKeys(r: Extract<ColumnRequest, { kind: 'equal-width' }>): Int32Array {
  const id = `${r.bins}|${r.rule.index}|${r.rule.edges}|${r.rule.closed}|${r.rule.one}|${r.precision}`;
  let out = BOUNDARIES.get(id);
  if (out !== undefined) return out;
  const edges = equalWidthEdges(r.bins, r.rule, r.precision);
  const numBins = r.rule.one === 'own-bin' ? r.bins + 1 : r.bins;
  const bin = (key: number) => equalWidthIndex(narrowValue(key), r.bins, r.rule, r.precision, edges);
  const INF = 0x7f800000;
  out = new Int32Array(numBins - 1);
  for (let b = 1; b < numBins; b++) {
    // the first key in [0, +∞] with bin ≥ b; +∞'s key + 1 when there is none
    let lo = 0;
    let hi = INF + 1;
    while (lo < hi) {
      const mid = lo + Math.floor((hi - lo) / 2);
      if (bin(mid) >= b) hi = mid;
      else lo = mid + 1;
    }
    out[b - 1] = lo;
  }
  BOUNDARIES.set(id, out);
  return out;
}

/** The bin of a key: the number of boundaries ≤ it. */
function binOfKey(boundaries: Int32Array, key: number): number {
  let lo = 0;
  let hi = boundaries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((boundaries[mid] as number) <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first key of bucket h (non-negative keys). */
const bucketKey = (h: number): number => (h - 0x8000) << 16;

/** The occupied buckets (from the threshold's on) holding a boundary past their first key: split by an edge. */
function splitBuckets(sel: RankSelection, r: Extract<ColumnRequest, { kind: 'equal-width' }>, from: number): number[] {
  const out: number[] = [];
  const starts = sel.starts;
  for (const key of boundaryKeys(r)) {
    const h = (key >> 16) + 0x8000;
    if ((key & 0xffff) === 0 || h < from || h < sel.low || h > sel.high) continue;
    if (starts[h + 1] !== starts[h] && out[out.length - 1] !== h) out.push(h);
  }
  return out;
}

/** Adds the entries above `t` to a request's equal-width sums: whole buckets, split ones entry by entry. */
function equalWidthSums(
  sel: RankSelection,
  r: Extract<ColumnRequest, { kind: 'equal-width' }>,
  t: number | null,
  tBucket: number,
  split: readonly number[],
  SCORE: Float64Array,
  keys: Int32Array,
  positives: Int32Array,
): void {
  const boundaries = boundaryKeys(r);
  const { sums } = r;
  const numBins = sums.count.length;
  const count = new Float64Array(numBins);
  const ones = new Float64Array(numBins);
  const dense = denseBank(numBins);
  const starts = sel.starts;
  let j = 0;
  let s = 0;
  // whole buckets of one bin and one float32 exponent (bucket >> 7) add exactly in a float64 run before the bank
  let run = 0;
  let runBin = 0;
  let runGroup = -1;
  const occupied = sel.occupied;
  for (let i = firstAtLeast(occupied, tBucket); i < occupied.length; i++) {
    const h = occupied[i] as number;
    while (s < split.length && (split[s] as number) < h) s++;
    if (h === tBucket || split[s] === h) {
      // a bucket's entries share their exponent: each is added to its bin's exact sum
      const e = sel.entriesOf(h);
      for (let p = 0; p < e.values.length; p++) {
        const v = e.values[p] as number;
        if (t !== null && !(v > t)) continue;
        const b = binOfKey(boundaries, e.keys[p] as number);
        dense.add(b, v);
        count[b] = (count[b] as number) + 1;
      }
      continue;
    }
    const key = bucketKey(h);
    while (j < boundaries.length && (boundaries[j] as number) <= key) j++;
    const g = h >> 7;
    if (j !== runBin || g !== runGroup) {
      dense.add(runBin, run);
      run = 0;
      runBin = j;
      runGroup = g;
    }
    run += SCORE[h] as number;
    count[j] = (count[j] as number) + ((starts[h + 1] as number) - (starts[h] as number));
  }
  dense.add(runBin, run);
  for (const q of positives) {
    const key = keys[q] as number;
    if (t !== null && !(narrowValue(key) > t)) continue;
    const b = binOfKey(boundaries, key);
    ones[b] = (ones[b] as number) + 1;
  }
  for (let b = 0; b < numBins; b++) dense.foldInto(b, sums.score.at(b));
  addCounts(sums, count, ones);
}
