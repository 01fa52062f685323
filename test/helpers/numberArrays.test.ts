/**
 * The fast `toEqual` for arrays of numbers (numberArrays.ts, a setup file) answers as vitest's own comparison does:
 * −0 ≠ 0, NaN = NaN, the class and length count, nested arrays and objects are compared element by element, and
 * arrays it does not handle (holes, other elements) still go through the default.
 */
import { describe, expect, it } from 'vitest';

const fails = (a: unknown, b: unknown) => expect(() => expect(a).toEqual(b)).toThrow();

describe('toEqual on arrays of numbers', () => {
  it('typed arrays: Object.is per element, the same class and length', () => {
    expect(Float64Array.of(1, NaN, -0)).toEqual(Float64Array.of(1, NaN, -0));
    fails(Float64Array.of(0), Float64Array.of(-0));
    fails(Float64Array.of(1), Float32Array.of(1));
    fails(Int32Array.of(1, 2), Int32Array.of(1, 2, 3));
    fails(BigInt64Array.of(1n), BigInt64Array.of(2n));
    expect({ index: Int32Array.of(3, 4), lower: Float64Array.of(0.5) }).toEqual({
      index: Int32Array.of(3, 4),
      lower: Float64Array.of(0.5),
    });
    fails({ index: Int32Array.of(3, 4) }, { index: Int32Array.of(3, 5) });
  });
  it('plain arrays of numbers, and the default for anything else', () => {
    expect([1, NaN, -0]).toEqual([1, NaN, -0]);
    fails([0], [-0]);
    fails([1, 2], [1, 2, 3]);
    fails([[1, 2]], [[1, 3]]);
    expect([1, 'a', { x: 2 }]).toEqual([1, 'a', { x: 2 }]);
    fails([1, 'a'], [1, 'b']);
    // vitest treats a hole as undefined: the default comparison decides
    // eslint-disable-next-line no-sparse-arrays
    expect([1, , 3]).toEqual([1, undefined, 3]);
    expect([1, 2]).toEqual([expect.any(Number), 2]);
  });
});
