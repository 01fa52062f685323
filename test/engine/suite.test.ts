/**
 * A suite prepared once for many weightings (what the bootstraps run) gives what the public function gives for each
 * weighting, bit for bit — result, config, nulls and warnings — and the same errors; results share no objects.
 */
import { describe, expect, it } from 'vitest';
import { evaluate, toProbabilities, type UMWarning } from '../../src/index.js';
import { prepareSuite } from '../../src/engine/suite.js';
import { EVALUATE } from '../../src/evaluate/suite.js';
import { Computation } from '../../src/engine/computation.js';
import { createRng } from '../../src/random/rng.js';

/** Seeded probabilities on a grid (ties), with one-hot rows and exact zeros at labels (an infinite NLL). */
function data(seed: number, n: number, c: number) {
  const r = createRng('prepared-suite', seed);
  const probs = Array.from({ length: n }, () => {
    const row = Array.from({ length: c }, () => r.integer(5));
    if (!row.some((v) => v > 0)) row[0] = 1;
    const s = row.reduce((a, b) => a + b, 0);
    return row.map((v) => v / s);
  });
  const labels = probs.map(() => r.integer(c));
  return { labels, probs, r };
}

describe('prepareSuite', () => {
  it('equals evaluate for every weighting: counts with zeros, fractional, scaled and none; options and kinds', () => {
    let checked = 0;
    for (const [seed, c, options] of [
      [1, 2, {}],
      [2, 4, { bins: 7 }],
      [3, 10, { classwise: false }],
      [4, 3, { preset: 'uncertainty-metrics' }],
      [5, 5, { preset: 'sklearn', bins: 10, classwise: true }],
    ] as const) {
      const { labels, probs, r } = data(seed, 120, c);
      const f32 = toProbabilities(Float32Array.from(probs.flat()), { numClasses: c });
      for (const scores of [probs, toProbabilities(probs), f32]) {
        const prepared = prepareSuite(EVALUATE, 'evaluate', labels, scores, options);
        const weightings: (number[] | undefined)[] = [
          undefined,
          labels.map(() => r.integer(3)),
          labels.map(() => r.integer(4) * 0.75),
          labels.map(() => (r.integer(2) === 0 ? 0 : 2 ** 200 * (1 + r.integer(3)))),
        ];
        for (const weights of weightings) {
          const seen: UMWarning[] = [];
          const want: UMWarning[] = [];
          const got = prepared(weights, (w) => seen.push(w));
          const ref = evaluate(labels, scores, {
            ...options,
            ...(weights === undefined ? {} : { weights }),
            onWarning: (w) => want.push(w),
          });
          expect(got).toEqual(ref);
          expect(seen).toEqual(want);
          checked++;
        }
      }
    }
    expect(checked).toBe(60);
  });
  it('gives evaluate’s errors: options when prepared, weights when called', () => {
    const { labels, probs } = data(9, 20, 3);
    expect(() => prepareSuite(EVALUATE, 'evaluate', labels, probs, { bins: 0 })).toThrow(
      /^evaluate: options\.bins must be/,
    );
    const prepared = prepareSuite(EVALUATE, 'evaluate', labels, probs, {});
    for (const weights of [[1, 2], labels.map(() => 0), labels.map((_, i) => (i === 3 ? -1 : 1))]) {
      let message = '';
      try {
        evaluate(labels, probs, { weights });
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message).not.toBe('');
      expect(() => prepared(weights)).toThrow(message);
    }
  });
  it('returns results that share no object (changing one result changes no other)', () => {
    const { labels, probs } = data(11, 50, 3);
    const prepared = prepareSuite(EVALUATE, 'evaluate', labels, probs, {});
    const a = prepared(undefined);
    const fresh = JSON.stringify(evaluate(labels, probs));
    (a.config.ding as { z: number }).z = 99;
    a.config.uce.classwise = true;
    a.config.selective.aucThresholds = 7;
    expect(JSON.stringify(prepared(undefined))).toBe(fresh);
  });

  it('equals evaluate on resamples of rows with ties, near-ties and extremes (orders carried over between calls)', () => {
    for (const [seed, c, classwise] of [
      [21, 3, true],
      [22, 10, true],
      [23, 4, false],
    ] as const) {
      const r = createRng('prepared-suite-hostile', seed);
      const n = 300;
      const probs = Array.from({ length: n }, () => {
        const u = r.uniform();
        const row = Array.from({ length: c }, () => r.uniform());
        if (u < 0.2)
          row.fill(1); // every class tied
        else if (u < 0.3)
          row.fill(1e-300).splice(r.integer(c), 1, 1); // one-hot but for extremes
        else if (u < 0.45)
          row.forEach((_, k) => (row[k] = 1 + (r.integer(3) - 1) * 2 ** -52)); // near-ties
        else if (u < 0.55) row[r.integer(c)] = 0;
        const s = row.reduce((a, b) => a + b, 0);
        return row.map((v) => v / s);
      });
      const labels = probs.map(() => r.integer(c));
      const f32 = toProbabilities(Float32Array.from(probs.flat()), { numClasses: c });
      for (const scores of [probs, f32]) {
        const prepared = prepareSuite(EVALUATE, 'evaluate', labels, scores, { classwise });
        // resample counts (about a third of the rows 0), few rows kept, every row kept, fractional, and again counts
        const weightings = [
          ...Array.from({ length: 4 }, () => labels.map(() => (r.uniform() < 0.37 ? 0 : 1 + r.integer(3)))),
          labels.map((_, i) => (i % 17 === 0 ? 1 + r.integer(2) : 0)),
          labels.map(() => 1 + r.integer(3)),
          labels.map(() => (r.uniform() < 0.3 ? 0 : r.uniform() * 3)),
          labels.map(() => (r.uniform() < 0.5 ? 0 : 2)),
        ];
        for (const weights of weightings) {
          const got = JSON.stringify(prepared(weights, () => undefined));
          const want = JSON.stringify(evaluate(labels, scores, { classwise, weights, onWarning: () => undefined }));
          expect(got).toBe(want);
        }
      }
    }
  });

  it('plans one list of members once per mode and cell bits: stores as if planned afresh', () => {
    const members = EVALUATE.members('evaluate', {}, 'bounded');
    const kinds = (mode: 'exact' | 'bounded', cellBits?: number, list = members) => {
      const c = new Computation('evaluate', list, mode, cellBits);
      c.ensure(3);
      return JSON.stringify(c.stores.map((store) => [store.kind, (store as { cellBits?: number }).cellBits]));
    };
    const exact = kinds('exact');
    const bounded = kinds('bounded', 6);
    expect(bounded).not.toBe(exact);
    expect(kinds('exact')).toBe(exact);
    expect(kinds('bounded', 6)).toBe(bounded);
    expect(kinds('bounded', 9)).toBe(kinds('bounded', 9, [...members]));
    expect(kinds('bounded', 9)).not.toBe(bounded);
  });
});
