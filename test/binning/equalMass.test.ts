import { describe, expect, it } from 'vitest';
import { snapCut } from '../../src/binning/cuts.js';
import { equalMassBins } from '../../src/binning/equalMass.js';
import { assignBins, binaryReliability, type EqualMassMethod } from '../../src/index.js';
import { uniforms } from '../helpers/minstd.js';

const counts = (index: Int32Array, numBins: number) => {
  const c = new Array<number>(numBins).fill(0);
  for (const b of index) c[b] = (c[b] as number) + 1;
  return c;
};

describe('verified_calibration get_equal_bins (its util_test.py, reference_values.md §6.1)', () => {
  const edges = (probs: number[], bins: number) => Array.from(equalMassBins(probs, bins, 'verified-calibration').upper);
  const probs = [0.3, 0.5, 0.2, 0.3, 0.5, 0.7];
  it('1, 2, 3 bins', () => {
    expect(edges(probs, 1)).toEqual([1.0]);
    expect(edges(probs, 2)).toEqual([0.4, 1.0]);
    expect(edges(probs, 3)).toEqual([0.3, 0.5, 1.0]);
  });
  it('removes duplicate edges', () => {
    expect(edges([0.3, 0.5, 1.0, 1.0, 1.0, 1.0], 3)).toEqual([0.75, 1.0]);
  });
  it('midpoints between parts', () => {
    const e = edges([0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9], 3);
    expect(e).toHaveLength(3);
    [0.55, 0.75, 1.0].forEach((x, i) => expect(e[i]).toBeCloseTo(x, 12));
  });
  it('caps the number of bins at N', () => {
    expect(edges([0.3], 2)).toEqual([1.0]);
    expect(edges([0.3], 5)).toEqual([1.0]);
    expect(edges([0.3, 0.5], 5)).toEqual([0.4, 1.0]);
  });
  it('bisect_left membership: get_bin(x, [0.2, 0.5, 1.0])', () => {
    const a = assignBins([0.0, 0.19, 0.21, 0.49, 0.51, 1.0], {
      scheme: 'edges',
      edges: [0, 0.2, 0.5, 1.0],
      closed: 'right',
    });
    expect(Array.from(a.index)).toEqual([0, 0, 1, 1, 2, 2]);
  });
});

describe('uncertainty_metrics get_adaptive_bins (reference_values.md §1.3, §1.4)', () => {
  it('duplicate edges make empty bins: [0.32, 0.37, 0.39, 0.61, 0.65, 0.91] in 10 bins', () => {
    const a = equalMassBins([0.32, 0.37, 0.39, 0.61, 0.65, 0.91], 10, 'uncertainty-metrics');
    expect(Array.from(a.upper.slice(0, 9))).toEqual([0.37, 0.37, 0.39, 0.39, 0.61, 0.65, 0.65, 0.91, 0.91]);
    expect(counts(a.index, a.numBins)).toEqual([1, 0, 1, 0, 1, 1, 0, 1, 0, 1]);
  });
  it('rounds half to even like numpy: n = 6, B = 4 → indices [0, 2, 3, 4]', () => {
    // edge indices round([0, 1.5, 3, 4.5]) = [0, 2, 3, 4]; upper edges = sorted[[2, 3, 4]]
    const a = equalMassBins(
      [0, 1, 2, 3, 4, 5].map((x) => x / 10),
      4,
      'uncertainty-metrics',
    );
    expect(Array.from(a.upper.slice(0, 3))).toEqual([0.2, 0.3, 0.4]);
  });
  it('property test: B bins, N samples, sizes differ by at most one (GetAdaptiveBinsTest)', () => {
    const p = uniforms(42, 500);
    for (const b of [
      ...Array.from({ length: 49 }, (_, i) => i + 1),
      495,
      496,
      497,
      498,
      499,
      500,
      501,
      502,
      503,
      504,
    ]) {
      const a = equalMassBins(p, b, 'uncertainty-metrics');
      const c = counts(a.index, a.numBins);
      expect(c).toHaveLength(b);
      expect(c.reduce((x, y) => x + y, 0)).toBe(500);
      if (b <= 500) expect(Math.max(...c) - Math.min(...c)).toBeLessThanOrEqual(1);
    }
  });
});

describe('scikit-learn calibration_curve (its test_calibration.py, reference_values.md §7)', () => {
  const curve = (y: number[], p: number[], bins: number, binning: 'equal-width' | 'equal-mass') => {
    const kept = binaryReliability(y, p, { preset: 'sklearn', bins, binning }).bins.filter((b) => b.count > 0);
    return { probTrue: kept.map((b) => b.meanOutcome), probPred: kept.map((b) => b.meanScore as number) };
  };
  it('uniform, 2 bins', () => {
    const r = curve([0, 0, 0, 1, 1, 1], [0, 0.1, 0.2, 0.8, 0.9, 1], 2, 'equal-width');
    expect(r.probTrue).toEqual([0, 1]);
    expect(r.probPred[0]).toBeCloseTo(0.1, 15);
    expect(r.probPred[1]).toBeCloseTo(0.9, 15);
  });
  it('quantile, 2 bins', () => {
    const r = curve([0, 0, 0, 0, 1, 1], [0, 0.1, 0.2, 0.5, 0.9, 1], 2, 'equal-mass');
    expect(r.probTrue).toEqual([0, 2 / 3]);
    expect(r.probPred[0]).toBeCloseTo(0.1, 15);
    expect(r.probPred[1]).toBeCloseTo(0.8, 15);
  });
  it('docstring example, 3 bins', () => {
    const r = curve([0, 0, 0, 0, 1, 1, 1, 1, 1], [0.1, 0.2, 0.3, 0.4, 0.65, 0.7, 0.8, 0.9, 1], 3, 'equal-width');
    expect(r.probTrue).toEqual([0, 0.5, 1]);
    [0.2, 0.525, 0.85].forEach((x, i) => expect(r.probPred[i]).toBeCloseTo(x, 15));
  });
  it('4 bins (test_calibration_curve_pos_label)', () => {
    const r = curve([0, 0, 0, 1, 1, 1, 1, 1, 1], [0.1, 0.2, 0.3, 0.4, 0.65, 0.7, 0.8, 0.9, 1.0], 4, 'equal-width');
    expect(r.probTrue).toEqual([0, 0.5, 1, 1]);
  });
});

describe("our equal-mass bins ('quantile') never split ties", () => {
  it('without ties: cuts at round(k·N/B)', () => {
    const a = equalMassBins([0.05, 0.15, 0.25, 0.35, 0.45, 0.55, 0.65, 0.75, 0.85, 0.95], 3, 'quantile');
    expect(counts(a.index, a.numBins)).toEqual([3, 4, 3]);
    expect(a.lower[1]).toBeCloseTo(0.3, 15);
    expect(a.upper[1]).toBeCloseTo(0.7, 15);
  });
  it('a cut inside a block of ties moves to the nearer end (upper when equally near)', () => {
    expect(snapCut([0.1, 0.2, 0.2, 0.2, 0.2, 0.3], 3)).toBe(5);
    expect(snapCut([0.1, 0.2, 0.2, 0.2, 0.2, 0.3], 2)).toBe(1);
    expect(snapCut([0.1, 0.2, 0.3], 1)).toBe(1);
    const a = equalMassBins([0.2, 0.1, 0.2, 0.3, 0.2, 0.2], 2, 'quantile');
    expect(counts(a.index, a.numBins)).toEqual([5, 1]);
  });
  it('gives fewer bins than asked when ties leave no other cut', () => {
    const a = equalMassBins([0.7, 0.7, 0.7, 0.7], 3, 'quantile');
    expect(a.numBins).toBe(1);
    const b = equalMassBins([0.2, 0.2, 0.2, 0.9, 0.9, 0.9], 6, 'quantile');
    expect(b.numBins).toBe(2);
    expect(counts(b.index, b.numBins)).toEqual([3, 3]);
  });
});

describe('every equal-mass method puts every sample in exactly one bin and ignores row order', () => {
  const methods: EqualMassMethod[] = ['quantile', 'uncertainty-metrics', 'verified-calibration', 'netcal', 'sklearn'];
  const base = uniforms(7, 300).map((u) => Math.round(u * 40) / 40); // many ties
  const perm = base.map((_, i) => (i * 97) % base.length);
  for (const method of methods) {
    it(method, () => {
      for (const bins of [1, 2, 7, 15, 50]) {
        const a = equalMassBins(base, bins, method);
        expect(a.index.length).toBe(base.length);
        for (const b of a.index) expect(b >= 0 && b < a.numBins).toBe(true);
        const shuffled = perm.map((j) => base[j] as number);
        const s = equalMassBins(shuffled, bins, method);
        // the same value gets the same bin whatever the order
        perm.forEach((j, i) => expect(s.index[i]).toBe(a.index[j]));
      }
    });
  }
});
