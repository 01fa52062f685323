/**
 * The metrics that count samples (AURC and its estimators, E-AURC, accuracy at coverage, oracle-collaborative
 * accuracy) sum over every kept count k = 1 … N. A tied block of C samples is summed in closed form
 * (src/math/harmonic.ts), so the time does not grow with the counts: whole weights of 1e15 or 1e300 used to run for
 * hours or forever (a loop over every sample they stand for). Checked against brute-force sums over the expanded
 * samples, and for astronomically large counts against the limit the estimator converges to.
 */
import { describe, expect, it } from 'vitest';
import * as um from '../../src/index.js';
import { blockSums } from '../../src/math/harmonic.js';
import { uniforms } from '../helpers/minstd.js';

/** Σ_{j=1..C} 1/(K + j) and Σ j/(K + j), summed term by term with compensation (the reference). */
function bruteSums(K: number, C: number): { h: number; g: number } {
  let h = 0;
  let ch = 0;
  let g = 0;
  let cg = 0;
  for (let j = 1; j <= C; j++) {
    const a = 1 / (K + j) - ch;
    const t = h + a;
    ch = t - h - a;
    h = t;
    const b = j / (K + j) - cg;
    const u = g + b;
    cg = u - g - b;
    g = u;
  }
  return { h, g };
}

const rel = (a: number, b: number) => Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);

describe('blockSums: one block in closed form', () => {
  const ks = [0, 1, 2, 7, 63, 64, 65, 100, 1000, 12345, 1e6, 1e9, 2 ** 40];
  const cs = [1, 2, 10, 1024, 1025, 1500, 4099, 20000, 200000];
  it.each(ks)('K = %d: h and g equal the term-by-term sums for C up to 2·10^5 (≤ 5e-15 relative)', (K) => {
    for (const C of cs) {
      for (const shift of [0, 1]) {
        if (K === 0 && shift === 0 && C === 0) continue;
        const got = blockSums(K, C, 1, shift);
        const want = bruteSums(K + shift, C);
        expect(rel(got.h, want.h), `K=${K}+${shift} C=${C} h`).toBeLessThan(5e-15);
        expect(rel(got.g, want.g), `K=${K}+${shift} C=${C} g`).toBeLessThan(5e-15);
      }
    }
  });

  it('counts given in units of a power of two equal the counts themselves, up to and beyond float64', () => {
    const u = uniforms(77, 400);
    for (let t = 0; t < 100; t++) {
      const k0 = Math.floor((u[t] as number) * 50);
      const c = 1 + Math.floor((u[100 + t] as number) * 50);
      const e = 30 + Math.floor((u[200 + t] as number) * 900);
      const unit = 2 ** e;
      const scaled = blockSums(k0, c, unit, 0);
      // the same true counts given directly (where float64 holds them) or in units of 2^30 less
      const direct =
        e <= 960 ? blockSums(k0 * unit, c * unit, 1, 0) : blockSums(k0 * 2 ** 30, c * 2 ** 30, unit / 2 ** 30, 0);
      const directG = e <= 960 ? direct.g / unit : direct.g / 2 ** 30;
      expect(rel(scaled.h, direct.h), `k0=${k0} c=${c} 2^${e}`).toBeLessThan(1e-14);
      expect(rel(scaled.g, directG), `k0=${k0} c=${c} 2^${e}`).toBeLessThan(1e-14);
      expect(Number.isFinite(scaled.h) && Number.isFinite(scaled.g)).toBe(true);
    }
  });
});

/** Tied data: N rows, confidences on a coarse grid, some wrong. */
const N = 24;
const u = uniforms(5150, 3 * N);
const labels = Array.from({ length: N }, (_, i) => ((u[i] as number) < 0.35 ? 1 : 0));
const probs = Array.from({ length: N }, (_, i) => {
  const p = 0.5 + Math.round((u[N + i] as number) * 4) / 10; // 0.5 … 0.9: five tied levels
  return [p, 1 - p];
});
const small = Array.from({ length: N }, (_, i) => 1 + Math.floor((u[2 * N + i] as number) * 3)); // 1…3

/** Sorted blocks (confidence descending) with their counts and errors, for the references. */
function blocks(weights: number[]): { c: number; e: number }[] {
  const by = new Map<number, { c: number; e: number }>();
  probs.forEach((row, i) => {
    const conf = Math.max(row[0] as number, row[1] as number);
    const wrong = (row[0] as number) >= (row[1] as number) ? labels[i] !== 0 : labels[i] !== 1;
    const b = by.get(conf) ?? { c: 0, e: 0 };
    b.c += weights[i] as number;
    if (wrong) b.e += weights[i] as number;
    by.set(conf, b);
  });
  return [...by.entries()].sort((a, b) => b[0] - a[0]).map(([, b]) => b);
}

/** The risk sums over every kept count k = 1 … N of the expanded samples, one by one (the definition). */
function bruteAurc(weights: number[], estimator: 'mean-risk' | 'geifman' | 'torch-uncertainty'): number {
  const bs = blocks(weights);
  const n = bs.reduce((a, b) => a + b.c, 0);
  let k = 0;
  let base = 0;
  let sum = 0;
  for (const { c, e } of bs) {
    for (let j = 1; j <= c; j++) {
      const kk = k + j;
      const err = base + (j * e) / c;
      if (estimator === 'mean-risk') sum += err / kk;
      else if (estimator === 'geifman') sum += kk === n ? err / n : err / (kk + 1);
      else sum += kk === 1 || kk === n ? err / kk : (2 * err) / kk;
    }
    k += c;
    base += e;
  }
  return estimator === 'torch-uncertainty' ? sum / (2 * (n - 1)) : sum / n;
}

/** The limit of the mean-risk AURC as every count grows without bound: ∫ over each block of (base + t·e/c)/(k0 + t). */
function limitAurc(weights: number[]): number {
  const bs = blocks(weights);
  const n = bs.reduce((a, b) => a + b.c, 0);
  let k0 = 0;
  let base = 0;
  let area = 0;
  for (const { c, e } of bs) {
    if (k0 === 0) area += e;
    else {
      const l = Math.log1p(c / k0);
      area += base * l + (e / c) * (c - k0 * l);
    }
    k0 += c;
    base += e;
  }
  return area / n;
}

describe('AURC and friends with large whole weights', () => {
  it.each(['mean-risk', 'geifman', 'torch-uncertainty'] as const)(
    '%s: equals the sum over the expanded samples (blocks of 1 000 to 30 000 samples)',
    (estimator) => {
      for (const factor of [1, 7, 500, 10007]) {
        const w = small.map((x) => x * factor);
        expect(
          rel(um.aurc(labels, probs, { weights: w, estimator }), bruteAurc(w, estimator)),
          `×${factor}`,
        ).toBeLessThan(1e-13);
      }
    },
  );

  it('whole weights of 1e15, 1e300 and 1e308 finish at once and approach the limit of ever larger counts', () => {
    const limit = limitAurc(small);
    for (const scale of [1e15, 1e300, 1e308 / 4]) {
      const w = small.map((x) => x * scale);
      const start = performance.now();
      const values = [
        um.aurc(labels, probs, { weights: w }),
        um.aurc(labels, probs, { weights: w, estimator: 'geifman' }),
        um.aurc(labels, probs, { weights: w, estimator: 'torch-uncertainty' }),
        um.eAurc(labels, probs, { weights: w }),
        um.riskCoverageCurve(labels, probs, { weights: w.map((x) => x / 8) }).aurc,
        um.evaluate(labels, probs, { weights: w.map((x) => x / 8), onWarning: () => {} }).aurc as number,
      ];
      // a loose bound: the old loop over every sample did not finish at all
      expect(performance.now() - start, `weights ×${scale}`).toBeLessThan(1000);
      for (const [j, v] of [values[0], values[1], values[2], values[4], values[5]].entries()) {
        expect(rel(v as number, limit), `weights ×${scale}, value ${j}: ${v} vs ${limit}`).toBeLessThan(1e-12);
      }
      expect(Number.isFinite(values[3])).toBe(true);
    }
  });

  it('accuracy at coverage and oracle-collaborative accuracy with 1e300 weights (the coverage loop never ended)', () => {
    const w = small.map((x) => x * 1e300);
    // with astronomically many samples, k = c·N exactly: the accuracy of the top share, blocks split linearly
    const bs = blocks(small);
    const n = bs.reduce((a, b) => a + b.c, 0);
    const errorsAt = (k: number) => {
      let kept = 0;
      let errors = 0;
      for (const { c, e } of bs) {
        if (kept + c >= k) return errors + ((k - kept) * e) / c;
        kept += c;
        errors += e;
      }
      return errors;
    };
    for (const coverage of [0.1, 0.37, 0.5, 1]) {
      expect(
        rel(
          um.accuracyAtCoverage(labels, probs, { weights: w, coverage }),
          1 - errorsAt(coverage * n) / (coverage * n),
        ),
      ).toBeLessThan(1e-13);
    }
    expect(
      rel(um.oracleCollaborativeAccuracy(labels, probs, { weights: w, fraction: 0.25 }), 1 - errorsAt(0.75 * n) / n),
    ).toBeLessThan(1e-13);
  });
});
