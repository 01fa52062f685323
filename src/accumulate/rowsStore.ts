import type { ProbMatrix } from '../input/types.js';
import { numberList, type JsonPath, type Store } from './store.js';

/** Kept rows in the canonical order: labels, row-major probabilities and weights (undefined when all are 1). */
export interface CanonicalRows {
  readonly n: number;
  readonly numClasses: number;
  readonly labels: Int32Array;
  readonly probs: Float64Array;
  readonly weights: Float64Array | undefined;
}

/**
 * Every labelled row (label, validated probabilities, weight) — for the metrics without a smaller sufficient
 * statistic (curves, kernel and Bayesian estimators, accuracy at coverage…). They are recomputed on the rows in a
 * canonical order (by label, then the probabilities, then the weight), so a state gives the same bits however its
 * rows were batched and merged (internal).
 */
export class RowsStore implements Store {
  readonly kind = 'rows';
  private readonly labels: number[] = [];
  private readonly probs: number[] = [];
  private readonly weights: number[] = [];
  private weighted = false;

  constructor(readonly numClasses: number) {}

  add(p: ProbMatrix, y: Int32Array, w: Float64Array | undefined): void {
    const c = this.numClasses;
    if (w !== undefined) this.weighted = true;
    for (let i = 0; i < p.n; i++) {
      this.labels.push(y[i] as number);
      this.weights.push(w === undefined ? 1 : (w[i] as number));
      for (let k = 0; k < c; k++) this.probs.push(p.data[i * c + k] as number);
    }
  }

  merge(other: Store): void {
    const o = other as RowsStore;
    for (const x of o.labels) this.labels.push(x);
    for (const x of o.probs) this.probs.push(x);
    for (const x of o.weights) this.weights.push(x);
    this.weighted ||= o.weighted;
  }

  get rows(): number {
    return this.labels.length;
  }

  canonical(): CanonicalRows {
    const n = this.labels.length;
    const c = this.numClasses;
    const { labels, probs, weights } = this;
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => {
      const d = (labels[a] as number) - (labels[b] as number);
      if (d !== 0) return d;
      for (let k = 0; k < c; k++) {
        const e = (probs[a * c + k] as number) - (probs[b * c + k] as number);
        if (e !== 0) return e;
      }
      return (weights[a] as number) - (weights[b] as number);
    });
    const out = {
      n,
      numClasses: c,
      labels: new Int32Array(n),
      probs: new Float64Array(n * c),
      weights: this.weighted ? new Float64Array(n) : undefined,
    };
    order.forEach((i, r) => {
      out.labels[r] = labels[i] as number;
      for (let k = 0; k < c; k++) out.probs[r * c + k] = probs[i * c + k] as number;
      if (out.weights !== undefined) out.weights[r] = weights[i] as number;
    });
    return out;
  }

  toJSON(typed = false): unknown {
    return {
      labels: numberList(this.labels, typed),
      probs: numberList(this.probs, typed),
      ...(this.weighted ? { weights: numberList(this.weights, typed) } : {}),
    };
  }

  static fromJSON(json: unknown, at: JsonPath, numClasses: number): RowsStore {
    const o = at.object(json);
    const s = new RowsStore(numClasses);
    const labels = at
      .at('labels')
      .numbers(
        o.labels,
        undefined,
        (v) => Number.isInteger(v) && v >= 0 && v < numClasses,
        `be a class in [0, ${numClasses})`,
      );
    const probs = at
      .at('probs')
      .numbers(o.probs, labels.length * numClasses, (v) => v >= 0 && v <= 1, 'be a probability in [0, 1]');
    const weights =
      o.weights === undefined
        ? undefined
        : at.at('weights').numbers(o.weights, labels.length, (v) => v > 0, 'be a finite number > 0');
    for (let i = 0; i < labels.length; i++) {
      s.labels.push(labels[i] as number);
      s.weights.push(weights === undefined ? 1 : (weights[i] as number));
    }
    for (const x of probs) s.probs.push(x);
    s.weighted = weights !== undefined;
    return s;
  }
}
