import { describe, expect, it } from 'vitest';
import { intervalOf } from '../../src/bootstrap/intervals.js';
import { normalCdf, normalQuantile } from '../../src/math/special.js';
import { bootstrap, ece, nll, type BootstrapInterval, type BootstrapMethod } from '../../src/index.js';
import { randomProbs } from '../helpers/data.js';

/** Quantile type 7 (numpy's default), written out independently. */
function q7(values: readonly number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  const h = (s.length - 1) * p;
  const i = Math.floor(h);
  return (s[i] as number) + (h - i) * ((s[Math.min(i + 1, s.length - 1)] as number) - (s[i] as number));
}

/** Runs bootstrap while recording every call of the metric: its weights and value. */
function recorded(n: number, f: (w: Float64Array) => number, options: Parameters<typeof bootstrap>[2]) {
  const calls: { w: Float64Array; v: number }[] = [];
  const r = bootstrap(
    n,
    (w) => {
      const v = f(w);
      calls.push({ w: Float64Array.from(w), v });
      return v;
    },
    options,
  );
  return { r, calls, interval: r.intervals as BootstrapInterval };
}

describe('bootstrap interval methods against their formulas (values recorded from the metric calls)', () => {
  // skewed, biased statistics of seeded random data: NLL (long tail) and ECE (biased upward under resampling)
  const d = randomProbs(5, 60, 3, 20);
  const d2 = randomProbs(6, 230, 3);
  const stats: [string, number, (w: Float64Array) => number][] = [
    ['nll, N = 60', 60, (w) => nll(d.labels, d.probs, { weights: w })],
    ['ece, N = 60', 60, (w) => ece(d.labels, d.probs, { weights: w, bins: 5 })],
    ['ece, N = 230 (grouped jackknife)', 230, (w) => ece(d2.labels, d2.probs, { weights: w, bins: 10 })],
  ];
  for (const [name, n, f] of stats) {
    it(`${name}: percentile, basic, union and BCa (z₀ with ties ½, jackknife acceleration)`, () => {
      const R = 150;
      const level = 0.9;
      const runs = Object.fromEntries(
        (['percentile', 'basic', 'union', 'bca'] as BootstrapMethod[]).map((m) => [
          m,
          recorded(n, f, { resamples: R, seed: 9, level, method: m }),
        ]),
      );
      const { calls } = runs.bca as ReturnType<typeof recorded>;
      const estimate = (calls[0] as { v: number }).v;
      const values = calls.slice(1, R + 1).map((c) => c.v);
      // the same resamples whatever the method
      expect((runs.percentile as ReturnType<typeof recorded>).calls.map((c) => c.v)).toEqual(
        calls.slice(0, R + 1).map((c) => c.v),
      );
      const [lo, hi] = [q7(values, 0.05), q7(values, 0.95)];
      const at = (m: string) => (runs[m] as ReturnType<typeof recorded>).interval;
      // (the library's tail level is (1 − 0.9)/2 = 0.04999999999999999, not 0.05: equal to ~1 ulp)
      expect(at('percentile').lower).toBeCloseTo(lo, 14);
      expect(at('percentile').upper).toBeCloseTo(hi, 14);
      expect(at('basic').lower).toBeCloseTo(2 * estimate - hi, 14);
      expect(at('basic').upper).toBeCloseTo(2 * estimate - lo, 14);
      const half = Math.max(Math.abs(lo - estimate), Math.abs(hi - estimate));
      expect(at('union').lower).toBeCloseTo(estimate - half, 14);
      expect(at('union').upper).toBeCloseTo(estimate + half, 14);
      expect(at('union').lower as number).toBeLessThanOrEqual(Math.min(lo, at('basic').lower as number) + 1e-15);
      expect(at('union').upper as number).toBeGreaterThanOrEqual(Math.max(hi, at('basic').upper as number) - 1e-15);
      // the jackknife: G = min(N, 100) calls after the resamples, group g = rows j ≡ g (mod G) set to 0
      const groups = Math.min(n, 100);
      const jack = calls.slice(R + 1);
      expect(jack.length).toBe(groups);
      jack.forEach((c, g) =>
        expect(Array.from(c.w, (v, j) => (v === 0) === (j % groups === g)).every(Boolean)).toBe(true),
      );
      const mean = jack.reduce((s, c) => s + c.v, 0) / groups;
      const dev = jack.map((c) => mean - c.v);
      const a = dev.reduce((s, x) => s + x ** 3, 0) / (6 * dev.reduce((s, x) => s + x * x, 0) ** 1.5);
      const below = values.filter((v) => v < estimate).length + 0.5 * values.filter((v) => v === estimate).length;
      const z0 = normalQuantile(below / R);
      const alpha = (z: number) => normalCdf(z0 + (z0 + z) / (1 - a * (z0 + z)));
      const bca = at('bca');
      expect(bca.method).toBe('bca');
      expect(bca.biasCorrection).toBeCloseTo(z0, 12);
      expect(bca.acceleration).toBeCloseTo(a, 12);
      expect(bca.lower).toBeCloseTo(q7(values, alpha(normalQuantile(0.05))), 12);
      expect(bca.upper).toBeCloseTo(q7(values, alpha(normalQuantile(0.95))), 12);
    });
  }

  it('BCa with every resample on one side of the estimate (z₀ = ±∞) falls back to the union interval', () => {
    // the estimate (all weights 1) is 0; every resample has Σw² > N, so lies above it
    const f = (w: Float64Array) => w.reduce((s, v) => s + v * v, 0) - w.length;
    const { interval } = recorded(20, f, { resamples: 50, method: 'bca' });
    expect(interval.method).toBe('union');
    expect(interval.lower as number).toBeLessThan(0);
    expect(interval.upper as number).toBeGreaterThan(0);
    expect(interval.biasCorrection).toBeUndefined();
    // and below: the mirror image
    const { interval: mirror } = recorded(20, (w) => -f(w), { resamples: 50, method: 'bca' });
    expect([mirror.method, mirror.lower, mirror.upper]).toEqual([
      'union',
      -(interval.upper as number),
      -(interval.lower as number),
    ]);
  });

  it('BCa past the pole (1 − a·(z₀ + z) ≤ 0) takes the end it was heading for, never a wrapped-around level', () => {
    // |a| ≤ 1/6 (Cauchy–Schwarz), so the pole needs |z₀ + z| > 6: one resample of 100 000 below the estimate
    // (z₀ = Φ⁻¹(10⁻⁵) ≈ −4.26, lower tail z₀ + z ≈ −6.2) and a ≈ −0.165 from one high jackknife value
    const values = [0, ...Array.from({ length: 99_999 }, (_, i) => 0.6 + (0.4 * i) / 99_999)];
    const high = Array.from({ length: 100 }, (_, i) => (i === 0 ? 10 : 0));
    const i = intervalOf('bca', 0.5, [...values], 0, 0.95, high);
    expect(i.acceleration as number).toBeLessThan(-0.16);
    expect(i.lower).toBe(0); // without the guard the level wraps to Φ(+230) = 1: the lower end would be the largest value
    expect(i.upper as number).toBeGreaterThanOrEqual(0);
    const j = intervalOf(
      'bca',
      -0.5,
      values.map((v) => -v),
      0,
      0.95,
      high.map((v) => -v),
    );
    expect(j.acceleration as number).toBeGreaterThan(0.16);
    expect(j.upper).toBe(0);
    expect(j.lower as number).toBeLessThanOrEqual(0);
  });

  it('constant metrics, non-finite estimates and failed resamples give no NaN', () => {
    for (const method of ['percentile', 'basic', 'union', 'bca'] as BootstrapMethod[]) {
      const c = bootstrap(10, () => 0.25, { resamples: 20, method }).intervals as BootstrapInterval;
      expect([c.lower, c.upper, c.standardError], method).toEqual([0.25, 0.25, 0]);
      const inf = bootstrap(10, () => Infinity, { resamples: 20, method }).intervals as BootstrapInterval;
      expect([inf.estimate, inf.lower, inf.upper], method).toEqual([Infinity, null, null]);
      // a metric infinite on resamples that hold row 0 twice: those resamples are failed, not NaN ends
      const some = bootstrap(10, (w) => ((w[0] as number) > 1 ? Infinity : (w[1] as number)), { resamples: 40, method })
        .intervals as BootstrapInterval;
      expect(some.failed, method).toBeGreaterThan(0);
      expect(Number.isFinite(some.lower) && Number.isFinite(some.upper), method).toBe(true);
    }
  });
});
