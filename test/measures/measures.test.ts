import { describe, expect, it } from 'vitest';
import { confidence, entropy, normalizedEntropy, predictedClass } from '../../src/index.js';
import { decode, loadCase, loadGolden } from '../helpers/conformance.js';

describe('top label', () => {
  it('breaks argmax ties towards the lowest class index (every peer does)', () => {
    expect(
      Array.from(
        predictedClass([
          [0.4, 0.4, 0.2],
          [0.2, 0.4, 0.4],
          [1 / 3, 1 / 3, 1 / 3],
        ]),
      ),
    ).toEqual([0, 1, 0]);
    expect(Array.from(confidence([[0.4, 0.4, 0.2]]))).toEqual([0.4]);
  });
  it('works on logits', () => {
    expect(Array.from(predictedClass([[1, 5, 2]], { input: 'logits' }))).toEqual([1]);
  });
});

describe('entropy', () => {
  it('0 · log 0 = 0, natural log by default', () => {
    expect(
      Array.from(
        entropy([
          [1, 0, 0],
          [0.5, 0.5, 0],
        ]),
      ),
    ).toEqual([0, Math.LN2]);
  });
  it('in bits with base 2', () => {
    expect(entropy([[0.25, 0.25, 0.25, 0.25]], { base: 2 })[0]).toBeCloseTo(2, 15);
  });
  it('normalized entropy divides by ln C', () => {
    expect(normalizedEntropy([[0.5, 0.5, 0, 0]])[0]).toBeCloseTo(0.5, 15);
  });
  it('matches reference_numpy normalized_entropy_mean on every case', () => {
    const golden = loadGolden('reference_numpy');
    for (const [id, metrics] of Object.entries(golden.results)) {
      const entry = metrics.normalized_entropy_mean;
      if (entry === undefined || !('value' in entry)) continue;
      const u = normalizedEntropy(loadCase(id).probs);
      expect(u.reduce((a, b) => a + b, 0) / u.length).toBeCloseTo(decode(entry.value) as number, 13);
    }
  });
});
