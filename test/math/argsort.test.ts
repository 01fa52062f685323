import { describe, expect, it } from 'vitest';
import { argsort } from '../../src/math/argsort.js';
import { uniforms } from '../helpers/minstd.js';

/** The comparison-sort definition argsort must reproduce (stable; −0 = 0). */
function byComparator(keys: number[], descending: boolean): number[] {
  const idx = keys.map((_, i) => i);
  return idx.sort((a, b) => (descending ? (keys[b] as number) - (keys[a] as number) : (keys[a] as number) - (keys[b] as number)) || a - b);
}

describe('argsort (radix, stable)', () => {
  const cases: [string, number[]][] = [
    ['empty', []],
    ['one', [0.5]],
    ['random in [0, 1)', uniforms(3, 5000)],
    ['many ties', uniforms(4, 3000).map((u) => Math.round(u * 20) / 20)],
    ['signs, zeros, −0, infinities, subnormals', [3, -1, 0, -0, 1e-310, -1e-310, Infinity, -Infinity, 2.5, -2.5, 0, -0, 1e300, -1e300, 5e-324]],
    ['integers (as counts)', uniforms(5, 2000).map((u) => Math.floor(u * 1e6) - 5e5)],
  ];
  for (const [what, keys] of cases) {
    for (const descending of [false, true]) {
      it(`${what}, ${descending ? 'descending' : 'ascending'}: the permutation of a stable comparison sort`, () => {
        expect(Array.from(argsort(keys, descending))).toEqual(byComparator(keys, descending));
        expect(Array.from(argsort(Float64Array.from(keys), descending))).toEqual(byComparator(keys, descending));
      });
    }
  }
});
