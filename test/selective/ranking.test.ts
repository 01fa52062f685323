/** AUROC and AUPR: hand-checked cases, brute force, Keras' approximation, one-class errors and Ding et al.'s example. */
import { describe, expect, it } from 'vitest';
import {
  aupr,
  auroc,
  aurc,
  eAurc,
  precisionRecallCurve,
  riskCoverageCurve,
  rocCurve,
  UMError,
} from '../../src/index.js';
import { createRng } from '../../src/random/rng.js';
import { uniforms } from '../helpers/minstd.js';

/** (correct, confidence) pairs as labels 0 and predicted classes 0 (correct) or 1 (wrong). */
function pairs(correct: number[], confidence: number[], extra: Record<string, unknown> = {}) {
  return {
    labels: correct.map(() => 0),
    predicted: correct.map((c) => (c === 1 ? 0 : 1)),
    options: { input: 'predicted' as const, by: { confidence }, ...extra },
  };
}

/** Mann–Whitney with ties ½, by brute force. */
function bruteAuroc(correct: number[], conf: number[]): number {
  let s = 0;
  let pairsCount = 0;
  correct.forEach((ci, i) => {
    if (ci !== 1) return;
    correct.forEach((cj, j) => {
      if (cj !== 0) return;
      pairsCount++;
      s += (conf[i] as number) > (conf[j] as number) ? 1 : conf[i] === conf[j] ? 0.5 : 0;
    });
  });
  return s / pairsCount;
}

/** Average precision by definition: Σ over distinct thresholds of ΔRecall · Precision. */
function bruteAp(positive: number[], score: number[]): number {
  const levels = [...new Set(score)].sort((a, b) => b - a);
  const total = positive.reduce((a, b) => a + b, 0);
  let prevRecall = 0;
  let ap = 0;
  for (const t of levels) {
    const kept = score.map((s, i) => (s >= t ? i : -1)).filter((i) => i >= 0);
    const hits = kept.filter((i) => positive[i] === 1).length;
    const recall = hits / total;
    ap += (recall - prevRecall) * (hits / kept.length);
    prevRecall = recall;
  }
  return ap;
}

describe('exact AUROC and AUPR', () => {
  it('equal a brute-force Mann–Whitney count and the definition of average precision, with many ties', () => {
    for (const seed of [1, 2, 3]) {
      const u = uniforms(seed, 400);
      const conf = u.slice(0, 200).map((x) => Math.round(x * 10) / 10);
      const correct = u.slice(200).map((x, i) => (x < (conf[i] as number) ? 1 : 0));
      const { labels, predicted, options } = pairs(correct, conf);
      expect(auroc(labels, predicted, options)).toBeCloseTo(bruteAuroc(correct, conf), 14);
      expect(aupr(labels, predicted, { ...options, positive: 'correct' })).toBeCloseTo(bruteAp(correct, conf), 14);
      expect(aupr(labels, predicted, options)).toBeCloseTo(
        bruteAp(
          correct.map((c) => 1 - c),
          conf.map((c) => -c),
        ),
        14,
      );
    }
  });
  it('ranking by an uncertainty reverses the order: normalized entropy equals max-prob on two classes', () => {
    const u = uniforms(9, 300);
    const probs = u.slice(0, 150).map((x) => [x, 1 - x]);
    const labels = u.slice(150).map((x) => (x < 0.5 ? 0 : 1));
    expect(auroc(labels, probs, { by: 'normalized-entropy' })).toBeCloseTo(auroc(labels, probs), 14);
    expect(aupr(labels, probs, { by: 'entropy' })).toBeCloseTo(aupr(labels, probs), 14);
    expect(auroc(labels, probs, { by: 'margin' })).toBeCloseTo(auroc(labels, probs), 14);
  });
  it('{ uncertainty } and { confidence } given by the caller state the direction', () => {
    const labels = [0, 0, 1, 0];
    const probs = [
      [0.9, 0.1],
      [0.2, 0.8],
      [0.3, 0.7],
      [0.4, 0.6],
    ];
    const u = [0.1, 0.2, 0.3, 0.4];
    expect(auroc(labels, probs, { by: { uncertainty: u } })).toBe(
      auroc(labels, probs, { by: { confidence: u.map((x) => -x) } }),
    );
    expect(auroc(labels, probs, { by: { uncertainty: u } })).toBe(1 - auroc(labels, probs, { by: { confidence: u } }));
  });
});

describe('rocCurve and precisionRecallCurve: the curves under auroc and aupr', () => {
  it('their areas are auroc and aupr exactly, on data with many ties', () => {
    const u = uniforms(31, 600);
    const conf = u.slice(0, 300).map((x) => Math.round(x * 20) / 20);
    const correct = u.slice(300).map((x, i) => (x < (conf[i] as number) ? 1 : 0));
    const { labels, predicted, options } = pairs(correct, conf);
    const roc = rocCurve(labels, predicted, options);
    expect(roc.auroc).toBe(auroc(labels, predicted, options));
    let area = 0;
    for (let i = 1; i < roc.points.length; i++) {
      const a = roc.points[i - 1] as { fpr: number; tpr: number };
      const b = roc.points[i] as { fpr: number; tpr: number };
      area += ((b.fpr - a.fpr) * (a.tpr + b.tpr)) / 2;
    }
    expect(area).toBeCloseTo(roc.auroc, 14);
    expect(roc.points.length).toBe(new Set(conf).size + 1);
    for (const positive of ['error', 'correct'] as const) {
      const pr = precisionRecallCurve(labels, predicted, { ...options, positive });
      expect(pr.aupr).toBe(aupr(labels, predicted, { ...options, positive }));
      let ap = 0;
      pr.points.forEach(
        (p, i) => (ap += (p.recall - (i === 0 ? 0 : (pr.points[i - 1] as { recall: number }).recall)) * p.precision),
      );
      expect(ap).toBeCloseTo(pr.aupr, 14);
      expect(pr.points.at(-1)?.recall).toBe(1);
    }
  });
});

describe("Keras' thresholded approximation (uncertainty_metrics' AUC)", () => {
  it('Keras AUC(num_thresholds=3) on y = [0, 0, 1, 1], p = [0, 0.5, 0.3, 0.9] is 0.75', () => {
    const { labels, predicted, options } = pairs([0, 0, 1, 1], [0, 0.5, 0.3, 0.9], { thresholds: 3 });
    expect(auroc(labels, predicted, options)).toBeCloseTo(0.75, 7);
  });
  it('robustness_metrics CalibrationAUC tests (10 thresholds): AUROC and AUPR of correct = [1, 0, 0, 0, 1]', () => {
    const correct = [1, 0, 0, 0, 1];
    const ROC: [number[], number][] = [
      [[1, 0, 0, 0, 1], 1],
      [[1, 0, 0, 0.1, 0], 0.75],
      [[1, 0.5, 0.5, 0.5, 0], 0.5],
      [[0.5, 0.5, 0.5, 0.5, 0.5], 0.5],
      [[0.1, 0.9, 0.9, 0.9, 0.1], 0],
    ];
    const PR: [number[], number][] = [
      [[1, 0, 0, 0, 1], 1],
      [[1, 0, 0, 0.1, 1], 1],
      [[1, 0.8, 0.5, 0.1, 0.5], 0.75],
      [[0.5, 0.5, 0.5, 0.5, 0.5], 0.4],
      [[0.1, 0.9, 0.9, 0.9, 0.1], 0.234],
    ];
    for (const [conf, v] of ROC) {
      const { labels, predicted, options } = pairs(correct, conf, { preset: 'uncertainty-metrics-tf', thresholds: 10 });
      expect(auroc(labels, predicted, options), JSON.stringify(conf)).toBeCloseTo(v, 6);
    }
    for (const [conf, v] of PR) {
      const { labels, predicted, options } = pairs(correct, conf, {
        preset: 'uncertainty-metrics-tf',
        thresholds: 10,
        positive: 'correct',
      });
      expect(Math.abs(aupr(labels, predicted, options) - v), JSON.stringify(conf)).toBeLessThanOrEqual(1e-3);
    }
  });
  it('needs values in [0, 1]: entropy of 3 classes is out of range', () => {
    expect(() =>
      auroc(
        [2, 0],
        [
          [0.3, 0.3, 0.4],
          [0.1, 0.1, 0.8],
        ],
        { by: 'entropy', thresholds: 200 },
      ),
    ).toThrow(/^auroc: entropy\[0\] must lie in \[0, 1\] for the thresholded approximation/);
  });
});

describe('one class only is an error with its own code', () => {
  const probs = [
    [0.9, 0.1],
    [0.2, 0.8],
  ];
  for (const [name, call] of [
    ['auroc, all correct', () => auroc([0, 1], probs)],
    ['auroc, all wrong', () => auroc([1, 0], probs)],
    ['aupr errors, all correct', () => aupr([0, 1], probs)],
    ['aupr correct, all wrong', () => aupr([1, 0], probs, { positive: 'correct' })],
    ['aupr correct, all correct', () => aupr([0, 1], probs, { positive: 'correct' })],
  ] as const) {
    it(name, () => {
      let error: unknown;
      try {
        call();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(UMError);
      expect((error as UMError).code).toBe('UM_SINGLE_CLASS');
      expect((error as UMError).message).toMatch(
        /^au(roc|pr): labels must hold both (correct|wrong) predictions and (correct|wrong) predictions; got "no (correct|wrong) predictions"$/,
      );
    });
  }
});

describe('Ding et al. (arXiv:1903.02050) §4.1, Table 1: AURC ranks the network with fewer errors better', () => {
  // Network 1: 10,000 predictions, ~95 % correct; Network 2: the same, except that its 20 least confident correct
  // predictions are wrong (same confidences). AUROC and AUPR prefer Network 2; AURC prefers Network 1.
  const rng = createRng('test', 2020);
  const n = 10000;
  const conf: number[] = [];
  const correct1: number[] = [];
  for (let i = 0; i < n; i++) {
    const c = 1 - 0.5 * rng.uniform() ** 3; // mostly confident
    conf.push(c);
    correct1.push(rng.uniform() < c ** 0.5 ? 1 : 0);
  }
  const leastConfidentCorrect = conf
    .map((c, i) => [c, i] as const)
    .filter(([, i]) => correct1[i] === 1)
    .sort((a, b) => a[0] - b[0])
    .slice(0, 20)
    .map(([, i]) => i);
  const correct2 = [...correct1];
  for (const i of leastConfidentCorrect) correct2[i] = 0;
  const one = pairs(correct1, conf);
  const two = pairs(correct2, conf);
  it('the construction: Network 2 has exactly 20 more errors', () => {
    expect(correct1.reduce((a, b) => a + b, 0) - correct2.reduce((a, b) => a + b, 0)).toBe(20);
    expect(correct1.reduce((a, b) => a + b, 0) / n).toBeGreaterThan(0.9);
  });
  it('AUROC and both AUPRs rank Network 2 higher', () => {
    expect(auroc(two.labels, two.predicted, two.options)).toBeGreaterThan(
      auroc(one.labels, one.predicted, one.options),
    );
    expect(aupr(two.labels, two.predicted, two.options)).toBeGreaterThan(aupr(one.labels, one.predicted, one.options));
  });
  it('AURC ranks Network 1 better (lower), and its risk is never higher at any coverage', () => {
    expect(aurc(one.labels, one.predicted, one.options)).toBeLessThan(aurc(two.labels, two.predicted, two.options));
    const c1 = riskCoverageCurve(one.labels, one.predicted, one.options).points;
    const c2 = riskCoverageCurve(two.labels, two.predicted, two.options).points;
    expect(c1.length).toBe(c2.length);
    c1.forEach((p, i) => expect(p.risk).toBeLessThanOrEqual((c2[i] as { risk: number }).risk));
  });
  it('E-AURC, which removes the effect of the error count, prefers Network 2 like AUROC', () => {
    expect(eAurc(two.labels, two.predicted, two.options)).toBeLessThan(eAurc(one.labels, one.predicted, one.options));
  });
});
