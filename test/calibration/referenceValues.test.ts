/**
 * Values from the peers' own test suites and docstrings, and float64 evaluations of their code
 * (../shared/algorithms/reference_values.md, copied here as literals).
 */
import { describe, expect, it } from 'vitest';
import {
  ace,
  binaryCalibrationError,
  ece,
  gce,
  mce,
  rmsce,
  sce,
  tace,
  uce,
  type CalibrationErrorOptions,
} from '../../src/index.js';
import { minstdDataset } from '../helpers/minstd.js';

const M53 = [
  [0.42610548, 0.41748077, 0.15641374],
  [0.44766216, 0.47721294, 0.0751249],
  [0.1862702, 0.15139402, 0.66233578],
  [0.05753544, 0.8561222, 0.08634236],
  [0.18697925, 0.29836466, 0.51465609],
];
const L53 = [0, 1, 2, 1, 2];
const um = { preset: 'uncertainty-metrics' } as const;

describe('uncertainty_metrics general_calibration_error_test.py (§1)', () => {
  it('test_consistency: ECE with 30 bins = 0.412713502 (7 places)', () => {
    expect(gce(L53, M53, { ...um, bins: 30 })).toBeCloseTo(0.412713502, 7);
  });
  it('test_binary_1d / 2d: a vector is scored top-label on [1 − p, p]: 0.18124999999999997', () => {
    const p = [0.91, 0.32, 0.66, 0.67, 0.57, 0.98, 0.41, 0.19];
    const y = [1, 0, 1, 1, 0, 1, 0, 0];
    expect(ece(y, p, { ...um, binary: true })).toBeCloseTo(0.18124999999999997, 15);
    // contrast: the positive-class ECE of the same data
    expect(binaryCalibrationError(y, p, { ...um })).toBeCloseTo(0.28374999999999995, 15);
    expect(sce(y, p, { ...um, binary: true, bins: 10 })).toBeCloseTo(0.28374999999999995, 15);
  });
  const P63 = [
    [0.31, 0.32, 0.27],
    [0.37, 0.33, 0.3],
    [0.3, 0.31, 0.39],
    [0.61, 0.38, 0.01],
    [0.1, 0.65, 0.25],
    [0.91, 0.05, 0.04],
  ];
  const L63 = [1, 0, 0, 1, 0, 0];
  it('test_correctness_ece / rmsce with 10 bins', () => {
    // the peer's test rows sum to 0.9 … 1.0: we refuse that unless told to accept it
    expect(() => ece(L63, P63, { ...um, bins: 10 })).toThrow(/probs\[0\] must sum to 1/);
    const o = { ...um, bins: 10, sumTolerance: 0.15 };
    expect(ece(L63, P63, o)).toBeCloseTo(0.3783333333333333, 15);
    expect(rmsce(L63, P63, o)).toBeCloseTo(0.5498636194548608, 15);
    expect(sce(L63, P63, o)).toBeCloseTo(0.29111111111111115, 15);
    expect(ace(L63, P63, o)).toBeCloseTo(0.39666666666666667, 15);
    expect(tace(L63, P63, o)).toBeCloseTo(0.41, 15);
  });
  it('test_generatable_metrics: all 32 combinations lie in [0, 1] (with a column of zeros)', () => {
    const p4 = M53.map((r) => [...r, 0]);
    for (const binning of ['equal-width', 'equal-mass'] as const)
      for (const topLabel of [true, false])
        for (const classConditional of [true, false])
          for (const threshold of [0, 0.01])
            for (const norm of ['l1', 'l2'] as const) {
              const v = gce(L53, p4, { ...um, binning, topLabel, classConditional, threshold, norm });
              expect(v).toBeGreaterThanOrEqual(0);
              expect(v).toBeLessThanOrEqual(1);
            }
  });
  // §1.6: compute_all_metrics on the 5×3 matrix with 30 bins, in itertools.product order
  const TABLE: [CalibrationErrorOptions['binning'], boolean, boolean, number, number][] = [
    ['equal-width', true, true, 0.43957700499999997, 0.4658849657820838],
    ['equal-width', true, false, 0.41271350199999995, 0.441120819722808],
    ['equal-width', false, true, 0.275142334, 0.3235264141008511],
    ['equal-width', false, false, 0.21947823133333333, 0.26815605254013314],
    ['equal-mass', true, true, 0.43957700499999997, 0.4658849657820838],
    ['equal-mass', true, false, 0.41271350199999995, 0.441120819722808],
    ['equal-mass', false, true, 0.275142334, 0.3235329222191263],
    ['equal-mass', false, false, 0.275142334, 0.3235329222191263],
  ];
  for (const [binning, topLabel, classConditional, l1, l2] of TABLE) {
    it(`compute_all_metrics ${binning} topLabel=${topLabel} classConditional=${classConditional}`, () => {
      for (const threshold of [0, 0.01]) {
        expect(
          gce(L53, M53, { ...um, bins: 30, binning, topLabel, classConditional, threshold, norm: 'l1' }),
        ).toBeCloseTo(l1, 14);
        expect(
          gce(L53, M53, { ...um, bins: 30, binning, topLabel, classConditional, threshold, norm: 'l2' }),
        ).toBeCloseTo(l2, 14);
      }
    });
  }
  it('presets on the same matrix with 30, 10 and 2 bins', () => {
    expect(ece(L53, M53, { ...um, bins: 30 })).toBeCloseTo(0.41271350199999995, 15);
    expect(ece(L53, M53, { ...um, bins: 10 })).toBeCloseTo(0.412713502, 15);
    expect(ece(L53, M53, { ...um, bins: 2 })).toBeCloseTo(0.412713502, 15);
    expect(rmsce(L53, M53, { ...um, bins: 30 })).toBeCloseTo(0.441120819722808, 15);
    expect(rmsce(L53, M53, { ...um, bins: 10 })).toBeCloseTo(0.441120819722808, 15);
    expect(rmsce(L53, M53, { ...um, bins: 2 })).toBeCloseTo(0.4273120743671156, 15);
    expect(sce(L53, M53, { ...um, bins: 30 })).toBeCloseTo(0.275142334, 15);
    expect(sce(L53, M53, { ...um, bins: 10 })).toBeCloseTo(0.15978994333333335, 15);
    expect(sce(L53, M53, { ...um, bins: 2 })).toBeCloseTo(0.12891812333333333, 15);
    for (const f of [ace, tace]) {
      expect(f(L53, M53, { ...um, bins: 30 })).toBeCloseTo(0.275142334, 15);
      expect(f(L53, M53, { ...um, bins: 10 })).toBeCloseTo(0.275142334, 15);
      expect(f(L53, M53, { ...um, bins: 2 })).toBeCloseTo(0.12210379666666663, 15);
    }
    // the default preset uses 30 bins, like um.ece(labels, probs)
    expect(ece(L53, M53, um)).toBe(ece(L53, M53, { ...um, bins: 30 }));
  });
  it('binary data of §1.2 under the other presets (10 bins)', () => {
    const p = [0.91, 0.32, 0.66, 0.67, 0.57, 0.98, 0.41, 0.19];
    const y = [1, 0, 1, 1, 0, 1, 0, 0];
    expect(ece(y, p, { ...um, binary: true, bins: 10 })).toBeCloseTo(0.18125000000000002, 15);
    expect(ace(y, p, { ...um, binary: true, bins: 10 })).toBeCloseTo(0.28374999999999995, 15);
    expect(rmsce(y, p, { ...um, binary: true, bins: 10 })).toBeCloseTo(0.3287286114715297, 15);
  });
});

describe('uncertainty_metrics TF calibration_test.py (§2)', () => {
  it('testECEBinaryClassification: 0.14499999999999996', () => {
    const p = [0.51, 0.45, 0.39, 0.66, 0.68, 0.29, 0.81, 0.85];
    const y = [0, 0, 0, 1, 0, 1, 1, 1];
    expect(ece(y, p, { binary: true, bins: 10, preset: 'uncertainty-metrics-tf', precision: 'float64' })).toBeCloseTo(
      0.14499999999999996,
      15,
    );
  });
});

describe('torchmetrics docstrings and tests (§4)', () => {
  const tm = { preset: 'torchmetrics' } as const;
  it('binary_calibration_error, 2 bins: l1 0.2900, l2 0.2918, max 0.3167', () => {
    const preds = [0.25, 0.25, 0.55, 0.75, 0.75];
    const target = [0, 0, 1, 1, 1];
    expect(binaryCalibrationError(target, preds, { ...tm, bins: 2 })).toBeCloseTo(0.29, 4);
    expect(binaryCalibrationError(target, preds, { ...tm, bins: 2, norm: 'l2' })).toBeCloseTo(0.2918, 4);
    expect(binaryCalibrationError(target, preds, { ...tm, bins: 2, norm: 'max' })).toBeCloseTo(0.3167, 4);
  });
  it('multiclass_calibration_error, 3 bins: l1 0.2000, l2 0.2082, max 0.2333', () => {
    const preds = [
      [0.25, 0.2, 0.55],
      [0.55, 0.05, 0.4],
      [0.1, 0.3, 0.6],
      [0.9, 0.05, 0.05],
    ];
    const target = [0, 1, 2, 0];
    expect(gce(target, preds, { ...tm, bins: 3 })).toBeCloseTo(0.2, 4);
    expect(gce(target, preds, { ...tm, bins: 3, norm: 'l2' })).toBeCloseTo(0.2082, 4);
    expect(gce(target, preds, { ...tm, bins: 3, norm: 'max' })).toBeCloseTo(0.2333, 4);
  });
  it('test_binary_with_zero_pred: 0.6 (the four 1.0 predictions in the own bin, p = 0 in bin 0)', () => {
    expect(binaryCalibrationError([0, 0, 1, 1, 1], [1, 1, 1, 1, 0], { ...tm, bins: 2 })).toBeCloseTo(0.6, 15);
  });
  it('test_corner_case_due_to_dtype (issue 1907): torchmetrics and netcal agree', () => {
    const preds = [0.9, 0.9, 0.9, 0.9, 0.9, 0.8, 0.8, 0.01, 0.33, 0.34, 0.99, 0.61];
    const target = [1, 1, 1, 0, 0, 1, 0, 1, 0, 1, 0, 0];
    for (const [bins, v] of [
      [99, 0.4733333333333334],
      [100, 0.4733333333333334],
      [10, 0.41833333333333333],
      [15, 0.4733333333333334],
    ] as const) {
      expect(binaryCalibrationError(target, preds, { ...tm, precision: 'float64', bins })).toBeCloseTo(v, 15);
      expect(binaryCalibrationError(target, preds, { preset: 'netcal', bins })).toBeCloseTo(v, 15);
    }
  });
});

describe('torch-uncertainty CalibrationError docstring (§5.2b)', () => {
  it('5 bins on [0.9, 0.8, 0.3, 0.2] vs [1, 1, 0, 0]: 0.2', () => {
    expect(binaryCalibrationError([1, 1, 0, 0], [0.9, 0.8, 0.3, 0.2], { bins: 5 })).toBeCloseTo(0.2, 15);
  });
});

describe('verified_calibration util_test.py (§6.3)', () => {
  const vc = { preset: 'verified-calibration' } as const;
  const P = [
    [0.8, 0.1, 0.1],
    [0.6, 0.2, 0.2],
    [0.0, 0.9, 0.1],
    [0.0, 1.0, 0.0],
    [0.3, 0.3, 0.4],
    [0.2, 0.0, 0.85],
  ];
  it('test_ece', () => {
    // the last row sums to 1.05 in the peer's own test; accept it explicitly
    expect(ece([0, 0, 1, 1, 0, 2], P, { ...vc, bins: 3, sumTolerance: 0.1 })).toBeCloseTo(
      (4 / 6) * (1 - (0.8 + 0.85 + 0.9 + 1.0) / 4),
      15,
    );
    expect(binaryCalibrationError([0, 0, 1, 1], [0.6, 0.7, 0.8, 0.9], { ...vc, bins: 2 })).toBeCloseTo(0.25, 15);
  });
  it('test_1d_ece_em (equal-mass bins)', () => {
    const rows: [number[], number[], number, number][] = [
      [[0.1], [1], 1, 0.9],
      [[0.1], [0], 1, 0.1],
      [[0.1, 0.7], [0, 1], 1, 0.1],
      [[0.7, 0.1], [1, 0], 1, 0.1],
      [[0.1, 0.7, 0.4], [0, 0, 0], 1, 0.4],
      [[0.1, 0.9], [0, 1], 1, 0.0],
      [[0.1, 0.7], [0, 1], 2, 0.2],
      [[0.1, 0.1, 0.7], [0, 1, 1], 2, 0.4 * (2 / 3) + 0.3 * (1 / 3)],
      [[0.1, 0.1, 0.1, 0.1, 0.7], [0, 1, 0, 0, 1], 2, 0.15 * (4 / 5) + 0.3 * (1 / 5)],
      [[0.1, 0.7, 0.5, 0.9], [0, 1, 0, 1], 2, 0.25],
      [[0.1, 0.7, 0.5, 0.9], [0, 1, 0, 1], 4, 0.25],
      [[0.6, 0.7, 0.8, 0.9], [0, 0, 1, 1], 2, 0.4],
      [[0.1, 0.7, 0.5, 0.9], [0, 1, 1, 1], 2, 0.2],
      [[0.1, 0.7, 0.5, 0.9], [0, 1, 1, 1], 4, 0.25],
    ];
    for (const [p, y, bins, v] of rows) {
      expect(binaryCalibrationError(y, p, { ...vc, binning: 'equal-mass', bins })).toBeCloseTo(v, 15);
      if (bins === 1) expect(binaryCalibrationError(y, p, { ...vc, bins: 1 })).toBeCloseTo(v, 15);
    }
  });
  it('test_missing_classes_ece and test_missing_class_binary_ece', () => {
    expect(
      ece(
        [0, 0],
        [
          [0.9, 0.1],
          [0.8, 0.2],
        ],
        vc,
      ),
    ).toBeCloseTo(0.15, 15);
    expect(binaryCalibrationError([0, 0, 0], [0.9, 0.1, 0.3], { ...vc, bins: 1 })).toBeCloseTo(1.3 / 3, 15);
    expect(binaryCalibrationError([1, 1, 1], [0.9, 0.1, 0.3], { ...vc, bins: 1 })).toBeCloseTo(1.7 / 3, 15);
  });
});

describe('12×3 dataset (§10)', () => {
  const P = [
    [159, 268, 573],
    [47, 676, 277],
    [179, 30, 791],
    [639, 210, 151],
    [701, 170, 129],
    [631, 188, 181],
    [366, 588, 46],
    [209, 626, 165],
    [776, 159, 65],
    [448, 291, 261],
    [75, 171, 754],
    [210, 696, 94],
  ].map((r) => r.map((x) => x / 1000.0));
  const L = [0, 1, 1, 1, 1, 0, 1, 0, 1, 0, 2, 2];
  const T: [string, (b: number) => number, number, number][] = [
    ['um ece', (b) => ece(L, P, { ...um, bins: b }), 0.3335833333333333, 0.33358333333333334],
    ['um rmsce', (b) => rmsce(L, P, { ...um, bins: b }), 0.5099979166624115, 0.5851140202273969],
    ['um sce', (b) => sce(L, P, { ...um, bins: b }), 0.3063888888888889, 0.33644444444444443],
    ['um ace', (b) => ace(L, P, { ...um, bins: b }), 0.3673333333333333, 0.4373333333333334],
    ['um tace', (b) => tace(L, P, { ...um, bins: b }), 0.3673333333333333, 0.4373333333333334],
    [
      'torchmetrics-style l1 (float64)',
      (b) => gce(L, P, { preset: 'torchmetrics', precision: 'float64', bins: b }),
      0.3335833333333333,
      0.33358333333333334,
    ],
    [
      'torchmetrics-style l2 (float64)',
      (b) => gce(L, P, { preset: 'torchmetrics', precision: 'float64', bins: b, norm: 'l2' }),
      0.3720831336318986,
      0.3594818609239322,
    ],
    [
      'torchmetrics-style max (float64)',
      (b) => gce(L, P, { preset: 'torchmetrics', precision: 'float64', bins: b, norm: 'max' }),
      0.552,
      0.552,
    ],
    ['netcal-style ECE', (b) => ece(L, P, { preset: 'netcal', bins: b }), 0.3335833333333333, 0.33358333333333334],
    ['netcal-style MCE', (b) => mce(L, P, { preset: 'netcal', bins: b }), 0.552, 0.552],
    // Laves' uceloss bins (lo, hi]; no row here has H̃ = 0, so it equals a right-closed UCE
    [
      'Laves UCE (float64, (lo, hi])',
      (b) => uce(L, P, { bins: b, equalWidth: { index: 'edges', edges: 'numpy', closed: 'right' } }),
      0.24666500284727289,
      0.26703233438577334,
    ],
  ];
  for (const [name, f, b10, b15] of T) {
    it(name, () => {
      expect(f(10)).toBeCloseTo(b10, 14);
      expect(f(15)).toBeCloseTo(b15, 14);
    });
  }
});

describe('MINSTD binary dataset (§11)', () => {
  const { conf, correct } = minstdDataset();
  const vc = { preset: 'verified-calibration' } as const;
  it('verified get_ece, 15 equal-width bins: 0.15134659792188548', () => {
    expect(binaryCalibrationError(correct, conf, { ...vc, bins: 15 })).toBeCloseTo(0.15134659792188548, 14);
  });
  it('verified plug-in, 10 equal-width bins: 0.14342341708970413 (= relplot binnedECE(10))', () => {
    expect(binaryCalibrationError(correct, conf, { ...vc, bins: 10 })).toBeCloseTo(0.14342341708970413, 14);
    expect(binaryCalibrationError(correct, conf, { preset: 'relplot', bins: 10 })).toBeCloseTo(0.14342341708970413, 14);
  });
  it('verified get_ece_em, 15 equal-mass bins: 0.1530158176881645', () => {
    expect(binaryCalibrationError(correct, conf, { ...vc, bins: 15, binning: 'equal-mass' })).toBeCloseTo(
      0.1530158176881645,
      14,
    );
  });
  it('plug-in L2 with equal-mass bins, 10 / 15 bins', () => {
    expect(binaryCalibrationError(correct, conf, { ...vc, bins: 10, binning: 'equal-mass', norm: 'l2' })).toBeCloseTo(
      0.18449035104500403,
      14,
    );
    expect(binaryCalibrationError(correct, conf, { ...vc, bins: 15, binning: 'equal-mass', norm: 'l2' })).toBeCloseTo(
      0.18664675265982664,
      14,
    );
  });
});
