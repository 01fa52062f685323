import { describe, expect, it } from 'vitest';
import {
  binaryBrier,
  brier,
  brierDecomposition,
  brierPerExample,
  crps,
  crpsPerExample,
  nll,
  nllPerExample,
  setWarningHandler,
  type UMWarning,
} from '../../src/index.js';
import { normalQuantile } from '../../src/math/special.js';
import { createRng } from '../../src/random/rng.js';
import { randomProbs } from '../helpers/data.js';

const P12 = [
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
].map((r) => r.map((x) => x / 1000));
const L12 = [0, 1, 1, 1, 1, 0, 1, 0, 1, 0, 2, 2];

describe('Brier score', () => {
  it('reference_values §10: standard 0.8260766666666668, uncertainty_metrics form −0.17392333333333335', () => {
    expect(brier(L12, P12)).toBeCloseTo(0.8260766666666668, 15);
    expect(brier(L12, P12, { preset: 'uncertainty-metrics' })).toBeCloseTo(-0.17392333333333335, 15);
    expect(brier(L12, P12, { form: 'half' })).toBeCloseTo(0.8260766666666668 / 2, 15);
  });
  it('scikit-learn test_brier_score_loss: ‖y − p‖²/6 ≈ 0.0254166666666667', () => {
    expect(binaryBrier([0, 1, 1, 0, 1, 1], [0.1, 0.8, 0.9, 0.3, 1, 0.95])).toBeCloseTo(0.0254166666666667, 15);
  });
  it('two classes: brier = 2 × binaryBrier of P(y = 1) = binaryBrier with scale double', () => {
    const { labels, probs } = randomProbs(3, 100, 2);
    const p1 = probs.map((r) => r[1] as number);
    expect(brier(labels, probs)).toBeCloseTo(2 * binaryBrier(labels, p1), 14);
    expect(brier(labels, probs)).toBeCloseTo(binaryBrier(labels, p1, { scale: 'double' }), 14);
    expect(brier(labels, probs, { preset: 'sklearn' })).toBeCloseTo(binaryBrier(labels, p1), 14);
  });
  it('per example mean equals the score; bounds [0, 2]', () => {
    const { labels, probs } = randomProbs(4, 50, 5);
    const per = brierPerExample(labels, probs);
    expect(per.reduce((a, b) => a + b, 0) / per.length).toBeCloseTo(brier(labels, probs), 15);
    expect(brier([1], [[1, 0]])).toBe(2);
    expect(brier([0], [[1, 0]])).toBe(0);
  });
});

describe('Brier decomposition', () => {
  it('uncertainty − resolution + reliability = Brier exactly (default conventions), on many data sets', () => {
    for (const [seed, n, c] of [
      [1, 50, 2],
      [2, 300, 3],
      [3, 1000, 10],
      [4, 40, 7],
    ] as const) {
      for (const round of [undefined, 20]) {
        const { labels, probs } = randomProbs(seed, n, c, round);
        const d = brierDecomposition(labels, probs);
        expect(Math.abs(d.uncertainty - d.resolution + d.reliability - brier(labels, probs))).toBeLessThan(1e-15);
        expect(d.score).toBeCloseTo(brier(labels, probs), 15);
        expect(d.resolution).toBeGreaterThanOrEqual(0);
        const m = brierDecomposition(labels, probs, { form: 'minus-one' });
        expect(Math.abs(m.uncertainty - m.resolution + m.reliability - (brier(labels, probs) - 1))).toBeLessThan(1e-15);
      }
    }
  });
  it('equals the textbook (distance) reliability when forecasts are constant within cells', () => {
    const probs = [
      [0.8, 0.2],
      [0.8, 0.2],
      [0.3, 0.7],
      [0.8, 0.2],
      [0.3, 0.7],
    ];
    const labels = [0, 0, 1, 1, 0];
    const exact = brierDecomposition(labels, probs);
    const dist = brierDecomposition(labels, probs, { reliability: 'distance' });
    expect(exact.reliability).toBeCloseTo(dist.reliability, 15);
    expect(exact.reliability).toBeGreaterThan(0);
  });
  it('reference_values §10 (an emulation with the correct axis, ε = 1e-7, distance reliability)', () => {
    // The emulation in reference_values.md §10 does not reproduce TensorFlow's broadcasting error (its resolution
    // 0.0361111 is the correct-axis value); the real library outputs in the golden files do show the transposed
    // form on all 36 cases, and the 'uncertainty-metrics' preset follows those.
    const d = brierDecomposition(L12, P12, {
      form: 'minus-one',
      reliability: 'distance',
      resolution: 'correct',
      epsilon: 1e-7,
    });
    expect(d.uncertainty).toBeCloseTo(-0.3888888888888889, 15);
    expect(d.resolution).toBeCloseTo(0.036111109666666946, 15);
    expect(d.reliability).toBeCloseTo(0.18319333157308362, 14);
    const g = brierDecomposition(L12, P12, { preset: 'uncertainty-metrics' });
    expect(g.resolution).toBeCloseTo(0.14027777397222257, 15); // Σ_k w_k Σ_j (p̄_k − d_kj)², numpy-checked
    // neither adds up: the argmax partition's cross term (and the transposed resolution)
    expect(
      Math.abs(g.uncertainty - g.resolution + g.reliability - brier(L12, P12, { preset: 'uncertainty-metrics' })),
    ).toBeGreaterThan(0.06);
  });
  it("uncertainty_metrics' statistical test: res ≥ 0, rel ≥ 0, |unc − res + rel − brier| ≤ 1e-2 for logits N(0, 1)/T", () => {
    const rng = createRng('test', 7);
    for (const t of [0.01, 1, 5]) {
      for (const k of [2, 4]) {
        const n = 8192;
        const logits = Array.from({ length: n }, () => Array.from({ length: k }, () => rng.normal() / t));
        const labels = logits.map(() => rng.integer(k));
        const d = brierDecomposition(labels, logits, { input: 'logits', preset: 'uncertainty-metrics' });
        expect(d.resolution).toBeGreaterThanOrEqual(0);
        expect(d.reliability).toBeGreaterThanOrEqual(0);
        expect(
          Math.abs(
            d.uncertainty -
              d.resolution +
              d.reliability -
              brier(labels, logits, { input: 'logits', preset: 'uncertainty-metrics' }),
          ),
        ).toBeLessThanOrEqual(1e-2);
      }
    }
  });
});

describe('NLL', () => {
  it('scikit-learn test_log_loss values', () => {
    // assert_almost_equal(…, decimal=7): |actual − desired| < 1.5e-7
    const close7 = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThan(1.5e-7);
    close7(
      nll(
        [0, 0, 0, 1, 1, 1],
        [
          [0.5, 0.5],
          [0.1, 0.9],
          [0.01, 0.99],
          [0.9, 0.1],
          [0.75, 0.25],
          [0.001, 0.999],
        ],
      ),
      1.8817971,
    );
    close7(
      nll(
        [1, 0, 2],
        [
          [0.2, 0.7, 0.1],
          [0.6, 0.2, 0.2],
          [0.6, 0.1, 0.3],
        ],
      ),
      0.6904911,
    );
    // rows that do not sum to 1, renormalised as scikit-learn ≤ 1.4 did
    close7(
      nll(
        [0, 1, 1, 0],
        [
          [0.2, 0.7],
          [0.6, 0.5],
          [0.4, 0.1],
          [0.7, 0.2],
        ],
        { renormalize: true, clip: 'machine-epsilon', sumTolerance: 1 },
      ),
      1.0383217,
    );
  });
  it('an exact zero gives Infinity and one warning naming the rows; clip bounds it', () => {
    const seen: UMWarning[] = [];
    expect(
      nll(
        [1, 0, 1],
        [
          [1, 0],
          [0.5, 0.5],
          [1, 0],
        ],
        { onWarning: (w) => seen.push(w) },
      ),
    ).toBe(Infinity);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.code).toBe('UM_W_INFINITE');
    expect(seen[0]?.message).toMatch(
      /^nll: 2 of 3 rows give probability exactly 0 to their label; the NLL is Infinity/,
    );
    expect(nll([1], [[1, 0]], { clip: 1e-12 })).toBeCloseTo(-Math.log(1e-12), 12);
  });
  it('per-call handlers take precedence over the global one', () => {
    const global: string[] = [];
    const local: string[] = [];
    const previous = setWarningHandler((w) => global.push(w.code));
    try {
      nll([1], [[1, 0]]);
      nll([1], [[1, 0]], { onWarning: (w) => local.push(w.code) });
    } finally {
      setWarningHandler(previous);
    }
    expect([global, local]).toEqual([['UM_W_INFINITE'], ['UM_W_INFINITE']]);
  });
  it('logits keep exact log-probabilities where exp underflows', () => {
    expect(nll([1], [[0, -800]], { input: 'logits' })).toBe(800);
    expect(nll([1], [[Math.log(0.5), Math.log(0.5)]], { input: 'logprobs' })).toBeCloseTo(Math.LN2, 15);
    const { labels, probs } = randomProbs(9, 200, 6);
    const logits = probs.map((r) => r.map(Math.log));
    expect(nll(labels, logits, { input: 'logits' })).toBeCloseTo(nll(labels, probs), 13);
    const per = nllPerExample(labels, logits, { input: 'logits' });
    expect(per.reduce((a, b) => a + b, 0) / per.length).toBeCloseTo(nll(labels, probs), 13);
  });
});

describe('CRPS', () => {
  it('of a point mass is the absolute error (samples and σ = 0)', () => {
    const y = [1.5, -2, 0];
    const x = [4, 1, 0];
    for (const estimator of ['fair', 'nrg', 'cyclic'] as const) {
      expect(Array.from(crpsPerExample(y, { samples: x.map((v) => [v, v, v]) }, { estimator }))).toEqual([2.5, 3, 0]);
    }
    expect(Array.from(crpsPerExample(y, { mean: x, std: [0, 0, 0] }))).toEqual([2.5, 3, 0]);
  });
  it('uncertainty_metrics values (reference_values §12.2)', () => {
    const v = crpsPerExample([0, 1, -0.5], { mean: [0, 0, 0.5], std: [1, 2, 0.5] });
    [0.23369497725510913, 0.6628070625097118, 0.7263959108429516].forEach((e, i) => expect(v[i]).toBeCloseTo(e, 15));
    expect(
      Array.from(
        crpsPerExample(
          [1.5, 0],
          {
            samples: [
              [0, 1, 2, 3],
              [1, 1, 1, 1],
            ],
          },
          { preset: 'uncertainty-metrics' },
        ),
      ),
    ).toEqual([0.25, 1]);
  });
  it('the sample estimators approach the Normal closed form (quantile grid of 10,000 draws)', () => {
    const m = 10000;
    const draws = Array.from({ length: m }, (_, k) => normalQuantile((k + 0.5) / m));
    const exact = crps([0.3], { mean: [0], std: [1] });
    expect(Math.abs(crps([0.3], { samples: [draws] }) - exact)).toBeLessThan(5 / Math.sqrt(m));
    expect(Math.abs(crps([0.3], { samples: [draws] }, { estimator: 'nrg' }) - exact)).toBeLessThan(5 / Math.sqrt(m));
  });
  it('fair and NRG differ by the factor (M − 1)/M on the pair term; only cyclic depends on draw order', () => {
    const x = [3, 1, 2, 0, 7];
    const y = [1.2];
    const e1 = x.reduce((a, v) => a + Math.abs(v - 1.2), 0) / 5;
    const fair = crps(y, { samples: [x] });
    const nrg = crps(y, { samples: [x] }, { estimator: 'nrg' });
    expect(e1 - nrg).toBeCloseTo((e1 - fair) * (4 / 5), 14);
    const sorted = [...x].sort((a, b) => a - b);
    expect(crps(y, { samples: [sorted] })).toBeCloseTo(fair, 15);
    expect(crps(y, { samples: [sorted] }, { estimator: 'cyclic' })).not.toBeCloseTo(
      crps(y, { samples: [x] }, { estimator: 'cyclic' }),
      6,
    );
  });
  it('accepts a flat array of draws with numSamples', () => {
    expect(crps([1.5, 0], { samples: new Float64Array([0, 3, 0, 0]), numSamples: 2 })).toBe(
      crps([1.5, 0], {
        samples: [
          [0, 3],
          [0, 0],
        ],
      }),
    );
  });
});
