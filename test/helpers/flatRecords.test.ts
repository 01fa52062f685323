/**
 * The fast `toEqual` for flat records of numbers (flatRecords.ts) answers as vitest's own comparison does: the same
 * defined keys, −0 ≠ 0, NaN = NaN, null only equal to null, undefined values ignored; records it does not handle
 * (other values, prototypes, symbol keys, asymmetric matchers, other keys, undefined values) still go through the
 * default — so `toMatchObject` and `toStrictEqual` keep their own answers while it is installed.
 */
import { describe, expect, it } from 'vitest';
import { flatRecordEquality } from './flatRecords.js';

const fails = (a: unknown, b: unknown) => expect(() => expect(a).toEqual(b)).toThrow();
const bin = { index: 0, lower: -0, upper: 0.5, count: 3, weight: 3, fraction: 1, meanScore: 0.2, gap: null };

describe('toEqual on flat records of numbers', () => {
  it('the same defined keys, each value by Object.is; null only equals null', () => {
    expect(flatRecordEquality(bin, { ...bin })).toBe(true);
    expect([bin, null, [bin]]).toEqual([{ ...bin }, null, [{ ...bin }]]);
    expect({ a: NaN, b: null }).toEqual({ a: NaN, b: null });
    expect({ a: 1, b: undefined }).toEqual({ a: 1 });
    expect({ a: 1 }).toEqual({ c: undefined, a: 1 });
    fails({ ...bin, lower: 0 }, bin);
    fails({ a: 0 }, { a: null });
    fails({ a: null }, { a: 0 });
    fails({ a: 1 }, { a: 1, b: 2 });
    fails({ a: 1, b: 2 }, { a: 1, c: 2 });
    fails({ a: 1 }, { b: 1 });
    fails({ a: 1 }, { a: 1.0000000000000002 });
    expect(flatRecordEquality({ a: 1 }, { a: 2 })).toBe(false);
  });
  it('leaves toMatchObject and toStrictEqual their own answers (it stays installed for later files)', () => {
    expect({ passes: 2, chunks: 3 }).toMatchObject({ passes: 2 });
    expect([{ a: 1, b: 2 }]).toMatchObject([{ a: 1 }]);
    expect(() => expect({ a: 1, b: 2 }).toMatchObject({ a: 2 })).toThrow();
    expect(() => expect({ a: 1, b: undefined }).toStrictEqual({ a: 1 })).toThrow();
    expect({ a: 1, b: null }).toStrictEqual({ a: 1, b: null });
    expect(flatRecordEquality({ a: 1, b: 2 }, { a: 1 })).toBeUndefined();
    expect(flatRecordEquality({ a: 1, b: undefined }, { a: 1 })).toBeUndefined();
  });
  it('anything else goes to the default', () => {
    expect(flatRecordEquality({ a: '1' }, { a: '1' })).toBeUndefined();
    expect(flatRecordEquality({ a: [1] }, { a: [1] })).toBeUndefined();
    expect(flatRecordEquality([1], [1])).toBeUndefined();
    expect(flatRecordEquality(Object.create(null), {})).toBeUndefined();
    expect(flatRecordEquality({ [Symbol('s')]: 1 }, {})).toBeUndefined();
    expect(flatRecordEquality(new Map(), new Map())).toBeUndefined();
    expect({ a: 1, b: 2 }).toEqual({ a: expect.any(Number), b: 2 });
    fails({ a: 1, [Symbol.for('s')]: 1 }, { a: 1 });
    fails({ a: 1, b: '2' }, { a: 1, b: 2 });
  });
});
