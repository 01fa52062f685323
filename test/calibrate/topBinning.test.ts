/** Top-k binning with the expected odds ratio (seed 002): the paper's examples, decompositions and real data. */
import { describe, expect, it } from 'vitest';
import {
  applyTopBinning,
  auroc,
  ensembleVariance,
  expectedOddsRatio,
  fitTopBinning,
  mcIntegrate,
  oddsRatio,
  topBinningReport,
} from '../../src/index.js';
import { bundled } from '../helpers/npy.js';
import { uniforms } from '../helpers/minstd.js';

/** Per-sample (correct, confidence) data reproducing a histogram: bin b holds `size` samples, `rate_b·size` correct. */
function histogram(rates: number[], size: number): { labels: number[]; predicted: number[]; confidence: number[] } {
  const labels: number[] = [];
  const predicted: number[] = [];
  const confidence: number[] = [];
  rates.forEach((r) => {
    const hits = Math.round(r * size);
    for (let j = 0; j < size; j++) {
      labels.push(0);
      predicted.push(j < hits ? 0 : 1);
      confidence.push(r);
    }
  });
  return { labels, predicted, confidence };
}

describe('seed 002 examples', () => {
  it('Example 1 (coins, p = (1/2, 1/2, 15/16, 1/16), equal weights): EOR = 8', () => {
    expect(expectedOddsRatio([1 / 2, 1 / 2, 15 / 16, 1 / 16])).toBeCloseTo(8, 14);
    expect(oddsRatio(15 / 16, 1 / 2)).toBeCloseTo(15, 13);
    expect(oddsRatio(1 / 16, 1 / 2)).toBeCloseTo(15, 13);
    expect(oddsRatio(0.3, 0.3)).toBe(1);
  });
  it('odds ratios to a few ulps of the exact rational value everywhere in (0, 1); beyond float64 a typed error', () => {
    /** A double as an exact rational n / d (BigInt). */
    const rational = (x: number): [bigint, bigint] => {
      const v = new DataView(new ArrayBuffer(8));
      v.setFloat64(0, x);
      const bits = v.getBigUint64(0);
      const e = Number((bits >> 52n) & 0x7ffn);
      const m = (bits & ((1n << 52n) - 1n)) + (e === 0 ? 0n : 1n << 52n);
      const shift = (e === 0 ? 1 : e) - 1075;
      return shift >= 0 ? [m << BigInt(shift), 1n] : [m, 1n << BigInt(-shift)];
    };
    const u = uniforms(2025, 800);
    const edge = (w: number, v: number) => (w < 0.5 ? 10 ** (-320 * v) : 1 - 10 ** (-17 * v));
    let overflowed = 0;
    for (let j = 0; j < 400; j++) {
      const p = Math.min(edge(u[2 * j] as number, u[(2 * j + 1) % 800] as number), 1 - 2 ** -53);
      const a = Math.max(edge(u[(2 * j + 7) % 800] as number, u[(2 * j + 3) % 800] as number), Number.MIN_VALUE);
      if (!(p > 0 && p < 1 && a > 0 && a < 1)) continue;
      const [pn, pd] = rational(p);
      const [an, ad] = rational(a);
      // OR = p(1 − a) / (a(1 − p)), or its inverse, whichever is ≥ 1
      let [num, den] = [pn * (ad - an), an * (pd - pn)];
      if (num < den) [num, den] = [den, num];
      const [mn, md] = rational(Number.MAX_VALUE);
      if (num * md > mn * den) {
        expect(() => oddsRatio(p, a)).toThrow(/^oddsRatio: p must give an odds ratio within float64/);
        overflowed++;
        continue;
      }
      const [cn, cd] = rational(oddsRatio(p, a));
      const diff = cn * den - num * cd;
      expect((diff < 0n ? -diff : diff) * 2n ** 53n <= 6n * num * cd, `oddsRatio(${p}, ${a})`).toBe(true);
    }
    expect(overflowed).toBeGreaterThan(5);
    expect(() => expectedOddsRatio([0.5, 5e-324])).toThrow(
      /^expectedOddsRatio: probabilities\[1\] must give an odds ratio within float64/,
    );
  });
  it('Example 2: the AUROC of the coins depends on the ordering (.83 increasing, .17 reversed); the EOR does not', () => {
    const h = histogram([1 / 2, 1 / 2, 15 / 16, 1 / 16], 16);
    const o = { input: 'predicted' as const };
    expect(auroc(h.labels, h.predicted, { ...o, by: { confidence: h.confidence } })).toBeCloseTo(0.828125, 14);
    expect(auroc(h.labels, h.predicted, { ...o, by: { uncertainty: h.confidence } })).toBeCloseTo(1 - 0.828125, 14);
  });
  it('Example 3: EOR(p = (.15, .4, .8)) ≈ 3.6 and EOR(q = (.4, .5, .99)) ≈ 21, with AUROC ≈ .79 and .78', () => {
    // numpy: EOR 3.584175084175084 and 20.799871299871292; AUROC of the histograms 0.7918069584736251, 0.7812336145669476
    expect(expectedOddsRatio([0.15, 0.4, 0.8])).toBeCloseTo(3.584175084175084, 13);
    expect(expectedOddsRatio([0.4, 0.5, 0.99])).toBeCloseTo(20.799871299871292, 12);
    expect(Math.round(expectedOddsRatio([0.15, 0.4, 0.8]) * 10) / 10).toBe(3.6);
    expect(Math.round(expectedOddsRatio([0.4, 0.5, 0.99]))).toBe(21);
    const p = histogram([0.15, 0.4, 0.8], 400);
    const q = histogram([0.4, 0.5, 0.99], 400);
    const a = auroc(p.labels, p.predicted, { input: 'predicted', by: { confidence: p.confidence } });
    const b = auroc(q.labels, q.predicted, { input: 'predicted', by: { confidence: q.confidence } });
    expect(a).toBeCloseTo(0.7918069584736251, 13);
    expect(b).toBeCloseTo(0.7812336145669476, 13);
    expect([Math.round(a * 100) / 100, Math.round(b * 100) / 100]).toEqual([0.79, 0.78]);
  });
  it('fitting the coin histogram as data reproduces EOR 8 (no regularisation, one bin per coin)', () => {
    // 4 coins × 16 tosses; every prediction is class 0, so "correct" = label 0; the score identifies the coin
    const rates = [1 / 16, 1 / 2, 1 / 2, 15 / 16];
    const score: number[] = [];
    const labels: number[] = [];
    rates.forEach((r, c) => {
      for (let j = 0; j < 16; j++) {
        score.push(c);
        labels.push(j < r * 16 ? 0 : 1);
      }
    });
    const probs = labels.map(() => [0.9, 0.1]);
    const t = fitTopBinning(labels, probs, { bins: 4, regularize: false, score: { confidence: score } });
    expect(t.bins.map((b) => b.probability)).toEqual(rates);
    expect(t.eor).toBeCloseTo(8, 13);
  });
  it("Hoeffding interval: the paper's bin of 2500 with p̂ = 0.9983 at δ = .005 has p ≥ 0.9637 (paper: 0.9643)", () => {
    const eps = Math.sqrt(Math.log(2 / 0.005) / (2 * 2500));
    expect(0.9983 - eps).toBeCloseTo(0.96368, 5);
    expect(Math.abs(0.9983 - eps - 0.9643)).toBeLessThan(1e-3);
    const t = fitTopBinning(
      [0, 0, 0, 1],
      [
        [0.9, 0.1],
        [0.8, 0.2],
        [0.7, 0.3],
        [0.6, 0.4],
      ],
      { bins: 1, delta: 0.005 },
    );
    const e1 = Math.sqrt(Math.log(400) / 8);
    expect(t.bins[0]?.interval).toEqual([Math.max(0, 0.75 - e1), Math.min(1, 0.75 + e1)]);
  });
  it('regularisation adds one sample of value p_A to each bin', () => {
    const t = fitTopBinning(
      [0, 0, 1, 0],
      [
        [0.9, 0.1],
        [0.8, 0.2],
        [0.7, 0.3],
        [0.6, 0.4],
      ],
      { bins: 2 },
    );
    // p_A = 3/4; bins (2 samples, 1 hit) and (2, 2): (1 + 0.75)/3 and (2 + 0.75)/3
    expect(t.bins.map((b) => b.probability)).toEqual([(1 + 0.75) / 3, (2 + 0.75) / 3]);
    expect(t.accuracy).toBe(0.75);
  });
});

describe('Top-1 binning on the bundled MNIST mlp_overfit predictions (fit on val, report on test)', () => {
  for (const score of ['max-prob', 'entropy', 'neg-log-max-prob', 'margin'] as const) {
    it(`${score}: the Brier and NLL decompositions add up, ECE < 1 %, intervals cover most test rates`, async () => {
      const val = await bundled('mlp_overfit_val_logits', 'val');
      const test = await bundled('mlp_overfit_test_logits', 'test');
      const o = { input: 'logits' as const, numClasses: 10 };
      const t = fitTopBinning(val.labels, val.scores as Float32Array, { ...o, score, bins: 10 });
      const r = topBinningReport(t, test.labels, test.scores as Float32Array, o);
      expect(Math.abs(r.brier.uncertainty - r.brier.resolution + r.brier.calibration - r.brier.score)).toBeLessThan(
        1e-15,
      );
      expect(Math.abs(r.nll.uncertainty - r.nll.resolution + r.nll.calibration - r.nll.score)).toBeLessThan(1e-14);
      expect(r.ece).toBeLessThan(0.01);
      expect(r.accuracy).toBe(0.952);
      const covered = r.bins.filter(
        (b) => b.interval !== null && b.interval[0] <= b.probability && b.probability <= b.interval[1],
      ).length;
      expect(covered).toBeGreaterThanOrEqual(9);
      expect(r.eor).toBeGreaterThan(1);
      const pred = applyTopBinning(t, test.scores as Float32Array, o);
      expect(pred.probability.length).toBe(2000);
    });
  }
  it('ensemble variance of the 5 deep-ensemble members as the score (seed 002 §2.2), given as values', async () => {
    const val = await bundled('deep_ensemble_val_member_logits', 'val');
    const test = await bundled('deep_ensemble_test_member_logits', 'test');
    const m = { input: 'logits' as const, numClasses: 10, numMembers: 5 };
    const variance = (d: typeof val) => ensembleVariance(d.members as Float32Array, m);
    const t = fitTopBinning(val.labels, mcIntegrate(val.members as Float32Array, m), {
      score: { uncertainty: variance(val) },
      bins: 10,
    });
    expect([t.score, t.direction]).toEqual(['given', 'uncertainty']);
    const r = topBinningReport(t, test.labels, mcIntegrate(test.members as Float32Array, m), {
      score: { uncertainty: variance(test) },
    });
    expect(r.ece).toBeLessThan(0.02);
    // more variance, fewer correct predictions: the first (lowest-variance) bin is the most accurate
    expect(t.bins[0]?.probability).toBeGreaterThan(t.bins.at(-1)?.probability ?? 1);
  });
  it('Top-5 event with the −log Σ top-5 score: accuracy is the top-5 rate', async () => {
    const val = await bundled('mlp_overfit_val_logits', 'val');
    const o = { input: 'logits' as const, numClasses: 10 };
    const t = fitTopBinning(val.labels, val.scores as Float32Array, { ...o, score: 'neg-log-top-k', top: 5, bins: 5 });
    expect(t.top).toBe(5);
    expect(t.accuracy).toBeGreaterThan(0.99);
    expect(t.direction).toBe('uncertainty');
  });
});
