import { describe, expect, it } from 'vitest';
import { ece, toProbabilities, UMError } from '../../src/index.js';
import { loadCase } from '../helpers/conformance.js';
import { mulberry32 } from '../helpers/mulberry32.js';

describe('logits → probabilities by a float64 softmax via log-sum-exp', () => {
  it('matches the conformance cases (probs = softmax(logits) in float64)', () => {
    for (const id of ['logits_n100_c10', 'logits_in_unit_interval', 'logits_extreme_n64_c3']) {
      const c = loadCase(id);
      const p = toProbabilities(c.logits as number[][], { input: 'logits' });
      const flat = c.probs.flat();
      let worst = 0;
      p.data.forEach((v, i) => (worst = Math.max(worst, Math.abs(v - (flat[i] as number)))));
      expect(worst).toBeLessThan(1e-15);
    }
  });
  it('survives logits of magnitude 5e10 (gnb_raw) without overflow: exact 0 and 1', () => {
    const p = toProbabilities(
      [
        [-5e10, 3e10, 2.9e10],
        [1e308, -1e308, 0],
      ],
      { input: 'logits' },
    );
    expect(Array.from(p.data)).toEqual([0, 1, 0, 1, 0, 0]);
  });
  it('treats -Infinity as a masked class (probability 0)', () => {
    const p = toProbabilities([[0, -Infinity, 0]], { input: 'logits' });
    expect(Array.from(p.data)).toEqual([0.5, 0, 0.5]);
  });
  it('is invariant to adding a constant to a row', () => {
    const a = toProbabilities([[1, 2, 3]], { input: 'logits' }).data;
    const b = toProbabilities([[1001, 1002, 1003]], { input: 'logits' }).data;
    a.forEach((v, i) => expect(v).toBeCloseTo(b[i] as number, 15));
  });
});

describe('log-probabilities', () => {
  it('exponentiates and checks the row sum', () => {
    const p = toProbabilities(
      [
        [Math.log(0.25), Math.log(0.75)],
        [0, -Infinity],
      ],
      { input: 'logprobs' },
    );
    expect(p.data[0]).toBeCloseTo(0.25, 15);
    expect(Array.from(p.data.slice(2))).toEqual([1, 0]);
  });
});

describe('binary vectors', () => {
  it('probabilities expand to [1 − p, p]', () => {
    expect(Array.from(toProbabilities([0.2, 1], { binary: true }).data)).toEqual([0.8, 0.2, 0, 1]);
  });
  it('logits go through a stable sigmoid on both sides', () => {
    const p = toProbabilities([0, 800, -800, Math.log(3)], { binary: true, input: 'logits' }).data;
    expect(Array.from(p.slice(0, 6))).toEqual([0.5, 0.5, 0, 1, 1, 0]);
    expect(p[6]).toBeCloseTo(0.25, 15);
    expect(p[7]).toBeCloseTo(0.75, 15);
  });
  it('log-probabilities of the positive class', () => {
    const p = toProbabilities([Math.log(0.3)], { binary: true, input: 'logprobs' }).data;
    expect(p[1]).toBeCloseTo(0.3, 15);
    expect(p[0]).toBeCloseTo(0.7, 15);
  });
});

describe('validation happens once', () => {
  it('a Float32Array of probabilities is referenced, not copied, and keeps float32 values', () => {
    const f = new Float32Array([0.7, 0.3, 0.4, 0.6]);
    const p = toProbabilities(f, { numClasses: 2 });
    expect(p.data).toBe(f);
    expect(p.n).toBe(2);
  });
  it('a validated matrix is accepted as is by every metric, and kept as declared', () => {
    const p = toProbabilities([
      [0.7, 0.3],
      [0.4, 0.6],
    ]);
    expect(toProbabilities(p)).toBe(p);
    expect(ece([0, 1], p)).toBe(
      ece(
        [0, 1],
        [
          [0.7, 0.3],
          [0.4, 0.6],
        ],
      ),
    );
    expect(() => ece([0, 1], p, { input: 'logits' })).toThrow(/options.input must be 'probs' or omitted/);
  });
  it('an object that only looks like a validated matrix is validated again', () => {
    const fake = {
      kind: 'probabilities',
      data: new Float64Array([2, -1]),
      n: 1,
      numClasses: 2,
      input: 'probs',
      binary: false,
    };
    expect(() => ece([0], fake as never)).toThrow(/must be a number\[\]\[\]/);
  });
  it('rows that sum to 1 only within float32 rounding pass the default tolerance (1e-3)', () => {
    expect(() => toProbabilities([[0.3000001, 0.7]])).not.toThrow();
    expect(() => toProbabilities([[0.3, 0.6]])).toThrow(/must sum to 1/);
    expect(() => toProbabilities([[0.3, 0.6]], { sumTolerance: 0.2 })).not.toThrow();
  });
});

describe('nested probability matrices are validated as typed arrays are, with the same first error', () => {
  type Found = { code: string; index: number[]; value: unknown };
  /** The documented rules entry by entry, in row order (sums left to right): the first entry or row that breaks one. */
  function firstError(rows: ArrayLike<unknown>[], tolerance: number): Found | null {
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i] as ArrayLike<unknown>;
      let sum = 0;
      for (let k = 0; k < row.length; k++) {
        const v = row[k];
        if (typeof v !== 'number' || !Number.isFinite(v)) return { code: 'UM_NOT_FINITE', index: [i, k], value: v };
        if (v < 0 || v > 1) return { code: 'UM_PROB_RANGE', index: [i, k], value: v };
        sum += v;
      }
      if (Math.abs(sum - 1) > tolerance) return { code: 'UM_ROW_SUM', index: [i], value: sum };
    }
    return null;
  }
  const caught = (call: () => unknown): Found | null => {
    try {
      call();
      return null;
    } catch (e) {
      if (!(e instanceof UMError)) throw e;
      return { code: e.code, index: [...(e.details.index ?? [])], value: e.details.value };
    }
  };
  const bad: unknown[] = [NaN, Infinity, -Infinity, -0.1, 1.5, '0.5', null, undefined, true, 0n, new Number(0.5), {}];
  const show = (rows: unknown) => JSON.stringify(rows, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));

  it('on seeded matrices with planted bad entries, holes, sums at the tolerance (± ulps), float32 rows, or none', () => {
    const rand = mulberry32(18);
    for (let t = 0; t < 600; t++) {
      const n = 1 + Math.floor(rand() * 40);
      const c = 2 + Math.floor(rand() * 6);
      const tolerance = [1e-3, 1e-3, 0.05, 0.5, 0][Math.floor(rand() * 5)] as number;
      const rows: (unknown[] | Float32Array)[] = [];
      for (let i = 0; i < n; i++) {
        const raw = Array.from({ length: c }, () => (rand() < 0.2 ? 0 : rand()));
        const total = raw.reduce((s, v) => s + v, 0) || 1;
        let row = raw.map((v) => (total === 1 && v === 0 ? 1 / c : v / total));
        // a row summing to 1 ± tolerance, nudged by a few ulps either way: the screen must defer to the exact check
        if (rand() < 0.15) {
          const target = 1 + (rand() < 0.5 ? 1 : -1) * tolerance;
          row = row.map((v) => v * target);
          row[0] = (row[0] as number) + (Math.floor(rand() * 9) - 4) * 2 ** -52;
          if ((row[0] as number) < 0) row[0] = 0;
        }
        rows.push(rand() < 0.1 ? Float32Array.from(row) : row);
      }
      for (let j = Math.floor(rand() * 3); j > 0; j--) {
        const i = Math.floor(rand() * n);
        const row = (rows[i] = Array.from(rows[i] as ArrayLike<unknown>));
        const k = Math.floor(rand() * c);
        const what = rand();
        if (what < 0.6) row[k] = bad[Math.floor(rand() * bad.length)];
        else if (what < 0.9) row[k] = (row[k] as number) + (rand() < 0.5 ? 2e-3 : 5e-4) * (rand() < 0.5 ? 1 : -1);
        else Reflect.deleteProperty(row, k); // a hole, as in `[0.5, , 0.5]`
      }
      const expected = firstError(rows, tolerance);
      let data: Float32Array | Float64Array | undefined;
      const got = caught(() => (data = toProbabilities(rows as number[][], { sumTolerance: tolerance }).data));
      expect(got, show(rows)).toEqual(expected);
      // accepted rows are kept as given, entry for entry
      if (got === null) expect(Array.from(data ?? [])).toEqual(rows.flatMap((r) => Array.from(r as ArrayLike<number>)));
    }
  });

  it('a getter is read as the check reads it: what is stored is what was checked, and a throw comes after an earlier bad entry', () => {
    // undefined on the first read, 0.5 after: either refused, or stored as the 0.5 that passed the check — never NaN
    let reads = 0;
    const fickle = [0, 0.5];
    Object.defineProperty(fickle, 0, { get: () => (reads++ === 0 ? undefined : 0.5) });
    const rows = [[0.9, 0.1], fickle, [0.3, 0.7]];
    const p = toProbabilities(rows);
    expect(Array.from(p.data)).toEqual([0.9, 0.1, 0.5, 0.5, 0.3, 0.7]);
    expect(ece([0, 1, 1], rows)).toBe(
      ece(
        [0, 1, 1],
        [
          [0.9, 0.1],
          [0.5, 0.5],
          [0.3, 0.7],
        ],
      ),
    );
    // a proxy row whose entries change between reads: the same
    let proxyReads = 0;
    const proxy = new Proxy([0.2, 0.8], {
      get: (target, key) => (key === '1' ? (proxyReads++ === 0 ? 'x' : 0.8) : Reflect.get(target, key)),
    });
    expect(Array.from(toProbabilities([proxy, [0.6, 0.4]]).data)).toEqual([0.2, 0.8, 0.6, 0.4]);
    // a getter that throws, after a row with a bad entry: the bad entry is named, as when rows are read in order
    const throwing = [0.5, 0.5];
    Object.defineProperty(throwing, 1, {
      get: () => {
        throw new Error('boom');
      },
    });
    expect(caught(() => toProbabilities([[0.5, 'x'], throwing] as unknown as number[][]))).toEqual({
      code: 'UM_NOT_FINITE',
      index: [0, 1],
      value: 'x',
    });
    expect(() => toProbabilities([[0.5, 0.5], throwing])).toThrow('boom');
  });
});
