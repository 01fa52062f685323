import { binsFromSums } from '../binning/binStatistics.js';
import { binRange, midpointEdges, snapCut } from '../binning/cuts.js';
import type { Bin } from '../binning/types.js';
import { ExactSum } from '../math/exactSum.js';
import { BUCKETS, bucketOf, ClassHistogram, EXP0, EXPONENTS, SPLIT, type CollectedClass } from './classHistogram.js';

// Between the two passes of classHistogram.ts and the bins: the sorted entries of a class as runs — a split bucket's
// own entries, or a segment of whole buckets known by its count, positives, range and exact sum.

/** The exact score sum of segment j over every chunk's integer parts. */
function segmentSum(parts: readonly CollectedClass[], j: number): ExactSum {
  const sum = new ExactSum();
  for (const p of parts)
    for (let e = 0; e < EXPONENTS; e++) {
      const s = j * EXPONENTS + e;
      const hi = p.sums[2 * s] as number;
      const lo = p.sums[2 * s + 1] as number;
      const unit = 2 ** (EXP0 + e - 1075);
      if (hi !== 0) sum.add(hi * SPLIT * unit);
      if (lo !== 0) sum.add(lo * unit);
    }
  return sum;
}

/** A run of the sorted entries: a split bucket's own entries (sorted) or a segment (count, positives, range, sum). */
type Piece =
  | { start: number; kind: 'entries'; scores: Float64Array; outcomes: Uint8Array }
  | { start: number; kind: 'segment'; count: number; ones: number; min: number; max: number; sum: ExactSum };

/**
 * The equal-mass bins (this library's `'quantile'` construction) of class k from both passes: per bin count, the
 * bins `sortedQuantileStatistics` gives on the sorted entries (null when the class has none). Throws when pass 2 did
 * not see the entries pass 1 counted (the file changed in between).
 */
export function classBinsOf(
  hist: ClassHistogram,
  k: number,
  split: Int32Array,
  parts: readonly CollectedClass[],
  binCounts: readonly number[],
): (Bin[] | null)[] | string {
  const n = hist.size(k);
  if (n === 0) return binCounts.map(() => null);
  // the split buckets' entries in ascending order, one run per bucket
  let kept = 0;
  for (const p of parts) kept += p.scores.length;
  const scores = new Float64Array(kept);
  const outcomes = new Uint8Array(kept);
  const order = new Uint32Array(kept);
  let at = 0;
  for (const p of parts) {
    scores.set(p.scores, at);
    outcomes.set(p.outcomes, at);
    at += p.scores.length;
  }
  for (let i = 0; i < kept; i++) order[i] = i;
  order.sort((a, b) => (scores[a] as number) - (scores[b] as number));
  const sortedScores = Float64Array.from(order, (i) => scores[i] as number);
  const sortedOutcomes = Uint8Array.from(order, (i) => outcomes[i] as number);
  const pieces: Piece[] = [];
  let rank = 0;
  let e = 0;
  const segs = split.length + 1;
  for (let j = 0; j < segs; j++) {
    let count = 0;
    let ones = 0;
    let min = Infinity;
    let max = -Infinity;
    for (const p of parts) {
      count += p.segments[4 * j] as number;
      ones += p.segments[4 * j + 1] as number;
      min = Math.min(min, p.segments[4 * j + 2] as number);
      max = Math.max(max, p.segments[4 * j + 3] as number);
    }
    if (count > 0) {
      pieces.push({ start: rank, kind: 'segment', count, ones, min, max, sum: segmentSum(parts, j) });
      rank += count;
    }
    if (j === split.length) break;
    const bucket = split[j] as number;
    const from = e;
    while (e < kept && bucketOf(sortedScores[e] as number) === bucket) e++;
    if (e - from !== hist.counts[k * BUCKETS + bucket])
      return `bucket ${bucket} of class ${k} held ${hist.counts[k * BUCKETS + bucket]} entries in pass 1, ${e - from} in pass 2`;
    if (e > from) {
      pieces.push({
        start: rank,
        kind: 'entries',
        scores: sortedScores.subarray(from, e),
        outcomes: sortedOutcomes.subarray(from, e),
      });
      rank += e - from;
    }
  }
  if (rank !== n || e !== kept) return `class ${k} held ${n} entries in pass 1, ${rank} in pass 2`;
  let p = 0;
  const pieceAt = (r: number): Piece => {
    while (p > 0 && (pieces[p] as Piece).start > r) p--;
    while (p + 1 < pieces.length && (pieces[p + 1] as Piece).start <= r) p++;
    return pieces[p] as Piece;
  };
  const valueAt = (r: number): number => {
    const q = pieceAt(r);
    if (q.kind === 'entries') return q.scores[r - q.start] as number;
    if (r === q.start) return q.min;
    if (r === q.start + q.count - 1) return q.max;
    throw new Error(`classBinsOf: rank ${r} inside a segment`);
  };
  return binCounts.map((bins) => {
    const cuts: number[] = [];
    for (const rows of ClassHistogram.ranks(n, bins)) {
      let r = rows;
      if (rows > 0 && rows < n) {
        const q = pieceAt(rows);
        if (q.kind !== 'entries') throw new Error(`classBinsOf: cut ${rows} inside a segment`);
        r = q.start + snapCut(q.scores, rows - q.start);
        // snapCut stops at the run's ends; a block of ties never leaves its bucket, so this is the sorted answer
      }
      if (r > 0 && r < n && r !== cuts[cuts.length - 1]) cuts.push(r);
    }
    return binsOfCuts(pieces, cuts, n, valueAt);
  });
}

/** The bins between the cuts, as `runStatistics` computes them from the sorted entries. */
function binsOfCuts(
  pieces: readonly Piece[],
  cuts: readonly number[],
  n: number,
  valueAt: (r: number) => number,
): Bin[] {
  const numBins = cuts.length + 1;
  const { lower, upper } = midpointEdges(cuts, n, valueAt);
  const count = new Float64Array(numBins);
  const weight = new Float64Array(numBins);
  const score = new Float64Array(numBins);
  const outcome = new Float64Array(numBins);
  for (let b = 0; b < numBins; b++) {
    const [from, to] = binRange(cuts, n, b);
    count[b] = to - from;
    weight[b] = to - from;
    const s = new ExactSum();
    let ones = 0;
    for (const q of pieces) {
      if (q.kind === 'segment') {
        if (q.start >= from && q.start < to) {
          s.addSum(q.sum);
          ones += q.ones;
        }
        continue;
      }
      const a = Math.max(from, q.start);
      const z = Math.min(to, q.start + q.scores.length);
      for (let r = a; r < z; r++) {
        s.add(q.scores[r - q.start] as number);
        ones += q.outcomes[r - q.start] as number;
      }
    }
    score[b] = s.value();
    outcome[b] = ones;
  }
  return binsFromSums(lower, upper, count, weight, score, outcome, n);
}
