/**
 * The sweep of confidences already in ascending order (a kept-entries store's canonical order) is read without a
 * second sort: its order is the stable descending sort's own, so blocks and sums are the same bit for bit.
 */
import { describe, expect, it } from 'vitest';
import { argsort } from '../../src/kernels/argsort.js';
import { blocksFromTop, isAscending, sweep } from '../../src/selective/sweep.js';
import { createRng } from '../../src/random/rng.js';

/** Ascending values with ties, near-ties (one ulp apart), −0 beside 0, and negatives (uncertainties as −entropy). */
function ascending(seed: number, n: number): Float64Array {
  const r = createRng('sweep-test', seed);
  const pool = [-0.75, -0, 0, 0.1, 0.1 + 2 ** -56, 0.5, 0.5, 1 / 3, 1];
  const x = Float64Array.from({ length: n }, () =>
    r.integer(3) === 0 ? (pool[r.integer(pool.length)] as number) : Math.round(r.uniform() * 20) / 20 - 0.25,
  );
  // sorted as the store sorts: stable, −0 equal to 0 (their mutual order is whatever the input had)
  return Float64Array.from(argsort(x), (i) => x[i] as number);
}

/** The order in which the sweep reads ascending values: its blocks from the top, each block's indices ascending. */
function descendingOrderOfAscending(values: Float64Array): Uint32Array | undefined {
  if (!isAscending(values)) return undefined;
  const order = new Uint32Array(values.length);
  let r = 0;
  blocksFromTop(values, (start, end) => {
    for (let i = start; i < end; i++) order[r++] = i;
  });
  return order;
}

describe('blocksFromTop', () => {
  it('is the stable descending argsort of ascending values, on seeded values with ties, −0 and 0', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const x = ascending(seed, 1 + (seed % 7) * 37);
      expect(Array.from(descendingOrderOfAscending(x) ?? []), `seed ${seed}`).toEqual(Array.from(argsort(x, true)));
    }
    expect(Array.from(descendingOrderOfAscending(new Float64Array(0)) ?? [1])).toEqual([]);
  });
  it('refuses values that are not ascending (the sweep then sorts them)', () => {
    expect(descendingOrderOfAscending(Float64Array.of(0.1, 0.3, 0.2))).toBeUndefined();
    expect(descendingOrderOfAscending(Float64Array.of(1, 0))).toBeUndefined();
  });
});

describe('sweep of ascending confidences', () => {
  it('equals the sweep of the same rows in another order, on seeded weighted data (blocks, counts, positives)', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const r = createRng('sweep-weights', seed);
      const x = ascending(seed, 300);
      const positive = Uint8Array.from(x, () => r.integer(2));
      // whole weights: every order gives the same sums, so the ascending path is checked against the sorting one
      const w = Float64Array.from(x, () => 1 + r.integer(5));
      const reversed = (a: Float64Array | Uint8Array) => a.slice().reverse();
      const a = sweep(x, positive, w);
      const b = sweep(reversed(x) as Float64Array, reversed(positive) as Uint8Array, reversed(w) as Float64Array);
      expect([a.blocks, a.n, a.totalPositive]).toEqual([b.blocks, b.n, b.totalPositive]);
      expect(Array.from(a.level, (v) => v + 0)).toEqual(Array.from(b.level, (v) => v + 0));
      expect(Array.from(a.count)).toEqual(Array.from(b.count));
      expect(Array.from(a.positive)).toEqual(Array.from(b.positive));
    }
  });
});
