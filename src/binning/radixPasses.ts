/**
 * The passes over every value of a radix selection (`rankSelect.ts`) and the tables they fill (internal).
 *
 * Keys are signed 32-bit integers (small integers to the engine, never boxed) in numeric order: a non-negative float's
 * bits as they are, a negative float's with every bit but the sign flipped, −0 as 0. The bucket is (key >> 16) + 2^15:
 * sign, exponent and the leading mantissa bits. Each pass is a plain function with nothing after its loop but stores,
 * so the engine's optimised code for the loop stays valid when the loop ends. The tables are module scratch: one
 * selection at a time, each cleared over the range it used when it is released.
 */

import { histogramF32, type ColumnKernel } from '../kernels/columnsWasm.js';

/** Buckets of the first pass: the keys' top 16 bits. */
export const BUCKETS = 1 << 16;
/** The key of ±0 (every narrow key equal to it is a zero, of either sign). */
export const ZERO_KEY = 0;

/**
 * The bucket tables: entries per bucket (once a selection is built, prefix sums over its range: entries in buckets
 * < h) and the slot of each gathered bucket (−1 when not gathered). Allocated on first use (768 KiB).
 */
export interface RadixTables {
  readonly counts: Int32Array;
  readonly slot: Int32Array;
}

let shared: RadixTables | undefined;

/** The module's bucket tables (all zero counts and −1 slots between selections). */
export function radixTables(): RadixTables {
  shared ??= { counts: new Int32Array(BUCKETS + 1), slot: new Int32Array(BUCKETS).fill(-1) };
  return shared;
}
/** The lowest and highest key of the last counting pass. */
const RANGE = new Int32Array(2);
/** Keys ≤ the `atMost` key of the last {@link narrowBitsSumsPass}. */
let AT_MOST = 0;

/** The count of keys ≤ `atMost` of the last {@link narrowBitsSumsPass}. */
export function atMostCount(): number {
  return AT_MOST;
}

const KERNEL_RESULT = new Int32Array(3);

/**
 * {@link narrowBitsSumsPass} by the WebAssembly kernel `c` when given (`columnKernel`), the same counts, sums, range
 * and count of keys ≤ `atMost`; the outcomes of the positives are added here.
 */
export function narrowBitsSums(
  bits: Int32Array,
  values: Float32Array,
  positives: Int32Array,
  score: Float64Array,
  ones: Float64Array,
  n: number,
  counts: Int32Array,
  atMost: number,
  c: ColumnKernel | null,
): number {
  if (c === null) return narrowBitsSumsPass(bits, values, positives, score, ones, n, counts, atMost);
  const stop = histogramF32(c, values, atMost, counts, score, KERNEL_RESULT);
  RANGE[0] = KERNEL_RESULT[0] as number;
  RANGE[1] = KERNEL_RESULT[1] as number;
  AT_MOST = KERNEL_RESULT[2] as number;
  if (stop === n)
    for (let p = 0; p < positives.length; p++) {
      const b = ((bits[positives[p] as number] as number) >> 16) + 0x8000;
      ones[b] = (ones[b] as number) + 1;
    }
  return stop;
}

const f32 = new Float32Array(1);
const i32 = new Int32Array(f32.buffer);
const f64 = new Float64Array(1);
const i64 = new Int32Array(f64.buffer);
/** Index of the high word of a float64 in its two 32-bit words (little-endian hosts: 1). */
const HI = ((): number => {
  f64[0] = 1;
  return i64[1] === 0x3ff00000 ? 1 : 0;
})();

/** The float32 value of a narrow key. */
export function narrowValue(key: number): number {
  i32[0] = key >= 0 ? key : key ^ 0x7fffffff;
  return f32[0] as number;
}

/**
 * Writes every value's float32 key into `keys`, counts the buckets and leaves the key range in RANGE. Returns N, or the
 * index of the first value that is not a float32 value (the counts up to it are left for the caller to clear).
 */
export function narrowPass(values: ArrayLike<number>, keys: Int32Array, n: number, counts: Int32Array): number {
  let kmin = 0x7fffffff;
  let kmax = -0x80000000;
  for (let i = 0; i < n; i++) {
    const v = (values[i] as number) + 0; // −0 → 0
    f32[0] = v;
    if ((f32[0] as number) !== v) {
      RANGE[0] = kmin;
      RANGE[1] = kmax;
      return i;
    }
    const h = i32[0] as number;
    const k = h >= 0 ? h : h ^ 0x7fffffff;
    keys[i] = k;
    if (k < kmin) kmin = k;
    if (k > kmax) kmax = k;
    const b = (k >> 16) + 0x8000;
    counts[b] = (counts[b] as number) + 1;
  }
  RANGE[0] = kmin;
  RANGE[1] = kmax;
  return n;
}

/** {@link narrowPass} on the float64 high words (every value qualifies). */
export function widePass(values: ArrayLike<number>, keys: Int32Array, n: number, counts: Int32Array): void {
  if (values instanceof Float64Array) {
    wideWordsPass(new Int32Array(values.buffer, values.byteOffset, 2 * n), keys, n, counts);
    return;
  }
  let kmin = 0x7fffffff;
  let kmax = -0x80000000;
  for (let i = 0; i < n; i++) {
    f64[0] = (values[i] as number) + 0;
    const h = i64[HI] as number;
    const k = h >= 0 ? h : h ^ 0x7fffffff;
    keys[i] = k;
    if (k < kmin) kmin = k;
    if (k > kmax) kmax = k;
    const b = (k >> 16) + 0x8000;
    counts[b] = (counts[b] as number) + 1;
  }
  RANGE[0] = kmin;
  RANGE[1] = kmax;
}

/**
 * {@link widePass} reading a Float64Array's words in place (the high word of value i at 2i + HI) instead of through a
 * scratch double: the same keys, −0 (high word 0x80000000, low word 0) as 0.
 */
function wideWordsPass(words: Int32Array, keys: Int32Array, n: number, counts: Int32Array): void {
  const L = 1 - HI;
  let kmin = 0x7fffffff;
  let kmax = -0x80000000;
  for (let i = 0; i < n; i++) {
    const h = words[2 * i + HI] as number;
    const k = h >= 0 ? h : h === -0x80000000 && words[2 * i + L] === 0 ? 0 : h ^ 0x7fffffff;
    keys[i] = k;
    if (k < kmin) kmin = k;
    if (k > kmax) kmax = k;
    const b = (k >> 16) + 0x8000;
    counts[b] = (counts[b] as number) + 1;
  }
  RANGE[0] = kmin;
  RANGE[1] = kmax;
}

/**
 * {@link narrowPass} adding each bucket's Σ value into `score` and Σ outcome into `ones`; stops at the first value that
 * is not a float32 value or outcome that is not 0 or 1.
 */
export function narrowSumsPass(
  values: ArrayLike<number>,
  outcomes: ArrayLike<number>,
  keys: Int32Array,
  score: Float64Array,
  ones: Float64Array,
  n: number,
  counts: Int32Array,
): number {
  let kmin = 0x7fffffff;
  let kmax = -0x80000000;
  for (let i = 0; i < n; i++) {
    const v = (values[i] as number) + 0; // −0 → 0
    f32[0] = v;
    const o = outcomes[i] as number;
    if ((f32[0] as number) !== v || (o !== 0 && o !== 1)) {
      RANGE[0] = kmin;
      RANGE[1] = kmax;
      return i;
    }
    const h = i32[0] as number;
    const k = h >= 0 ? h : h ^ 0x7fffffff;
    keys[i] = k;
    if (k < kmin) kmin = k;
    if (k > kmax) kmax = k;
    const b = (k >> 16) + 0x8000;
    counts[b] = (counts[b] as number) + 1;
    score[b] = (score[b] as number) + v;
    ones[b] = (ones[b] as number) + o;
  }
  RANGE[0] = kmin;
  RANGE[1] = kmax;
  return n;
}

/**
 * {@link narrowSumsPass} over float32 values given with their bit patterns (`bits`, a view of the same memory), which
 * are the keys themselves while no value is negative or −0: nothing is converted and no key is written. The outcomes
 * equal to 1 are at the positions `positives` (the others are 0). Also counts the keys ≤ `atMost` (see
 * {@link atMostCount}; −1 counts none). Returns N, or the index of the first value with the sign bit set (the tables up
 * to it are left for the caller to clear).
 */
export function narrowBitsSumsPass(
  bits: Int32Array,
  values: Float32Array,
  positives: Int32Array,
  score: Float64Array,
  ones: Float64Array,
  n: number,
  counts: Int32Array,
  atMost: number,
): number {
  let kmin = 0x7fffffff;
  let kmax = -0x80000000;
  let below = 0;
  for (let i = 0; i < n; i++) {
    const k = bits[i] as number;
    if (k < 0) {
      RANGE[0] = kmin;
      RANGE[1] = kmax;
      return i;
    }
    if (k <= atMost) below++;
    if (k < kmin) kmin = k;
    if (k > kmax) kmax = k;
    const b = (k >> 16) + 0x8000;
    counts[b] = (counts[b] as number) + 1;
    score[b] = (score[b] as number) + (values[i] as number);
  }
  RANGE[0] = kmin;
  RANGE[1] = kmax;
  AT_MOST = below;
  for (let p = 0; p < positives.length; p++) {
    const b = ((bits[positives[p] as number] as number) >> 16) + 0x8000;
    ones[b] = (ones[b] as number) + 1;
  }
  return n;
}

/** The bucket range of RANGE (after a pass over at least one value). */
export function rangeBuckets(): { low: number; high: number } {
  return { low: ((RANGE[0] as number) >> 16) + 0x8000, high: ((RANGE[1] as number) >> 16) + 0x8000 };
}

/** The bucket of value v: of its float32 key (`narrow`, v a float32 value) or of its float64 high word. */
export function bucketOfValue(v: number, narrow: boolean): number {
  let h: number;
  if (narrow) {
    f32[0] = v + 0;
    h = i32[0] as number;
  } else {
    f64[0] = v + 0;
    h = i64[HI] as number;
  }
  return ((h >= 0 ? h : h ^ 0x7fffffff) >> 16) + 0x8000;
}

/** Prefix sums in place over buckets [low, high + 1] (counts[h] = entries in buckets < h); returns the non-empty ones. */
export function prefixPass(counts: Int32Array, low: number, high: number, most: number): Int32Array {
  const occupied = new Int32Array(most);
  let m = 0;
  let acc = 0;
  for (let h = low; h <= high + 1; h++) {
    const c = counts[h] as number;
    counts[h] = acc;
    if (c !== 0) occupied[m++] = h;
    acc += c;
  }
  return occupied.subarray(0, m);
}

/** Copies the entries of gathered buckets (slot ≥ 0) to their slots' next positions `fill[slot]`. */
export function gatherPass(
  keys: Int32Array,
  values: ArrayLike<number>,
  n: number,
  slot: Int32Array,
  fill: Int32Array,
  gk: Int32Array,
  gv: Float64Array,
): void {
  for (let i = 0; i < n; i++) {
    const k = keys[i] as number;
    const s = slot[(k >> 16) + 0x8000] as number;
    if (s < 0) continue;
    const p = fill[s] as number;
    fill[s] = p + 1;
    gk[p] = k;
    gv[p] = values[i] as number;
  }
}

/** {@link gatherPass} with one more column. */
export function gatherPassWith(
  keys: Int32Array,
  values: ArrayLike<number>,
  extra: ArrayLike<number>,
  n: number,
  slot: Int32Array,
  fill: Int32Array,
  gk: Int32Array,
  gv: Float64Array,
  ge: Float64Array,
): void {
  for (let i = 0; i < n; i++) {
    const k = keys[i] as number;
    const s = slot[(k >> 16) + 0x8000] as number;
    if (s < 0) continue;
    const p = fill[s] as number;
    fill[s] = p + 1;
    gk[p] = k;
    gv[p] = values[i] as number;
    ge[p] = extra[i] as number;
  }
}
