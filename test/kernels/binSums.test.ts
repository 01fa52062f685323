import { describe, expect, it } from 'vitest';
import type { Bin, BinningSpec, EqualWidthRule } from '../../src/binning/types.js';
import { BUCKETS, widePass } from '../../src/binning/radixPasses.js';
import { binsOfGroup } from '../../src/calibration/binnedStores.js';
import { Accumulator } from '../../src/engine/accumulator.js';
import type { Batch, StoreRequest } from '../../src/engine/definition.js';
import { toProbabilities } from '../../src/index.js';
import type { Store } from '../../src/accumulate/store.js';
import { binSumsF64, BIN_SUMS_MAX, columnKernel } from '../../src/kernels/columnsWasm.js';
import { useKernels } from '../../src/kernels/rowStats.js';
import { DenseSums } from '../../src/math/denseSums.js';
import { ExactSum } from '../../src/math/exactSum.js';
import { createRng, type Rng } from '../../src/random/rng.js';
import { classPairs, referenceEqualWidth, referenceQuantile } from '../helpers/classwiseReference.js';

/**
 * Float64 class columns binned without a sort: the column kernel's exact per-bin sums (assembly/columns.ts,
 * binSumsF64) equal the dense bank's (DenseSums.add per entry) on values of every exponent — subnormals, ±0, negative
 * values, ties, one-ulp neighbours — and refuse ±∞ and values above 2^967; and class-wise equal-width and equal-mass
 * bins of unweighted float64 columns (softmax of logits: the `um metrics --input logits` case) equal the brute force
 * bit for bit, with the kernels and with the JavaScript passes.
 */

function valuesOf(rng: Rng, n: number): Float64Array {
  const v = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const u = rng.uniform();
    const x = rng.uniform();
    v[i] =
      u < 0.1
        ? 0
        : u < 0.15
          ? -0
          : u < 0.25
            ? x * 2 ** -1060 // subnormal
            : u < 0.35
              ? 0.5 + 2 ** -52 * rng.integer(4) // one-ulp neighbours
              : u < 0.45
                ? -x * 1e10
                : u < 0.55
                  ? x * 2 ** 900
                  : x ** 9;
  }
  return v;
}

/** The exact sums of each bin by the dense bank, one add per entry. */
function denseReference(values: Float64Array, index: Int32Array, bins: number): { sums: number[]; count: number[] } {
  const dense = new DenseSums(bins);
  const count = new Array<number>(bins).fill(0);
  for (let j = 0; j < values.length; j++) {
    dense.add(index[j] as number, values[j] as number);
    count[index[j] as number] = (count[index[j] as number] as number) + 1;
  }
  const sums = Array.from({ length: bins }, (_, b) => {
    const s = new ExactSum();
    dense.foldInto(b, s);
    return s.value();
  });
  return { sums, count };
}

describe('the column kernel’s exact bin sums (binSumsF64)', () => {
  it('equal the dense bank’s sums on values of every exponent, sign and tie, call after call', () => {
    const c = columnKernel();
    if (c === null) return; // no WebAssembly here: the JavaScript path is the only one
    const rng = createRng('test', 1717);
    for (const [n, bins] of [
      [1, 1],
      [7, 3],
      [5000, 15],
      [70000, BIN_SUMS_MAX - 1],
    ] as const) {
      const values = valuesOf(rng, n);
      const index = Int32Array.from({ length: n }, () => rng.integer(bins));
      const dense = new DenseSums(bins);
      const count = new Float64Array(bins);
      expect(
        binSumsF64(c, values, index, bins, (b, x) => dense.add(b, x), count),
        `N=${n}`,
      ).toBe(true);
      const got = Array.from({ length: bins }, (_, b) => {
        const s = new ExactSum();
        dense.foldInto(b, s);
        return s.value();
      });
      const want = denseReference(values, index, bins);
      expect(got, `N=${n} B=${bins}`).toEqual(want.sums);
      expect(Array.from(count)).toEqual(want.count);
      // the bins computed in the kernel by the floor rule (⌊B·v⌋, 0 below 0, the last or an own bin from B on)
      for (const top of [bins - 1, bins]) {
        const floorIndex = Int32Array.from(values, (v) => {
          const b = Math.floor(bins * v);
          return b < 0 ? 0 : b >= bins ? top : b;
        });
        const floorDense = new DenseSums(bins + 1);
        const floorCount = new Float64Array(bins + 1);
        expect(binSumsF64(c, values, { bins, top }, bins + 1, (b, x) => floorDense.add(b, x), floorCount)).toBe(true);
        const floorWant = denseReference(values, floorIndex, bins + 1);
        const floorGot = Array.from({ length: bins + 1 }, (_, b) => {
          const s = new ExactSum();
          floorDense.foldInto(b, s);
          return s.value();
        });
        expect(floorGot, `floor N=${n} B=${bins} top=${top}`).toEqual(floorWant.sums);
        expect(Array.from(floorCount)).toEqual(floorWant.count);
      }
    }
  });

  it('refuses ±∞, NaN and values above 2^967, adding nothing, and leaves its cells clean for the next call', () => {
    const c = columnKernel();
    if (c === null) return;
    for (const bad of [Infinity, -Infinity, NaN, 2 ** 1000]) {
      const values = Float64Array.from([0.25, 3, bad, 0.5]);
      const index = Int32Array.from([0, 1, 1, 0]);
      const added: number[] = [];
      const count = new Float64Array(2);
      expect(binSumsF64(c, values, index, 2, (_, x) => added.push(x), count)).toBe(false);
      expect(added).toEqual([]);
      expect(Array.from(count)).toEqual([0, 0]);
      const ok = new DenseSums(2);
      expect(
        binSumsF64(c, Float64Array.from([0.25, 3]), Int32Array.from([0, 1]), 2, (b, x) => ok.add(b, x), count),
      ).toBe(true);
      const s = new ExactSum();
      ok.foldInto(0, s);
      expect(s.value()).toBe(0.25);
    }
  });
});

describe('the selection’s float64 keys', () => {
  it('read from a Float64Array’s words equal those read value by value (−0 as 0, negative values flipped)', () => {
    const rng = createRng('test', 1719);
    const values = valuesOf(rng, 4000);
    values[7] = -(2 ** -1074);
    values[8] = -0;
    values[9] = -1;
    const run = (v: ArrayLike<number>) => {
      const keys = new Int32Array(values.length);
      const counts = new Int32Array(BUCKETS + 1);
      widePass(v, keys, values.length, counts);
      return { keys, counts };
    };
    const want = run(Array.from(values));
    expect(run(values)).toEqual(want);
    expect(want.keys[8]).toBe(0);
  });
});

const FLOOR: EqualWidthRule = { index: 'floor', edges: 'exact', closed: 'left', one: 'last-bin' };
const NUMPY_RIGHT: EqualWidthRule = { index: 'edges', edges: 'numpy', closed: 'right', one: 'last-bin' };

/** Softmax probabilities (float64) of seeded logits: ordinary, tied, near-tied and far apart rows. */
function softmax64(rng: Rng, n: number, c: number): Float64Array {
  const z = new Float64Array(n * c);
  for (let i = 0; i < n; i++) {
    const kind = i % 4;
    for (let k = 0; k < c; k++) {
      const u = rng.uniform();
      z[i * c + k] =
        kind === 0 ? 4 * u : kind === 1 ? Math.round(3 * u) : kind === 2 ? 1 + 2 ** -45 * rng.integer(3) : 60 * u;
    }
  }
  return toProbabilities(z, { input: 'logits', numClasses: c }).data as Float64Array;
}

describe('class-wise bins of unweighted float64 columns by selection', () => {
  it('SCE-, ACE- and TACE-like bins equal the brute force, with the kernels and with the JavaScript passes', () => {
    const rng = createRng('test', 1718);
    const n = 3100; // above the selection's minimum (3 000 entries per class)
    const c = 3;
    const data = softmax64(rng, n, c);
    const y = Int32Array.from({ length: n }, () => rng.integer(c));
    const batch: Batch = {
      p: { kind: 'probabilities', data, n, numClasses: c, input: 'logits', binary: false },
      y,
      w: undefined,
    };
    const present = data[rng.integer(n * c)] as number;
    const requests: StoreRequest[] = [];
    for (const rule of [FLOOR, NUMPY_RIGHT])
      requests.push({
        kind: 'fixed-bins',
        selection: { target: 'all-classes', groupBy: 'class', threshold: null, precision: 'float64' },
        spec: { scheme: 'equal-width', bins: 15, rule, precision: 'float64' },
      });
    for (const threshold of [null, 0.01, present])
      for (const bins of [1, 15])
        requests.push({
          kind: 'entries',
          selection: { target: 'all-classes', groupBy: 'class', threshold, precision: 'float64' },
          binning: { scheme: 'equal-mass', bins, method: 'quantile' },
        });
    const want = requests.map((r) => {
      const s = (r as { selection: { threshold: number | null } }).selection;
      return Array.from({ length: c }, (_, k) => {
        const pairs = classPairs(data, y, undefined, c, k, s.threshold, 'float64', 1);
        if (r.kind === 'fixed-bins') {
          const spec = r.spec as Extract<BinningSpec, { scheme: 'equal-width' }>;
          return referenceEqualWidth(pairs, spec.bins, spec.rule, spec.precision);
        }
        return referenceQuantile(pairs, ((r as { binning: BinningSpec }).binning as { bins: number }).bins);
      });
    });
    const read = (acc: Accumulator): (Bin[] | null)[][] =>
      requests.map((r, i) => {
        const store = acc.stores[acc.index[i] as number] as Store;
        const spec = (r.kind === 'fixed-bins' ? r.spec : (r as { binning: BinningSpec }).binning) as BinningSpec;
        return Array.from({ length: c }, (_, k) => binsOfGroup('test', store, spec, k));
      });
    for (const backend of ['wasm', 'reference'] as const) {
      useKernels(backend);
      try {
        for (const keep of [false, true]) {
          const acc = new Accumulator('test', requests, c);
          acc.add(batch, keep);
          expect(read(acc), `${backend} keep=${keep}`).toEqual(want);
        }
      } finally {
        useKernels('wasm');
      }
    }
  });
});
