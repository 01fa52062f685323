import { fail } from '../errors/fail.js';
import type { Sweep } from './sweep.js';

/**
 * Area under the ROC curve of the blocks: positives ranked above negatives, one ROC point per block (ties), the
 * trapezoid between points — the Mann–Whitney statistic with ties counted ½. Throws `UM_SINGLE_CLASS` when
 * either class is absent; `what` names them for the message (internal).
 */
/** What the two classes of a ranking metric are called in messages (internal). */
export interface ClassNames {
  readonly argument: string;
  readonly positives: string;
  readonly negatives: string;
}

/** Throws `UM_SINGLE_CLASS` unless there are `positives` and `negatives` of both kinds among n (internal). */
export function requireBothClasses(fn: string, positives: number, n: number, what: ClassNames): void {
  if (positives === 0 || positives === n) {
    fail('UM_SINGLE_CLASS', fn, what.argument, `hold both ${what.positives} and ${what.negatives}`, {
      value: positives === 0 ? `no ${what.positives}` : `no ${what.negatives}`,
    });
  }
}

export function rocArea(fn: string, s: Sweep, what: ClassNames): number {
  const p = s.totalPositive;
  const q = s.n - p;
  requireBothClasses(fn, p, s.n, what);
  let tp = 0;
  let area = 0;
  for (let b = 0; b < s.blocks; b++) {
    const dp = s.positive[b] as number;
    const dn = (s.count[b] as number) - dp;
    // each negative of the block is outranked by every earlier positive and ties with half of the block's
    area += dn * (tp + dp / 2);
    tp += dp;
  }
  return area / (p * q);
}

/**
 * Average precision of the blocks, taken from the most confident block down (`fromTop`) or from the least
 * confident block up with the complements as positives (errors ranked by uncertainty):
 * AP = Σ_b (R_b − R_{b−1})·P_b, one precision–recall point per block, no interpolation (sklearn's definition).
 * Throws `UM_SINGLE_CLASS` when either class is absent (internal).
 */
export function averagePrecision(fn: string, s: Sweep, fromTop: boolean, what: ClassNames): number {
  const total = fromTop ? s.totalPositive : s.n - s.totalPositive;
  requireBothClasses(fn, total, s.n, what);
  let kept = 0;
  let hits = 0;
  let ap = 0;
  for (let j = 0; j < s.blocks; j++) {
    const b = fromTop ? j : s.blocks - 1 - j;
    const c = s.count[b] as number;
    const h = fromTop ? (s.positive[b] as number) : c - (s.positive[b] as number);
    kept += c;
    hits += h;
    if (h > 0) ap += (h / total) * (hits / kept);
  }
  return ap;
}

/** Number of ones in a 0/1 array (internal). */
export function countOnes(v: Uint8Array): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] as number;
  return s;
}
