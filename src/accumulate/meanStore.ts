import { ExactSum, quotient } from '../math/exactSum.js';
import { PairSum } from '../math/pairSum.js';
import type { JsonPath, Store } from './store.js';

/** The two running pairs of {@link MeanStore}'s term-by-term sums (each moved to its sum, and reset, per call). */
const MEAN_PAIRS = [new PairSum(), new PairSum()];

/**
 * A weighted mean of one value per row: the exact Σw·v and Σw, the number of rows and how many values were not
 * finite (an NLL of +∞) — O(1) memory, exact merge. What accuracy, Brier, NLL and the mean entropy keep (internal).
 */
export class MeanStore implements Store {
  readonly kind = 'mean';
  readonly weighted = new ExactSum();
  readonly weight = new ExactSum();
  rows = 0;
  nonFinite = 0;
  /** Row of the first non-finite value, counting rows in the order they were added and merged (−1: none). */
  firstNonFinite = -1;

  /** Adds values (and weights, all > 0; undefined = 1). */
  add(values: ArrayLike<number>, weights: ArrayLike<number> | undefined): void {
    const n = values.length;
    // Whole numbers (0/1 outcomes, resampling counts) whose magnitudes sum below 2^53 have every partial sum exact in
    // float64: such a sum is added as one number, the same exact sum as term by term, at a fraction of the cost.
    let sum = 0;
    let size = 0;
    let weightSum = 0;
    let weightSize = 0;
    for (let i = 0; i < n; i++) {
      const v = values[i] as number;
      if (!Number.isFinite(v)) {
        if (this.firstNonFinite < 0) this.firstNonFinite = this.rows + i;
        this.nonFinite++;
      }
      const w = weights === undefined ? 1 : (weights[i] as number);
      const p = weights === undefined ? v : w * v;
      sum += p;
      size += Number.isInteger(p) ? Math.abs(p) : Infinity;
      weightSum += w;
      weightSize += Number.isInteger(w) ? w : Infinity;
    }
    const wholeValues = size < 2 ** 53;
    const wholeWeights = weights === undefined || weightSize < 2 ** 53;
    if (wholeValues) this.weighted.add(sum);
    if (weights === undefined) this.weight.addInteger(n);
    else if (wholeWeights) this.weight.add(weightSum);
    if (!wholeValues || !wholeWeights) this.addTerms(values, weights, !wholeValues, !wholeWeights);
    this.rows += n;
  }

  /** Adds Σw·v (`products`) and Σw (`totals`) term by term, exactly. */
  private addTerms(
    values: ArrayLike<number>,
    weights: ArrayLike<number> | undefined,
    products: boolean,
    totals: boolean,
  ): void {
    // pairs of doubles moved to the exact sums only when a term does not fit (see PairSum.push): no bank, no fold
    const sum = MEAN_PAIRS[0] as PairSum;
    const total = MEAN_PAIRS[1] as PairSum;
    // empty whatever a call that threw midway left in them
    sum.reset();
    total.reset();
    for (let i = 0; i < values.length; i++) {
      const v = values[i] as number;
      if (weights === undefined) {
        sum.push(v, this.weighted);
        continue;
      }
      const w = weights[i] as number;
      if (products) {
        const p = w * v;
        // a product beyond float64 (or lost among the subnormals) is added exactly
        if ((Number.isFinite(p) && Math.abs(p) >= 2 ** -1022) || p === 0 || !Number.isFinite(v))
          sum.push(p, this.weighted);
        else this.weighted.addProduct(w, v);
      }
      if (totals) total.push(w, this.weight);
    }
    sum.moveTo(this.weighted);
    total.moveTo(this.weight);
  }

  merge(other: Store): void {
    const o = other as MeanStore;
    if (this.firstNonFinite < 0 && o.firstNonFinite >= 0) this.firstNonFinite = this.rows + o.firstNonFinite;
    this.weighted.addSum(o.weighted);
    this.weight.addSum(o.weight);
    this.rows += o.rows;
    this.nonFinite += o.nonFinite;
  }

  /** Σw·v / Σw, rounded once from the exact sums (NaN when no row was added: the caller reports that). */
  mean(): number {
    return quotient(this.weighted, this.weight);
  }

  toJSON(): unknown {
    return {
      weighted: this.weighted.toJSON(),
      weight: this.weight.toJSON(),
      rows: this.rows,
      nonFinite: this.nonFinite,
      firstNonFinite: this.firstNonFinite,
    };
  }

  static fromJSON(json: unknown, at: JsonPath): MeanStore {
    const o = at.object(json);
    const s = new MeanStore();
    s.weighted.addSum(at.at('weighted').exactSum(o.weighted));
    s.weight.addSum(at.at('weight').exactSum(o.weight));
    s.rows = at.at('rows').integer(o.rows, 0, Number.MAX_SAFE_INTEGER);
    s.nonFinite = at.at('nonFinite').integer(o.nonFinite, 0, s.rows);
    s.firstNonFinite = at
      .at('firstNonFinite')
      .integer(o.firstNonFinite, s.nonFinite === 0 ? -1 : 0, s.nonFinite === 0 ? -1 : s.rows - 1);
    return s;
  }
}
