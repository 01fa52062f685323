import { describe, expect, it } from 'vitest';
import { dingBins } from '../../src/binning/dingBins.js';
import { DEFAULT_DING } from '../../src/options/binning.js';
import { binaryCalibrationError, binaryReliability } from '../../src/index.js';
import { minstd, minstdDataset, uniforms } from '../helpers/minstd.js';

// reference_values.md §11: the authors' AdaptiveBinning.py evaluated on the MINSTD dataset.
describe('Ding et al. adaptive binning reproduces the reference code (reference_values.md §11)', () => {
  const { conf, correct } = minstdDataset();

  it('generates the documented data', () => {
    expect(conf.slice(0, 5)).toEqual([
      0.3676315699553264, 0.8837962391710823, 0.9633917483796326, 0.32511501648701496, 0.30808209726031965,
    ]);
    expect(correct.slice(0, 10)).toEqual([1, 1, 1, 0, 0, 0, 1, 1, 1, 0]);
    expect(correct.reduce((a, b) => a + b, 0) / 300).toBeCloseTo(0.5566666666666666, 15);
  });

  it('six bins with the final counts [43, 47, 45, 44, 48, 73] (descending confidence)', () => {
    const t = binaryReliability(correct, conf, { binning: 'ding' });
    const desc = [...t.bins].reverse();
    expect(desc.map((b) => b.count)).toEqual([43, 47, 45, 44, 48, 73]);
    const cofMin = [
      0.8958779941293773, 0.7871675069384125, 0.6763830866554673, 0.5646230170338522, 0.45738296870020356,
      0.30183828505773014,
    ];
    const cofMax = [
      0.997763732819708, 0.8952104384057271, 0.7870076693999617, 0.6753470996279953, 0.5643833929041323,
      0.45330622729533643,
    ];
    const meanConf = [
      0.9436426512125604, 0.8332311075543574, 0.7331332440497458, 0.624865239695583, 0.50765114494296,
      0.37565582007988046,
    ];
    const acc = [0.7209302325581395, 0.48936170212765956, 0.6444444444444445, 0.5, 0.5625, 0.4794520547945205];
    desc.forEach((b, i) => {
      expect(b.lower).toBe(cofMin[i]);
      expect(b.upper).toBe(cofMax[i]);
      expect(b.meanScore).toBeCloseTo(meanConf[i] as number, 14);
      expect(b.meanOutcome).toBeCloseTo(acc[i] as number, 15);
    });
  });

  it('AECE 0.15144477587648583 and AMCE 0.3438694054266978', () => {
    expect(binaryCalibrationError(correct, conf, { binning: 'ding' })).toBeCloseTo(0.15144477587648583, 14);
    expect(binaryCalibrationError(correct, conf, { binning: 'ding', norm: 'max' })).toBeCloseTo(0.3438694054266978, 14);
  });

  it('the small-n case (seed 777) is a single bin: AECE = AMCE = 0.0264469488220197', () => {
    const u = minstd(777, 120);
    const c = u.slice(0, 60).map((x) => 0.5 + 0.5 * x);
    const ok = c.map((ci, i) => ((u[60 + i] as number) < ci - 0.1 ? 1 : 0));
    const t = binaryReliability(ok, c, { binning: 'ding' });
    expect(t.bins).toHaveLength(1);
    expect(t.bins[0]?.meanScore).toBeCloseTo(0.7568863845113136, 14);
    expect(t.bins[0]?.meanOutcome).toBeCloseTo(0.7833333333333333, 15);
    expect(t.calibrationError).toBeCloseTo(0.0264469488220197, 14);
    expect(t.maxCalibrationError).toBeCloseTo(0.0264469488220197, 14);
  });
});

describe('Ding bins: ties and edge cases', () => {
  it('never splits a block of equal confidences, so the result ignores row order', () => {
    const u = uniforms(99, 2000);
    const conf = u.slice(0, 1000).map((x) => Math.round((0.5 + 0.5 * x) * 50) / 50);
    const order = conf.map((_, i) => (i * 379) % conf.length);
    const a = dingBins(conf, DEFAULT_DING);
    const b = dingBins(
      order.map((j) => conf[j] as number),
      DEFAULT_DING,
    );
    expect(b.numBins).toBe(a.numBins);
    order.forEach((j, i) => expect(b.index[i]).toBe(a.index[j]));
    for (let k = 1; k < a.numBins; k++) expect(a.lower[k]).toBeGreaterThan(a.upper[k - 1] as number);
  });
  it('all-equal confidences are one bin (the reference code raises OverflowError when a later bin is constant)', () => {
    const a = dingBins(new Array(100).fill(0.8), DEFAULT_DING);
    expect(a.numBins).toBe(1);
  });
  it('with N ≤ 41 there is a single bin', () => {
    const a = dingBins(uniforms(3, 41), DEFAULT_DING);
    expect(a.numBins).toBe(1);
  });
});
