/**
 * Scores lent to the conversion (src/input/lent.ts: `um metrics` without --ci on float32 or float64 logits and
 * log-probabilities) are converted in place — the probabilities written over the file's bytes — and every metric is
 * what the same call on unlent scores gives, bit for bit: seeded rows with ties, −∞ entries and huge spreads, labels
 * of every class, zero weights, both kernels; errors (a bad score in a later block, bad labels) are the same messages;
 * arrays without room, not lent, or with labels of another length are converted beside the scores as before.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { evaluate, nll, useKernels } from '../../src/index.js';
import { readPredictions } from '../../src/io/index.js';
import { inPlaceOutput, lendScores } from '../../src/input/lent.js';
import { probMatrix } from '../../src/input/probMatrix.js';
import { logProbAccess, logRowsOf } from '../../src/input/logRows.js';
import { failure } from '../helpers/failure.js';
import { npy } from '../helpers/hostile.js';
import { um } from '../helpers/cli.js';
import { uniforms } from '../helpers/minstd.js';

const dir = mkdtempSync(join(tmpdir(), 'um-lent-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  useKernels('wasm');
});

/** Seeded logits n × c: ordinary, ties, −∞ entries, huge spreads, a large offset. */
function logits(seed: number, n: number, c: number): number[] {
  const u = uniforms(seed, n * c);
  return u.map((x, j) => {
    const kind = Math.floor(j / c) % 5;
    if (kind === 0) return 8 * (x - 0.5);
    if (kind === 1) return Math.round(4 * x) / 2;
    if (kind === 2) return j % c === 0 ? 0 : x < 0.3 ? -Infinity : 5 * x;
    if (kind === 3) return (x - 0.5) * 2e4;
    return 1e4 + 50 * x;
  });
}

/** The scores as `readNpy` lays out what it may lend: float32 in the upper half of a buffer twice their size. */
function withRoom(values: readonly number[], type: 'float32' | 'float64'): Float32Array | Float64Array {
  if (type === 'float64') return Float64Array.from(values);
  const out = new Float32Array(new ArrayBuffer(8 * values.length), 4 * values.length, values.length);
  out.set(values);
  return out;
}

function lent<T extends Float32Array | Float64Array>(scores: T): T {
  lendScores(scores);
  return scores;
}

describe('scores lent to the conversion', () => {
  for (const backend of ['wasm', 'reference'] as const) {
    for (const [type, c, input] of [
      ['float32', 2, 'logits'],
      ['float32', 10, 'logits'],
      ['float64', 7, 'logits'],
      ['float32', 300, 'logits'],
      ['float32', 4, 'logprobs'],
      ['float64', 3, 'logprobs'],
    ] as const) {
      it(`${backend}, ${type} ${input}, C = ${c}: converted over the scores, every metric the unlent call's`, () => {
        useKernels(backend);
        // C = 300: several kernel blocks (2^18 bytes of logits, 218 float32 rows of 300: 600 rows are 3 blocks, the last
        // partial; 1 200 rows, 6 blocks, did nothing more and cost half this file's time)
        const n = c === 300 ? 600 : 400;
        let raw = logits(c * 13 + n, n, c);
        if (input === 'logprobs') {
          // exact log-probabilities of float32 values: each row log-sum-exps to 0 within the tolerance
          const p = probMatrix('t', Float64Array.from(raw), { input: 'logits', numClasses: c });
          raw = Array.from(p.logData as Float64Array, (v) => (type === 'float32' ? Math.min(0, Math.fround(v)) : v));
        }
        const u = uniforms(c + n, 2 * n);
        const labels = Array.from({ length: n }, (_, i) => Math.floor((u[i] as number) * c));
        const weights = Array.from({ length: n }, (_, i) => Math.floor((u[n + i] as number) * 3));
        const options = { input, numClasses: c, sumTolerance: 1e-3, onWarning: () => {} };
        for (const extra of [{}, { weights }]) {
          const want = evaluate(labels, withRoom(raw, type), { ...options, ...extra });
          const scores = lent(withRoom(raw, type));
          const got = evaluate(labels, scores, { ...options, ...extra });
          expect(got).toEqual(want);
          // the probabilities were written over the scores
          expect(Array.from(scores.subarray(0, c))).not.toEqual(
            raw.slice(0, c).map((v) => (type === 'float32' ? Math.fround(v) : v)),
          );
          expect(nll(labels, lent(withRoom(raw, type)), { ...options, ...extra })).toBe(
            nll(labels, withRoom(raw, type), { ...options, ...extra }),
          );
        }
        // the matrix the engine's batch holds is the scores' own buffer
        const scores = lent(withRoom(raw, type));
        const p = probMatrix('t', scores, options, 0, undefined, { labels });
        expect(p.data.buffer).toBe(scores.buffer);
        expect(p.logData).toBeUndefined();
        // and keeps ln p at each label only
        expect(logRowsOf(p)?.atLabel).toHaveLength(n);
        const at = logProbAccess(p) as (j: number, k: number) => number;
        expect(() => at(0, ((labels[0] as number) + 1) % c)).toThrow(/internal/);
      });
    }
  }

  it('is lent once: scores a conversion wrote over are never read again, in place or beside', () => {
    const n = 40;
    const c = 3;
    const raw = logits(5, n, c);
    const labels = Array.from({ length: n }, (_, i) => i % c);
    const options = { input: 'logits' as const, numClasses: c, onWarning: () => {} };
    const scores = lent(withRoom(raw, 'float32'));
    expect(evaluate(labels, scores, options).nll).toBe(evaluate(labels, withRoom(raw, 'float32'), options).nll);
    // a second read would take the probabilities' bytes for float32 logits (NLL 1.7e27 before this check)
    expect(() => evaluate(labels, scores, options)).toThrow(/internal: lent scores read again/);
    expect(() => probMatrix('t', scores, { numClasses: c })).toThrow(/internal: lent scores read again/);
  });

  it('only lent arrays with room are written over; anything else is converted beside them', () => {
    const c = 3;
    const raw = logits(5, 20, c);
    const labels = Array.from({ length: 20 }, (_, i) => i % c);
    expect(inPlaceOutput(withRoom(raw, 'float32'), 20, c)).toBeUndefined(); // not lent
    expect(inPlaceOutput(lent(Float32Array.from(raw)), 20, c)).toBeUndefined(); // no room
    expect(inPlaceOutput(lent(withRoom(raw, 'float32').subarray(3)), 19, c)).toBeUndefined(); // not the whole buffer
    expect(inPlaceOutput(lent(withRoom(raw, 'float32')), 20, c)).toBeInstanceOf(Float64Array);
    // labels of another length or none: converted beside the scores; these and entries that are no labels (the
    // scores given up all the same) give the labels' error as before
    for (const [bad, beside] of [
      [labels.slice(1), true],
      [null, true],
      [{ length: 20 }, false],
    ] as const) {
      const scores = lent(withRoom(raw, 'float32'));
      const message = failure(() => evaluate(bad as number[], scores, { input: 'logits', numClasses: c })).message;
      if (beside) expect(Array.from(scores)).toEqual(raw.map(Math.fround));
      expect(message).toBe(
        failure(() => evaluate(bad as number[], withRoom(raw, 'float32'), { input: 'logits', numClasses: c })).message,
      );
    }
  });

  it('errors: a bad score in a later block, then bad labels — the same messages as unlent scores', () => {
    const c = 100;
    // several kernel blocks: the WebAssembly conversion copies 2^18 bytes of logits at a time, 655 float32 or 327
    // float64 rows of 100, so 1 500 rows are 3 or 5 blocks, the last one partial (3 000 rows, 5 or 10 blocks, did
    // nothing more: the bad entries sit at the same places relative to N, and the rows at the end are spoiled too)
    const n = 1500;
    const base = logits(9, n, c).map((v) => (Number.isFinite(v) ? v : -5));
    const labels = Array.from({ length: n }, (_, i) => i % c);
    const cases: [string, (a: number[], y: unknown[]) => void][] = [
      ['NaN score', (a) => (a[(n - 1) * c + 7] = NaN)],
      ['+∞ score', (a) => (a[(n / 2) * c] = Infinity)],
      ['label 2.5', (_a, y) => (y[(2 * n) / 3] = 2.5)],
      ['label −1', (_a, y) => (y[10] = -1)],
      ['label "1"', (_a, y) => (y[0] = '1')],
      ['label = C', (_a, y) => (y[n - 1] = c)],
    ];
    for (const backend of ['wasm', 'reference'] as const) {
      useKernels(backend);
      for (const [name, spoil] of cases) {
        for (const type of ['float32', 'float64'] as const) {
          const a = base.slice();
          const y: unknown[] = labels.slice();
          spoil(a, y);
          const options = { input: 'logits' as const, numClasses: c };
          const want = failure(() => evaluate(y as number[], withRoom(a, type), options));
          const got = failure(() => evaluate(y as number[], lent(withRoom(a, type)), options));
          expect([got.code, got.message], `${backend} ${type} ${name}`).toEqual([want.code, want.message]);
        }
      }
    }
  });

  it('readPredictions gives [N, C] float32 logits room to be converted in place; probabilities and members none', async () => {
    const n = 50;
    const c = 4;
    const raw = logits(3, n, c);
    writeFileSync(join(dir, 'z.npy'), npy([n, c], raw, '<f4'));
    writeFileSync(join(dir, 'm.npy'), npy([2, n / 2, c], raw, '<f4'));
    writeFileSync(
      join(dir, 'y.npy'),
      npy(
        [n],
        raw.slice(0, n).map((_, i) => i % c),
        '<i8',
      ),
    );
    writeFileSync(
      join(dir, 'y25.npy'),
      npy(
        [n / 2],
        raw.slice(0, n / 2).map((_, i) => i % c),
        '<i8',
      ),
    );
    const z = await readPredictions(join(dir, 'z.npy'), { labels: join(dir, 'y.npy'), input: 'logits' });
    const s = z.scores as Float32Array;
    expect([s.constructor.name, s.byteOffset, s.buffer.byteLength]).toEqual(['Float32Array', 4 * n * c, 8 * n * c]);
    expect(Array.from(s)).toEqual(raw.map(Math.fround));
    const p = await readPredictions(join(dir, 'z.npy'), { labels: join(dir, 'y.npy') });
    expect([(p.scores as Float32Array).byteOffset, (p.scores as Float32Array).buffer.byteLength]).toEqual([
      0,
      4 * n * c,
    ]);
    const m = await readPredictions(join(dir, 'm.npy'), { labels: join(dir, 'y25.npy'), input: 'logits' });
    expect((m.members as Float32Array).buffer.byteLength).toBe(4 * n * c);
  });

  it('um metrics on float32 logits (lent) and with --ci (not lent) reports what evaluate gives', async () => {
    const n = 600;
    const c = 6;
    const raw = logits(21, n, c).map((v) => (Number.isFinite(v) ? v : -50)); // a finite NLL: no warning
    const labels = Array.from(uniforms(77, n), (x) => Math.floor(x * c));
    writeFileSync(join(dir, 'logits.npy'), npy([n, c], raw, '<f4'));
    writeFileSync(join(dir, 'labels.npy'), npy([n], labels, '<i8'));
    const want = evaluate(labels, Float32Array.from(raw), { input: 'logits', numClasses: c, onWarning: () => {} });
    const args = ['metrics', join(dir, 'logits.npy'), '--labels', join(dir, 'labels.npy'), '--input', 'logits'];
    for (const extra of [[], ['--ci', '0.9', '--resamples', '20']]) {
      const r = await um([...args, ...extra, '--json']);
      expect([r.code, r.stderr]).toEqual([0, '']);
      const j = JSON.parse(r.stdout) as Record<string, unknown>;
      for (const k of ['accuracy', 'ece', 'sce', 'ace', 'tace', 'brier', 'nll', 'meanEntropy', 'auroc', 'aurc'])
        expect(j[k], k).toBe((want as unknown as Record<string, unknown>)[k]);
    }
  });
});
