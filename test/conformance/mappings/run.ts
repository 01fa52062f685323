/** Runs golden-value mappings against the fixtures. */
import { describe, expect, it } from 'vitest';
import { decode, loadCase, loadGolden, rel, tolerance } from '../../helpers/conformance.js';
import type { Mapping } from './types.js';
import { UMError } from '../../../src/index.js';

export function compare(actual: unknown, expected: unknown, tol: number, path: string): string[] {
  if (typeof expected === 'number') {
    if (typeof actual !== 'number') return [`${path}: expected ${expected}, got ${String(actual)}`];
    return rel(actual, expected) <= tol
      ? []
      : [`${path}: expected ${expected}, got ${actual} (rel ${rel(actual, expected).toExponential(2)})`];
  }
  if (Array.isArray(expected)) {
    const list: unknown = ArrayBuffer.isView(actual) ? Array.from(actual as unknown as ArrayLike<number>) : actual;
    if (!Array.isArray(list) || list.length !== expected.length)
      return [`${path}: expected ${expected.length} entries, got ${Array.isArray(list) ? list.length : typeof list}`];
    return expected.flatMap((e, i) => compare((list as unknown[])[i], e, tol, `${path}[${i}]`));
  }
  if (typeof expected === 'object' && expected !== null) {
    return Object.entries(expected).flatMap(([k, e]) =>
      compare((actual as Record<string, unknown>)[k], e, tol, `${path}.${k}`),
    );
  }
  return [`${path}: unsupported expected ${String(expected)}`];
}

/** One test per mapping: every case the peer covered, within the tolerance of the peer's precision. */
export function runMappings(title: string, mappings: Mapping[]): void {
  describe(title, () => {
    for (const m of mappings) {
      it(`${m.peer} ${m.metric}`, () => {
        const golden = loadGolden(m.peer);
        let compared = 0;
        const failures: string[] = [];
        for (const [caseId, metrics] of Object.entries(golden.results)) {
          const entry = metrics[m.metric];
          if (entry === undefined) continue;
          const c = loadCase(caseId);
          if ('error' in entry) {
            if (m.onPeerError === undefined)
              throw new Error(`${caseId}: peer raised ${entry.error} and the mapping says nothing`);
            m.onPeerError(c);
            continue;
          }
          const exception = m.exceptions?.(c);
          if (exception?.throws !== undefined) {
            let code: string | undefined;
            try {
              m.compute(c);
            } catch (error) {
              if (!(error instanceof UMError)) throw error;
              code = error.code;
            }
            if (code !== exception.throws)
              failures.push(`${caseId}: expected ${exception.throws} (${exception.reason}), got ${code ?? 'a value'}`);
            compared++;
            continue;
          }
          let actual = (exception?.compute ?? m.compute)(c);
          if (m.keys !== undefined && actual !== null && typeof actual === 'object') {
            const renamed: Record<string, unknown> = {};
            for (const [ours, theirs] of Object.entries(m.keys))
              renamed[theirs] = (actual as Record<string, unknown>)[ours];
            actual = renamed;
          }
          const tol =
            exception?.tolerance ??
            ('out_dtype' in entry && entry.out_dtype !== undefined
              ? tolerance(entry)
              : (m.tolerance ?? tolerance(entry)));
          failures.push(...compare(actual, decode(entry.value), tol, caseId));
          compared++;
        }
        expect(failures).toEqual([]);
        expect(compared).toBeGreaterThan(0);
      });
    }
  });
}
