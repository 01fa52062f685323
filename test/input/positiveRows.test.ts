/**
 * Rows of weight 0 are dropped by copying the others; their row statistics are gathered from the whole matrix's (kept
 * with it, so a bootstrap's resamples never recompute them) — the same numbers as a pass over the copy, on both
 * kernel backends, float32 and float64 data, logits and any number of classes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { toProbabilities, useKernels } from '../../src/index.js';
import { computeRowStats, rowStatsOf } from '../../src/kernels/rowStats.js';
import type { RowStatsMode } from '../../src/kernels/rowStatsTypes.js';
import { positiveRows } from '../../src/input/weights.js';
import { createRng } from '../../src/random/rng.js';

afterEach(() => void useKernels('wasm'));

/** Seeded rows of c classes, with exact 0s and one-hot rows; weights with many zeros. */
function data(seed: number, n: number, c: number, f32: boolean) {
  const r = createRng('positive-rows', seed);
  const flat = f32 ? new Float32Array(n * c) : new Float64Array(n * c);
  for (let j = 0; j < n * c; j++) flat[j] = r.integer(6) === 0 ? 0 : r.uniform();
  for (let i = 0; i < n; i++) {
    if (r.integer(10) === 0) for (let k = 0; k < c; k++) flat[i * c + k] = k === 0 ? 1 : 0;
    let s = 0;
    for (let k = 0; k < c; k++) s += flat[i * c + k] as number;
    if (s === 0) flat[i * c] = s = 1;
    for (let k = 0; k < c; k++) flat[i * c + k] = (flat[i * c + k] as number) / s;
  }
  const y = Int32Array.from({ length: n }, () => r.integer(c));
  const w = Float64Array.from({ length: n }, () => (r.integer(3) === 0 ? 0 : 1 + r.integer(4)));
  return { flat, y, w };
}

describe('positiveRows', () => {
  it('gathers the kept rows, labels, weights and row statistics exactly as a pass over the copy computes them', () => {
    let cases = 0;
    for (const backend of ['wasm', 'reference'] as const) {
      useKernels(backend);
      for (const [seed, c, f32] of [
        [1, 2, false],
        [2, 3, true],
        [3, 7, false],
        [4, 10, true],
        [5, 10, false],
        [6, 33, false],
      ] as const) {
        for (const mode of [0, 1, 2] as RowStatsMode[]) {
          const { flat, y, w } = data(seed * 3 + mode, 157, c, f32);
          const p = toProbabilities(flat, { numClasses: c });
          const kept = positiveRows(p, y, w, mode);
          const keep = Array.from(w.keys()).filter((i) => (w[i] as number) > 0);
          expect(kept.p.n).toBe(keep.length);
          expect(kept.p.data.constructor).toBe(flat.constructor);
          expect(Array.from(kept.p.data)).toEqual(keep.flatMap((i) => Array.from(flat.subarray(i * c, i * c + c))));
          expect(Array.from(kept.y)).toEqual(keep.map((i) => y[i]));
          expect(Array.from(kept.w ?? [])).toEqual(keep.map((i) => w[i]));
          const gathered = rowStatsOf(kept.p, mode);
          const fresh = computeRowStats(kept.p.data, kept.p.n, c, mode);
          expect(gathered).toEqual(fresh);
          cases++;
        }
      }
    }
    expect(cases).toBe(36);
  });
  it('carries log-probabilities of logits, and returns the same objects when no weight is 0', () => {
    const r = createRng('positive-rows-logits', 7);
    const n = 40;
    const logits = Array.from({ length: n }, () => [r.normal() * 3, r.normal(), -r.normal() * 5]);
    const p = toProbabilities(logits, { input: 'logits' });
    const y = Int32Array.from({ length: n }, () => r.integer(3));
    const w = Float64Array.from({ length: n }, (_, i) => (i % 4 === 1 ? 0 : 0.5 + i));
    const kept = positiveRows(p, y, w, 2);
    const keep = Array.from(w.keys()).filter((i) => (w[i] as number) > 0);
    expect(Array.from(kept.p.logData ?? [])).toEqual(
      keep.flatMap((i) => Array.from((p.logData as Float64Array).subarray(i * 3, i * 3 + 3))),
    );
    expect(rowStatsOf(kept.p, 2)).toEqual(computeRowStats(kept.p.data, kept.p.n, 3, 2));
    const all = Float64Array.from(w, (v) => v + 1);
    const same = positiveRows(p, y, all, 2);
    expect([same.p, same.y, same.w]).toEqual([p, y, all]);
    expect(same.p).toBe(p);
  });
});
