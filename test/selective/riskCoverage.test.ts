/** AURC, E-AURC, risk–coverage curves and the coverage/risk operating points: hand-checked cases and peers' values. */
import { describe, expect, it } from 'vitest';
import {
  accuracyAtCoverage,
  aurc,
  coverageAtRisk,
  eAurc,
  riskCoverageCurve,
  type AurcEstimator,
} from '../../src/index.js';
import { minstdDataset } from '../helpers/minstd.js';

/** (correct, confidence) pairs as labels 0 and predicted classes 0 (correct) or 1 (wrong). */
function pairs(correct: number[], confidence: number[]) {
  return {
    labels: correct.map(() => 0),
    predicted: correct.map((c) => (c === 1 ? 0 : 1)),
    options: { input: 'predicted' as const, by: { confidence } },
  };
}
const ESTIMATORS: AurcEstimator[] = ['mean-risk', 'geifman', 'fd-shifts', 'torch-uncertainty'];

describe('AURC conventions (reference_values.md §12.3 and §11)', () => {
  const CASES: {
    name: string;
    residuals: number[];
    confidence: number[];
    values: Record<AurcEstimator, number>;
    excess: Partial<Record<AurcEstimator, number>>;
  }[] = [
    {
      name: '5 predictions with a tie',
      residuals: [0, 0, 1, 1, 0],
      confidence: [0.9, 0.8, 0.7, 0.6, 0.8],
      values: { geifman: 0.12, 'fd-shifts': 0.09, 'torch-uncertainty': 0.1125, 'mean-risk': 0.13 },
      excess: { geifman: 0.026495374259594445, 'fd-shifts': -0.0035046257404058034 },
    },
    {
      name: '8 predictions',
      residuals: [0, 1, 0, 1, 1, 0, 0, 0],
      confidence: [0.95, 0.9, 0.85, 0.7, 0.65, 0.6, 0.55, 0.5],
      values: {
        geifman: 0.3327380952380953,
        'fd-shifts': 0.38117559523809524,
        'torch-uncertainty': 0.43562925170068034,
        'mean-risk': 0.40461309523809524,
      },
      excess: { geifman: 0.25149036351668, 'fd-shifts': 0.2999278635166797 },
    },
  ];
  for (const c of CASES) {
    it(c.name, () => {
      const { labels, predicted, options } = pairs(
        c.residuals.map((r) => 1 - r),
        c.confidence,
      );
      for (const e of ESTIMATORS)
        expect(aurc(labels, predicted, { ...options, estimator: e }), e).toBeCloseTo(c.values[e], 15);
      for (const [e, v] of Object.entries(c.excess))
        expect(eAurc(labels, predicted, { ...options, estimator: e as AurcEstimator }), e).toBeCloseTo(v, 15);
    });
  }
  it('MINSTD data set (300 predictions): all four conventions and both E-AURCs', () => {
    const { conf, correct } = minstdDataset();
    const { labels, predicted, options } = pairs(correct, conf);
    const expected: Record<AurcEstimator, number> = {
      geifman: 0.3609982511835821,
      'fd-shifts': 0.36346979161707366,
      'torch-uncertainty': 0.36468540964923774,
      'mean-risk': 0.36420868050596245,
    };
    for (const e of ESTIMATORS)
      expect(aurc(labels, predicted, { ...options, estimator: e }), e).toBeCloseTo(expected[e], 14);
    expect(eAurc(labels, predicted, { ...options, estimator: 'geifman' })).toBeCloseTo(0.243753939830207, 14);
    expect(eAurc(labels, predicted, { ...options, estimator: 'fd-shifts' })).toBeCloseTo(0.24622548026369834, 14);
    // mean-risk = 1 − verified_calibration's selective accuracy 0.6357913194940376
    expect(1 - aurc(labels, predicted, options)).toBeCloseTo(0.6357913194940376, 14);
    expect(accuracyAtCoverage(labels, predicted, { ...options, coverage: 31 / 300 })).toBeCloseTo(
      0.7419354838709677,
      15,
    );
  });
});

describe('verified_calibration test_selective_stats (AURC = 1 − selective accuracy; accuracy of the top ⌊0.1·N⌋ + 1)', () => {
  const h = (n: number) => Array.from({ length: n }, (_, k) => 1 / (k + 1)).reduce((a, b) => a + b, 0) / n;
  const ten = Array<number>(10).fill(0.1);
  const ROWS: [number[], number[], number, number][] = [
    [[0.1], [1], 1, 1],
    [[0.6], [0], 0, 0],
    [[0.3, 0.9], [0, 1], 0.75, 1],
    [[0.9, 0.3], [1, 0], 0.75, 1],
    [[0.3, 0.9], [1, 0], 0.25, 0],
    [[0.6, 0.0, 0.8], [1, 0, 1], 8 / 9, 1],
    [[0.6, 0.0, 0.8], [1, 1, 1], 1, 1],
    [[0.6, 0.0, 0.8], [0, 0, 0], 0, 0],
    [[0.6, 0.0, 0.8], [0, 0, 1], 11 / 18, 1],
    [[0.6, 0.0, 0.8], [0, 1, 0], 1 / 9, 0],
    [[...ten, 0.6, 0.7], [...Array<number>(12).fill(0)], 0, 0],
    [[...ten, 0.6, 0.7], [...Array<number>(11).fill(0), 1], h(12), 0.5],
    [[...ten, 0.6, 0.7], [...Array<number>(10).fill(0), 1, 0], h(12) - 1 / 12, 0.5],
  ];
  for (const [conf, correct, selectiveAccuracy, top] of ROWS) {
    it(`${JSON.stringify(conf.length > 5 ? '[0.1]*10+[0.6,0.7]' : conf)} ${JSON.stringify(correct)}`, () => {
      const { labels, predicted, options } = pairs(correct, conf);
      expect(1 - aurc(labels, predicted, options)).toBeCloseTo(selectiveAccuracy, 15);
      const k = Math.floor(0.1 * conf.length) + 1;
      expect(accuracyAtCoverage(labels, predicted, { ...options, coverage: k / conf.length })).toBeCloseTo(top, 15);
    });
  }
});

describe('torch-uncertainty test_risk_coverage (binary vectors are [1 − p, p])', () => {
  const P = [0.1, 0.2, 0.3, 0.4, 0.2];
  const M = [
    [0.1, 0.9],
    [0.2, 0.8],
    [0.3, 0.7],
    [0.4, 0.6],
    [0.2, 0.8],
  ];
  const tu = { estimator: 'torch-uncertainty' as const };
  it('AURC: all wrong 1, all right 0, mixed 0.1125', () => {
    expect(aurc([1, 1, 1, 1, 1], P, { ...tu, binary: true })).toBe(1);
    expect(aurc([0, 0, 0, 0, 0], P, { ...tu, binary: true })).toBe(0);
    expect(aurc([0, 0, 1, 1, 0], P, { ...tu, binary: true })).toBeCloseTo(0.1125, 15);
    expect(aurc([1, 1, 1, 1, 1], M, tu)).toBe(0);
    expect(aurc([0, 0, 0, 0, 0], M, tu)).toBe(1);
    expect(aurc([1, 1, 0, 0, 1], M, tu)).toBeCloseTo(0.1125, 15);
  });
  it('a single prediction has no trapezoid: UM_EMPTY (torch-uncertainty returns NaN)', () => {
    expect(() => aurc([0], [[0.9, 0.1]], tu)).toThrow(expect.objectContaining({ code: 'UM_EMPTY' }) as Error);
  });
  it('CovAtxRisk: the largest coverage with risk ≤ target', () => {
    expect(
      coverageAtRisk(
        [0, 0, 0, 0, 0],
        [
          [0.9, 0.1],
          [0.8, 0.2],
          [0.7, 0.3],
          [0.6, 0.4],
          [0.8, 0.2],
        ],
        { risk: 0.5 },
      )?.coverage,
    ).toBe(1);
    expect(
      coverageAtRisk(
        [1, 1, 1, 1, 1],
        [
          [0.9, 0.1],
          [0.8, 0.2],
          [0.7, 0.3],
          [0.6, 0.4],
          [0.8, 0.2],
        ],
        { risk: 0.5 },
      ),
    ).toBeNull();
    expect(
      coverageAtRisk([1, 0, 1, 1, 1, 0, 0, 0, 1], [0.1, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.48, 0.49], {
        binary: true,
        risk: 0.55,
      })?.coverage,
    ).toBeCloseTo(8 / 9, 15);
    expect(coverageAtRisk([0, 0, 1, 1, 1], P, { binary: true, risk: 0.5 })?.coverage).toBe(4 / 5);
    expect(coverageAtRisk([0, 0, 1, 1, 0], P, { binary: true, risk: 0.5 })?.coverage).toBe(1);
  });
  it('RiskAtxCov = 1 − accuracyAtCoverage', () => {
    expect(
      1 -
        accuracyAtCoverage(
          [1, 1, 1, 1, 1],
          [
            [0.9, 0.1],
            [0.8, 0.2],
            [0.7, 0.3],
            [0.6, 0.4],
            [0.8, 0.2],
          ],
          { coverage: 0.5 },
        ),
    ).toBe(1);
    expect(1 - accuracyAtCoverage([0, 0, 1, 1, 1], P, { binary: true, coverage: 0.5 })).toBeCloseTo(1 / 3, 15);
    expect(
      1 - accuracyAtCoverage([0, 0, 1, 0, 1, 1], [0.1, 0.19, 0.3, 0.15, 0.4, 0.2], { binary: true, coverage: 0.5 }),
    ).toBe(0);
    expect(
      1 - accuracyAtCoverage([0, 0, 1, 0, 1, 1], [0.1, 0.2, 0.3, 0.15, 0.4, 0.2], { binary: true, coverage: 0.55 }),
    ).toBeCloseTo(1 / 4, 15);
  });
});

describe('ties and the curve', () => {
  it('a tied block is one point; AURC takes its expected risk (hand-checked)', () => {
    // confidences 0.9 (right), 0.5 ×4 (2 right, 2 wrong), 0.2 (wrong)
    const probs = [
      [0.9, 0.1],
      [0.5, 0.5],
      [0.5, 0.5],
      [0.5, 0.5],
      [0.5, 0.5],
      [0.8, 0.2],
    ].map((r, i) => (i === 5 ? [0.2, 0.8] : r));
    const labels = [0, 0, 0, 1, 1, 0];
    // row 5 predicts class 1 with confidence 0.8 and is wrong; rows 1–4 predict class 0 (tie → lowest index)
    const c = riskCoverageCurve(labels, probs);
    expect(c.points.map((p) => [p.threshold, p.count, p.risk])).toEqual([
      [0.9, 1, 0],
      [0.8, 2, 0.5],
      [0.5, 6, 0.5],
    ]);
    // err̄(k) for k = 1..6: 0, 1, 1.5, 2, 2.5, 3 → risks 0, 1/2, 1/2, 1/2, 1/2, 1/2
    expect(c.aurc).toBeCloseTo((0 + 0.5 * 5) / 6, 15);
    expect(aurc(labels, probs)).toBe(c.aurc);
    expect(eAurc(labels, probs)).toBe(c.eAurc);
    // oracle: 3 right then 3 wrong: risks 0, 0, 0, 1/4, 2/5, 1/2
    expect(c.eAurc).toBeCloseTo(c.aurc - (0.25 + 0.4 + 0.5) / 6, 15);
  });
  it('accuracyAtCoverage inside a tie takes the kept share of the block', () => {
    const probs = [
      [0.9, 0.1],
      [0.5, 0.5],
      [0.5, 0.5],
      [0.5, 0.5],
      [0.5, 0.5],
    ];
    // top 3 = the 0.9 (right) + 2 of 4 tied (2 right, 2 wrong) → expected 1 + 1 = 2 right of 3
    expect(accuracyAtCoverage([0, 0, 0, 1, 1], probs, { coverage: 0.6 })).toBeCloseTo(2 / 3, 15);
  });
  it('uncertainty measures report thresholds in their own scale and rank in reverse', () => {
    const probs = [
      [0.9, 0.1],
      [0.6, 0.4],
      [0.99, 0.01],
    ];
    const c = riskCoverageCurve([0, 1, 0], probs, { by: 'normalized-entropy' });
    expect(c.direction).toBe('uncertainty');
    const h = (p: number) => -(p * Math.log(p) + (1 - p) * Math.log(1 - p)) / Math.LN2;
    const expected = [h(0.99), h(0.9), h(0.6)];
    c.points.forEach((p, i) => expect(p.threshold).toBeCloseTo(expected[i] as number, 15));
    expect(c.points.map((p) => p.risk)).toEqual([0, 0, 1 / 3]);
  });
  it('E-AURC is 0 for a perfect ranking and positive otherwise', () => {
    const probs = [
      [0.9, 0.1],
      [0.8, 0.2],
      [0.7, 0.3],
      [0.6, 0.4],
    ];
    expect(eAurc([0, 0, 1, 1], probs)).toBe(0);
    expect(eAurc([1, 1, 0, 0], probs)).toBeGreaterThan(0);
  });
});
