/**
 * classwiseReliability: each class's table is binaryReliability of (1[y = k], p_k) — the same bins, means and
 * intervals — and the mean of the class-wise errors is the SCE, on seeded data with ties, exact zeros and weights.
 */
import { describe, expect, it } from 'vitest';
import { binaryReliability, classwiseReliability, sce } from '../../src/index.js';
import { randomProbs } from '../helpers/data.js';
import { failure } from '../helpers/failure.js';

const column = (probs: number[][], k: number) => probs.map((r) => r[k] as number);
const outcome = (labels: number[], k: number) => labels.map((y) => (y === k ? 1 : 0));

describe('classwiseReliability', () => {
  const cases: [string, number, number, number, number | undefined, Record<string, unknown>][] = [
    ['continuous, 4 classes', 1, 400, 4, undefined, {}],
    ['ties and exact zeros (scores in 1/10)', 2, 300, 5, 10, { bins: 7 }],
    ['equal-mass bins', 3, 500, 3, 20, { binning: 'equal-mass', bins: 8 }],
    ['a preset', 4, 200, 6, 40, { preset: 'netcal', bins: 10 }],
  ];
  for (const [what, seed, n, c, round, binning] of cases) {
    it(`${what}: each class is binaryReliability of its column; the mean error is the SCE; support counts labels`, () => {
      const { labels, probs } = randomProbs(seed, n, c, round);
      const r = classwiseReliability(labels, probs, { ...binning, interval: 'wilson' });
      expect(r.n).toBe(n);
      expect(r.numClasses).toBe(c);
      expect(r.classes.map((x) => x.index)).toEqual(Array.from({ length: c }, (_, k) => k));
      for (const x of r.classes) {
        const binary = binaryReliability(outcome(labels, x.index), column(probs, x.index), {
          ...binning,
          precision: 'float64',
          interval: 'wilson',
        });
        expect(x.table.bins).toEqual(binary.bins);
        expect(x.table.intervals).toEqual(binary.intervals);
        expect(x.table.calibrationError).toBe(binary.calibrationError);
        expect(x.table.measure).toBe('probability');
        expect(x.support).toBe(labels.filter((y) => y === x.index).length);
      }
      if (binning.binning === undefined) {
        const mean = r.classes.reduce((a, x) => a + x.table.calibrationError, 0) / c;
        expect(mean).toBeCloseTo(sce(labels, probs, { ...binning, threshold: null }), 14);
      }
    });
  }
  it('weights: whole-number weights equal repeated rows; support is the weight of each class', () => {
    const { labels, probs } = randomProbs(5, 120, 3, 25);
    const w = labels.map((_, i) => 1 + (i % 4));
    const weighted = classwiseReliability(labels, probs, { weights: w, interval: 'clopper-pearson' });
    const repeated = classwiseReliability(
      labels.flatMap((y, i) => new Array<number>(w[i] as number).fill(y)),
      probs.flatMap((p, i) => new Array<number[]>(w[i] as number).fill(p)),
      { interval: 'clopper-pearson' },
    );
    weighted.classes.forEach((x, k) => {
      const y = repeated.classes[k] as (typeof repeated.classes)[number];
      expect(x.support).toBe(y.support);
      // a weight multiplies each score before the exact sum: means agree to the rounding of those products
      x.table.bins.forEach((b, m) => {
        const c = y.table.bins[m] as (typeof y.table.bins)[number];
        expect(b.weight).toBe(c.count);
        expect(b.meanScore ?? -1).toBeCloseTo(c.meanScore ?? -1, 15);
        expect(b.meanOutcome ?? -1).toBeCloseTo(c.meanOutcome ?? -1, 15);
      });
      expect(x.table.intervals?.bounds).toEqual(y.table.intervals?.bounds);
    });
    const fractional = classwiseReliability(labels, probs, { weights: w.map((v) => v / 3) });
    fractional.classes.forEach((x, k) =>
      expect(x.support).toBeCloseTo((weighted.classes[k]?.support as number) / 3, 12),
    );
  });
  it('`classes` picks and orders the classes; bad picks are located errors', () => {
    const { labels, probs } = randomProbs(6, 50, 4);
    const all = classwiseReliability(labels, probs);
    const some = classwiseReliability(labels, probs, { classes: [3, 0] });
    expect(some.classes).toEqual([all.classes[3], all.classes[0]]);
    expect(failure(() => classwiseReliability(labels, probs, { classes: [1, 4] })).message).toBe(
      'classwiseReliability: options.classes[1] must be class indices in [0, 4); got 4',
    );
    expect(failure(() => classwiseReliability(labels, probs, { classes: [2, 2] })).message).toMatch(
      /^classwiseReliability: options.classes must hold each class at most once/,
    );
    expect(failure(() => classwiseReliability(labels, probs, { classes: [] })).message).toMatch(
      /^classwiseReliability: options.classes must be a non-empty array of class indices/,
    );
    expect(failure(() => classwiseReliability(labels, probs, { classes: [-1] as never })).message).toMatch(
      /^classwiseReliability: options.classes\[0\] must be an integer in \[0, 1048576\]; got -1/,
    );
  });
});
