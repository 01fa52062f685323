/** Hand-checked cases from the seed papers. */
import { describe, expect, it } from 'vitest';
import { binaryCalibrationError, ece, mce, sce, uce } from '../../src/index.js';

describe('UCE paper §7.2: the constant marginal model p = (0.6, 0.4) with 60/40 labels', () => {
  const labels = [...new Array(60).fill(0), ...new Array(40).fill(1)];
  const probs = labels.map(() => [0.6, 0.4]);
  // H̃(0.6, 0.4) = −(0.6 ln 0.6 + 0.4 ln 0.4)/ln 2 in one bin; the error rate is 0.4
  const h = -(0.6 * Math.log(0.6) + 0.4 * Math.log(0.4)) / Math.LN2;

  it('has ECE 0: confidence 0.6, accuracy 0.6 in the one occupied bin', () => {
    expect(ece(labels, probs)).toBeLessThan(1e-15);
    expect(mce(labels, probs)).toBeLessThan(1e-15);
  });
  it('has UCE > 0: |0.4 − H̃| = 0.5709505944546686', () => {
    expect(uce(labels, probs)).toBeCloseTo(h - 0.4, 14);
    expect(uce(labels, probs)).toBeGreaterThan(0.5);
  });
  it('class-wise errors of the probabilities are 0 as well; the class-wise UCE averages |H̃ − 0.4| with the empty class 1', () => {
    // column k holds the constant p_k and class k occurs with frequency p_k, so every class-wise bin is calibrated
    expect(sce(labels, probs)).toBeLessThan(1e-15);
    // every row is predicted as class 0; class 1 is never predicted and contributes 0 to the mean over C = 2
    expect(uce(labels, probs, { classwise: true })).toBeCloseTo((h - 0.4) / 2, 14);
  });
});

describe('Ding et al. §4.2: internal compensation', () => {
  // half the samples at r = 0.4 with accuracy 0.43, half at r = 0.5 with accuracy 0.47 (100 + 100 samples)
  const conf = [...new Array(100).fill(0.4), ...new Array(100).fill(0.5)];
  const correct = [
    ...new Array(43).fill(1),
    ...new Array(57).fill(0),
    ...new Array(47).fill(1),
    ...new Array(53).fill(0),
  ];

  it('one bin over both values: ECE 0 (the gaps of opposite sign cancel)', () => {
    expect(binaryCalibrationError(correct, conf, { bins: 1 })).toBeCloseTo(0, 15);
    expect(binaryCalibrationError(correct, conf, { binning: { edges: [0, 1] } })).toBeCloseTo(0, 15);
  });
  it('each value in its own bin: ECE 0.03', () => {
    expect(binaryCalibrationError(correct, conf, { binning: { edges: [0, 0.45, 1] } })).toBeCloseTo(0.03, 15);
    expect(binaryCalibrationError(correct, conf, { bins: 10 })).toBeCloseTo(0.03, 15);
  });
  it("Ding's bins keep both values together here (a bin may only close 0.05 above the lowest score): 0", () => {
    // Descending: the 0.5 block has an infinite target (no spread); adding the first 0.4 sets the target to
    // ¼(1.645/0.1)² ≈ 67.7, already exceeded, but the bin's minimum 0.4 is not > 0.05 above the global minimum 0.4.
    expect(binaryCalibrationError(correct, conf, { binning: 'ding' })).toBeCloseTo(0, 15);
  });
});
