/**
 * The WebAssembly SIMD row pass against its readable TypeScript reference: bit-identical max, argmax and min; sums
 * within the bounds that useKernels documents; the same validation verdicts and errors; the same metrics on the
 * conformance cases; and the shipped binary equal to a fresh compile of assembly/rowStats.ts.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { evaluate, normalizedEntropy, toProbabilities, useKernels } from '../../src/index.js';
import { rowStatsReference } from '../../src/kernels/rowStatsReference.js';
import { rowStatsWasm, wasmKernel } from '../../src/kernels/rowStatsWasm.js';
import type { RowStatsMode } from '../../src/kernels/rowStatsTypes.js';
import { caseIds, loadCase } from '../helpers/conformance.js';
import { failure } from '../helpers/failure.js';
import { uniforms } from '../helpers/minstd.js';

const kernel = wasmKernel();

/** Softmax rows with some exact zeros, exact ties of the maximum and (for f32) subnormals. */
function rows(seed: number, n: number, c: number, f32: boolean): Float32Array | Float64Array {
  const u = uniforms(seed, n * c * 2);
  const out = f32 ? new Float32Array(n * c) : new Float64Array(n * c);
  for (let i = 0; i < n; i++) {
    let z = 0;
    const raw: number[] = [];
    for (let k = 0; k < c; k++) {
      const r = u[i * c + k] as number;
      let v = Math.exp(6 * r);
      if ((u[n * c + i * c + k] as number) < 0.1) v = 0; // exact zeros
      raw.push(v);
      z += v;
    }
    if (z === 0) raw[0] = 1;
    if (i % 7 === 0 && c > 2) raw[c - 1] = raw[0] = Math.max(...raw); // a tie of the maximum
    z = raw.reduce((a, b) => a + b, 0);
    for (let k = 0; k < c; k++) out[i * c + k] = (raw[k] as number) / z;
  }
  if (f32 && n * c > 3) out[1] = 1e-40; // a float32 subnormal
  return out;
}

afterEach(() => {
  useKernels('wasm');
});

describe('row statistics: WebAssembly SIMD vs the reference', () => {
  it('the WebAssembly kernel loads in Node (so the comparisons below are not vacuous)', () => {
    expect(kernel).not.toBeNull();
    expect(useKernels('wasm')).toBe('wasm');
    expect(useKernels('reference')).toBe('reference');
  });

  for (const f32 of [false, true]) {
    for (const c of [1, 2, 3, 4, 5, 7, 8, 10, 33, 100, 1000]) {
      it(`${f32 ? 'float32' : 'float64'}, C = ${c}: max/argmax/min identical, sums within the stated bounds`, () => {
        const n = c >= 100 ? 40 : 300;
        const data = rows(c * 31 + (f32 ? 1 : 0), n, c, f32);
        for (const mode of [0, 1, 2] as RowStatsMode[]) {
          const ref = rowStatsReference(data, n, c, mode);
          const fast = rowStatsWasm(kernel as NonNullable<typeof kernel>, data, n, c, mode);
          expect(fast.max).toEqual(ref.max);
          expect(fast.arg).toEqual(ref.arg);
          expect(fast.min).toEqual(ref.min);
          // row by row as plain comparisons, expect only on a failure (the same bounds: an expect per row was most
          // of these tests' time)
          const within = (d: number, bound: number) => {
            if (!(d <= bound)) expect(d).toBeLessThanOrEqual(bound);
          };
          for (let i = 0; i < n; i++) {
            within(Math.abs((fast.sum[i] as number) - (ref.sum[i] as number)), fast.sumSlack + ref.sumSlack);
            if (mode >= 1) {
              const q = ref.sumSq?.[i] as number;
              within(Math.abs((fast.sumSq?.[i] as number) - q), 2 * c * 2 ** -53 * q);
            }
            if (mode === 2) {
              const l = ref.xlogx?.[i] as number;
              within(Math.abs((fast.xlogx?.[i] as number) - l), f32 ? 2e-7 : 1e-14 * (1 + Math.abs(l)));
            }
          }
        }
      });
    }
  }

  it('measured: the float32 entropy error is far inside its 2e-7 bound and the float64 one is a few ulps', () => {
    let worst32 = 0;
    let worst64 = 0;
    for (const f32 of [true, false]) {
      const data = rows(5, 2000, 10, f32);
      const ref = rowStatsReference(data, 2000, 10, 2).xlogx as Float64Array;
      const fast = rowStatsWasm(kernel as NonNullable<typeof kernel>, data, 2000, 10, 2).xlogx as Float64Array;
      for (let i = 0; i < 2000; i++) {
        const d = Math.abs((fast[i] as number) - (ref[i] as number));
        if (f32) worst32 = Math.max(worst32, d);
        else worst64 = Math.max(worst64, d / Math.abs(ref[i] as number));
      }
    }
    expect(worst32).toBeGreaterThan(0); // a float32 logarithm really is used
    expect(worst32).toBeLessThan(5e-8);
    expect(worst64).toBeLessThan(2e-15);
  });

  const bad: [string, (d: Float64Array) => void, string][] = [
    ['NaN', (d) => (d[13] = NaN), 'UM_NOT_FINITE'],
    ['Infinity', (d) => (d[13] = Infinity), 'UM_NOT_FINITE'],
    ['1.2', (d) => (d[13] = 1.2), 'UM_PROB_RANGE'],
    ['−0.1', (d) => (d[13] = -0.1), 'UM_PROB_RANGE'],
    ['a row summing to 1.01', (d) => (d[13] = (d[13] as number) + 0.01), 'UM_ROW_SUM'],
  ];
  for (const f32 of [false, true]) {
    for (const [what, spoil, code] of bad) {
      it(`${f32 ? 'float32' : 'float64'}: ${what} gives the same typed error from both backends`, () => {
        const d = rows(9, 20, 5, false) as Float64Array;
        spoil(d);
        const input = f32 ? Float32Array.from(d) : d;
        useKernels('reference');
        const expected = failure(() => toProbabilities(input, { numClasses: 5 }));
        useKernels('wasm');
        const got = failure(() => toProbabilities(input, { numClasses: 5 }));
        expect(got.code).toBe(code);
        expect(got.message).toBe(expected.message);
        expect(got.message).toMatch(/probs\[2\]/);
      });
    }
  }

  it('a row whose sum is at the tolerance passes or fails exactly as in the reference (the screen defers to it)', () => {
    const d = new Float64Array([0.5, 0.5 + 1e-3, 0.5, 0.5 + 1e-3 + 1e-12]);
    useKernels('wasm');
    const e = failure(() => toProbabilities(d, { numClasses: 2 }));
    expect(e.code).toBe('UM_ROW_SUM');
    expect(e.message).toMatch(/probs\[1\]/);
    expect(toProbabilities(d.subarray(0, 2), { numClasses: 2 }).n).toBe(1);
  });

  it('every conformance case gives the same metrics from both backends (within 1e-12 relative)', () => {
    for (const id of caseIds('classification')) {
      const { probs, labels } = loadCase(id);
      const c = (probs[0] as number[]).length;
      const flat = Float64Array.from(probs.flat());
      const run = () => evaluate(labels, flat, { numClasses: c, onWarning: () => undefined });
      useKernels('reference');
      const ref = run();
      const refH = normalizedEntropy(flat, { numClasses: c });
      useKernels('wasm');
      const fast = run();
      const fastH = normalizedEntropy(flat, { numClasses: c });
      for (const [key, value] of Object.entries(ref)) {
        if (typeof value !== 'number') continue;
        const other = (fast as unknown as Record<string, number>)[key] as number;
        if (other === value) continue; // includes an infinite NLL on both sides
        expect(Math.abs(other - value), `${id} ${key}`).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(value)));
      }
      for (let i = 0; i < refH.length; i++) {
        const d = Math.abs((fastH[i] as number) - (refH[i] as number));
        if (!(d < 1e-14)) expect(d).toBeLessThan(1e-14);
      }
    }
  });

  it('the shipped binary (src/kernels/wasmBinary.ts) is a fresh compile of assembly/rowStats.ts', () => {
    // (the check compiles again whenever a source, the script, the compiler or the file changed since its last success)
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const r = spawnSync(process.execPath, ['scripts/build-wasm.mjs', '--check'], { cwd: root, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 60_000);
});
