import { describe, expect, it } from 'vitest';
import { narrowBitsSumsPass } from '../../src/binning/radixPasses.js';
import { columnKernel, gatherPositions, histogramF32 } from '../../src/kernels/columnsWasm.js';
import { useKernels } from '../../src/kernels/rowStats.js';
import { createRng } from '../../src/random/rng.js';

/**
 * The column kernel (assembly/columns.ts) against the JavaScript passes it replaces: the counting pass's counts, sums,
 * key range and count of keys at or below a key, bit for bit, and the gathering pass's positions, on columns of
 * crowded buckets, ties, zeros, tiny and large values, and a sign bit at a random place (where both stop).
 */

function columnOf(seed: number, n: number): Float32Array {
  const rng = createRng('test', seed);
  const v = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const u = rng.uniform();
    v[i] =
      u < 0.3
        ? 0.5 + rng.integer(40) * 2 ** -24
        : u < 0.4
          ? 0
          : u < 0.5
            ? rng.uniform() * 1e-30
            : u < 0.6
              ? 1 + rng.integer(3)
              : rng.uniform() ** 8;
  }
  if (seed % 3 === 0) v[rng.integer(n)] = seed % 2 === 0 ? -0 : -0.25;
  return v;
}

describe('column kernel', () => {
  it('counts, sums, range and count ≤ a key equal the JavaScript pass; so do the gathered positions', () => {
    const c = columnKernel();
    if (c === null) return; // no WebAssembly here: the JavaScript pass is the only one
    for (let seed = 1; seed <= 12; seed++) {
      const n = [1, 2, 100, 3000, 70000][seed % 5] as number;
      const v = columnOf(seed, n);
      const bits = new Int32Array(v.buffer);
      const atMost = bits[Math.floor(n / 2)] as number;
      const counts = new Int32Array(1 << 16);
      const score = new Float64Array(1 << 16);
      const result = new Int32Array(3);
      const stop = histogramF32(c, v, atMost, counts, score, result);

      const refCounts = new Int32Array(1 << 17);
      const refScore = new Float64Array(1 << 16);
      const refStop = narrowBitsSumsPass(
        bits,
        v,
        new Int32Array(0),
        refScore,
        new Float64Array(1 << 16),
        n,
        refCounts,
        atMost,
      );
      expect(stop, `seed ${seed}`).toBe(refStop);
      if (stop < n) {
        // stopped: nothing added (the caller clears the JavaScript tables)
        expect(counts.every((x) => x === 0)).toBe(true);
        continue;
      }
      expect(counts, `seed ${seed} counts`).toEqual(refCounts.subarray(0, 1 << 16));
      expect(score, `seed ${seed} sums`).toEqual(refScore);
      let kmin = Infinity;
      let kmax = -Infinity;
      let below = 0;
      for (const k of bits) {
        kmin = Math.min(kmin, k);
        kmax = Math.max(kmax, k);
        if (k <= atMost) below++;
      }
      expect([...result], `seed ${seed} range`).toEqual([kmin, kmax, below]);

      // the gathering pass over the same column: a few buckets, positions in input order within each
      const bucketsOf = (k: number) => (k >> 16) + 0x8000;
      const chosen = [
        ...new Set([bucketsOf(bits[0] as number), bucketsOf(bits[n - 1] as number), bucketsOf(atMost)]),
      ].sort((a, b) => a - b);
      const want = chosen.flatMap((h) => [...bits.keys()].filter((i) => bucketsOf(bits[i] as number) === h));
      const sizes = chosen.map((h) => [...bits].filter((k) => bucketsOf(k) === h).length);
      const offsets = Int32Array.from(sizes, (_, j) => sizes.slice(0, j).reduce((a, b) => a + b, 0));
      expect([...gatherPositions(c, Int32Array.from(chosen), offsets, want.length)], `seed ${seed} gather`).toEqual(
        want,
      );
    }
  });

  it('is not used with the reference backend', () => {
    // useKernels returns the backend in effect, not the previous one: the default is restored explicitly
    useKernels('reference');
    try {
      expect(columnKernel()).toBeNull();
    } finally {
      useKernels('wasm');
    }
  });
});
