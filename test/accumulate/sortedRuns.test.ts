import { describe, expect, it } from 'vitest';
import { canonicalSort } from '../../src/accumulate/canonicalSort.js';
import { KeptEntriesStore } from '../../src/accumulate/keptEntries.js';
import { JsonPath, outcomeBytes } from '../../src/accumulate/store.js';
import { inCanonicalOrder, mergeSortedRuns } from '../../src/accumulate/sortedRuns.js';
import type { Pairs } from '../../src/select/selectPairs.js';
import { mulberry32 as rng } from '../helpers/mulberry32.js';

/** A run of n entries: scores on a coarse grid (ties) or one ulp apart (near-ties); weights 1–3 when weighted. */
function run(u: () => number, n: number, weighted: boolean): Pairs {
  const scores = Float64Array.from({ length: n }, () => {
    const g = (1 + Math.floor(u() * 8)) / 8;
    return u() < 0.3 ? g * (1 - 2 ** -53) : g;
  });
  const outcomes = Float64Array.from({ length: n }, () => (u() < 0.4 ? 1 : 0));
  const weights = weighted ? Float64Array.from({ length: n }, () => 1 + Math.floor(u() * 3)) : undefined;
  return { scores, outcomes, weights, unit: 1 };
}

const concat = (runs: Pairs[], weighted: boolean): Pairs => ({
  scores: Float64Array.from(runs.flatMap((r) => [...r.scores])),
  outcomes: Float64Array.from(runs.flatMap((r) => [...r.outcomes])),
  weights: weighted ? Float64Array.from(runs.flatMap((r) => [...(r.weights ?? r.scores.map(() => 1))])) : undefined,
  unit: 1,
});

describe('sorted runs of kept entries', () => {
  for (const weighted of [false, true])
    it(`merging canonically sorted runs is the canonical sort of their union (${weighted ? 'weighted' : 'unweighted'})`, () => {
      const u = rng(weighted ? 2 : 1);
      for (const k of [1, 2, 5, 13]) {
        // some runs unweighted among weighted ones (weight 1), one empty run
        const runs = Array.from({ length: k }, (_, i) =>
          canonicalSort(run(u, i === 1 ? 0 : 1 + Math.floor(u() * 300), weighted && i % 3 !== 2)),
        );
        for (const r of runs) expect(inCanonicalOrder(r)).toBe(true);
        const merged = mergeSortedRuns(runs);
        const expected = canonicalSort(
          concat(
            runs,
            runs.some((r) => r.weights !== undefined),
          ),
        );
        expect(merged.scores).toEqual(expected.scores);
        expect(merged.outcomes).toEqual(expected.outcomes);
        expect(merged.weights).toEqual(expected.weights);
      }
    });

  it('runs with byte outcomes (from worker threads) merge into byte outcomes: the same entries at 9 bytes each', () => {
    const u = rng(4);
    const runs = [1, 2, 3].map(() => canonicalSort(run(u, 200, false)));
    const bytes = runs.map((r) => ({ ...r, outcomes: new Uint8Array(r.outcomes) }));
    const merged = mergeSortedRuns(bytes);
    const expected = mergeSortedRuns(runs);
    expect(merged.outcomes).toBeInstanceOf(Uint8Array);
    expect(merged.scores).toEqual(expected.scores);
    expect(Float64Array.from(merged.outcomes)).toEqual(expected.outcomes);
    // one float64 run among byte runs: float64 outcomes, as before
    expect(mergeSortedRuns([...bytes.slice(1), runs[0] as Pairs]).outcomes).toEqual(expected.outcomes);
  });

  it('inCanonicalOrder refuses scores out of order, outcomes 1 before 0 in a tie, weights descending, and zeros', () => {
    const p = (s: number[], o: number[], w?: number[]): Pairs => ({
      scores: Float64Array.from(s),
      outcomes: Float64Array.from(o),
      weights: w === undefined ? undefined : Float64Array.from(w),
      unit: 1,
    });
    expect(inCanonicalOrder(p([0.2, 0.5, 0.5], [1, 0, 1], [3, 1, 1]))).toBe(true);
    expect(inCanonicalOrder(p([0.5, 0.2], [0, 0]))).toBe(false);
    expect(inCanonicalOrder(p([0.5, 0.5], [1, 0]))).toBe(false);
    expect(inCanonicalOrder(p([0.5, 0.5], [1, 1], [2, 1]))).toBe(false);
    expect(inCanonicalOrder(p([0, 0.5], [0, 0]))).toBe(false);
  });

  it('a store read back trusts a `sorted` mark only when its entries are in the canonical order', () => {
    const u = rng(3);
    const runs = [run(u, 50, false), run(u, 40, false)];
    const stores = runs.map((r, i) => {
      const json = { sorted: true, groups: [{ scores: [...r.scores], outcomes: [...r.outcomes] }] };
      // the first run is written sorted (a trusted mark), the second as it came (a false mark)
      if (i === 0) {
        const c = canonicalSort(r);
        json.groups = [{ scores: [...c.scores], outcomes: [...c.outcomes] }];
      }
      return KeptEntriesStore.fromJSON(json, new JsonPath('stateFromJSON', 'json'), 1);
    });
    const merged = stores[0] as KeptEntriesStore;
    merged.merge(stores[1] as KeptEntriesStore);
    const expected = canonicalSort(concat(runs, false));
    expect(merged.sorted(0).scores).toEqual(expected.scores);
    expect(merged.sorted(0).outcomes).toEqual(expected.outcomes);
  });

  it('the typed form keeps the outcomes of a one-group store as bytes, merged to the bits of the plain form', () => {
    const u = rng(4);
    for (const weighted of [false, true]) {
      const runs = Array.from({ length: 5 }, (_, i) => run(u, i === 2 ? 0 : 1 + Math.floor(u() * 200), weighted));
      const at = new JsonPath('stateFromJSON', 'json');
      const merge = (typed: boolean): KeptEntriesStore => {
        const stores = runs.map((r) => {
          const s = new KeptEntriesStore(1);
          s.add([r]);
          const form = s.toJSON(typed) as { groups: { outcomes: unknown }[] };
          // the transfer form: outcomes one byte each; the JSON form: numbers (an empty store: no entries to type)
          expect(form.groups[0]?.outcomes instanceof Uint8Array).toBe(typed && r.scores.length > 0);
          return KeptEntriesStore.fromJSON(structuredClone(form), at, 1);
        });
        for (const s of stores.slice(1)) stores[0]?.merge(s);
        return stores[0] as KeptEntriesStore;
      };
      const typed = merge(true).sorted(0);
      const plain = merge(false).sorted(0);
      const expected = canonicalSort(concat(runs, weighted));
      // the typed form's outcomes stay bytes through the merge (9 bytes per entry), the plain form's float64
      expect(typed.outcomes).toBeInstanceOf(Uint8Array);
      expect(plain.outcomes).toBeInstanceOf(Float64Array);
      for (const got of [typed, plain]) {
        expect(got.scores).toEqual(expected.scores);
        expect(Float64Array.from(got.outcomes)).toEqual(expected.outcomes);
        expect(got.weights).toEqual(expected.weights);
      }
      // one run read as it came (no merge): float64 outcomes, as the readers of a view expect
      const one = merge(true);
      const single = new KeptEntriesStore(1);
      single.merge(KeptEntriesStore.fromJSON(one.toJSON(true), at, 1));
      expect(single.view(0).outcomes).toBeInstanceOf(Float64Array);
      expect(single.view(0).outcomes).toEqual(expected.outcomes);
    }
  });

  it('reading the typed form checks every byte outcome, naming the entry', () => {
    const at = new JsonPath('stateFromJSON', 'json');
    const form = { sorted: true, groups: [{ scores: Float64Array.of(0.2, 0.5), outcomes: Uint8Array.of(0, 2) }] };
    expect(() => KeptEntriesStore.fromJSON(form, at, 1)).toThrow(
      /json\.groups\[0\]\.outcomes\[1\] must be 0 or 1; got 2/,
    );
    const short = { sorted: true, groups: [{ scores: Float64Array.of(0.2, 0.5), outcomes: Uint8Array.of(0) }] };
    expect(() => KeptEntriesStore.fromJSON(short, at, 1)).toThrow(/outcomes must have 2 entries/);
  });
});

describe('outcomeBytes (the typed form of one-group outcomes)', () => {
  it('is a byte copy when every outcome is 0 or 1, and undefined otherwise (never a truncated copy)', () => {
    const ones = Float64Array.of(0, 1, 1, 0);
    const bytes = outcomeBytes(ones);
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(Array.from(bytes ?? [])).toEqual([0, 1, 1, 0]);
    expect(outcomeBytes(new Float64Array(0))).toEqual(new Uint8Array(0));
    for (const bad of [0.5, 256, -1, 2, Number.NaN, -0.25])
      expect(outcomeBytes(Float64Array.of(1, bad, 0))).toBeUndefined();
  });
});
