import { describe, expect, it } from 'vitest';
import {
  bayesianEce,
  binaryCalibrationError,
  debiasedEce,
  ece,
  mmce,
  semiparametricCalibrationError,
  smoothEce,
} from '../../src/index.js';
import { minstd, minstdDataset } from '../helpers/minstd.js';
import { randomProbs } from '../helpers/data.js';
import { confCorrect } from '../helpers/conformance.js';

const pairsToProbs = (p: number[]) => p.map((v) => [1 - v, v]);

describe('MMCE', () => {
  /** The definition as a double loop. */
  function naive(r: number[], c: number[], weighted: boolean, w = 0.4): number {
    const n = r.length;
    const k = (i: number, j: number) => Math.exp(-Math.abs((r[i] as number) - (r[j] as number)) / w);
    let s = 0;
    if (!weighted) {
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++)
          s += ((c[i] as number) - (r[i] as number)) * ((c[j] as number) - (r[j] as number)) * k(i, j);
      return Math.sqrt(Math.max(0, s / (n * n)));
    }
    const nc = c.reduce((a, b) => a + b, 0);
    const nw = n - nc;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        if (c[i] === 0 && c[j] === 0) s += ((r[i] as number) * (r[j] as number) * k(i, j)) / (nw * nw);
        if (c[i] === 1 && c[j] === 1) s += ((1 - (r[i] as number)) * (1 - (r[j] as number)) * k(i, j)) / (nc * nc);
        if (c[i] === 1 && c[j] === 0) s -= (2 * (1 - (r[i] as number)) * (r[j] as number) * k(i, j)) / (nc * nw);
      }
    }
    return Math.sqrt(Math.max(0, s));
  }
  for (const [seed, n, c, round] of [
    [1, 300, 4, undefined],
    [2, 200, 10, 20],
    [3, 50, 2, undefined],
  ] as const) {
    it(`the O(N log N) form equals the double loop (seed ${seed})`, () => {
      const { labels, probs } = randomProbs(seed, n, c, round);
      const { conf, correct } = confCorrect(probs, labels);
      expect(mmce(labels, probs)).toBeCloseTo(naive(conf, correct, false), 13);
      expect(mmce(labels, probs, { weighted: true })).toBeCloseTo(naive(conf, correct, true), 12);
      expect(mmce(labels, probs, { kernelWidth: 0.1 })).toBeCloseTo(naive(conf, correct, false, 0.1), 13);
    });
  }
  it('netcal-style MMCE on the 12×3 data set of reference_values §10 = 0.23937462429374426', () => {
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
    ].map((r) => r.map((x) => x / 1000));
    expect(mmce([0, 1, 1, 1, 1, 0, 1, 0, 1, 0, 2, 2], P)).toBeCloseTo(0.23937462429374426, 15);
  });
});

describe('debiased ECE (verified_calibration util_test.py and reference_values §6.3, §11)', () => {
  const vc = { preset: 'verified-calibration' } as const;
  it('test_get_binary_ce: debiased p=2 with distinct-value bins ≈ 0 (verified: 4.39e-9); plug-in 0.22360679774997902', () => {
    const p = [0.5, 0.5, 0.5, 0.6, 0.5, 0.6, 0.6, 0.6, 0.6];
    const y = [0, 1, 0, 1, 0, 1, 1, 1, 0];
    // both bins have θ = 0 exactly: (0.25 − 0.5)² − 0.25·0.75/3 = 0 and (0.8 − 0.6)² − 0.8·0.2/4 = 0; the peer's
    // 4.39e-9 (and our ~3e-9) is the square root of a ~1e-17 rounding residue
    expect(debiasedEce(y, pairsToProbs(p), { ...vc, mode: 'positive-class', binning: 'distinct' })).toBeLessThan(1e-8);
    expect(debiasedEce(y, pairsToProbs(p), { ...vc, mode: 'marginal', binning: 'distinct' })).toBeLessThan(1e-8);
    expect(binaryCalibrationError(y, p, { binning: 'distinct', norm: 'l2' })).toBeCloseTo(0.22360679774997902, 15);
  });
  it('test_get_three_label_ce: marginal 0.07559289460184548, top-label 0 (negative, clipped)', () => {
    const rows = [
      ...Array(6).fill([0.6, 0.3, 0.1]),
      ...Array(4).fill([0.1, 0.8, 0.1]),
      ...Array(4).fill([0.1, 0.0, 0.9]),
    ] as number[][];
    const labels = [0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2];
    expect(debiasedEce(labels, rows, { ...vc, mode: 'marginal', binning: 'distinct' })).toBeCloseTo(
      0.07559289460184548,
      15,
    );
    expect(debiasedEce(labels, rows, { ...vc, binning: 'distinct' })).toBe(0);
  });
  it('MINSTD data: debiased L2 with 10 and 15 equal-mass bins', () => {
    const { conf, correct } = minstdDataset();
    const probs = pairsToProbs(conf);
    expect(debiasedEce(correct, probs, { ...vc, mode: 'positive-class', bins: 10 })).toBeCloseTo(
      0.16075225450941036,
      14,
    );
    expect(debiasedEce(correct, probs, { ...vc, mode: 'positive-class', bins: 15 })).toBeCloseTo(
      0.14980745454199948,
      14,
    );
  });
  it('single-sample bins: dropped (verified) or kept with their plug-in error (torchmetrics)', () => {
    // three rows, each alone in its bin: verified has nothing left, torchmetrics keeps the plug-in RMS error
    const labels = [0, 1, 1];
    const probs = [
      [0.95, 0.05],
      [0.35, 0.65],
      [0.15, 0.85],
    ];
    expect(debiasedEce(labels, probs, { binning: 'equal-width', bins: 10 })).toBe(0);
    const plugin = ece(labels, probs, { bins: 10 });
    expect(plugin).toBeGreaterThan(0);
    const rms = Math.sqrt(((1 - 0.95) ** 2 + (1 - 0.65) ** 2 + (1 - 0.85) ** 2) / 3);
    expect(debiasedEce(labels, probs, { binning: 'equal-width', bins: 10, smallBins: 'plugin' })).toBeCloseTo(rms, 15);
  });
  it('is below the plug-in estimate on average for a calibrated model (the bias it removes)', () => {
    const u = minstd(31, 4000);
    const conf = u.slice(0, 2000).map((x) => 0.5 + 0.5 * x);
    const correct = conf.map((c, i) => ((u[2000 + i] as number) < c ? 1 : 0));
    const probs = pairsToProbs(conf);
    const plug = binaryCalibrationError(correct, conf, { binning: 'equal-mass', norm: 'l2' });
    expect(debiasedEce(correct, probs, { mode: 'positive-class' })).toBeLessThan(plug);
  });
});

describe('smooth ECE (relplot, reference_values §11 and §12.1)', () => {
  const cases: [number[], number[], number, number, number][] = [
    [
      [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9],
      [0, 0, 1, 0, 1, 0, 1, 1, 1],
      0.09200830565895952,
      0.09375,
      0.18581242390079405,
    ],
    [[0.25, 0.25, 0.55, 0.75, 0.75], [0, 0, 1, 1, 1], 0.19896183528561726, 0.2001953125, 0.2894821245256921],
    [
      [...Array(8).fill(0.9), ...Array(4).fill(0.6)],
      [1, 1, 1, 1, 1, 1, 0, 0, 1, 0, 1, 0],
      0.13345524487237814,
      0.1337890625,
      0.133391968909412,
    ],
  ];
  for (const [f, y, value, sigma, at05] of cases) {
    it(`f = [${f.slice(0, 3).join(', ')}, …]: smECE ${value}, σ* ${sigma}, smECE@0.05 ${at05}`, () => {
      const r = smoothEce(y, pairsToProbs(f), { target: 'positive-class' });
      expect(r.value).toBeCloseTo(value, 14);
      expect(r.bandwidth).toBe(sigma);
      expect(smoothEce(y, pairsToProbs(f), { target: 'positive-class', bandwidth: 0.05 }).value).toBeCloseTo(at05, 14);
    });
  }
  it('MINSTD data: smECE 0.12908839620704596 at σ* 0.1298828125; smECE_σ(0.1) 0.13626291765111728', () => {
    const { conf, correct } = minstdDataset();
    const r = smoothEce(correct, pairsToProbs(conf), { target: 'positive-class' });
    expect(r.value).toBeCloseTo(0.12908839620704596, 14);
    expect(r.bandwidth).toBe(0.1298828125);
    expect(smoothEce(correct, pairsToProbs(conf), { target: 'positive-class', bandwidth: 0.1 }).value).toBeCloseTo(
      0.13626291765111728,
      14,
    );
  });
});

describe('Bayesian ECE', () => {
  const labels = Array.from({ length: 2000 }, (_, i) => (i % 4 === 0 ? 1 : 0));
  const probs = labels.map(() => [0.6, 0.4]); // confidence 0.6, accuracy 0.75 → ECE 0.15
  it('the same seed gives the same samples; another seed other samples', () => {
    const a = bayesianEce(labels, probs, { seed: 3, samples: 50 });
    const b = bayesianEce(labels, probs, { seed: 3, samples: 50 });
    const c = bayesianEce(labels, probs, { seed: 4, samples: 50 });
    expect(Array.from(a.samples)).toEqual(Array.from(b.samples));
    expect(Array.from(a.samples)).not.toEqual(Array.from(c.samples));
  });
  it('concentrates around the plug-in ECE with many samples', () => {
    const r = bayesianEce(labels, probs, { seed: 1 });
    expect(Math.abs(r.mean - 0.15)).toBeLessThan(0.01);
    expect((r.quantiles['0.9'] as number) - (r.quantiles['0.1'] as number)).toBeLessThan(0.05);
    expect(Array.from(r.samples).every((v) => v >= 0 && v <= 1)).toBe(true);
  });
  it("the uncertainty-metrics preset's correct-mass weighting changes the answer", () => {
    // half the rows at confidence 0.95, right 95 % of the time (gap 0); half at 0.55, right 25 % (gap 0.3):
    // bins weighted by mass give 0.5·0 + 0.5·0.3 = 0.15; by correct mass 0.475:0.125 give ≈ 0.3·0.21 ≈ 0.06
    const mixed = Array.from({ length: 2000 }, (_, i) => (i < 1000 ? [0.95, 0.05] : [0.55, 0.45]));
    const y = mixed.map((_, i) => (i < 1000 ? (i % 20 === 0 ? 1 : 0) : i % 4 === 0 ? 0 : 1));
    const ours = bayesianEce(y, mixed, { seed: 2 });
    const quirk = bayesianEce(y, mixed, { seed: 2, preset: 'uncertainty-metrics' });
    expect(Math.abs(ours.mean - 0.15)).toBeLessThan(0.01);
    expect(Math.abs(quirk.mean - 0.0625)).toBeLessThan(0.02);
  });
});

describe('semiparametric calibration error', () => {
  const u = minstd(101, 4000);
  const q = u.slice(0, 2000).map((x) => 0.02 + 0.96 * x);
  it('is near 0 for a calibrated model, with an interval containing 0', () => {
    const y = q.map((p, i) => ((u[2000 + i] as number) < p ? 1 : 0));
    const r = semiparametricCalibrationError(y, q, { seed: 1 });
    expect(r.value).toBeLessThan(0.05);
    expect(r.interval[0]).toBe(0);
  });
  it('recovers a known L2 calibration error: E[y | q] = q² → √E[(q − q²)²] ≈ 0.1826', () => {
    const y = q.map((p, i) => ((u[2000 + i] as number) < p * p ? 1 : 0));
    // true value for q uniform on [0.02, 0.98], numerically: √(mean of (q − q²)²)
    let t = 0;
    for (let k = 0; k < 100000; k++) {
      const x = 0.02 + (0.96 * (k + 0.5)) / 100000;
      t += (x - x * x) ** 2;
    }
    const truth = Math.sqrt(t / 100000);
    const r = semiparametricCalibrationError(y, q, { seed: 2 });
    expect(Math.abs(r.value - truth)).toBeLessThan(0.03);
    expect(r.interval[0]).toBeLessThan(truth);
    expect(r.interval[1]).toBeGreaterThan(truth);
    // the same seed, the same result: shown on the first 400 pairs (determinism does not depend on N; a second run on
    // all 2000 was a third of this file's time)
    const [y4, q4] = [y.slice(0, 400), q.slice(0, 400)];
    expect(semiparametricCalibrationError(y4, q4, { seed: 2 })).toEqual(
      semiparametricCalibrationError(y4, q4, { seed: 2 }),
    );
  });
});
