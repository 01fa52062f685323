import { describe, expect, it } from 'vitest';
import { equalWidthEdges, equalWidthIndex } from '../../src/binning/equalWidth.js';
import type { Precision } from '../../src/binning/types.js';
import { binaryCalibrationError, presets, type PresetName } from '../../src/index.js';
import { positiveClassPrecision } from '../../src/presets/presets.js';

/** Rule of each peer column of CONVENTIONS.md Appendix A, as a preset (+ precision override). */
const PEERS: Record<string, { preset: PresetName; precision?: Precision }> = {
  google_np: { preset: 'uncertainty-metrics' },
  google_tf_f32: { preset: 'uncertainty-metrics-tf' },
  google_tf_f64: { preset: 'uncertainty-metrics-tf', precision: 'float64' },
  torchmetrics: { preset: 'torchmetrics' },
  netcal: { preset: 'netcal' },
  verified: { preset: 'verified-calibration' },
  relplot: { preset: 'relplot' },
  sklearn: { preset: 'sklearn' },
};
const ORDER = Object.keys(PEERS);

function index(p: number, bins: number, peer: string): number {
  const { preset, precision } = PEERS[peer] as { preset: PresetName; precision?: Precision };
  const prec = precision ?? presets[preset].precision;
  const rule = presets[preset].equalWidth;
  return equalWidthIndex(p, bins, rule, prec, equalWidthEdges(bins, rule, prec));
}

/** CONVENTIONS.md Appendix A: edge value → bin index per peer (B = the own bin for p = 1). */
const APPENDIX_A: { bins: number; rows: [number, (number | 'B')[]][] }[] = [
  {
    bins: 10, // bin_edges_10_odd
    rows: [
      [0.1, [1, 1, 1, 1, 1, 0, 1, 0]],
      [0.3, [2, 3, 3, 3, 2, 2, 2, 2]],
      [0.5, [5, 5, 5, 5, 5, 4, 5, 4]],
      [0.7, [6, 7, 7, 7, 6, 6, 6, 6]],
      [0.9, [9, 9, 9, 9, 9, 8, 9, 8]],
    ],
  },
  {
    bins: 10, // bin_edges_10_even
    rows: [
      [0.2, [2, 2, 2, 2, 2, 1, 2, 1]],
      [0.4, [4, 4, 4, 4, 4, 3, 4, 3]],
      [0.6, [5, 6, 6, 6, 5, 5, 5, 5]],
      [0.8, [8, 8, 8, 8, 8, 7, 8, 7]],
      [1.0, ['B', 9, 9, 'B', 9, 9, 'B', 9]],
    ],
  },
  {
    bins: 10, // bin_edges_linspace10_*
    rows: [
      [0.30000000000000004, [3, 3, 3, 3, 3, 3, 3, 2]],
      [0.6000000000000001, [6, 6, 6, 6, 6, 6, 6, 5]],
      [0.7000000000000001, [7, 7, 7, 7, 7, 7, 7, 6]],
    ],
  },
  {
    bins: 10, // bin_edges_10_f32_*
    rows: [
      [0.10000000149011612, [1, 1, 1, 1, 1, 1, 1, 1]],
      [0.30000001192092896, [3, 3, 3, 3, 3, 3, 3, 3]],
      [0.699999988079071, [6, 7, 6, 7, 6, 6, 6, 6]],
      [0.8999999761581421, [8, 9, 8, 9, 8, 8, 8, 8]],
      [0.20000000298023224, [2, 2, 2, 2, 2, 2, 2, 2]],
      [0.6000000238418579, [6, 6, 6, 6, 6, 6, 6, 6]],
      [0.800000011920929, [8, 8, 8, 8, 8, 8, 8, 8]],
    ],
  },
  {
    bins: 15, // bin_edges_15_odd
    rows: [
      [0.06666666666666667, [1, 1, 1, 1, 1, 0, 1, 0]],
      [0.2, [3, 3, 3, 2, 3, 2, 3, 2]],
      [0.3333333333333333, [5, 5, 5, 5, 5, 4, 5, 4]],
      [0.4666666666666667, [7, 7, 7, 6, 7, 6, 7, 6]],
      [0.6, [9, 9, 9, 9, 9, 8, 9, 8]],
      [0.7333333333333333, [11, 11, 11, 11, 11, 10, 11, 10]],
      [0.8666666666666667, [13, 13, 13, 13, 13, 12, 13, 12]],
      [1.0, ['B', 14, 14, 'B', 14, 14, 'B', 14]],
    ],
  },
  {
    bins: 15, // bin_edges_15_even
    rows: [
      [0.13333333333333333, [2, 2, 2, 2, 2, 1, 2, 1]],
      [0.26666666666666666, [4, 4, 4, 4, 4, 3, 4, 3]],
      [0.4, [6, 6, 6, 5, 6, 5, 6, 5]],
      [0.5333333333333333, [8, 8, 8, 8, 8, 7, 8, 7]],
      [0.6666666666666666, [10, 10, 10, 10, 10, 9, 10, 9]],
      [0.8, [12, 12, 12, 12, 12, 11, 12, 11]],
      [0.9333333333333333, [14, 14, 14, 14, 14, 13, 14, 13]],
    ],
  },
];

describe('equal-width rules reproduce each peer (CONVENTIONS.md Appendix A)', () => {
  for (const { bins, rows } of APPENDIX_A) {
    for (const [p, expected] of rows) {
      it(`B = ${bins}, p = ${p}`, () => {
        const got = ORDER.map((peer) => index(p, bins, peer));
        expect(got).toEqual(expected.map((e) => (e === 'B' ? bins : e)));
      });
    }
  }
});

describe('the default rule b = min(⌊B·p⌋, B − 1) in float64', () => {
  const rule = presets.default.equalWidth;
  const edges = equalWidthEdges(10, rule, 'float64');
  it('puts p = 0 in the first bin and p = 1 in the last', () => {
    expect(equalWidthIndex(0, 10, rule, 'float64', edges)).toBe(0);
    expect(equalWidthIndex(1, 10, rule, 'float64', edges)).toBe(9);
    expect(equalWidthIndex(0.9999999999999999, 10, rule, 'float64', edges)).toBe(9);
  });
  it('puts every k/10 double in the bin that starts at it (3·0.1 … computed by the product)', () => {
    const got = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9].map((p) =>
      equalWidthIndex(p, 10, rule, 'float64', edges),
    );
    expect(got).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
  it('describes its bins by the exact quotients i/B', () => {
    expect(Array.from(edges)).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]);
  });
});

describe('edge arithmetic', () => {
  it('numpy.linspace(0, 1, 11) is i·(1/B) with an exact final 1', () => {
    const e = equalWidthEdges(10, presets['uncertainty-metrics'].equalWidth, 'float64');
    expect(Array.from(e)).toEqual([
      0, 0.1, 0.2, 0.30000000000000004, 0.4, 0.5, 0.6000000000000001, 0.7000000000000001, 0.8, 0.9, 1,
    ]);
  });
  it('ATen linspace in float64 counts down from 1 in its second half (reference_values.md §9)', () => {
    const e = equalWidthEdges(10, presets.torchmetrics.equalWidth, 'float64');
    expect(Array.from(e)).toEqual([0, 0.1, 0.2, 0.30000000000000004, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]);
  });
});

// reference_values.md §9: f = 0.1 … 0.9, y = [0,0,1,0,1,0,1,1,1], 10 bins, positive-class ECE under each rule.
describe('the decimal-bin-edge test (reference_values.md §9)', () => {
  const f = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
  const y = [0, 0, 1, 0, 1, 0, 1, 1, 1];
  const cases: [string, Parameters<typeof binaryCalibrationError>[2], number[], number][] = [
    [
      'numpy digitize on linspace (uncertainty-metrics)',
      { preset: 'uncertainty-metrics' },
      [1, 2, 2, 4, 5, 5, 6, 8, 9],
      0.18888888888888888,
    ],
    ['histogramdd on linspace (netcal)', { preset: 'netcal' }, [1, 2, 2, 4, 5, 5, 6, 8, 9], 0.18888888888888888],
    ['trunc(p / (1/B)) (relplot)', { preset: 'relplot' }, [1, 2, 2, 4, 5, 5, 6, 8, 9], 0.18888888888888888],
    [
      '⌊B·p⌋ float32 (TensorFlow)',
      { preset: 'uncertainty-metrics-tf' },
      [1, 2, 3, 4, 5, 6, 7, 8, 9],
      0.34444444444444444,
    ],
    ['⌊B·p⌋ float64 (default)', {}, [1, 2, 3, 4, 5, 6, 7, 8, 9], 0.34444444444444444],
    ['(lo, hi] (sklearn)', { preset: 'sklearn' }, [0, 1, 2, 3, 4, 5, 6, 7, 8], 0.34444444444444444],
    [
      '(lo, hi] on i/B (verified_calibration)',
      { preset: 'verified-calibration' },
      [0, 1, 2, 3, 4, 5, 6, 7, 8],
      0.34444444444444444,
    ],
    [
      'bucketize on float32 linspace (torchmetrics, float32 arithmetic)',
      { preset: 'torchmetrics', precision: 'float32' },
      [1, 2, 3, 4, 5, 6, 7, 8, 9],
      0.34444444444444444,
    ],
    // binary_calibration_error keeps the input's precision: float64 numbers give float64 edges
    [
      'bucketize on float64 linspace (torchmetrics, float64 input)',
      { preset: 'torchmetrics' },
      [1, 2, 2, 4, 5, 6, 7, 8, 9],
      0.3,
    ],
  ];
  for (const [name, options, bins, expected] of cases) {
    it(name, () => {
      const preset = presets[options?.preset ?? 'default'];
      const precision = options?.precision ?? positiveClassPrecision(preset, f);
      const edges = equalWidthEdges(10, preset.equalWidth, precision);
      expect(f.map((p) => equalWidthIndex(p, 10, preset.equalWidth, precision, edges))).toEqual(bins);
      // float32 presets round the probabilities to float32 first, so agree to float32 precision only
      expect(binaryCalibrationError(y, f, { ...options, bins: 10 })).toBeCloseTo(
        expected,
        precision === 'float32' ? 7 : 14,
      );
    });
  }
  it('bucketize on float32 linspace (torchmetrics, Float32Array input keeps float32)', () => {
    expect(binaryCalibrationError(y, new Float32Array(f), { preset: 'torchmetrics', bins: 10 })).toBeCloseTo(
      0.34444444444444444,
      7,
    );
  });
});
