import { describe, expect, it } from 'vitest';
import { ece, toProbabilities } from '../../src/index.js';
import { loadCase } from '../helpers/conformance.js';

describe('logits → probabilities by a float64 softmax via log-sum-exp', () => {
  it('matches the conformance cases (probs = softmax(logits) in float64)', () => {
    for (const id of ['logits_n100_c10', 'logits_in_unit_interval', 'logits_extreme_n64_c3']) {
      const c = loadCase(id);
      const p = toProbabilities(c.logits as number[][], { input: 'logits' });
      const flat = c.probs.flat();
      let worst = 0;
      p.data.forEach((v, i) => (worst = Math.max(worst, Math.abs(v - (flat[i] as number)))));
      expect(worst).toBeLessThan(1e-15);
    }
  });
  it('survives logits of magnitude 5e10 (gnb_raw) without overflow: exact 0 and 1', () => {
    const p = toProbabilities(
      [
        [-5e10, 3e10, 2.9e10],
        [1e308, -1e308, 0],
      ],
      { input: 'logits' },
    );
    expect(Array.from(p.data)).toEqual([0, 1, 0, 1, 0, 0]);
  });
  it('treats -Infinity as a masked class (probability 0)', () => {
    const p = toProbabilities([[0, -Infinity, 0]], { input: 'logits' });
    expect(Array.from(p.data)).toEqual([0.5, 0, 0.5]);
  });
  it('is invariant to adding a constant to a row', () => {
    const a = toProbabilities([[1, 2, 3]], { input: 'logits' }).data;
    const b = toProbabilities([[1001, 1002, 1003]], { input: 'logits' }).data;
    a.forEach((v, i) => expect(v).toBeCloseTo(b[i] as number, 15));
  });
});

describe('log-probabilities', () => {
  it('exponentiates and checks the row sum', () => {
    const p = toProbabilities(
      [
        [Math.log(0.25), Math.log(0.75)],
        [0, -Infinity],
      ],
      { input: 'logprobs' },
    );
    expect(p.data[0]).toBeCloseTo(0.25, 15);
    expect(Array.from(p.data.slice(2))).toEqual([1, 0]);
  });
});

describe('binary vectors', () => {
  it('probabilities expand to [1 − p, p]', () => {
    expect(Array.from(toProbabilities([0.2, 1], { binary: true }).data)).toEqual([0.8, 0.2, 0, 1]);
  });
  it('logits go through a stable sigmoid on both sides', () => {
    const p = toProbabilities([0, 800, -800, Math.log(3)], { binary: true, input: 'logits' }).data;
    expect(Array.from(p.slice(0, 6))).toEqual([0.5, 0.5, 0, 1, 1, 0]);
    expect(p[6]).toBeCloseTo(0.25, 15);
    expect(p[7]).toBeCloseTo(0.75, 15);
  });
  it('log-probabilities of the positive class', () => {
    const p = toProbabilities([Math.log(0.3)], { binary: true, input: 'logprobs' }).data;
    expect(p[1]).toBeCloseTo(0.3, 15);
    expect(p[0]).toBeCloseTo(0.7, 15);
  });
});

describe('validation happens once', () => {
  it('a Float32Array of probabilities is referenced, not copied, and keeps float32 values', () => {
    const f = new Float32Array([0.7, 0.3, 0.4, 0.6]);
    const p = toProbabilities(f, { numClasses: 2 });
    expect(p.data).toBe(f);
    expect(p.n).toBe(2);
  });
  it('a validated matrix is accepted as is by every metric, and kept as declared', () => {
    const p = toProbabilities([
      [0.7, 0.3],
      [0.4, 0.6],
    ]);
    expect(toProbabilities(p)).toBe(p);
    expect(ece([0, 1], p)).toBe(
      ece(
        [0, 1],
        [
          [0.7, 0.3],
          [0.4, 0.6],
        ],
      ),
    );
    expect(() => ece([0, 1], p, { input: 'logits' })).toThrow(/options.input must be 'probs' or omitted/);
  });
  it('an object that only looks like a validated matrix is validated again', () => {
    const fake = {
      kind: 'probabilities',
      data: new Float64Array([2, -1]),
      n: 1,
      numClasses: 2,
      input: 'probs',
      binary: false,
    };
    expect(() => ece([0], fake as never)).toThrow(/must be a number\[\]\[\]/);
  });
  it('rows that sum to 1 only within float32 rounding pass the default tolerance (1e-3)', () => {
    expect(() => toProbabilities([[0.3000001, 0.7]])).not.toThrow();
    expect(() => toProbabilities([[0.3, 0.6]])).toThrow(/must sum to 1/);
    expect(() => toProbabilities([[0.3, 0.6]], { sumTolerance: 0.2 })).not.toThrow();
  });
});
