import { describe, expect, it } from 'vitest';
import * as um from '../../src/index.js';
import { UMError } from '../../src/index.js';
import { randomProbs } from '../helpers/data.js';
import { uniforms } from '../helpers/minstd.js';

// Frequency-weight semantics: a row of integer weight w is w copies of itself, weight 0 removes the row.
type Call = (labels: number[], probs: number[][], weights?: number[]) => unknown;

const scalar: Record<string, Call> = {
  ece: (y, p, w) => um.ece(y, p, { weights: w }),
  'ece (threshold)': (y, p, w) => um.ece(y, p, { weights: w, threshold: 0.1 }),
  mce: (y, p, w) => um.mce(y, p, { weights: w }),
  rmsce: (y, p, w) => um.rmsce(y, p, { weights: w }),
  sce: (y, p, w) => um.sce(y, p, { weights: w }),
  ace: (y, p, w) => um.ace(y, p, { weights: w }),
  tace: (y, p, w) => um.tace(y, p, { weights: w }),
  aece: (y, p, w) => um.aece(y, p, { weights: w }),
  amce: (y, p, w) => um.amce(y, p, { weights: w }),
  uce: (y, p, w) => um.uce(y, p, { weights: w }),
  'uce classwise': (y, p, w) => um.uce(y, p, { weights: w, classwise: true }),
  mmce: (y, p, w) => um.mmce(y, p, { weights: w }),
  debiasedEce: (y, p, w) => um.debiasedEce(y, p, { weights: w }),
  'debiasedEce marginal': (y, p, w) => um.debiasedEce(y, p, { weights: w, mode: 'marginal' }),
  bayesianEce: (y, p, w) => um.bayesianEce(y, p, { weights: w, samples: 50 }),
  smoothEce: (y, p, w) => um.smoothEce(y, p, { weights: w }),
  'mmce weighted': (y, p, w) => um.mmce(y, p, { weights: w, weighted: true }),
  'gce equal-mass classwise l2': (y, p, w) =>
    um.gce(y, p, { weights: w, binning: 'equal-mass', norm: 'l2', topLabel: false, classConditional: true }),
  // `count` is the number of rows in a bin by design; `weight` is the weight sum
  reliability: (y, p, w) => um.reliability(y, p, { weights: w, bins: 5 }).bins.map(({ count: _, ...b }) => b),
  brier: (y, p, w) => um.brier(y, p, { weights: w }),
  nll: (y, p, w) => um.nll(y, p, { weights: w }),
  brierDecomposition: (y, p, w) => um.brierDecomposition(y, p, { weights: w }),
  auroc: (y, p, w) => um.auroc(y, p, { weights: w }),
  'auroc entropy': (y, p, w) => um.auroc(y, p, { weights: w, by: 'entropy' }),
  aupr: (y, p, w) => um.aupr(y, p, { weights: w }),
  rocCurve: (y, p, w) => um.rocCurve(y, p, { weights: w }).points,
  precisionRecallCurve: (y, p, w) => um.precisionRecallCurve(y, p, { weights: w }).points,
  aurc: (y, p, w) => um.aurc(y, p, { weights: w }),
  'aurc fd-shifts': (y, p, w) => um.aurc(y, p, { weights: w, estimator: 'fd-shifts' }),
  eAurc: (y, p, w) => um.eAurc(y, p, { weights: w }),
  riskCoverageCurve: (y, p, w) => um.riskCoverageCurve(y, p, { weights: w }).points,
  accuracyAtCoverage: (y, p, w) => um.accuracyAtCoverage(y, p, { weights: w, coverage: 0.5 }),
  coverageAtRisk: (y, p, w) => um.coverageAtRisk(y, p, { weights: w, risk: 0.5 }),
  rejectionCurve: (y, p, w) => um.rejectionCurve(y, p, { weights: w }).points,
  oracleCollaborativeAccuracy: (y, p, w) => um.oracleCollaborativeAccuracy(y, p, { weights: w, fraction: 0.2 }),
  evaluate: (y, p, w) => {
    const r = um.evaluate(y, p, { weights: w });
    return { ...r, config: { ...r.config, weighted: null } };
  },
};

const { labels, probs } = randomProbs(71, 60, 4, 20);
const weights = Array.from(uniforms(5, 60), (u) => Math.floor(u * 4)); // 0…3, some zeros
weights[0] = 2;
const repeated = { labels: [] as number[], probs: [] as number[][] };
labels.forEach((y, i) => {
  for (let k = 0; k < (weights[i] as number); k++) {
    repeated.labels.push(y);
    repeated.probs.push(probs[i] as number[]);
  }
});

/** Deep comparison with a relative tolerance for the floating point sums taken in a different order. */
function close(a: unknown, b: unknown, path = '$'): void {
  if (typeof a === 'number' && typeof b === 'number') {
    if (Number.isNaN(a) || Number.isNaN(b) || !Number.isFinite(a) || !Number.isFinite(b))
      return expect(a, path).toBe(b);
    return expect(Math.abs(a - b), `${path}: ${a} vs ${b}`).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(b)));
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    expect(a.length, `${path}.length`).toBe(b.length);
    a.forEach((x, i) => close(x, b[i], `${path}[${i}]`));
    return;
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    expect(Object.keys(a).sort(), path).toEqual(Object.keys(b).sort());
    for (const k of Object.keys(a))
      close((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
    return;
  }
  expect(a, path).toEqual(b);
}

describe('sample weights', () => {
  it.each(Object.keys(scalar))('%s: integer weights equal repeated rows', (name) => {
    const f = scalar[name] as Call;
    close(f(labels, probs, weights), f(repeated.labels, repeated.probs));
  });

  it.each(Object.keys(scalar))('%s: unit weights equal no weights', (name) => {
    const f = scalar[name] as Call;
    close(
      f(
        labels,
        probs,
        labels.map(() => 1),
      ),
      f(labels, probs),
    );
  });

  it('changes the result (a weight is not ignored)', () => {
    expect(um.ece(labels, probs, { weights })).not.toBe(um.ece(labels, probs));
    expect(um.auroc(labels, probs, { weights })).not.toBe(um.auroc(labels, probs));
  });

  it('fractional weights scale: w and 2.5·w give the same normalized metrics', () => {
    const w = weights.map((x) => x * 0.37);
    const w2 = w.map((x) => x * 2.5);
    for (const name of ['ece', 'mce', 'sce', 'uce', 'brier', 'nll', 'auroc', 'aupr', 'aurc fd-shifts']) {
      const f = scalar[name] as Call;
      close(f(labels, probs, w), f(labels, probs, w2), name);
    }
  });

  it('evaluate with fractional weights reports AURC as null with UM_W_WEIGHTS', () => {
    const seen: string[] = [];
    const r = um.evaluate(labels, probs, { weights: weights.map((x) => x * 0.5), onWarning: (w) => seen.push(w.code) });
    expect(r.aurc).toBeNull();
    expect(r.eaurc).toBeNull();
    expect(seen).toContain('UM_W_WEIGHTS');
    expect(r.n).toBe(weights.reduce((a, b) => a + b, 0) * 0.5);
  });

  it('semiparametricCalibrationError: sampleWeights are repeated pairs', () => {
    const o = labels.map((y) => (y === 0 ? 1 : 0));
    const p = probs.map((r) => r[0] as number);
    const ro = repeated.labels.map((y) => (y === 0 ? 1 : 0));
    const rp = repeated.probs.map((r) => r[0] as number);
    const opts = { bootstrap: 20, folds: 2 };
    expect(um.semiparametricCalibrationError(o, p, { ...opts, sampleWeights: weights })).toEqual(
      um.semiparametricCalibrationError(ro, rp, opts),
    );
    expect(() => um.semiparametricCalibrationError(o, p, { sampleWeights: weights.map(() => 0.5) })).toThrow(
      /options.sampleWeights\[0\] must be whole numbers/,
    );
  });

  it('oodCurve: whole-number weights per side are repeated samples', () => {
    const inside = [0.1, 0.2, 0.3, 0.25];
    const outside = [0.8, 0.7, 0.9];
    const opts = { batchSize: 2, repeats: 5, seed: 3 };
    const weighted = um.oodCurve(
      { uncertainty: inside },
      { uncertainty: outside },
      { ...opts, weights: { inDistribution: [2, 0, 1, 1], outOfDistribution: [1, 3, 1] } },
    );
    const repeated = um.oodCurve(
      { uncertainty: [0.1, 0.1, 0.3, 0.25] },
      { uncertainty: [0.8, 0.7, 0.7, 0.7, 0.9] },
      opts,
    );
    expect(weighted).toEqual(repeated);
  });

  it('OoD weights per side equal repeated rows', () => {
    const inside = [0.9, 0.8, 0.7, 0.4];
    const outside = [0.3, 0.85, 0.5];
    const wIn = [1, 2, 0, 3];
    const wOut = [2, 1, 1];
    const rep = (v: number[], w: number[]) => v.flatMap((x, i) => Array.from({ length: w[i] as number }, () => x));
    const given = { confidence: inside };
    const opts = { weights: { inDistribution: wIn, outOfDistribution: wOut } };
    expect(um.oodAuroc(given, { confidence: outside }, opts)).toBeCloseTo(
      um.oodAuroc({ confidence: rep(inside, wIn) }, { confidence: rep(outside, wOut) }),
      14,
    );
    expect(um.fprAtTpr(given, { confidence: outside }, { ...opts, tpr: 0.5 })).toBeCloseTo(
      um.fprAtTpr({ confidence: rep(inside, wIn) }, { confidence: rep(outside, wOut) }, { tpr: 0.5 }),
      14,
    );
  });

  const bad: [string, unknown, string, string][] = [
    ['wrong length', [1, 2], 'UM_SHAPE', 'ece: options.weights must have one weight per row (60); got 2'],
    ['negative', labels.map((_, i) => (i === 7 ? -1 : 1)), 'UM_OPTION', 'ece: options.weights[7] must be ≥ 0; got -1'],
    [
      'NaN',
      labels.map((_, i) => (i === 3 ? Number.NaN : 1)),
      'UM_NOT_FINITE',
      'ece: options.weights[3] must be a finite number; got NaN',
    ],
    ['all zero', labels.map(() => 0), 'UM_EMPTY', 'ece: options.weights must not all be 0; got 0'],
    ['not an array', 'heavy', 'UM_SHAPE', 'ece: options.weights must be an array of numbers, one per row; got "heavy"'],
  ];
  it.each(bad)('rejects %s', (_, w, code, message) => {
    try {
      um.ece(labels, probs, { weights: w as number[] });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(UMError);
      expect((e as UMError).code).toBe(code);
      expect((e as UMError).message).toBe(message);
    }
  });

  it('rejects fractional weights where a metric counts whole samples', () => {
    const w = labels.map(() => 0.5);
    expect(() => um.aurc(labels, probs, { weights: w })).toThrow(/aurc: options.weights\[0\] must be whole numbers/);
    expect(() => um.accuracyAtCoverage(labels, probs, { weights: w, coverage: 0.5 })).toThrow(/whole numbers/);
    expect(() => um.debiasedEce(labels, probs, { weights: w })).toThrow(
      /debiasedEce: options.weights\[0\] must be whole numbers/,
    );
    expect(um.aurc(labels, probs, { weights: w, estimator: 'fd-shifts' })).toBeGreaterThan(0);
  });

  it('rejects weights where they are not supported (random or order-of-rows estimators)', () => {
    expect(() => um.ace(labels, probs, { weights, equalMass: 'numpy-quantile' } as never)).toThrow(UMError);
    expect(() =>
      um.oodCurve({ confidence: [0.9, 0.1] }, { confidence: [0.5] }, {
        weights: { inDistribution: [0.5, 1] },
      } as never),
    ).toThrow(/oodCurve: options.weights.inDistribution\[0\] must be whole numbers/);
  });

  it('reliability intervals: Wilson and Clopper–Pearson on 8 of 10', () => {
    const y = [1, 1, 1, 1, 1, 1, 1, 1, 0, 0];
    const p = y.map(() => 0.75);
    const w = um.binaryReliability(y, p, { bins: 2, interval: 'wilson' });
    const bin = w.intervals?.bounds.find((b) => b !== null);
    expect(bin?.[0]).toBeCloseTo(0.49016247153664183, 12);
    expect(bin?.[1]).toBeCloseTo(0.9433178485456247, 12);
    const cp = um.binaryReliability(y, p, { bins: 2, interval: 'clopper-pearson', level: 0.95 });
    const b2 = cp.intervals?.bounds.find((b) => b !== null);
    expect(b2?.[0]).toBeCloseTo(0.4439045376923585, 10);
    expect(b2?.[1]).toBeCloseTo(0.9747892736731666, 10);
  });
});

describe('sample weights on ensemble metrics', () => {
  // 3 members, 12 rows, 3 classes
  const rows = 12;
  const u = uniforms(21, 3 * rows * 4);
  const members = Array.from({ length: 3 }, (_, m) =>
    Array.from({ length: rows }, (_, i) => {
      const raw = [0, 1, 2].map((k) => Math.exp(3 * (u[(m * rows + i) * 4 + k] as number)));
      const z = raw.reduce((a, b) => a + b, 0);
      return raw.map((x) => x / z);
    }),
  );
  const y = Array.from({ length: rows }, (_, i) => Math.floor((u[i * 4 + 3] as number) * 3));
  const w = Array.from({ length: rows }, (_, i) => i % 4); // 0…3
  const rep = Array.from({ length: rows }, (_, i) => i).flatMap((i) => Array.from({ length: w[i] as number }, () => i));
  const ry = rep.map((i) => y[i] as number);
  const rm = members.map((m) => rep.map((i) => m[i] as number[]));
  const cases: [string, (m: number[][][], labels: number[], weights?: number[]) => unknown][] = [
    ['disagreement', (m, _l, wt) => um.disagreement(m, { weights: wt })],
    ['doubleFault', (m, l, wt) => um.doubleFault(l, m, { weights: wt })],
    ['pairwiseKl', (m, _l, wt) => um.pairwiseKl(m, { weights: wt })],
    ['cosineDistance', (m, _l, wt) => um.cosineDistance(m, { weights: wt })],
    ['lpDistance', (m, _l, wt) => um.lpDistance(m, { weights: wt, p: 2 })],
    ['averagePairwiseDiversity', (m, _l, wt) => um.averagePairwiseDiversity(m, { weights: wt })],
    ['ensembleNll', (m, l, wt) => um.ensembleNll(l, m, { weights: wt })],
    ['gibbsNll', (m, l, wt) => um.gibbsNll(l, m, { weights: wt })],
    ['varianceBound', (m, l, wt) => um.varianceBound(l, m, { weights: wt })],
    [
      'negativeWaic',
      (m, l, wt) =>
        um.negativeWaic(
          l.map((yy, i) => m.map((mm) => Math.log((mm[i] as number[])[yy] as number))),
          { weights: wt },
        ),
    ],
    [
      'iscv',
      (m, l, wt) =>
        um.iscv(
          l.map((yy, i) => m.map((mm) => Math.log((mm[i] as number[])[yy] as number))),
          { weights: wt },
        ),
    ],
    [
      'evaluateEnsemble',
      (m, l, wt) => {
        const r = um.evaluateEnsemble(l, m, { weights: wt, onWarning: () => {} });
        return { ...r, config: { ...r.config, weighted: null } };
      },
    ],
  ];
  it.each(cases)('%s: integer weights equal repeated rows; unit weights equal none', (_, f) => {
    close(f(members, y, w), f(rm, ry));
    close(
      f(
        members,
        y,
        w.map(() => 1),
      ),
      f(members, y),
    );
    expect(f(members, y, w)).not.toEqual(f(members, y));
  });
});
