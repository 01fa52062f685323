/**
 * `toEqual` on flat records of numbers, fast: plain objects (prototype `Object.prototype`, no symbol keys) whose own
 * enumerable values are all numbers, `null` or `undefined` — a `Bin`, a reliability row — compared as vitest's own
 * comparison does (the same defined keys, each value equal by `Object.is`, so −0 ≠ 0 and NaN = NaN; `undefined` values
 * ignored) in one plain loop instead of the generic key walk, which costs several µs a field (the brute-force tests
 * compare hundreds of thousands of bins). Anything else goes to the default. Installed by the test files that import it
 * (`import '../helpers/flatRecords.js'`); the answers are the default's, so it may stay installed for later files.
 */
import { expect } from 'vitest';

/** The defined keys of a flat record of numbers, or `undefined` when `x` is not one. */
function definedKeys(x: unknown): string[] | undefined {
  if (typeof x !== 'object' || x === null || Object.getPrototypeOf(x) !== Object.prototype) return undefined;
  if (Object.getOwnPropertySymbols(x).length > 0) return undefined;
  const out: string[] = [];
  for (const k of Object.keys(x)) {
    const v: unknown = (x as Record<string, unknown>)[k];
    if (v === undefined) continue;
    if (v !== null && typeof v !== 'number') return undefined;
    out.push(k);
  }
  return out;
}

export function flatRecordEquality(a: unknown, b: unknown): boolean | undefined {
  const ka = definedKeys(a);
  if (ka === undefined) return undefined;
  const kb = definedKeys(b);
  if (kb === undefined) return undefined;
  if (ka.length !== kb.length) return false;
  const x = a as Record<string, number | null | undefined>;
  const y = b as Record<string, number | null | undefined>;
  for (const k of ka) {
    const v = y[k];
    if (v === undefined || !Object.hasOwn(y, k)) return false;
    const u = x[k] as number | null;
    if (u === null || v === null ? u !== v : !Object.is(u, v)) return false;
  }
  return true;
}

expect.addEqualityTesters([flatRecordEquality]);
