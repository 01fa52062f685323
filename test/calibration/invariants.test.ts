import { describe, expect, it } from 'vitest';
import {
  ace,
  aece,
  amce,
  ece,
  evaluate,
  gce,
  mce,
  reliability,
  rmsce,
  sce,
  tace,
  toProbabilities,
  uce,
  type Labels,
  type Scores,
} from '../../src/index.js';
import { exampleCsv, permutation, randomProbs } from '../helpers/data.js';

type Metric = (labels: Labels, scores: Scores) => number;
const METRICS: [string, Metric][] = [
  ['ece', (l, s) => ece(l, s)],
  ['mce', (l, s) => mce(l, s)],
  ['rmsce', (l, s) => rmsce(l, s)],
  ['sce', (l, s) => sce(l, s)],
  ['ace', (l, s) => ace(l, s)],
  ['tace', (l, s) => tace(l, s)],
  ['uce', (l, s) => uce(l, s)],
  ['uce classwise', (l, s) => uce(l, s, { classwise: true })],
  ['aece', (l, s) => aece(l, s)],
  ['amce', (l, s) => amce(l, s)],
  [
    'gce equal-mass class-conditional l2',
    (l, s) => gce(l, s, { binning: 'equal-mass', classConditional: true, norm: 'l2' }),
  ],
  ['ece uncertainty-metrics preset', (l, s) => ece(l, s, { preset: 'uncertainty-metrics' })],
  ['ace uncertainty-metrics preset', (l, s) => ace(l, s, { preset: 'uncertainty-metrics' })],
  ['rmsce verified preset', (l, s) => rmsce(l, s, { preset: 'verified-calibration' })],
  ['rmsce netcal preset', (l, s) => rmsce(l, s, { preset: 'netcal' })],
  ['rmsce sklearn preset', (l, s) => rmsce(l, s, { preset: 'sklearn' })],
];

const DATA = {
  'random, 300 × 5, rounded to 1/20 (ties and exact zeros)': randomProbs(11, 300, 5, 20),
  'random, 500 × 10': randomProbs(12, 500, 10),
  'MNIST mlp_overfit (1,349 confidences exactly 1)': exampleCsv('mlp_overfit_test'),
};

describe('results do not depend on row order', () => {
  for (const [dataName, { labels, probs }] of Object.entries(DATA)) {
    const perm = permutation(labels.length);
    const pl = perm.map((i) => labels[i] as number);
    const pp = perm.map((i) => probs[i] as number[]);
    for (const [name, f] of METRICS) {
      it(`${name} — ${dataName}`, () => {
        const a = f(labels, probs);
        const b = f(pl, pp);
        expect(Math.abs(a - b)).toBeLessThan(1e-14);
        expect(a).toBeGreaterThanOrEqual(0);
        expect(a).toBeLessThanOrEqual(1);
      });
    }
  }
});

describe('0 ≤ calibration error ≤ 1 on adversarial inputs', () => {
  it('every metric stays in [0, 1] with confident wrong, uniform and one-hot rows', () => {
    const probs = [
      [1, 0, 0],
      [0, 1, 0],
      [1 / 3, 1 / 3, 1 / 3],
      [0.5, 0.5, 0],
      [0, 0, 1],
      [1, 0, 0],
    ];
    const labels = [1, 2, 0, 1, 0, 0];
    for (const [, f] of METRICS) {
      const v = f(labels, probs);
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThanOrEqual(1);
    }
    expect(
      ece(
        [1, 0],
        [
          [1, 0],
          [0, 1],
        ],
      ),
    ).toBe(1); // always confidently wrong
    expect(
      mce(
        [1, 0],
        [
          [1, 0],
          [0, 1],
        ],
      ),
    ).toBe(1);
  });
});

describe('every sample lands in exactly one bin', () => {
  const { labels, probs } = DATA['random, 300 × 5, rounded to 1/20 (ties and exact zeros)'];
  const variants = [
    {},
    { binning: 'equal-mass' as const },
    { binning: 'ding' as const },
    { preset: 'uncertainty-metrics' as const },
    { preset: 'torchmetrics' as const },
    { preset: 'sklearn' as const, binning: 'equal-mass' as const },
    { binning: { edges: [0, 0.25, 0.5, 0.75, 1] } },
    { measure: 'uncertainty' as const },
    { measure: 'uncertainty' as const, binning: 'equal-mass' as const },
  ];
  for (const v of variants) {
    it(JSON.stringify(v), () => {
      const t = reliability(labels, probs, v);
      expect(t.bins.reduce((s, b) => s + b.count, 0)).toBe(labels.length);
      expect(t.bins.reduce((s, b) => s + b.fraction, 0)).toBeCloseTo(1, 14);
      for (const b of t.bins) {
        expect(b.lower).toBeLessThanOrEqual(b.upper);
        if (b.count === 0) expect([b.meanScore, b.meanOutcome, b.gap]).toEqual([null, null, null]);
        else expect(b.meanScore as number).toBeGreaterThanOrEqual(b.lower - 1e-15);
      }
    });
  }
});

describe('a metric and its reliability table never disagree', () => {
  const { labels, probs } = DATA['MNIST mlp_overfit (1,349 confidences exactly 1)'];
  const options = [
    {},
    { bins: 10 },
    { preset: 'uncertainty-metrics' as const },
    { preset: 'torchmetrics' as const, bins: 20 },
    { preset: 'verified-calibration' as const },
  ];
  for (const o of options) {
    it(JSON.stringify(o), () => {
      const conf = reliability(labels, probs, o);
      expect(conf.calibrationError).toBe(ece(labels, probs, o));
      expect(conf.maxCalibrationError).toBe(mce(labels, probs, o));
      const unc = reliability(labels, probs, { ...o, measure: 'uncertainty' });
      expect(unc.calibrationError).toBe(uce(labels, probs, o));
    });
  }
});

describe('evaluate equals the individual functions', () => {
  for (const [dataName, { labels, probs }] of Object.entries(DATA)) {
    it(dataName, () => {
      const warnings: string[] = [];
      const r = evaluate(labels, probs, { bins: 12, onWarning: (w) => warnings.push(w.code) });
      const o = { bins: 12 };
      // Exact zeros at a label make the NLL infinite: then, and only then, evaluate warns.
      expect(warnings).toEqual(r.nll === Infinity ? ['UM_W_INFINITE'] : []);
      expect(r.ece).toBe(ece(labels, probs, o));
      expect(r.mce).toBe(mce(labels, probs, o));
      expect(r.rmsce).toBe(rmsce(labels, probs, o));
      expect(r.sce).toBe(sce(labels, probs, o));
      expect(r.ace).toBe(ace(labels, probs, o));
      expect(r.tace).toBe(tace(labels, probs, o));
      expect(r.uce).toBe(uce(labels, probs, o));
      expect(r.aece).toBe(aece(labels, probs));
      expect(r.amce).toBe(amce(labels, probs));
      const correct = labels.filter(
        (y, i) => (probs[i] as number[]).indexOf(Math.max(...(probs[i] as number[]))) === y,
      ).length;
      expect(r.accuracy).toBe(correct / labels.length);
      expect(r.config).toMatchObject({
        bins: 12,
        preset: 'default',
        input: 'probs',
        taceThreshold: 0.01,
        threshold: null,
      });
    });
  }
});

describe('one input model: every representation of the same predictions gives the same numbers', () => {
  const { labels, probs } = randomProbs(21, 200, 4);
  const flat64 = Float64Array.from(probs.flat());
  const flat32 = Float32Array.from(probs.flat());
  const logits = probs.map((r) => r.map((p) => Math.log(p) + 3.7)); // shift: softmax is shift invariant
  const logprobs = probs.map((r) => r.map((p) => Math.log(p)));
  it('nested, flat Float64Array, validated ProbMatrix', () => {
    const v = ece(labels, probs);
    expect(ece(labels, flat64, { numClasses: 4 })).toBe(v);
    expect(ece(labels, toProbabilities(probs))).toBe(v);
    expect(ece(Int32Array.from(labels), probs)).toBe(v);
  });
  it('logits and log-probabilities (within float64 rounding)', () => {
    const v = evaluate(labels, probs);
    for (const [scores, input] of [
      [logits, 'logits'],
      [logprobs, 'logprobs'],
    ] as const) {
      const w = evaluate(labels, scores, { input });
      for (const k of ['ece', 'mce', 'rmsce', 'sce', 'ace', 'tace', 'uce', 'aece', 'amce'] as const)
        expect(w[k]).toBeCloseTo(v[k] as number, 12);
    }
  });
  it('Float32Array is read as float32 values and accumulated in float64', () => {
    const rounded = probs.map((r) => r.map((p) => Math.fround(p)));
    expect(ece(labels, flat32, { numClasses: 4 })).toBe(ece(labels, rounded));
  });
  it('binary vector of P(y = 1) equals the two-column matrix', () => {
    const p1 = probs.map((r) => r[1] as number);
    const y = labels.map((l) => (l === 1 ? 1 : 0));
    const two = p1.map((p) => [1 - p, p]);
    expect(ece(y, p1, { binary: true })).toBe(ece(y, two));
    expect(uce(y, p1, { binary: true })).toBe(uce(y, two));
  });
});
