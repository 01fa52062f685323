import type { LabeledBatch } from '../input/types.js';
import { ExactSum } from '../math/exactSum.js';
import { topLabel } from '../measures/topLabel.js';
import type { CustomStore, JsonPath, Store } from './store.js';

/**
 * The Brier decomposition's O(C²) sufficient statistics: per predicted class k the weights of each label j, the sums
 * Σ w·p_ij and Σ w·Σ_j p_ij², and Σ w·p_{i,y_i} — exact sums, so merges are exact (internal).
 */
export class BrierDecompositionStore implements CustomStore {
  readonly kind = 'brier-decomposition';
  readonly counts: ExactSum[];
  readonly sums: ExactSum[];
  readonly squares: ExactSum[];
  readonly own = new ExactSum();
  readonly total = new ExactSum();

  constructor(readonly numClasses: number) {
    const make = (m: number) => Array.from({ length: m }, () => new ExactSum());
    this.counts = make(numClasses * numClasses);
    this.sums = make(numClasses * numClasses);
    this.squares = make(numClasses);
  }

  add({ p, y, w }: LabeledBatch): void {
    const c = this.numClasses;
    const { predicted } = topLabel(p);
    for (let i = 0; i < p.n; i++) {
      const wi = w === undefined ? 1 : (w[i] as number);
      const k = predicted[i] as number;
      const yi = y[i] as number;
      (this.counts[k * c + yi] as ExactSum).add(wi);
      let sq = 0;
      for (let j = 0; j < c; j++) {
        const v = p.data[i * c + j] as number;
        (this.sums[k * c + j] as ExactSum).add(wi * v);
        sq += v * v;
      }
      (this.squares[k] as ExactSum).add(wi * sq);
      this.own.add(wi * (p.data[i * c + yi] as number));
      this.total.add(wi);
    }
  }

  merge(other: Store): void {
    const o = other as BrierDecompositionStore;
    o.counts.forEach((s, k) => this.counts[k]?.addSum(s));
    o.sums.forEach((s, k) => this.sums[k]?.addSum(s));
    o.squares.forEach((s, k) => this.squares[k]?.addSum(s));
    this.own.addSum(o.own);
    this.total.addSum(o.total);
  }

  toJSON(): unknown {
    const j = (s: ExactSum[]) => s.map((x) => x.toJSON());
    return {
      counts: j(this.counts),
      sums: j(this.sums),
      squares: j(this.squares),
      own: this.own.toJSON(),
      total: this.total.toJSON(),
    };
  }

  static fromJSON(json: unknown, at: JsonPath, numClasses: number): BrierDecompositionStore {
    const o = at.object(json);
    const s = new BrierDecompositionStore(numClasses);
    const c2 = numClasses * numClasses;
    s.counts.splice(0, c2, ...at.at('counts').exactSums(o.counts, c2));
    s.sums.splice(0, c2, ...at.at('sums').exactSums(o.sums, c2));
    s.squares.splice(0, numClasses, ...at.at('squares').exactSums(o.squares, numClasses));
    s.own.addSum(at.at('own').exactSum(o.own));
    s.total.addSum(at.at('total').exactSum(o.total));
    return s;
  }
}
