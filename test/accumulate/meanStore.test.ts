/**
 * MeanStore's exact sums: whole numbers whose magnitudes sum below 2^53 are added as one float64 sum (every partial
 * sum exact), everything else term by term — the same exact Σw·v and Σw either way, checked against a term-by-term
 * exact reference on classes of inputs at and around the 2^53 boundary.
 */
import { describe, expect, it } from 'vitest';
import { MeanStore } from '../../src/accumulate/meanStore.js';
import { ExactSum } from '../../src/math/exactSum.js';
import { createRng } from '../../src/random/rng.js';

/** Σ w·v (each product rounded once, as the store defines it; exact below the normal range) and Σ w, term by term. */
function reference(values: number[], weights?: number[]) {
  const weighted = new ExactSum();
  const weight = new ExactSum();
  values.forEach((v, i) => {
    const w = weights?.[i] ?? 1;
    const p = w * v;
    if ((Number.isFinite(p) && Math.abs(p) >= 2 ** -1022) || p === 0 || !Number.isFinite(v)) weighted.add(p);
    else weighted.addProduct(w, v);
    weight.add(w);
  });
  return { weighted: weighted.toJSON(), weight: weight.toJSON() };
}

function stored(values: number[], weights?: number[], split = values.length) {
  const s = new MeanStore();
  s.add(values.slice(0, split), weights?.slice(0, split));
  s.add(values.slice(split), weights?.slice(split));
  return s;
}

describe('MeanStore', () => {
  it('keeps the exact sums of whole and fractional values and weights, below, at and beyond 2^53', () => {
    const r = createRng('mean-store', 1);
    const big = 2 ** 52;
    const cases: [string, number[], number[] | undefined][] = [
      ['0/1 outcomes, counts', [1, 0, 1, 1, 0], [3, 1, 2, 5, 1]],
      ['0/1 outcomes, no weights', [1, 0, 1, 1, 0], undefined],
      ['negative whole values', [-3, 2, -1, 0, 7], [1, 2, 3, 4, 5]],
      ['−0 among whole values', [-0, 0, 1], [2, 1, 1]],
      ['magnitudes summing to just below 2^53', [1, 1, 1], [big - 2, big / 2, big / 2 + 1]],
      ['magnitudes summing to exactly 2^53', [1, 1], [big, big]],
      ['magnitudes beyond 2^53 (partial sums round)', [1, 1, 1, -1], [big, big, 3, big]],
      ['products beyond 2^53 although the weights are small', [big, big, 1], [1, 2, 1]],
      ['fractional values, whole weights', [0.1, 0.2, 0.7], [1, 2, 3]],
      ['whole values, fractional weights', [1, 0, 1], [0.5, 0.25, 2]],
      ['huge whole weights', [1, 0, 1], [1e300, 1e300, 3]],
      ['tiny products below the normal range', [1e-200, 1], [1e-200, 1]],
      ['an infinite value', [1, Infinity, 0], [1, 1, 2]],
      [
        'seeded whole values and weights',
        Array.from({ length: 500 }, () => r.integer(3) - 1),
        Array.from({ length: 500 }, () => 1 + r.integer(9)),
      ],
      [
        'seeded fractional values, whole weights',
        Array.from({ length: 500 }, () => r.uniform() * 4 - 1),
        Array.from({ length: 500 }, () => 1 + r.integer(9)),
      ],
    ];
    for (const [what, values, weights] of cases) {
      const want = reference(values, weights);
      for (const split of [values.length, 1, Math.floor(values.length / 2)]) {
        const s = stored(values, weights, split);
        expect({ weighted: s.weighted.toJSON(), weight: s.weight.toJSON() }, `${what} (${split})`).toEqual(want);
        expect(s.rows).toBe(values.length);
        expect(s.nonFinite).toBe(values.filter((v) => !Number.isFinite(v)).length);
      }
    }
  });
  it('locates the first non-finite value across adds', () => {
    const s = stored([1, 2, 3, Infinity, -Infinity], [1, 1, 1, 1, 1], 2);
    expect([s.nonFinite, s.firstNonFinite]).toEqual([2, 3]);
  });
});
