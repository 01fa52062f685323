/**
 * The engine's batches keep ln p of logits and log-probabilities at each row's label only (src/input/logRows.ts), not
 * an N × C array: each has the bits of `toProbabilities`' logData there (both kernels; float32, float64 and nested
 * input; labels at every class; signed zeros, −∞ entries, rows whose log-sum is 0; kept rows of zero weights), any
 * other entry is refused, `evaluate` gives what it gives on the fully converted matrix, and the batch its metrics
 * read holds no N × C log-probability array.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { evaluate, nll, toProbabilities, useKernels } from '../../src/index.js';
import { probMatrix } from '../../src/input/probMatrix.js';
import { logProbAccess, logRowsOf } from '../../src/input/logRows.js';
import { keptRows } from '../../src/input/weights.js';
import { runSuite, type Suite } from '../../src/engine/suite.js';
import { EVALUATE } from '../../src/evaluate/suite.js';
import type { MetricDefinition } from '../../src/engine/definition.js';
import type { ProbMatrix } from '../../src/input/types.js';
import { uniforms } from '../helpers/minstd.js';

afterEach(() => {
  useKernels('wasm');
});

/** Seeded logits with the hard cases: ties, near-ties, huge and tiny spreads, −∞, ±0 maxima with a log-sum of 0. */
function logits(seed: number, n: number, c: number): number[] {
  const u = uniforms(seed, n * c);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const kind = i % 9;
    for (let k = 0; k < c; k++) {
      const x = u[i * c + k] as number;
      let z: number;
      if (kind === 0) z = 8 * (x - 0.5);
      else if (kind === 1) z = Math.round(4 * x) / 2;
      else if (kind === 2) z = 1 + (x < 0.5 ? 0 : 2 ** -40) * k;
      else if (kind === 3) z = (x - 0.5) * 2e4;
      else if (kind === 4) z = x < 0.3 ? -Infinity : 10 * x;
      else if (kind === 5) z = -700 - 60 * x;
      // zero maxima of either sign, the other entries too small to move the sum off 1 (ln s = 0)
      else if (kind === 6) z = k === 0 ? -0 : k === 1 && x < 0.5 ? 0 : -60 - x;
      else if (kind === 7) z = k % 2 === 0 ? -0 : x < 0.5 ? 0 : -Infinity;
      else z = 1e4 + 50 * x;
      out.push(z);
    }
    if (out.slice(i * c).every((v) => v === -Infinity)) out[i * c] = -0;
  }
  return out;
}

/**
 * ln p at every row's label of `compact` equal (bits, signed zeros included) to `full.logData` there, `labels[j]`
 * being row j's label; any other entry refused.
 */
function expectSameLogs(compact: ProbMatrix, full: ProbMatrix, labels: ArrayLike<number>, what: string): void {
  expect(compact.logData, what).toBeUndefined();
  const at = logProbAccess(compact) as (j: number, k: number) => number;
  const want = full.logData as Float64Array;
  const c = full.numClasses;
  let mismatches = 0;
  for (let j = 0; j < compact.n; j++) {
    const y = labels[j] as number;
    if (!Object.is(at(j, y), want[j * c + y])) mismatches++;
  }
  expect(mismatches, what).toBe(0);
  expect(() => at(0, ((labels[0] as number) + 1) % c), what).toThrow(/internal: .* not kept/);
  expect(compact.data, what).toEqual(full.data);
}

describe('log-probabilities of the engine batches: at the labels only', () => {
  for (const backend of ['wasm', 'reference'] as const) {
    for (const [type, c] of [
      ['float32', 2],
      ['float64', 3],
      ['float32', 10],
      ['nested', 7],
      ['float64', 64],
    ] as const) {
      it(`${backend}, ${type} logits and log-probabilities, C = ${c}: labels at every class, the full conversion's bits`, () => {
        useKernels(backend);
        const n = 300;
        const raw = logits(c * 31 + type.length, n, c);
        const scores =
          type === 'float32'
            ? Float32Array.from(raw)
            : type === 'float64'
              ? Float64Array.from(raw)
              : Array.from({ length: n }, (_, i) => raw.slice(i * c, (i + 1) * c));
        const options = { input: 'logits' as const, numClasses: c };
        const full = toProbabilities(scores, options);
        const lp = Float64Array.from(full.logData as Float64Array);
        const lpFull = toProbabilities(lp, { input: 'logprobs', numClasses: c });
        const u = uniforms(c + 7, n);
        const w = Float64Array.from(u, (x) => (x < 0.3 ? 0 : 1));
        // labels shifted through every class: every entry of every row is some conversion's label
        for (let shift = 0; shift < c; shift++) {
          const labels = Int32Array.from({ length: n }, (_, j) => (j + shift) % c);
          const compact = probMatrix('t', scores, options, 0, undefined, { labels });
          expectSameLogs(compact, full, labels, `${backend} ${type} logits`);
          // one float64 per row kept, whatever C
          expect(logRowsOf(compact)?.atLabel).toHaveLength(n);
          // log-probabilities: the scores themselves
          const compactLp = probMatrix('t', lp, { input: 'logprobs', numClasses: c }, 0, undefined, { labels });
          expectSameLogs(compactLp, lpFull, labels, `${backend} ${type} log-probabilities`);
          // the rows a weighting keeps read their own rows
          const kept = keptRows(compact, labels, w, 0).batch;
          const keptFull = keptRows(full, labels, w, 0).batch.p;
          expect(kept.p.n).toBeLessThan(n);
          expectSameLogs(kept.p, keptFull, kept.y, `${backend} ${type} kept rows`);
        }
      });
    }
  }

  it('evaluate, nll and their weighted forms give the full conversion’s results on logits', () => {
    for (const backend of ['wasm', 'reference'] as const) {
      useKernels(backend);
      for (const [seed, c] of [
        [1, 2],
        [2, 5],
        [3, 12],
      ] as const) {
        const n = 360;
        const z = Float32Array.from(logits(seed, n, c));
        const u = uniforms(seed + 100, 2 * n);
        const labels = Array.from({ length: n }, (_, i) => Math.floor((u[i] as number) * c));
        const weights = Array.from({ length: n }, (_, i) => Math.floor((u[n + i] as number) * 3));
        const full = toProbabilities(z, { input: 'logits', numClasses: c });
        for (const extra of [{}, { weights }]) {
          const quiet = { onWarning: () => {} };
          const got = evaluate(labels, z, { input: 'logits', numClasses: c, ...extra, ...quiet });
          expect(got, `${backend} C=${c}`).toEqual(evaluate(labels, full, { ...extra, ...quiet }));
          expect(nll(labels, z, { input: 'logits', numClasses: c, ...extra, ...quiet })).toBe(
            nll(labels, full, { ...extra, ...quiet }),
          );
        }
      }
    }
  });

  it('the batch every metric of evaluate reads on logits holds no N × C log-probability array', () => {
    const n = 500;
    const c = 8;
    const z = Float32Array.from(logits(11, n, c));
    const labels = Array.from({ length: n }, (_, i) => (i * 7) % c);
    // a member beside evaluate's own that records the batch the computation gives every member
    const seen: ProbMatrix[] = [];
    const spy: MetricDefinition = {
      name: 'spy',
      keys: [],
      resolve: () => ({}),
      requests: () => [{ kind: 'mean', key: 'spy', values: ({ p }) => (seen.push(p), new Float64Array(p.n)) }],
      finish: () => 0,
    };
    const suite: Suite<unknown> = {
      ...EVALUATE,
      members: (fn, options, mode) => [...EVALUATE.members(fn, options, mode), { key: 'spy', def: spy, config: {} }],
    } as Suite<unknown>;
    for (const extra of [{}, { weights: labels.map((y) => (y === 0 ? 0 : 1)) }]) {
      seen.length = 0;
      runSuite(suite, 'evaluate', labels, z, { input: 'logits', numClasses: c, ...extra, onWarning: () => {} });
      expect(seen.length).toBe(1);
      const p = seen[0] as ProbMatrix;
      expect(p.logData).toBeUndefined();
      // what the log-probabilities keep: one float64 (and the label it is at) per row of the input
      const rows = logRowsOf(p);
      expect(rows?.atLabel).toHaveLength(n);
      expect(Object.values(rows ?? {}).filter((v) => ArrayBuffer.isView(v) && (v as Float64Array).length > n)).toEqual(
        [],
      );
    }
  });
});
