/** The in-memory numbers the SQL push-down must equal, and the comparison (≤ 1e-9 relative), shared by test/sql/. */
import { expect } from 'vitest';
import * as um from '../../src/index.js';
import type { SqlMetrics } from '../../src/sql/index.js';

export type SqlReference = Omit<SqlMetrics, 'config' | 'numClasses'>;

/** evaluate()'s values of the keys sqlMetrics computes, in memory. */
export function inMemory(labels: number[], probs: number[][], weights?: number[]): SqlReference {
  const o = weights === undefined ? {} : { weights };
  const e = um.evaluate(labels, probs, { ...o, onWarning: () => {} });
  return {
    n: e.n,
    accuracy: e.accuracy,
    ece: e.ece,
    mce: e.mce,
    sce: e.sce as number,
    uce: e.uce,
    brier: e.brier,
    nll: e.nll,
    meanEntropy: e.meanEntropy,
    auroc: e.auroc,
  };
}

/** Every metric within 1e-9 relative (non-finite and null values exactly). */
export function expectClose(got: SqlMetrics, want: SqlReference, what: string): void {
  for (const [k, v] of Object.entries(want)) {
    const g = (got as unknown as Record<string, number | null>)[k];
    if (v === null || !Number.isFinite(v)) {
      expect(g, `${what} ${k}`).toBe(v);
      continue;
    }
    // the database adds in float64 in its own order (error ≤ N·2^-53 of the sums, ~1e-13 here); in memory the sums
    // are exact: 1e-9 relative, or 1e-12 absolute where the exact value is 0 (a perfectly calibrated bin)
    expect(Math.abs((g as number) - v), `${what} ${k}: ${g} vs ${v}`).toBeLessThanOrEqual(
      Math.max(1e-9 * Math.abs(v), 1e-12),
    );
  }
}
