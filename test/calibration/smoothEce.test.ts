/**
 * smoothEce's reflected convolution sums only the non-zero grid entries when the grid is mostly zeros (few pairs on a
 * grid of ≥ 1001 points): the same bits as the direct O(g²) sum of relplot, which this file writes out as the
 * reference, on sparse and dense grids, at every bandwidth's grid size.
 */
import { describe, expect, it } from 'vitest';
import { reflectedConvolve } from '../../src/calibration/smoothEce.js';
import { smoothEce } from '../../src/index.js';
import { uniforms } from '../helpers/minstd.js';

/** relplot's convolution as written: every one of the g products of every output, zeros included. */
function direct(values: Float64Array, kernel: Float64Array): Float64Array {
  const g = values.length;
  const ext = new Float64Array(3 * g - 2);
  for (let j = 0; j < 3 * g - 2; j++)
    ext[j] = values[j < g - 1 ? g - 1 - j : j < 2 * g - 1 ? j - g + 1 : 3 * g - 3 - j] as number;
  const out = new Float64Array(g);
  for (let j = 0; j < g; j++) {
    let s = 0;
    for (let k = 0; k < g; k++) s += (ext[Math.floor(g / 2) + j + k] as number) * (kernel[g - 1 - k] as number);
    out[j] = s;
  }
  return out;
}

/** The Gaussian kernel of bandwidth σ on g points, as smoothEce builds it. */
function kernel(sigma: number, g: number): Float64Array {
  return Float64Array.from({ length: g }, (_, k) => {
    const t = k === g - 1 ? 1 : k / (g - 1);
    return Math.exp(-((t - 0.5) ** 2) / (2 * sigma ** 2)) / (Math.sqrt(2 * Math.PI) * sigma);
  });
}

const same = (a: Float64Array, b: Float64Array) => a.every((x, i) => Object.is(x, b[i]));

describe('reflectedConvolve', () => {
  it('equals the direct sum bit for bit: few or many non-zeros (at the ends, in clusters, signed, extreme), any σ', () => {
    const u = uniforms(4242, 20_000);
    let at = 0;
    const next = () => u[at++ % u.length] as number;
    // grid sizes of σ = 1, 0.1, 2^-6 and the finest 2^-10 (g = max(2000, 20/σ)//2 + 1); σ = 2^-10 zeroes the far kernel
    for (const [sigma, g] of [
      [1, 1001],
      [0.1, 1001],
      [2 ** -6, 1001],
      [2 ** -10, 10241],
    ] as const) {
      const k = kernel(sigma, g);
      // the largest grid (10^8 products per direct sum) with one sparse and one full grid
      for (const fill of g > 1001 ? [40, g] : [0, 1, 3, 40, g / 4, g / 2 + 7, g]) {
        const values = new Float64Array(g);
        for (let n = 0; n < fill; n++) {
          const i = n % 5 === 0 ? (n % 10 === 0 ? 0 : g - 1) : Math.floor(next() * g);
          const scale = n % 7 === 0 ? 1e-300 : n % 11 === 0 ? 1e300 : 1;
          values[i] = (next() - 0.4) * scale;
          if (n % 3 === 0 && i + 1 < g) values[i + 1] = -(values[i] as number); // cancellations
        }
        // the last fill leaves no zero: the direct branch of the function
        if (fill === g) for (let i = 0; i < g; i++) if (values[i] === 0) values[i] = next() - 0.5;
        expect(same(reflectedConvolve(values, k), direct(values, k)), `σ ${sigma}, ${fill} filled`).toBe(true);
      }
    }
  });

  it('smoothEce end to end: the values and bandwidths of the direct sum, on sparse grids (weights, positive class) and a dense one', () => {
    const u = uniforms(77, 2000);
    const rows = (n: number) =>
      Array.from({ length: n }, (_, i) => {
        const a = 0.2 + 0.8 * (u[i] as number);
        return [a, (1 - a) * 0.3, (1 - a) * 0.7];
      });
    const labels = (n: number) =>
      Array.from({ length: n }, (_, i) => ((u[1000 + i] as number) < 0.6 ? 0 : 1 + (i % 2)));
    // produced by the direct O(g²) convolution (the code before the sparse sum); JSON's shortest round-trip digits
    expect(smoothEce(labels(12), rows(12), { weights: labels(12).map((_, i) => 1 + (i % 4)) })).toEqual({
      value: 0.23713632573348697,
      bandwidth: 0.23828125,
    });
    const binary = rows(12).map((r) => [1 - (r[0] as number), r[0] as number]);
    expect(
      smoothEce(
        labels(12).map((y) => (y === 0 ? 1 : 0)),
        binary,
        { target: 'positive-class' },
      ),
    ).toEqual({
      value: 0.27676400119165023,
      bandwidth: 0.27734375,
    });
    // 900 pairs fill most of the 1001-point grid: the direct branch
    expect(smoothEce(labels(900), rows(900))).toEqual({ value: 0.13064395777679005, bandwidth: 0.130859375 });
  });
});
