/**
 * `toEqual` on arrays of numbers, fast: the same answer as vitest's own comparison — typed arrays of the same class and
 * length, or plain arrays of the same length holding only numbers, equal element by element by `Object.is` (so −0 ≠ 0
 * and NaN = NaN) — in a plain loop instead of the generic key walk and iterator, which cost ~4 µs an element (the
 * brute-force tests compare millions). Anything else (holes, other elements, other values) goes to the default.
 */
import { expect } from 'vitest';

function numberArrayEquality(a: unknown, b: unknown): boolean | undefined {
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return undefined;
    for (let i = 0; i < a.length; i++) {
      const x: unknown = a[i];
      const y: unknown = b[i];
      if (typeof x !== 'number' || typeof y !== 'number' || !(i in a) || !(i in b)) return undefined;
      if (!Object.is(x, y)) return false;
    }
    return true;
  }
  if (!ArrayBuffer.isView(a) || !ArrayBuffer.isView(b) || a instanceof DataView || b instanceof DataView)
    return undefined;
  return sameTypedArrays(a, b);
}

/** Typed arrays of one class and length, equal element by element by `Object.is` (toEqual's answer). */
export function sameTypedArrays(a: ArrayBufferView, b: ArrayBufferView): boolean {
  if (Object.prototype.toString.call(a) !== Object.prototype.toString.call(b)) return false;
  const x = a as unknown as ArrayLike<number | bigint>;
  const y = b as unknown as ArrayLike<number | bigint>;
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (!Object.is(x[i], y[i])) return false;
  return true;
}

// installed once per worker: with isolate: false this setup file runs again before every test file, and each
// addEqualityTesters call appends a copy — a worker's last files had ~78, every step of every toEqual calling each
// (3.7 million calls over the suite where one a step is needed)
const installed = Symbol.for('uncertainty-metrics.numberArrays');
const registry = globalThis as unknown as Record<symbol, boolean>;
if (registry[installed] !== true) {
  registry[installed] = true;
  expect.addEqualityTesters([numberArrayEquality]);
}
