/**
 * The WebAssembly softmax of logits rows (assembly/softmax.ts) against its TypeScript reference (convertRows's loop,
 * run by `useKernels('reference')`): on seeded float32 and float64 logits with ties, near-ties, extremes (±1e4,
 * ±3e38, differences past the exponential's underflow) and −∞ entries, every probability within 4 ulps and every
 * log-probability within 4·2⁻⁵²·(1 + |ln p|); nested and flat input the same bits; and bad rows anywhere (in a later
 * block too) throwing exactly the reference's error.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { toProbabilities, useKernels } from '../../src/index.js';
import type { ProbMatrix } from '../../src/input/types.js';
import { wasmKernel, type Kernel } from '../../src/kernels/rowStatsWasm.js';
import { softmaxRowsWasm } from '../../src/kernels/softmaxWasm.js';
import { failure } from '../helpers/failure.js';
import { uniforms } from '../helpers/minstd.js';

afterEach(() => {
  useKernels('wasm');
});

/** |a − b| in units of the spacing of float64 numbers at b (2^−1074 in the subnormal range). */
function ulps(a: number, b: number): number {
  if (a === b) return 0;
  const spacing = b === 0 ? 2 ** -1074 : Math.max(2 ** (Math.floor(Math.log2(Math.abs(b))) - 52), 2 ** -1074);
  return Math.abs(a - b) / spacing;
}

/** Seeded logits of n × c with the hard cases mixed in, row by row. */
function logits(seed: number, n: number, c: number): number[] {
  const u = uniforms(seed, n * c + n);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const kind = i % 8;
    const r = u[n * c + i] as number;
    for (let k = 0; k < c; k++) {
      const x = u[i * c + k] as number;
      let z: number;
      if (kind === 0)
        z = 6 * (x - 0.5); // ordinary
      else if (kind === 1)
        z = Math.round(4 * x) / 2; // ties
      else if (kind === 2)
        z = 1 + (x < 0.5 ? 0 : 2 ** -40) * k; // near-ties
      else if (kind === 3)
        z = (x - 0.5) * 2e4; // large: most exponentials underflow to 0
      else if (kind === 4)
        z = x < 0.2 ? -Infinity : 10 * x; // −∞ entries (probability 0)
      else if (kind === 5)
        z = (x - 0.5) * 6e38 * (k === 0 ? 1 : r); // near float32's range
      else if (kind === 6)
        z = -700 - 60 * x; // e^{z − m} in the subnormal range
      else z = 1e4 + 50 * x; // a large common offset
      out.push(z);
    }
    if (kind === 4 && out.slice(i * c).every((v) => v === -Infinity)) out[i * c] = 0;
  }
  return out;
}

function both(values: Float32Array | Float64Array, c: number): { wasm: ProbMatrix; ref: ProbMatrix } {
  expect(useKernels('wasm')).toBe('wasm');
  const wasm = toProbabilities(values, { input: 'logits', numClasses: c });
  useKernels('reference');
  const ref = toProbabilities(values, { input: 'logits', numClasses: c });
  useKernels('wasm');
  return { wasm, ref };
}

describe('the softmax kernel: WebAssembly vs reference', () => {
  for (const [type, c] of [
    ['float32', 2],
    ['float64', 3],
    ['float32', 7],
    ['float64', 10],
    ['float32', 33],
    ['float64', 1000],
  ] as const) {
    it(`${type} logits, C = ${c}: probabilities within 4 ulps, log-probabilities within 4·2⁻⁵²·(1 + |ln p|)`, () => {
      const n = c === 1000 ? 40 : 400;
      const raw = logits(c * 7919 + (type === 'float32' ? 1 : 2), n, c);
      const values = type === 'float32' ? Float32Array.from(raw) : Float64Array.from(raw);
      const { wasm, ref } = both(values, c);
      let worstP = 0;
      let worstLog = 0;
      const wl = wasm.logData as Float64Array;
      const rl = ref.logData as Float64Array;
      for (let j = 0; j < n * c; j++) {
        worstP = Math.max(worstP, ulps(wasm.data[j] as number, ref.data[j] as number));
        const a = wl[j] as number;
        const b = rl[j] as number;
        if (b === -Infinity) expect(a).toBe(-Infinity);
        else worstLog = Math.max(worstLog, Math.abs(a - b) / (2 ** -52 * (1 + Math.abs(b))));
      }
      expect(worstP).toBeLessThanOrEqual(4);
      expect(worstLog).toBeLessThanOrEqual(4);
      // the kernel converted every row itself (none left to the reference), and toProbabilities returned its bits
      const p = new Float64Array(n * c);
      const lp = new Float64Array(n * c);
      expect(softmaxRowsWasm(wasmKernel() as Kernel, values, 0, n, c, p, lp)).toBe(n);
      expect(p).toEqual(wasm.data);
      expect(lp).toEqual(wasm.logData);
    });
  }

  it('nested rows convert to the same bits as the flat array', () => {
    const c = 5;
    const flat = Float64Array.from(logits(99, 64, c));
    const nested = Array.from({ length: 64 }, (_, i) => Array.from(flat.subarray(i * c, (i + 1) * c)));
    const a = toProbabilities(flat, { input: 'logits', numClasses: c });
    const b = toProbabilities(nested, { input: 'logits' });
    expect(b.data).toEqual(a.data);
    expect(b.logData).toEqual(a.logData);
  });

  it('bad rows anywhere (a later block too) throw exactly the reference error', () => {
    const c = 100;
    const n = 3000; // several kernel blocks of 256 KiB
    const base = logits(5, n, c).map((v) => (Number.isFinite(v) ? v : -5));
    const cases: [string, (a: number[]) => void][] = [
      ['NaN', (a) => (a[2999 * c + 7] = NaN)],
      ['+∞', (a) => (a[1234 * c + 99] = Infinity)],
      ['every entry −∞', (a) => a.fill(-Infinity, 2000 * c, 2001 * c)],
      ['−∞ then a NaN later', (a) => (a.fill(-Infinity, 10 * c, 11 * c), (a[20 * c] = NaN))],
    ];
    for (const [name, spoil] of cases) {
      for (const Type of [Float32Array, Float64Array]) {
        const a = base.slice();
        spoil(a);
        const values = Type.from(a);
        const wasm = failure(() => toProbabilities(values, { input: 'logits', numClasses: c }));
        useKernels('reference');
        const ref = failure(() => toProbabilities(values, { input: 'logits', numClasses: c }));
        useKernels('wasm');
        expect(wasm.message, `${name}, ${Type.name}`).toBe(ref.message);
        expect(wasm.code).toBe(ref.code);
      }
    }
    // nested rows: a value that is not a number is named as before
    const rows = [
      [0, 1],
      [2, '3' as unknown as number],
    ];
    const wasm = failure(() => toProbabilities(rows, { input: 'logits' }));
    useKernels('reference');
    expect(wasm.message).toBe(failure(() => toProbabilities(rows, { input: 'logits' })).message);
  });
});
