/**
 * Member-pair means in O(S·N·C) instead of a loop over the S(S − 1)/2 pairs (internal). Each pairwise measure is a
 * sum over pairs of a per-row quantity that decomposes into per-member sums: counts of predicted classes
 * (disagreement), of wrong members (double fault), prefix sums of probabilities (KL from an earlier to a later
 * member), the sum of normalised vectors (cosine) and sorted values (L1). The pair loop took S² time on inputs of
 * S·N·C numbers: 40 000 members of one row took 3.5–42 s per measure.
 */
import { fail } from '../errors/fail.js';
import type { EnsembleMatrix } from '../input/types.js';
import { memberPredictions } from './pairs.js';

/** The number of member pairs; at least 2 members (internal). */
export function pairCount(fn: string, e: EnsembleMatrix): number {
  const s = e.numMembers;
  if (s < 2) fail('UM_SHAPE', fn, 'members', 'hold at least 2 members to compare', { value: s });
  return (s * (s - 1)) / 2;
}

/**
 * A compensated (Neumaier) sum: the closed forms add up to S² terms per row whose large parts cancel (KL, cosine),
 * so each sum keeps its rounding error (the pair loop added S²/2 small values instead).
 */
class Sum {
  private s = 0;
  private c = 0;
  add(x: number): void {
    const t = this.s + x;
    // an infinite KL (documented) stays Infinity; the compensation of Infinity − Infinity would be NaN
    if (Number.isFinite(t)) this.c += Math.abs(this.s) >= Math.abs(x) ? this.s - t + x : x - t + this.s;
    this.s = t;
  }
  get value(): number {
    return this.s + this.c;
  }
}

/** A weighted mean over rows of per-row pair sums, divided by the pair count. */
function meanOverRows(
  e: EnsembleMatrix,
  pairs: number,
  w: Float64Array | undefined,
  total: number,
  rowSum: (i: number) => number,
): number {
  const sum = new Sum();
  for (let i = 0; i < e.n; i++) {
    const wi = w === undefined ? 1 : (w[i] as number);
    if (wi > 0) sum.add(wi * rowSum(i));
  }
  return sum.value / total / pairs;
}

/** Mean over pairs of the weighted share of rows where the two members' argmax differ. */
export function pairDisagreement(fn: string, e: EnsembleMatrix, w: Float64Array | undefined, total: number): number {
  const pairs = pairCount(fn, e);
  const s = e.numMembers;
  const preds = Array.from({ length: s }, (_, m) => memberPredictions(e, m));
  const count = new Float64Array(e.numClasses);
  return meanOverRows(e, pairs, w, total, (i) => {
    count.fill(0);
    for (let m = 0; m < s; m++) {
      const k = (preds[m] as Int32Array)[i] as number;
      count[k] = (count[k] as number) + 1;
    }
    // pairs that agree: those within one predicted class
    let agree = 0;
    for (const c of count) agree += (c * (c - 1)) / 2;
    return pairs - agree;
  });
}

/**
 * Double fault: the mean over ordered pairs (a, b), a with at least one error, of the weighted share of a's errors
 * that b also makes. For member a, Σ_b both(a, b) = Σ_i w_i·1[a wrong at i]·(W_i − 1), W_i the members wrong at i.
 */
export function pairDoubleFault(fn: string, e: EnsembleMatrix, y: Int32Array, w: Float64Array | undefined): number {
  pairCount(fn, e);
  const s = e.numMembers;
  const preds = Array.from({ length: s }, (_, m) => memberPredictions(e, m));
  const wrong = new Float64Array(e.n);
  for (let m = 0; m < s; m++)
    for (let i = 0; i < e.n; i++) if ((preds[m] as Int32Array)[i] !== y[i]) wrong[i] = (wrong[i] as number) + 1;
  let sum = 0;
  let members = 0;
  for (let a = 0; a < s; a++) {
    let faults = 0;
    let both = 0;
    for (let i = 0; i < e.n; i++) {
      const wi = w === undefined ? 1 : (w[i] as number);
      if (wi > 0 && (preds[a] as Int32Array)[i] !== y[i]) {
        faults += wi;
        both += wi * ((wrong[i] as number) - 1);
      }
    }
    if (faults > 0) {
      sum += both / faults;
      members++;
    }
  }
  return members === 0 ? 0 : sum / (members * (s - 1));
}

/**
 * Mean over pairs a < b of KL(p_a ‖ p_b) (probabilities clipped to [clip, 1]): per row and class,
 * Σ_{a<b} p_a ln p_a − p_a ln p_b = Σ_a (S − 1 − a)·p_a ln p_a − Σ_b ln p_b·(Σ_{a<b} p_a), with 0·ln 0 = 0 and
 * +Infinity where a later member gives 0 to a class an earlier one does not. Never below 0 (rounding of the two
 * sums is clamped).
 */
export function pairKl(
  fn: string,
  e: EnsembleMatrix,
  clip: number,
  w: Float64Array | undefined,
  total: number,
): number {
  const pairs = pairCount(fn, e);
  const { data, n, numClasses: c, numMembers: s } = e;
  const mean = meanOverRows(e, pairs, w, total, (i) => {
    const row = new Sum();
    for (let k = 0; k < c; k++) {
      const before = new Sum();
      for (let m = 0; m < s; m++) {
        const p = Math.max(data[(m * n + i) * c + k] as number, clip);
        const earlier = before.value;
        if (earlier > 0) {
          if (p === 0) return Infinity;
          row.add(-earlier * Math.log(p));
        }
        if (p > 0) {
          row.add((s - 1 - m) * p * Math.log(p));
          before.add(p);
        }
      }
    }
    return row.value;
  });
  return Math.max(0, mean);
}

/** Mean over pairs of the cosine similarity: per row, Σ_{a<b} û_a·û_b = (‖Σ_a û_a‖² − Σ_a ‖û_a‖²)/2. */
export function pairCosine(fn: string, e: EnsembleMatrix, w: Float64Array | undefined, total: number): number {
  const pairs = pairCount(fn, e);
  const { data, n, numClasses: c, numMembers: s } = e;
  return meanOverRows(e, pairs, w, total, (i) => {
    const sum = Array.from({ length: c }, () => new Sum());
    const squares = new Sum();
    for (let m = 0; m < s; m++) {
      const o = (m * n + i) * c;
      let norm = 0;
      for (let k = 0; k < c; k++) norm += (data[o + k] as number) ** 2;
      norm = Math.sqrt(norm);
      for (let k = 0; k < c; k++) {
        const u = (data[o + k] as number) / norm;
        (sum[k] as Sum).add(u);
        squares.add(u * u);
      }
    }
    const all = new Sum();
    for (const v of sum) all.add(v.value * v.value);
    all.add(-squares.value);
    return all.value / 2;
  });
}

/** Mean over pairs of the L1 distance: per row and class, Σ_{a<b} |x_a − x_b| = Σ_j x_(j)·(2j − S + 1), x sorted. */
export function pairL1(fn: string, e: EnsembleMatrix, w: Float64Array | undefined, total: number): number {
  const pairs = pairCount(fn, e);
  const { data, n, numClasses: c, numMembers: s } = e;
  const x = new Float64Array(s);
  return meanOverRows(e, pairs, w, total, (i) => {
    const row = new Sum();
    for (let k = 0; k < c; k++) {
      for (let m = 0; m < s; m++) x[m] = data[(m * n + i) * c + k] as number;
      x.sort();
      for (let j = 0; j < s; j++) row.add((x[j] as number) * (2 * j - s + 1));
    }
    return row.value;
  });
}
