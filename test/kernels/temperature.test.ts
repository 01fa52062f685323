/**
 * The WebAssembly temperature pass (assembly/temperature.ts) against its TypeScript reference: its exponential within
 * 1 ulp of Math.exp on adversarial arguments (reduction boundaries, the subnormal range, underflow to 0, −∞), the row
 * maxima bit for bit, the four sums within (C + 4)·2⁻⁵² relative, and the validation screen of flat logits throwing
 * exactly the errors of the full validator.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fitMcTemperature, fitTemperature, useKernels } from '../../src/index.js';
import { wasmKernel, type Kernel } from '../../src/kernels/rowStatsWasm.js';
import { temperatureRowsReference } from '../../src/kernels/temperatureReference.js';
import { temperatureRowSums } from '../../src/kernels/temperatureTypes.js';
import { temperatureRowsWasm } from '../../src/kernels/temperatureWasm.js';
import { failure } from '../helpers/failure.js';
import { uniforms } from '../helpers/minstd.js';

const kernel = wasmKernel() as Kernel;

afterEach(() => {
  useKernels('wasm');
});

/** e^x by the kernel's exponential: `normal` selects the path of rows whose exponentials are all normal (x ≥ −707). */
function kernelExp(xs: readonly number[], normal: boolean): Float64Array {
  const n = xs.length;
  const need = kernel.base + 16 * n + 64;
  if (kernel.memory.buffer.byteLength < need)
    kernel.memory.grow(Math.ceil((need - kernel.memory.buffer.byteLength) / 65536));
  new Float64Array(kernel.memory.buffer, kernel.base, n).set(xs);
  kernel.expNegF64(kernel.base, n, kernel.base + 8 * n, normal ? 1 : 0);
  return new Float64Array(kernel.memory.buffer, kernel.base + 8 * n, n).slice();
}

/** |a − b| in units of the spacing of float64 numbers at b (2^−1074 in the subnormal range). */
function ulps(a: number, b: number): number {
  if (a === b) return 0;
  const spacing = b === 0 ? 2 ** -1074 : Math.max(2 ** (Math.floor(Math.log2(Math.abs(b))) - 52), 2 ** -1074);
  return Math.abs(a - b) / spacing;
}

describe('the temperature pass: WebAssembly vs reference', () => {
  it('its exponential is within 1 ulp of Math.exp on adversarial arguments, 0 below −745.14 and at −∞', () => {
    const u = uniforms(4242, 400_010).slice(10);
    const general: number[] = [
      0,
      -0,
      -5e-324,
      -1e-300,
      -1e-17,
      -708.3964185322641,
      -709.782712893384,
      -745.1332191019411,
      -745.14,
      -746,
      -1000,
      -1400,
      -1e5,
      -1e300,
      -Infinity,
    ];
    const normal: number[] = [0, -0, -5e-324, -1e-17, -707];
    for (let i = 0; i < 100_000; i++) {
      const a = u[i] as number;
      general.push(-745.2 * a, -708 - 37.2 * a); // everywhere, and the range of subnormal results
      normal.push(-707 * a, -a, -1e-6 * a);
      // either side of the reduction's boundaries (k + ½)·ln 2, where k = round(x / ln 2) changes
      const k = Math.floor(a * 1000);
      const x = -(k + 0.5) * Math.LN2 * (1 + ((u[100_000 + i] as number) - 0.5) * 1e-14);
      general.push(x);
      if (x >= -707) normal.push(x);
    }
    for (const [xs, isNormal] of [
      [general, false],
      [normal, true],
    ] as const) {
      const got = kernelExp(xs, isNormal);
      let worst = 0;
      xs.forEach((x, i) => {
        const e = ulps(got[i] as number, Math.exp(x));
        if (!(e <= 1)) expect.fail(`exp(${x}) = ${got[i]}, Math.exp ${Math.exp(x)}: ${e} ulp`);
        worst = Math.max(worst, e);
      });
      expect(worst).toBe(1); // the bound is reached (a rounding difference), so the comparison is not vacuous
    }
    expect(Array.from(kernelExp([0, -0, -745.1332191019411, -745.14, -Infinity, -1e300], false))).toEqual([
      1, 1, 5e-324, 0, 0, 0,
    ]);
  });

  /** Rows of C values: scale·(2u − 1), with ties of the maximum, −∞ entries, huge spreads and invalid rows mixed in. */
  function rows(seed: number, n: number, c: number, scale: number): Float64Array {
    const u = uniforms(seed, n * c + 10).slice(10);
    const z = Float64Array.from(u, (v) => scale * (2 * v - 1));
    for (let i = 0; i < n; i++) {
      const o = i * c;
      if (i % 5 === 1 && c > 1) z[o + c - 1] = Math.max(...z.subarray(o, o + c)); // a tie of the maximum
      if (i % 6 === 2 && c > 1) z[o] = -Infinity; // a zero probability
      if (i % 7 === 3) z[o + (i % c)] = (z[o + (i % c)] as number) - 900; // exponentials underflow (general path)
    }
    return z;
  }

  for (const f32 of [false, true]) {
    for (const c of [1, 2, 3, 4, 5, 7, 8, 9, 33, 1000]) {
      it(`${f32 ? 'float32' : 'float64'}, C = ${c}: maxima bit for bit, s0 … s3 within (C + 4)·2⁻⁵² relative, for β from 1e-6 to 1e6`, () => {
        const n = c >= 1000 ? 30 : 120;
        const data64 = rows(c * 17 + (f32 ? 1 : 0), n, c, [1, 30, 1e3][c % 3] as number);
        const data = f32 ? Float32Array.from(data64) : data64;
        const bound = (c + 4) * 2 ** -52;
        for (const beta of [1e-6, 1e-3, 0.7, 1, 3.3, 1e3, 1e6]) {
          const ref = temperatureRowSums(n);
          const fast = temperatureRowSums(n);
          temperatureRowsReference(data, n, c, beta, ref);
          temperatureRowsWasm(kernel, data, n, c, beta, fast);
          expect(Array.from(fast.max)).toEqual(Array.from(ref.max));
          for (const key of ['s0', 's1', 's2', 's3'] as const) {
            for (let i = 0; i < n; i++) {
              const [a, b] = [fast[key][i] as number, ref[key][i] as number];
              if (!(Math.abs(a - b) <= bound * Math.abs(b))) expect.fail(`β ${beta}, row ${i}, ${key}: ${a} vs ${b}`);
            }
          }
        }
      });
    }
  }

  it('rows holding NaN, +∞ or only −∞ are flagged by their maximum (NaN, +∞, −∞) with sums 0, in both backends', () => {
    const c = 9;
    const z = new Float64Array(5 * c).fill(0.5);
    z[0 * c + 8] = Number.NaN;
    z[1 * c + 3] = Infinity;
    z.fill(-Infinity, 2 * c, 3 * c);
    z[3 * c + 4] = Number.NaN;
    z[3 * c + 5] = Infinity;
    for (const data of [z, Float32Array.from(z)]) {
      const ref = temperatureRowSums(5);
      const fast = temperatureRowSums(5);
      temperatureRowsReference(data, 5, c, 1, ref);
      temperatureRowsWasm(kernel, data, 5, c, 1, fast);
      for (const out of [ref, fast]) {
        expect(Array.from(out.max)).toEqual([Number.NaN, Infinity, -Infinity, Number.NaN, 0.5]);
        expect(Array.from(out.s0)).toEqual([0, 0, 0, 0, 9]);
      }
    }
  });
});

describe('flat logits are read as given: the screen throws the full validator’s errors', () => {
  const c = 4;
  const base = (): number[][] => Array.from({ length: 6 }, (_, i) => [0.1 * i, 1, -2, 3 - i]);
  const bad: [string, (rows: number[][]) => void][] = [
    ['NaN in row 4', (r) => ((r[4] as number[])[2] = Number.NaN)],
    ['+∞ in row 0', (r) => ((r[0] as number[])[0] = Infinity)],
    ['a row of −∞', (r) => (r[3] = [-Infinity, -Infinity, -Infinity, -Infinity])],
    [
      '+∞ in row 2 and NaN in row 5',
      (r) => {
        (r[2] as number[])[3] = Infinity;
        (r[5] as number[])[1] = Number.NaN;
      },
    ],
  ];
  for (const [what, spoil] of bad) {
    for (const backend of ['wasm', 'reference'] as const) {
      it(`${what} (${backend}): the same UMError as nested rows, for Float64Array and Float32Array, single and ensemble`, () => {
        useKernels(backend);
        const rows = base();
        spoil(rows);
        const labels = [0, 1, 2, 3, 0, 1];
        const expected = failure(() => fitTemperature(labels, rows, { input: 'logits' }));
        expect(expected.code).toMatch(/^UM_/);
        for (const flat of [Float64Array.from(rows.flat()), Float32Array.from(rows.flat())]) {
          const e = failure(() => fitTemperature(labels, flat, { input: 'logits', numClasses: c }));
          expect([e.code, e.message]).toEqual([expected.code, expected.message]);
        }
        const ensemble = failure(() => fitMcTemperature(labels, [rows, base()], { input: 'logits' }));
        const flatEnsemble = failure(() =>
          fitMcTemperature(labels, Float64Array.from([...rows.flat(), ...base().flat()]), {
            input: 'logits',
            numClasses: c,
            numMembers: 2,
          }),
        );
        expect([flatEnsemble.code, flatEnsemble.message]).toEqual([ensemble.code, ensemble.message]);
      });
    }
  }
  it('−∞ entries (zero probabilities) are accepted, and give the T of the nested rows', () => {
    const rows = base();
    (rows[1] as number[])[0] = -Infinity;
    const labels = [0, 1, 2, 3, 0, 1];
    const nested = fitTemperature(labels, rows, { input: 'logits' });
    const flat = fitTemperature(labels, Float64Array.from(rows.flat()), { input: 'logits', numClasses: c });
    expect(Math.abs(flat.temperature - nested.temperature) / nested.temperature).toBeLessThan(1e-12);
  });
});
