import { BIN_SUMS_MAX, binSumsF64, columnKernel, WASM_COLUMN_MAX } from '../kernels/columnsWasm.js';
import { DenseSums } from '../math/denseSums.js';
import { movePairs, pushPair } from '../math/pairSum.js';
import { addRun } from './binStatistics.js';
import type { BinSums } from './binSums.js';
import { equalWidthEdges, equalWidthIndex } from './equalWidth.js';
import type { EqualWidthRule, Precision } from './types.js';

/**
 * Exact bin sums of one class column (class-wise equal-width bins), without a counting sort or a pair per entry
 * (internal). The sums are the same exact sums `addToBinSums` keeps — every bin's count and the exactly rounded Σw,
 * Σw·s, Σw·o — so the bins are the same bits.
 */

/** The bin of every score under an equal-width rule, into `index` (the default `floor` rule in float64 inline). */
export function equalWidthIndexInto(
  scores: Float32Array | Float64Array,
  bins: number,
  rule: EqualWidthRule,
  precision: Precision,
  index: Int32Array,
): void {
  const m = scores.length;
  if (rule.index === 'floor' && precision === 'float64') {
    // equalWidthIndex's floor rule: b = ⌊B·p⌋ in float64, clamped below at 0 and above at the last (or own) bin
    const top = rule.one === 'own-bin' ? bins : bins - 1;
    for (let j = 0; j < m; j++) {
      let b = Math.floor(bins * (scores[j] as number));
      if (b < 0) b = 0;
      if (b >= bins) b = top;
      index[j] = b;
    }
    return;
  }
  const edges = equalWidthEdges(bins, rule, precision);
  for (let j = 0; j < m; j++) index[j] = equalWidthIndex(scores[j] as number, bins, rule, precision, edges);
}

/**
 * Adds one class column to its equal-width bin sums: {@link equalWidthIndexInto} then {@link addColumnToBinSums}, in
 * one pass for unweighted float32 scores under the default `floor` rule in float64, and for float64 scores in the column
 * kernel, which computes the bins too (`index`: scratch of ≥ m entries).
 */
export function addEqualWidthColumn(
  sums: BinSums,
  bins: number,
  rule: EqualWidthRule,
  precision: Precision,
  scores: Float32Array | Float64Array,
  outcomes: Float64Array,
  positives: Int32Array,
  weights: Float64Array | undefined,
  index: Int32Array,
): void {
  const m = scores.length;
  if (weights === undefined && rule.index === 'floor' && precision === 'float64') {
    const top = rule.one === 'own-bin' ? bins : bins - 1;
    if (scores instanceof Float32Array) {
      floorWindowSums(sums, bins, top, scores, positives);
      return;
    }
    if (floorKernelSums(sums, bins, top, scores, positives)) return;
  }
  const at = index.subarray(0, m);
  equalWidthIndexInto(scores, bins, rule, precision, at);
  addColumnToBinSums(sums, at, scores, outcomes, weights);
}

/**
 * Adds entries sorted by score to their equal-width bin sums: the bins are runs of them (every rule is monotone), each
 * run summed once (see `addRun`) (`index`: scratch of ≥ m entries).
 */
export function addSortedEqualWidth(
  sums: BinSums,
  bins: number,
  rule: EqualWidthRule,
  precision: Precision,
  scores: Float64Array,
  outcomes: Float64Array,
  weights: Float64Array | undefined,
  index: Int32Array,
): void {
  const m = scores.length;
  const at = index.subarray(0, m);
  equalWidthIndexInto(scores, bins, rule, precision, at);
  for (let from = 0; from < m;) {
    const b = at[from] as number;
    let to = from + 1;
    while (to < m && at[to] === b) to++;
    sums.count[b] = (sums.count[b] as number) + (to - from);
    addRun(sums, b, scores, outcomes, weights, from, to);
    from = to;
  }
}

/** Windows of 8 float32 exponents: 32 per bin. */
const WINDOWS = 32;
/**
 * Adds per window sum before it is folded. A float32 value whose biased exponent e lies in window j = ⌊e/8⌋ is an
 * integer multiple of u = 2^(8j − 150) (2^−149 for j = 0) below 2^31·u, so 2^21 of them add exactly in a float64.
 */
const WINDOW_ADDS = 2 ** 21;

let windowScratch: Float64Array | undefined;
const denseBanks = new Map<number, DenseSums>();

/** A dense bank of `size` exact sums, kept per size (each fold leaves its sums empty) (internal). */
export function denseBank(size: number): DenseSums {
  let d = denseBanks.get(size);
  if (d === undefined) {
    d = new DenseSums(size);
    denseBanks.set(size, d);
  }
  return d;
}

/**
 * Adds the entries of one class column given their bins (`index[j]` in [0, numBins)) to `sums`. Outcomes are 0 or 1
 * (`positives`, when given, lists the positions of the ones).
 * Unweighted float32 scores are summed per (bin, window of exponents) in plain float64 additions, exact by the window
 * bound, and folded into the exact sums once per bin and window; other scores and weighted entries go through a dense
 * exact bank with one sum per bin (and quantity) — with whole weights only Σw·s needs exact sums (their Σw and Σw·o are
 * exact doubles), kept as a chain of double pairs per bin.
 */
export function addColumnToBinSums(
  sums: BinSums,
  index: Int32Array,
  scores: Float32Array | Float64Array,
  outcomes: Float64Array,
  weights: Float64Array | undefined,
  positives?: Int32Array,
): void {
  const m = scores.length;
  const numBins = sums.count.length;
  const count = new Float64Array(numBins);
  if (weights !== undefined && wholeWeights(weights)) {
    // whole weights (bootstrap resample counts) below 2^53 in total: Σw and Σw·o are whole numbers whose every partial
    // sum is a double, so plain additions are exact — only Σw·s needs exact sums: a chain of double pairs per bin
    // (PairSum.push: a pair moves to the bin's sum only when a term does not fit it)
    const hi = new Float64Array(numBins);
    const lo = new Float64Array(numBins);
    const weight = new Float64Array(numBins);
    const ones = new Float64Array(numBins);
    for (let j = 0; j < m; j++) {
      const b = index[j] as number;
      const w = weights[j] as number;
      count[b] = (count[b] as number) + 1;
      weight[b] = (weight[b] as number) + w;
      pushPair(hi, lo, b, w * (scores[j] as number), sums.score);
      if ((outcomes[j] as number) === 1) ones[b] = (ones[b] as number) + w;
    }
    movePairs(hi, lo, sums.score);
    for (let b = 0; b < numBins; b++) {
      sums.count[b] = (sums.count[b] as number) + (count[b] as number);
      sums.weight.at(b).addInteger(weight[b] as number);
      sums.outcome.at(b).addInteger(ones[b] as number);
    }
    return;
  }
  if (weights !== undefined) {
    const dense = denseBank(3 * numBins);
    for (let j = 0; j < m; j++) {
      const b = index[j] as number;
      const w = weights[j] as number;
      count[b] = (count[b] as number) + 1;
      dense.add(3 * b, w);
      dense.add(3 * b + 1, w * (scores[j] as number));
      if ((outcomes[j] as number) === 1) dense.add(3 * b + 2, w);
    }
    for (let b = 0; b < numBins; b++) {
      sums.count[b] = (sums.count[b] as number) + (count[b] as number);
      dense.foldInto(3 * b, sums.weight.at(b));
      dense.foldInto(3 * b + 1, sums.score.at(b));
      dense.foldInto(3 * b + 2, sums.outcome.at(b));
    }
    return;
  }
  const ones = new Float64Array(numBins);
  if (scores instanceof Float32Array) {
    const size = numBins * WINDOWS;
    const acc = windowSums(size);
    const bits = new Int32Array(scores.buffer, scores.byteOffset, m);
    for (let from = 0; from < m; from += WINDOW_ADDS) {
      const to = Math.min(m, from + WINDOW_ADDS);
      for (let j = from; j < to; j++) {
        const b = index[j] as number;
        const at = b * WINDOWS + (((bits[j] as number) >>> 26) & 31);
        acc[at] = (acc[at] as number) + (scores[j] as number);
        count[b] = (count[b] as number) + 1;
        ones[b] = (ones[b] as number) + (outcomes[j] as number);
      }
      flushWindows(acc, size, sums);
    }
  } else {
    const dense = denseBank(numBins);
    // float64 scores: the kernel does the dense bank's per-entry work (the same exact sums; test/kernels/binSums.test.ts)
    const kernel = m <= WASM_COLUMN_MAX && numBins <= BIN_SUMS_MAX ? columnKernel() : null;
    if (kernel !== null && binSumsF64(kernel, scores, index, numBins, (b, x) => dense.add(b, x), count)) {
      if (positives !== undefined)
        for (const q of positives) ones[index[q] as number] = (ones[index[q] as number] as number) + 1;
      else
        for (let j = 0; j < m; j++) {
          const b = index[j] as number;
          ones[b] = (ones[b] as number) + (outcomes[j] as number);
        }
    } else {
      for (let j = 0; j < m; j++) {
        const b = index[j] as number;
        dense.add(b, scores[j] as number);
        count[b] = (count[b] as number) + 1;
        ones[b] = (ones[b] as number) + (outcomes[j] as number);
      }
    }
    for (let b = 0; b < numBins; b++) dense.foldInto(b, sums.score.at(b));
  }
  addCounts(sums, count, ones);
}

/**
 * Adds unweighted bins' entry counts and ones to their sums: each entry weighs 1, so a bin's weight is its count and
 * its outcome sum its ones (whole numbers, added exactly).
 */
export function addCounts(sums: BinSums, count: Float64Array, ones: Float64Array): void {
  for (let b = 0; b < count.length; b++) {
    const c = count[b] as number;
    if (c === 0) continue;
    sums.count[b] = (sums.count[b] as number) + c;
    sums.weight.at(b).addInteger(c);
    sums.outcome.at(b).addInteger(ones[b] as number);
  }
}

/** The window scratch, at least `size` long (all zero between uses). */
function windowSums(size: number): Float64Array {
  if (windowScratch === undefined || windowScratch.length < size) windowScratch = new Float64Array(size);
  return windowScratch;
}

/** Adds every nonzero window sum to its bin's exact score sum (window `at` is bin ⌊at / WINDOWS⌋) and zeroes it. */
function flushWindows(acc: Float64Array, size: number, sums: BinSums): void {
  for (let at = 0; at < size; at++) {
    const s = acc[at] as number;
    if (s === 0) continue;
    sums.score.at((at / WINDOWS) | 0).add(s);
    acc[at] = 0;
  }
}

/**
 * {@link addColumnToBinSums}'s window sums with the `floor` rule's bin computed inline (bins above `bins`: `top`), the
 * outcomes counted from the positions of the positives.
 */
function floorWindowSums(sums: BinSums, bins: number, top: number, scores: Float32Array, positives: Int32Array): void {
  const m = scores.length;
  const numBins = sums.count.length;
  const count = new Float64Array(numBins);
  const ones = new Float64Array(numBins);
  const size = numBins * WINDOWS;
  const acc = windowSums(size);
  const bits = new Int32Array(scores.buffer, scores.byteOffset, m);
  for (let from = 0; from < m; from += WINDOW_ADDS) {
    const to = Math.min(m, from + WINDOW_ADDS);
    for (let j = from; j < to; j++) {
      const v = scores[j] as number;
      let b = Math.floor(bins * v);
      if (b < 0) b = 0;
      if (b >= bins) b = top;
      const at = b * WINDOWS + (((bits[j] as number) >>> 26) & 31);
      acc[at] = (acc[at] as number) + v;
      count[b] = (count[b] as number) + 1;
    }
    flushWindows(acc, size, sums);
  }
  for (const q of positives) {
    let b = Math.floor(bins * (scores[q] as number));
    if (b < 0) b = 0;
    if (b >= bins) b = top;
    ones[b] = (ones[b] as number) + 1;
  }
  addCounts(sums, count, ones);
}

/**
 * The `floor` rule's bin sums of unweighted float64 scores by the column kernel, each entry's bin computed there (false,
 * adding nothing, where the kernel does not run or refuses the column: the caller's general path then adds it).
 */
function floorKernelSums(
  sums: BinSums,
  bins: number,
  top: number,
  scores: Float64Array,
  positives: Int32Array,
): boolean {
  const m = scores.length;
  const numBins = sums.count.length;
  const kernel = m <= WASM_COLUMN_MAX && numBins <= BIN_SUMS_MAX ? columnKernel() : null;
  if (kernel === null) return false;
  const dense = denseBank(numBins);
  const count = new Float64Array(numBins);
  if (!binSumsF64(kernel, scores, { bins, top }, numBins, (b, x) => dense.add(b, x), count)) return false;
  const ones = new Float64Array(numBins);
  for (const q of positives) {
    let b = Math.floor(bins * (scores[q] as number));
    if (b < 0) b = 0;
    if (b >= bins) b = top;
    ones[b] = (ones[b] as number) + 1;
  }
  for (let b = 0; b < numBins; b++) dense.foldInto(b, sums.score.at(b));
  addCounts(sums, count, ones);
  return true;
}

/** True when every weight is a whole number ≥ 0 and their total is below 2^53 (every partial sum then a double). */
function wholeWeights(weights: Float64Array): boolean {
  let total = 0;
  for (let j = 0; j < weights.length; j++) {
    const w = weights[j] as number;
    if (!(w >= 0) || !Number.isInteger(w)) return false;
    total += w;
  }
  return total < 2 ** 53;
}
