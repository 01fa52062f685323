/**
 * `toEqual` on flat records of numbers, fast: plain objects (prototype `Object.prototype`, no symbol keys) whose own
 * enumerable values are all numbers or `null` — a `Bin`, a reliability row — with the same keys, compared value by
 * value with `Object.is` (so −0 ≠ 0 and NaN = NaN) in one plain loop instead of the generic key walk, which costs
 * several µs a field (the brute-force tests compare hundreds of thousands of bins). Records with different keys or an
 * `undefined` value go to the default, since there `toEqual`, `toStrictEqual` and `toMatchObject` answer differently;
 * with the same keys and defined values all three answer as this does. Installed by the test files that import it
 * (`import '../helpers/flatRecords.js'`); its answers are every matcher's own, so it may stay installed for later files.
 */
import { expect } from 'vitest';

/** The keys of a flat record of numbers (or nulls), or `undefined` when `x` is not one. */
function recordKeys(x: unknown): string[] | undefined {
  if (typeof x !== 'object' || x === null || Object.getPrototypeOf(x) !== Object.prototype) return undefined;
  if (Object.getOwnPropertySymbols(x).length > 0) return undefined;
  const out: string[] = [];
  for (const k of Object.keys(x)) {
    const v: unknown = (x as Record<string, unknown>)[k];
    if (v !== null && typeof v !== 'number') return undefined;
    out.push(k);
  }
  return out;
}

export function flatRecordEquality(a: unknown, b: unknown): boolean | undefined {
  const ka = recordKeys(a);
  if (ka === undefined) return undefined;
  const kb = recordKeys(b);
  if (kb === undefined) return undefined;
  if (ka.length !== kb.length) return undefined;
  const x = a as Record<string, number | null>;
  const y = b as Record<string, number | null>;
  for (const k of ka) if (!Object.hasOwn(y, k)) return undefined;
  for (const k of ka) {
    const v = y[k] as number | null;
    const u = x[k] as number | null;
    if (u === null || v === null ? u !== v : !Object.is(u, v)) return false;
  }
  return true;
}

expect.addEqualityTesters([flatRecordEquality]);
