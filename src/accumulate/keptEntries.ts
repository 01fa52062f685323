import { argsort } from '../kernels/argsort.js';
import type { Pairs } from '../select/selectPairs.js';
import { numberList, type JsonPath, type Store } from './store.js';

/** The entries of one group as columns (weights `undefined` when every weight is 1). */
export interface EntryColumns {
  readonly scores: Float64Array;
  readonly outcomes: Float64Array;
  readonly weights: Float64Array | undefined;
  /** The weights' scale (see `WeightOptions`). */
  readonly unit: number;
}

/**
 * Every entry of every group, as it came (O(entries) memory). What the order-based metrics keep in exact mode —
 * equal-mass and Ding's bins, AUROC, AUPR, AURC: they read the entries in {@link sorted} order when finishing, or,
 * for unweighted equal-mass bins, only the B − 1 cut ranks, found by selection over {@link entries} as they came
 * (binning/quantileSelect.ts); every sum over them is exact, so the result depends on the set of entries only, never
 * on their order or batching (internal).
 */
export class KeptEntriesStore implements Store {
  readonly kind = 'entries';
  private readonly chunks: Pairs[][];
  private readonly sortedCache: (EntryColumns | undefined)[];

  constructor(groups: number) {
    this.chunks = Array.from({ length: groups }, () => []);
    this.sortedCache = new Array<EntryColumns | undefined>(groups).fill(undefined);
  }

  add(pairs: readonly Pairs[]): void {
    pairs.forEach((g, k) => {
      if (g.scores.length > 0) {
        this.chunks[k]?.push(g);
        this.sortedCache[k] = undefined;
      }
    });
  }

  merge(other: Store): void {
    const o = other as KeptEntriesStore;
    o.chunks.forEach((c, k) => {
      if (c.length === 0) return;
      this.chunks[k]?.push(...c);
      this.sortedCache[k] = undefined;
    });
  }

  /**
   * The entries of group k in the canonical order: ascending score, and within equal scores outcome 0 before 1, then
   * ascending weight — so every computation that walks them in order (cuts, bins, sweeps, running sums) gives the
   * same bits for the same set of entries, however they arrived. Computed once until the next add or merge.
   */
  sorted(k: number): EntryColumns {
    const cached = this.sortedCache[k];
    if (cached !== undefined) return cached;
    const e = this.entries(k);
    const n = e.scores.length;
    const order = argsort(e.scores);
    const scores = new Float64Array(n);
    const outcomes = new Float64Array(n);
    const weights = e.weights === undefined ? undefined : new Float64Array(n);
    for (let r = 0; r < n; r++) {
      const i = order[r] as number;
      scores[r] = e.scores[i] as number;
      outcomes[r] = e.outcomes[i] as number;
      if (weights !== undefined) weights[r] = (e.weights as Float64Array)[i] as number;
    }
    // blocks of equal scores: outcome 0 first, then 1, each by ascending weight (only the column values matter)
    for (let a = 0; a < n;) {
      let b = a + 1;
      while (b < n && scores[b] === scores[a]) b++;
      if (b - a > 1) canonicalBlock(outcomes, weights, a, b);
      a = b;
    }
    const out = { scores, outcomes, weights, unit: e.unit };
    this.sortedCache[k] = out;
    return out;
  }

  get groupCount(): number {
    return this.chunks.length;
  }

  /** The entries of group k, concatenated (weights only when some chunk had weights). */
  entries(k: number): EntryColumns {
    const chunks = this.chunks[k] ?? [];
    if (chunks.length === 1) {
      const c = chunks[0] as Pairs;
      return { scores: c.scores, outcomes: c.outcomes, weights: c.weights, unit: c.unit };
    }
    const n = chunks.reduce((a, c) => a + c.scores.length, 0);
    const weighted = chunks.some((c) => c.weights !== undefined);
    const scores = new Float64Array(n);
    const outcomes = new Float64Array(n);
    const weights = weighted ? new Float64Array(n) : undefined;
    let at = 0;
    for (const c of chunks) {
      scores.set(c.scores, at);
      outcomes.set(c.outcomes, at);
      if (weights !== undefined) {
        if (c.weights === undefined) weights.fill(1, at, at + c.scores.length);
        else weights.set(c.weights, at);
      }
      at += c.scores.length;
    }
    return { scores, outcomes, weights, unit: chunks[0]?.unit ?? 1 };
  }

  toJSON(typed = false): unknown {
    return {
      groups: this.chunks.map((_, k) => {
        const e = this.entries(k);
        return {
          scores: numberList(e.scores, typed),
          outcomes: numberList(e.outcomes, typed),
          ...(e.weights === undefined ? {} : { weights: numberList(e.weights, typed) }),
        };
      }),
    };
  }

  /** Reads {@link toJSON}'s form for `groups` groups, checking every entry. */
  static fromJSON(json: unknown, at: JsonPath, groups: number): KeptEntriesStore {
    const s = new KeptEntriesStore(groups);
    const g = at.at('groups').array(at.object(json).groups, groups);
    g.forEach((x, k) => {
      const here = at.at('groups').at(k);
      const o = here.object(x);
      const scores = here.at('scores').numbers(o.scores);
      const outcomes = here.at('outcomes').numbers(o.outcomes, scores.length, (v) => v === 0 || v === 1, 'be 0 or 1');
      const weights =
        o.weights === undefined
          ? undefined
          : here.at('weights').numbers(o.weights, scores.length, (v) => v > 0, 'be a finite number > 0');
      if (scores.length > 0) s.chunks[k]?.push({ scores, outcomes, weights, unit: 1 });
    });
    return s;
  }
}

/** Orders one block of equal scores: outcomes ascending, weights ascending within each outcome (internal). */
function canonicalBlock(outcomes: Float64Array, weights: Float64Array | undefined, a: number, b: number): void {
  if (weights === undefined) {
    outcomes.subarray(a, b).sort();
    return;
  }
  const zero: number[] = [];
  const one: number[] = [];
  for (let i = a; i < b; i++) (outcomes[i] === 0 ? zero : one).push(weights[i] as number);
  const z = Float64Array.from(zero).sort();
  const o = Float64Array.from(one).sort();
  outcomes.fill(0, a, a + z.length);
  outcomes.fill(1, a + z.length, b);
  weights.set(z, a);
  weights.set(o, a + z.length);
}
