import { afterAll, describe, expect, it } from 'vitest';
import { useKernels } from '../../src/index.js';
import { argsort } from '../../src/kernels/argsort.js';
import { uniforms } from '../helpers/minstd.js';

/** The comparison-sort definition argsort must reproduce (stable; −0 = 0). */
function byComparator(keys: number[], descending: boolean): number[] {
  const idx = keys.map((_, i) => i);
  return idx.sort(
    (a, b) =>
      (descending ? (keys[b] as number) - (keys[a] as number) : (keys[a] as number) - (keys[b] as number)) || a - b,
  );
}

describe('argsort (radix, stable)', () => {
  const cases: [string, number[]][] = [
    ['empty', []],
    ['one', [0.5]],
    ['random in [0, 1)', uniforms(3, 5000)],
    ['many ties', uniforms(4, 3000).map((u) => Math.round(u * 20) / 20)],
    [
      'signs, zeros, −0, infinities, subnormals',
      [3, -1, 0, -0, 1e-310, -1e-310, Infinity, -Infinity, 2.5, -2.5, 0, -0, 1e300, -1e300, 5e-324],
    ],
    ['integers (as counts)', uniforms(5, 2000).map((u) => Math.floor(u * 1e6) - 5e5)],
    // float32 values take the three-pass 32-bit path
    ['float32 in [0, 1)', Array.from(Float32Array.from(uniforms(6, 5000)))],
    ['float32 with ties', Array.from(Float32Array.from(uniforms(7, 3000), (u) => Math.round(u * 30) / 30))],
    [
      'float32 signs, zeros, −0, infinities, subnormals',
      Array.from(
        Float32Array.of(3, -1, 0, -0, 1e-40, -1e-40, Infinity, -Infinity, 2.5, -2.5, 0, -0, 3e38, -3e38, 1e-45),
      ),
    ],
    // one key that is not a float32 value sends all to the 64-bit path: 0.1 and fround(0.1) must stay apart
    ['float32 values and one float64 neighbour', [Math.fround(0.1), 0.1, 0.5, Math.fround(0.1), 0.1, 0, 1]],
    // keys already in order (either way) skip the passes: the identity, or the blocks of ties from last to first
    ['sorted ascending with ties and ±0', [-2, -0, 0, -0, 0.25, 0.25, 0.5, 1, 1, 1, Infinity]],
    ['sorted descending with ties and ±0', [Infinity, 1, 1, 0.5, 0.25, 0.25, 0, -0, 0, -2, -Infinity]],
    [
      'sorted ascending, many ties',
      uniforms(8, 3000)
        .map((u) => Math.round(u * 20) / 20)
        .sort((a, b) => a - b),
    ],
    [
      'sorted descending, many ties',
      uniforms(9, 3000)
        .map((u) => Math.round(u * 20) / 20)
        .sort((a, b) => b - a),
    ],
    ['all equal', [0.5, 0.5, 0.5, 0.5]],
    ['sorted but the last key', [0.1, 0.2, 0.2, 0.3, 0.05]],
    ['sorted descending but the first pair', [0.2, 0.3, 0.2, 0.1, 0.1]],
  ];
  afterAll(() => useKernels('wasm'));
  // the WebAssembly passes (default) and the JavaScript passes (reference backend) must both give it
  for (const [what, keys] of cases)
    for (const backend of ['wasm', 'reference'] as const) {
      for (const descending of [false, true]) {
        it(`${what}, ${descending ? 'descending' : 'ascending'}, ${backend}: the permutation of a stable comparison sort`, () => {
          expect(useKernels(backend)).toBe(backend);
          expect(Array.from(argsort(keys, descending))).toEqual(byComparator(keys, descending));
          expect(Array.from(argsort(Float64Array.from(keys), descending))).toEqual(byComparator(keys, descending));
          if (keys.every((v) => Math.fround(v) === v)) {
            expect(Array.from(argsort(Float32Array.from(keys), descending))).toEqual(byComparator(keys, descending));
          }
        });
      }
    }
});
