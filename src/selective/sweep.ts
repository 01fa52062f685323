import { argsort } from '../kernels/argsort.js';

/**
 * The sufficient statistics of every ranking metric: predictions sorted from most to least confident, with equal
 * confidences merged into one block. Every curve and area of `selective/` and `ood/` is computed from these
 * blocks, so ties are always one point and no result depends on row order. Plain numbers, internal.
 */
export interface Sweep {
  /** Number of predictions N (their total weight with sample weights). */
  readonly n: number;
  /** Number of blocks B (distinct confidence values). */
  readonly blocks: number;
  /** Confidence of each block, strictly decreasing. */
  readonly level: Float64Array;
  /** Predictions in each block (weight sums with sample weights). */
  readonly count: Float64Array;
  /** Positives (correct predictions, or in-distribution samples) in each block. */
  readonly positive: Float64Array;
  /** Σ positive. */
  readonly totalPositive: number;
  /**
   * The weights' scale (an exact power of two; absent = 1): a count c stands for c · unit samples. Only metrics that
   * count samples (AURC's estimators, accuracy at coverage) read it; every ratio of counts is free of it.
   */
  readonly unit?: number;
}

/** Whether values are in ascending order (ties — −0 and 0 among them — contiguous) (internal). */
export function isAscending(values: ArrayLike<number>): boolean {
  for (let i = 1; i < values.length; i++) if (!((values[i - 1] as number) <= (values[i] as number))) return false;
  return true;
}

/**
 * The blocks of equal values of ascending `values` from the top, each as its index range [start, end): read in this
 * order, block by block and each block's indices ascending, they are a stable descending sort's order (internal).
 */
export function blocksFromTop(values: ArrayLike<number>, visit: (start: number, end: number) => void): void {
  for (let end = values.length; end > 0;) {
    const v = values[end - 1] as number;
    let start = end - 1;
    while (start > 0 && values[start - 1] === v) start--;
    visit(start, end);
    end = start;
  }
}

/**
 * Sorts by confidence (descending) and merges ties into blocks. `positive[i]` is 0 or 1; `weights` (all > 0), when
 * given, make counts weight sums; `unit` is their scale (see {@link Sweep.unit}). Confidences already in ascending
 * order (a kept-entries store's canonical order) are not sorted again: they are read block by block from the top
 * ({@link blocksFromTop}: the stable descending sort's own order) without an order array (40 MB for 10^7), so the
 * blocks and every sum are the same, bit for bit.
 */
export function sweep(confidence: Float64Array, positive: Uint8Array, weights?: Float64Array, unit = 1): Sweep {
  const n = confidence.length;
  const order = isAscending(confidence) ? undefined : argsort(confidence, true);
  // the blocks are counted first so each array has exactly one entry per block: n-long arrays sliced to size held
  // 6 × 8 bytes per entry at once (480 MB for the 10^7 mostly distinct confidences of a streamed file's top label)
  let distinct = 0;
  if (order === undefined) blocksFromTop(confidence, () => distinct++);
  else
    for (let r = 0; r < n; r++)
      if (r === 0 || confidence[order[r] as number] !== confidence[order[r - 1] as number]) distinct++;
  const level = new Float64Array(distinct);
  const count = new Float64Array(distinct);
  const pos = new Float64Array(distinct);
  let blocks = 0;
  let total = 0;
  let weight = 0;
  const add = (i: number): void => {
    const v = confidence[i] as number;
    if (blocks === 0 || v !== level[blocks - 1]) {
      level[blocks] = v;
      blocks++;
    }
    const w = weights === undefined ? 1 : (weights[i] as number);
    count[blocks - 1] = (count[blocks - 1] as number) + w;
    const p = (positive[i] as number) * w;
    pos[blocks - 1] = (pos[blocks - 1] as number) + p;
    total += p;
    weight += w;
  };
  if (order === undefined)
    blocksFromTop(confidence, (start, end) => {
      for (let i = start; i < end; i++) add(i);
    });
  else for (let r = 0; r < n; r++) add(order[r] as number);
  return {
    n: weight,
    blocks,
    level,
    count,
    positive: pos,
    totalPositive: total,
    ...(unit === 1 ? {} : { unit }),
  };
}

/**
 * Expected number of positives among the k most confident predictions when ties are ordered at random:
 * whole blocks above, plus the same share of the block that k cuts. `cumCount`/`cumPositive` are running sums
 * over blocks (internal).
 */
export function expectedPositivesAt(s: Sweep, cumCount: Float64Array, cumPositive: Float64Array, k: number): number {
  if (k <= 0) return 0;
  // first block whose running count reaches k
  let lo = 0;
  let hi = s.blocks - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((cumCount[mid] as number) >= k) hi = mid;
    else lo = mid + 1;
  }
  const beforeCount = lo === 0 ? 0 : (cumCount[lo - 1] as number);
  const beforePositive = lo === 0 ? 0 : (cumPositive[lo - 1] as number);
  return beforePositive + ((k - beforeCount) * (s.positive[lo] as number)) / (s.count[lo] as number);
}

/** Running sums of counts and positives over blocks (internal). */
export function cumulative(s: Sweep): { cumCount: Float64Array; cumPositive: Float64Array } {
  const cumCount = new Float64Array(s.blocks);
  const cumPositive = new Float64Array(s.blocks);
  let c = 0;
  let p = 0;
  for (let b = 0; b < s.blocks; b++) {
    c += s.count[b] as number;
    p += s.positive[b] as number;
    cumCount[b] = c;
    cumPositive[b] = p;
  }
  return { cumCount, cumPositive };
}
