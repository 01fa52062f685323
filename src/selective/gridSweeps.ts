import type { GridCells } from '../accumulate/grid.js';
import type { Sweep } from './sweep.js';

/**
 * Sweeps of the bounded grid's cells (internal). The grid keeps per cell the weight and the correct weight of its
 * pairs, not their order inside the cell, so a ranking metric finished from the cells treats each cell as one block
 * of ties, and its exact value lies between the values of the two extreme orders inside every cell: correct
 * predictions first (the most favourable) or last. Each extreme is a sweep whose cells are split in two pure blocks,
 * so the usual area functions compute it exactly.
 */

/** The cells as blocks of ties, most confident first. */
export function cellSweep(c: GridCells): Sweep {
  const m = c.scores.length;
  const level = new Float64Array(m);
  const count = new Float64Array(m);
  const positive = new Float64Array(m);
  let n = 0;
  let total = 0;
  for (let r = 0; r < m; r++) {
    const j = m - 1 - r;
    const w = c.weights[j] as number;
    level[r] = c.scores[j] as number;
    count[r] = w;
    positive[r] = w * (c.outcomes[j] as number);
    n += w;
    total += positive[r] as number;
  }
  return { n, blocks: m, level, count, positive, totalPositive: total };
}

/** The cells each split in a block of correct and a block of wrong predictions, correct first when `correctFirst`. */
export function splitSweep(c: GridCells, correctFirst: boolean): Sweep {
  const whole = cellSweep(c);
  const level: number[] = [];
  const count: number[] = [];
  const positive: number[] = [];
  for (let b = 0; b < whole.blocks; b++) {
    const w = whole.count[b] as number;
    const right = Math.min(w, whole.positive[b] as number);
    const parts: [number, number][] = correctFirst
      ? [
          [right, right],
          [w - right, 0],
        ]
      : [
          [w - right, 0],
          [right, right],
        ];
    for (const [weight, pos] of parts) {
      if (!(weight > 0)) continue;
      // distinct, decreasing levels (only the order of blocks matters to the areas)
      level.push(-level.length);
      count.push(weight);
      positive.push(pos);
    }
  }
  return {
    n: whole.n,
    blocks: level.length,
    level: Float64Array.from(level),
    count: Float64Array.from(count),
    positive: Float64Array.from(positive),
    totalPositive: whole.totalPositive,
  };
}

/** Rounding of the float64 cell sums: each is off by at most m·2^−53 of the total (m terms), so 4·N·2^−53 covers a ratio of them. */
export function roundingMargin(c: GridCells): number {
  let rows = 0;
  for (let i = 0; i < c.counts.length; i++) rows += c.counts[i] as number;
  return 4 * rows * 2 ** -53;
}

/**
 * The smallest average precision any order inside the cells gives (positives = correct predictions when `fromTop`,
 * else wrong ones ranked from the least confident): inside each cell the negatives first, then the positives one by
 * one. A positive's precision is then (P_b + x)/(K + x) after x of the cell's positive weight, K = all weight before it
 * including the cell's negatives; summed over positives this is at least ∫_0^p (P_b + x)/(K + x) dx = p − (K − P_b)·ln(1 +
 * p/K) (the sum is a right Riemann sum of an increasing function), which is what is returned (over the total positive
 * weight).
 */
export function minimumAveragePrecision(s: Sweep, fromTop: boolean): number {
  const total = fromTop ? s.totalPositive : s.n - s.totalPositive;
  let before = 0;
  let beforePositive = 0;
  let sum = 0;
  for (let j = 0; j < s.blocks; j++) {
    const b = fromTop ? j : s.blocks - 1 - j;
    const c = s.count[b] as number;
    const p = fromTop ? (s.positive[b] as number) : c - (s.positive[b] as number);
    const k = before + (c - p);
    if (p > 0) sum += k === 0 ? p : p - (k - beforePositive) * Math.log1p(p / k);
    before += c;
    beforePositive += p;
  }
  return sum / total;
}
