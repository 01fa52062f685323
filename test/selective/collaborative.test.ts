/** Oracle-collaborative accuracy, rejection curves, accuracy/coverage operating points and row-order invariance. */
import { describe, expect, it } from 'vitest';
import {
  accuracyAtCoverage,
  aupr,
  auroc,
  aurc,
  coverageAtRisk,
  eAurc,
  oracleCollaborativeAccuracy,
  rejectionCurve,
  riskCoverageCurve,
} from '../../src/index.js';
import { exampleCsv, randomProbs } from '../helpers/data.js';
import { uniforms } from '../helpers/minstd.js';

const P8 = [0.51, 0.45, 0.39, 0.66, 0.68, 0.29, 0.81, 0.85];
const Y8 = [0, 0, 0, 1, 0, 1, 1, 1];

describe('oracleCollaborativeAccuracy: uncertainty_metrics accuracy_test.py (reference_values.md §2.5)', () => {
  it('10 bins, 40 % referred: 0.7916666666666666', () => {
    expect(oracleCollaborativeAccuracy(Y8, P8, { binary: true, fraction: 0.4, bins: 10 })).toBeCloseTo(
      0.7916666666666666,
      15,
    );
  });
  it('10 bins, 15 % referred (the last oracle bin is the first non-empty one): 0.6875', () => {
    expect(oracleCollaborativeAccuracy(Y8, P8, { binary: true, fraction: 0.15, bins: 10 })).toBeCloseTo(0.6875, 15);
  });
  it('decision threshold 0.655: bins of |p − t|, 30 % referred: 0.75', () => {
    const p = [0.51, 0.45, 0.39, 0.76, 0.68, 0.29, 0.81, 0.85];
    expect(
      oracleCollaborativeAccuracy([0, 0, 1, 1, 0, 1, 1, 1], p, {
        binary: true,
        fraction: 0.3,
        bins: 10,
        decisionThreshold: 0.655,
      }),
    ).toBeCloseTo(0.75, 15);
  });
  it('thresholds 0.5 and 0.5001 give the same result (13 bins, 26.7 %)', () => {
    const p = [0.51, 0.45, 0.39, 0.66, 0.68, 0.29, 0.81, 0.85, 0.49, 0.12, 0.37, 0.73, 0.95, 0.14];
    const y = [0, 0, 0, 1, 0, 1, 1, 1, 1, 0, 1, 1, 1, 0];
    const a = oracleCollaborativeAccuracy(y, p, { binary: true, fraction: 0.267, bins: 13, decisionThreshold: 0.5 });
    const b = oracleCollaborativeAccuracy(y, p, { binary: true, fraction: 0.267, bins: 13, decisionThreshold: 0.5001 });
    expect(a).toBeCloseTo(b, 15);
  });
  it('exact referral, example by example: the 3 least confident (0.51, 0.55, 0.61) referred → (3 + 3)/8', () => {
    // kept: 0.66 ✓, 0.68 ✗, 0.71 ✗ (p = 0.29 predicts 0, label 1), 0.81 ✓, 0.85 ✓ → 3 right
    expect(oracleCollaborativeAccuracy(Y8, P8, { binary: true, fraction: 0.4 })).toBe((3 + 3) / 8);
  });
  it('0 % referred is the accuracy; 100 % is 1; more referral never lowers it', () => {
    const { labels, probs } = exampleCsv('logreg_test');
    const acc = 1 - (riskCoverageCurve(labels, probs).points.at(-1)?.risk ?? Number.NaN);
    expect(oracleCollaborativeAccuracy(labels, probs, { fraction: 0 })).toBeCloseTo(acc, 15);
    expect(oracleCollaborativeAccuracy(labels, probs, { fraction: 1 })).toBe(1);
    let previous = 0;
    for (const f of [0, 0.01, 0.05, 0.1, 0.2, 0.5]) {
      const v = oracleCollaborativeAccuracy(labels, probs, { fraction: f });
      expect(v).toBeGreaterThanOrEqual(previous);
      previous = v;
    }
  });
  it('binned with 100 bins is close to exact on real predictions (mlp_overfit: 1 % referred)', () => {
    const { labels, probs } = exampleCsv('mlp_overfit_test');
    const exact = oracleCollaborativeAccuracy(labels, probs);
    const binned = oracleCollaborativeAccuracy(labels, probs, { bins: 100, preset: 'uncertainty-metrics-tf' });
    expect(Math.abs(exact - binned)).toBeLessThan(2e-3);
  });
});

describe('rejectionCurve on the bundled MNIST predictions (seeds 000 Fig. 2, 003 Fig. 3)', () => {
  for (const name of ['mlp_overfit_test', 'logreg_test'] as const) {
    for (const by of ['normalized-entropy', 'max-prob'] as const) {
      it(`${name}, ${by}: the error of the kept predictions falls as the threshold drops`, () => {
        const { labels, probs } = exampleCsv(name);
        const grid = Array.from({ length: 20 }, (_, i) => 1 - i * 0.05);
        const thresholds = by === 'max-prob' ? grid.map((t) => 1 - t) : grid; // 1 − max p ≤ H_max ⇔ max p ≥ 1 − H_max
        const { points } = rejectionCurve(labels, probs, { by, thresholds });
        for (let i = 1; i < points.length; i++) {
          const a = points[i - 1] as { error: number; count: number };
          const b = points[i] as { error: number; count: number };
          expect(b.count).toBeLessThanOrEqual(a.count);
          // within sampling noise: never more than one binomial standard error above the previous point
          expect(b.error).toBeLessThanOrEqual(a.error + Math.sqrt((a.error * (1 - a.error)) / a.count));
        }
        const first = points[0] as { error: number };
        const last = points.at(-1) as { error: number };
        expect(last.error).toBeLessThan(first.error * 0.6);
      });
    }
  }
  it('default thresholds are the risk–coverage points in reverse', () => {
    const { labels, probs } = randomProbs(5, 200, 4, 20);
    const r = rejectionCurve(labels, probs);
    const c = riskCoverageCurve(labels, probs, { by: 'normalized-entropy' });
    expect(r.points.map((p) => [p.threshold, p.count, p.error])).toEqual(
      [...c.points].reverse().map((p) => [p.threshold, p.count, p.risk]),
    );
  });
  it('a threshold below every value keeps nothing: error null', () => {
    const r = rejectionCurve(
      [0, 1],
      [
        [0.6, 0.4],
        [0.3, 0.7],
      ],
      { thresholds: [0.1] },
    );
    expect(r.points).toEqual([{ threshold: 0.1, count: 0, coverage: 0, error: null }]);
  });
});

describe('row order never matters (ties included)', () => {
  it('every selective function gives identical results on shuffled rows', () => {
    const { labels, probs } = randomProbs(11, 300, 3, 10); // multiples of 0.1: many ties
    const u = uniforms(12, 300);
    const order = labels.map((_, i) => i).sort((a, b) => (u[a] as number) - (u[b] as number));
    const l2 = order.map((i) => labels[i] as number);
    const p2 = order.map((i) => probs[i] as number[]);
    const all = (l: number[], p: number[][]) => [
      auroc(l, p),
      aupr(l, p),
      aupr(l, p, { positive: 'correct' }),
      aurc(l, p),
      eAurc(l, p),
      aurc(l, p, { estimator: 'fd-shifts' }),
      aurc(l, p, { estimator: 'geifman' }),
      aurc(l, p, { estimator: 'torch-uncertainty' }),
      accuracyAtCoverage(l, p, { coverage: 0.37 }),
      coverageAtRisk(l, p, { risk: 0.5 }),
      oracleCollaborativeAccuracy(l, p, { fraction: 0.13 }),
      oracleCollaborativeAccuracy(l, p, { fraction: 0.13, bins: 10 }),
      riskCoverageCurve(l, p, { by: 'normalized-entropy' }),
      rejectionCurve(l, p, { thresholds: [0.9, 0.5] }),
      auroc(l, p, { by: 'margin' }),
    ];
    expect(all(l2, p2)).toEqual(all(labels, probs));
  });
});

describe('inputs', () => {
  it("input 'predicted' with per-sample confidences equals the same data as probabilities", () => {
    const probs = [
      [0.9, 0.1],
      [0.2, 0.8],
      [0.3, 0.7],
      [0.4, 0.6],
      [0.55, 0.45],
    ];
    const labels = [0, 0, 1, 0, 1];
    const predicted = [0, 1, 1, 1, 0];
    const confidence = [0.9, 0.8, 0.7, 0.6, 0.55];
    const o = { input: 'predicted' as const, by: { confidence } };
    expect(auroc(labels, predicted, o)).toBe(auroc(labels, probs));
    expect(aurc(labels, predicted, o)).toBe(aurc(labels, probs));
    expect(aupr(labels, predicted, o)).toBe(aupr(labels, probs));
  });
  it('a decision threshold moves the predicted class of two-class scores', () => {
    const p = [0.25, 0.5, 0.75, 0.875];
    // t = 0.625: predictions 0, 0, 1, 1 → correct for labels [0, 1, 1, 1]: 1, 0, 1, 1
    const c = riskCoverageCurve([0, 1, 1, 1], p, { binary: true, decisionThreshold: 0.625, by: 'max-prob' });
    expect(c.points.at(-1)?.risk).toBe(0.25);
    // default ranking for t ≠ 0.5: |p − t| = 0.375, 0.125, 0.125, 0.25
    const d = riskCoverageCurve([0, 1, 1, 1], p, { binary: true, decisionThreshold: 0.625 });
    expect(d.measure).toBe('threshold-distance');
    expect(d.points.map((x) => x.count)).toEqual([1, 2, 4]);
  });
});
