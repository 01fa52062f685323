import { scratchSums } from '../math/denseSums.js';
import { ExactSum } from '../math/exactSum.js';
import { binsFromSums } from './binStatistics.js';
import { BIN_SUMS_MAX } from '../kernels/columnsWasm.js';
import { addColumnToBinSums } from './columnSums.js';
import type { Bin } from './types.js';

/**
 * Exact per-bin sums: the count and the exactly rounded Σw, Σw·s and Σw·o of every bin. Whatever the order in which
 * entries arrive, and however they are split into batches and merged, the sums — and so every bin, calibration error
 * and reliability table computed from them — are the same bits (internal).
 */
export interface BinSums {
  readonly count: Float64Array;
  readonly weight: BinExactSums;
  readonly score: BinExactSums;
  readonly outcome: BinExactSums;
}

/** An empty sum, read for the bins nothing was added to (never added to). */
const NOTHING = new ExactSum();

/**
 * One exact sum per bin, each made when something is first added to it (internal): the bins a store keeps whatever the
 * data (2^20 in all, the count bound) cost one array slot each until used, not three objects each — that was most of
 * the time and memory of ECE with 2^20 bins (the garbage collector's).
 */
export class BinExactSums {
  private readonly sums: (ExactSum | undefined)[];

  constructor(readonly length: number) {
    // filled, not holey: a holey array of a million slots is a dictionary, slow to index
    this.sums = new Array<ExactSum | undefined>(length).fill(undefined);
  }

  /** Bin b's sum, to add to (made when first asked for). */
  at(b: number): ExactSum {
    let s = this.sums[b];
    if (s === undefined) this.sums[b] = s = new ExactSum();
    return s;
  }

  /** Bin b's sum to read: an empty one when nothing was added (do not add to it). */
  read(b: number): ExactSum {
    return this.sums[b] ?? NOTHING;
  }

  /** The exactly rounded value of bin b's sum (0 when nothing was added). */
  value(b: number): number {
    const s = this.sums[b];
    return s === undefined ? 0 : s.value();
  }

  /** Adds bin b's sum of `other` (exact; nothing is made when it has none). */
  addFrom(b: number, other: BinExactSums): void {
    const o = other.sums[b];
    if (o !== undefined) this.at(b).addSum(o);
  }

  /** Bin b's sum replaced by `sum` (a state read back). */
  set(b: number, sum: ExactSum): void {
    this.sums[b] = sum;
  }
}

/** Empty sums for `numBins` bins. */
export function emptyBinSums(numBins: number): BinSums {
  const make = () => new BinExactSums(numBins);
  return { count: new Float64Array(numBins), weight: make(), score: make(), outcome: make() };
}

/**
 * Adds entries given their bins (`index[i]` in [0, numBins)): grouped by bin with a counting sort, then each bin's
 * values go through one dense exact accumulator — two float additions per value, one BigInt fold per bin.
 */
export function addToBinSums(
  sums: BinSums,
  index: ArrayLike<number>,
  scores: ArrayLike<number>,
  outcomes: ArrayLike<number>,
  weights?: ArrayLike<number>,
  offset = 0,
  length = index.length,
): void {
  // whole typed columns of 0/1 outcomes in a few bins: the class-column sums (float32 window sums, the float64
  // kernel) — the same exact sums without the counting sort. Their dense banks hold 32 KiB per bin, so many bins
  // (the count bound allows millions) stay with the counting sort's one bank of three sums.
  if (
    sums.count.length <= BIN_SUMS_MAX &&
    offset === 0 &&
    length === index.length &&
    index instanceof Int32Array &&
    outcomes instanceof Float64Array &&
    (scores instanceof Float64Array || scores instanceof Float32Array) &&
    scores.length === length &&
    (weights === undefined || weights instanceof Float64Array) &&
    zeroOrOne(outcomes)
  ) {
    addColumnToBinSums(sums, index, scores, outcomes, weights);
    return;
  }
  const numBins = sums.count.length;
  const start = new Int32Array(numBins + 1);
  for (let i = offset; i < offset + length; i++)
    start[(index[i] as number) + 1] = (start[(index[i] as number) + 1] as number) + 1;
  for (let b = 0; b < numBins; b++) start[b + 1] = (start[b + 1] as number) + (start[b] as number);
  const order = new Int32Array(length);
  const at = start.slice(0, numBins);
  for (let i = offset; i < offset + length; i++) {
    const b = index[i] as number;
    order[at[b] as number] = i;
    at[b] = (at[b] as number) + 1;
  }
  const dense = scratchSums();
  for (let b = 0; b < numBins; b++) {
    const from = start[b] as number;
    const to = start[b + 1] as number;
    if (from === to) continue;
    sums.count[b] = (sums.count[b] as number) + (to - from);
    let ones = 0;
    if (weights === undefined) {
      for (let j = from; j < to; j++) {
        const i = order[j] as number;
        dense.add(1, scores[i] as number);
        const o = outcomes[i] as number;
        if (o === 1) ones++;
        else if (o !== 0) dense.add(2, o);
      }
      sums.weight.at(b).addInteger(to - from);
    } else {
      for (let j = from; j < to; j++) {
        const i = order[j] as number;
        const w = weights[i] as number;
        dense.add(0, w);
        dense.add(1, w * (scores[i] as number));
        const o = outcomes[i] as number;
        if (o === 1) dense.add(2, w);
        else if (o !== 0) dense.add(2, w * o);
      }
      dense.foldInto(0, sums.weight.at(b));
    }
    dense.foldInto(1, sums.score.at(b));
    dense.foldInto(2, sums.outcome.at(b));
    if (ones > 0) sums.outcome.at(b).addInteger(ones);
  }
}

/** Adds other sums of the same bins (exact). */
export function mergeBinSums(into: BinSums, other: BinSums): void {
  for (let b = 0; b < into.count.length; b++) {
    into.count[b] = (into.count[b] as number) + (other.count[b] as number);
    into.weight.addFrom(b, other.weight);
    into.score.addFrom(b, other.score);
    into.outcome.addFrom(b, other.outcome);
  }
}

/** The exactly rounded total weight of all bins. */
export function totalWeight(sums: BinSums): number {
  const t = new ExactSum();
  for (let b = 0; b < sums.weight.length; b++) t.addSum(sums.weight.read(b));
  return t.value();
}

/** The bins (means, gaps, fractions) of exact sums; `occupied`: only those with a gap (see {@link binsFromSums}). */
export function binsOfSums(lower: ArrayLike<number>, upper: ArrayLike<number>, sums: BinSums, occupied = false): Bin[] {
  // into a Float64Array: a plain array of 2^20 fresh doubles (the bound on bins) is that many heap numbers
  const value = (s: BinExactSums) => {
    const out = new Float64Array(s.length);
    for (let b = 0; b < s.length; b++) out[b] = s.value(b);
    return out;
  };
  return binsFromSums(
    lower,
    upper,
    sums.count,
    value(sums.weight),
    value(sums.score),
    value(sums.outcome),
    totalWeight(sums),
    occupied,
  );
}

/** True when every outcome is 0 or 1 (the class-column sums count ones; other outcomes need their exact sum). */
function zeroOrOne(outcomes: Float64Array): boolean {
  for (let i = 0; i < outcomes.length; i++) {
    const o = outcomes[i] as number;
    if (o !== 0 && o !== 1) return false;
  }
  return true;
}
