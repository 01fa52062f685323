/**
 * `expect(got, label).toEqual(want)` for large nested results (arrays of bins, tables of numbers), fast: one plain
 * walk first — arrays of the same length without holes, typed arrays of the same class and length, plain objects with
 * the same own keys (no symbols, no undefined), numbers equal by `Object.is` (so −0 ≠ 0 and NaN = NaN), anything else
 * by `===` — and vitest's comparison only when that walk finds a difference, so a failure reads as toEqual's. Whatever
 * the walk accepts, toEqual accepts too, but for named properties set on an array or a typed array besides its
 * elements, which the walk does not read (no result compared here has any). The brute-force tests compare hundreds of
 * thousands of bins, where vitest's generic walk costs microseconds a node.
 */
import { expect } from 'vitest';
import { sameTypedArrays } from './numberArrays.js';

function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'number') return typeof b === 'number' && Object.is(a, b);
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (ArrayBuffer.isView(a) || ArrayBuffer.isView(b)) {
    // typed arrays of one class and length, element by element
    if (a instanceof DataView || b instanceof DataView || !ArrayBuffer.isView(a) || !ArrayBuffer.isView(b))
      return false;
    return sameTypedArrays(a, b);
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!(i in a) || !(i in b) || !same(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  if (Object.getPrototypeOf(a) !== Object.prototype || Object.getPrototypeOf(b) !== Object.prototype) return false;
  if (Object.getOwnPropertySymbols(a).length > 0 || Object.getOwnPropertySymbols(b).length > 0) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const k of keys) {
    if (!Object.hasOwn(b, k)) return false;
    const x: unknown = (a as Record<string, unknown>)[k];
    const y: unknown = (b as Record<string, unknown>)[k];
    if (x === undefined || !same(x, y)) return false;
  }
  return true;
}

/** Passes exactly when `expect(got, label).toEqual(want)` does (which reports any difference). */
export function expectSame(got: unknown, want: unknown, label?: string): void {
  if (!same(got, want)) expect(got, label).toEqual(want);
}
