/** Out-of-distribution detection: AUROC, FPR at 95 % TPR and the mean-batch-uncertainty curve. */
import { describe, expect, it } from 'vitest';
import { failure } from '../helpers/failure.js';
import { confidence, fprAtTpr, normalizedEntropy, oodAuroc, oodCurve } from '../../src/index.js';
import { randomProbs } from '../helpers/data.js';
import { uniforms } from '../helpers/minstd.js';

describe('oodAuroc', () => {
  it('equals a brute-force count with ties ½', () => {
    const u = uniforms(21, 250);
    const a = u.slice(0, 150).map((x) => Math.round(x * 20) / 20);
    const b = u.slice(150).map((x) => Math.round((0.3 + 0.7 * x) * 20) / 20);
    let s = 0;
    for (const x of a) for (const y of b) s += x < y ? 1 : x === y ? 0.5 : 0;
    expect(oodAuroc({ uncertainty: a }, { uncertainty: b })).toBeCloseTo(s / (a.length * b.length), 14);
    expect(oodAuroc({ confidence: a }, { confidence: b })).toBeCloseTo(1 - s / (a.length * b.length), 14);
  });
  it('from scores: the named measure (default normalized entropy) of each side', () => {
    const i = randomProbs(1, 120, 4).probs;
    const o = randomProbs(2, 80, 4).probs.map((r) => r.map((x) => 0.5 * x + 0.125)); // flatter: more uncertain
    expect(oodAuroc(i, o)).toBe(oodAuroc({ uncertainty: normalizedEntropy(i) }, { uncertainty: normalizedEntropy(o) }));
    expect(oodAuroc(i, o, { by: 'max-prob' })).toBe(
      oodAuroc({ confidence: confidence(i) }, { confidence: confidence(o) }),
    );
    expect(oodAuroc(i, o)).toBeGreaterThan(0.8);
  });
  it('names the side in errors, and rejects mixed forms and different class counts', () => {
    expect(failure(() => oodAuroc([[0.5, 0.5]], [[1.2, -0.2]])).message).toBe(
      'oodAuroc: outOfDistribution.probs[0][0] must be in [0, 1]; got 1.2',
    );
    expect(failure(() => oodAuroc({ uncertainty: [0.1] }, [[0.5, 0.5]])).code).toBe('UM_OPTION');
    expect(failure(() => oodAuroc({ uncertainty: [0.1] }, { confidence: [0.5] })).message).toMatch(
      /^oodAuroc: outOfDistribution must be of the same form as inDistribution/,
    );
    expect(failure(() => oodAuroc([[0.5, 0.5]], [[0.2, 0.3, 0.5]])).code).toBe('UM_SHAPE');
    expect(failure(() => oodAuroc({ uncertainty: [] }, { uncertainty: [0.5] })).code).toBe('UM_EMPTY');
    expect(failure(() => oodAuroc({ uncertainty: [0.1, NaN] }, { uncertainty: [0.5] })).message).toBe(
      'oodAuroc: inDistribution.uncertainty[1] must be a finite number; got NaN',
    );
  });
});

describe('fprAtTpr', () => {
  it('hand-checked: 95 % of 20 in-distribution samples kept', () => {
    const inU = Array.from({ length: 20 }, (_, i) => i / 20); // 0 … 0.95
    const outU = [0.5, 0.92, 0.97, 0.99];
    // keeping 19 of 20 needs u ≤ 0.9, which keeps 0.5 of the OoD samples: FPR 1/4
    expect(fprAtTpr({ uncertainty: inU }, { uncertainty: outU })).toBe(0.25);
    expect(fprAtTpr({ uncertainty: inU }, { uncertainty: outU }, { tpr: 1 })).toBe(0.5);
  });
  it('separable sides: 0; identical sides: ≈ the TPR', () => {
    expect(fprAtTpr({ uncertainty: [0.1, 0.2] }, { uncertainty: [0.5, 0.6] })).toBe(0);
    const u = uniforms(3, 1000);
    expect(Math.abs(fprAtTpr({ uncertainty: u }, { uncertainty: u }) - 0.95)).toBeLessThan(0.002);
  });
  it('rejects a TPR outside (0, 1]', () => {
    expect(failure(() => fprAtTpr({ uncertainty: [0.1] }, { uncertainty: [0.2] }, { tpr: 0 })).message).toBe(
      'fprAtTpr: options.tpr must be a number in (0, 1]; got 0',
    );
  });
});

describe('oodCurve (seed 000 §5: a batch of in-distribution samples stepwise replaced by OoD samples)', () => {
  const inU = uniforms(4, 500).map((x) => 0.3 * x);
  const outU = uniforms(5, 300).map((x) => 0.6 + 0.4 * x);
  it('rises at every step when every OoD sample is more uncertain than every in-distribution one', () => {
    const c = oodCurve({ uncertainty: inU }, { uncertainty: outU }, { seed: 7 });
    expect(c.points).toHaveLength(101);
    for (let k = 1; k <= 100; k++)
      expect((c.points[k] as { mean: number }).mean).toBeGreaterThan((c.points[k - 1] as { mean: number }).mean);
    expect(c.points[0]?.mean).toBeLessThan(0.3);
    expect(c.points[100]?.mean).toBeGreaterThan(0.6);
    expect(c.points.map((p) => p.fraction).slice(0, 3)).toEqual([0, 0.01, 0.02]);
  });
  it('is seeded: the same seed gives the same curve, another seed another one', () => {
    const a = oodCurve({ uncertainty: inU }, { uncertainty: outU }, { seed: 1, batchSize: 50 });
    expect(oodCurve({ uncertainty: inU }, { uncertainty: outU }, { seed: 1, batchSize: 50 })).toEqual(a);
    expect(oodCurve({ uncertainty: inU }, { uncertainty: outU }, { seed: 2, batchSize: 50 }).points[0]?.mean).not.toBe(
      a.points[0]?.mean,
    );
  });
  it('repeats average independent batches and report their spread; the mean approaches the expected line', () => {
    const c = oodCurve({ uncertainty: inU }, { uncertainty: outU }, { repeats: 200, batchSize: 20 });
    const mIn = inU.reduce((a, b) => a + b, 0) / inU.length;
    const mOut = outU.reduce((a, b) => a + b, 0) / outU.length;
    for (const p of c.points) {
      expect(p.std).not.toBeNull();
      expect(Math.abs(p.mean - ((1 - p.fraction) * mIn + p.fraction * mOut))).toBeLessThan(0.02);
    }
    expect(oodCurve({ uncertainty: inU }, { uncertainty: outU }).points[0]?.std).toBeNull();
  });
  it('a batch larger than a side is an error', () => {
    expect(
      failure(() => oodCurve({ uncertainty: [0.1, 0.2] }, { uncertainty: [0.5, 0.6, 0.7] }, { batchSize: 3 })).message,
    ).toBe('oodCurve: options.batchSize must be an integer in [1, 2]; got 3 (at most the samples of each side)');
  });
});
