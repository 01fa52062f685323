/**
 * smoothReliability and the one kernel smoother it shares with smoothEce, against relplot's steps written out
 * literally (splat, the reflected array, numpy's 'valid' convolution, interpolation) — a second implementation that
 * shares no code with src/calibration/kernelSmoother.ts — on seeded data with ties, exact 0 and 1, and weights.
 */
import { describe, expect, it } from 'vitest';
import { smoothEce, smoothReliability } from '../../src/index.js';
import { createRng } from '../../src/random/rng.js';

/** relplot 1.0.3 `GaussianKernel.apply` with `ReflectedGaussianKernel.convolve`, step by step. */
function relplotApply(f: number[], v: number[], t: number[], sigma: number): number[] {
  const big = Math.max(2000, Math.round(20 / sigma));
  const g = Math.floor(big / 2) + 1;
  const values = new Array<number>(g).fill(0);
  f.forEach((x, i) => {
    const b = Math.min(Math.max(Math.trunc(x * (g - 1)), 0), g - 2);
    const frac = x * (g - 1) - b;
    values[b] = (values[b] as number) + (1 - frac) * (v[i] as number);
    values[b + 1] = (values[b + 1] as number) + frac * (v[i] as number);
  });
  const ker = Array.from({ length: g }, (_, k) => {
    const x = k === g - 1 ? 1 : k / (g - 1);
    return Math.exp(-((x - 0.5) ** 2) / (2 * sigma ** 2)) / (Math.sqrt(2 * Math.PI) * sigma);
  });
  const rev = [...values].reverse();
  const ext = [...rev.slice(0, -1), ...values, ...rev.slice(1)];
  // np.convolve(ext, ker, 'valid')[g//2 : g//2 + g]
  const start = Math.floor(g / 2);
  const smoothed = Array.from({ length: g }, (_, j) => {
    let s = 0;
    for (let k = 0; k < g; k++) s += (ext[start + j + k] as number) * (ker[g - 1 - k] as number);
    return s;
  });
  return t.map((x) => {
    const ind = Math.min(Math.max(Math.trunc(x * (g - 1)), 0), g - 2);
    const r = (x - ind / (g - 1)) * (g - 1);
    return (smoothed[ind] as number) * (1 - r) + (smoothed[ind + 1] as number) * r;
  });
}

const MESH = Array.from({ length: 200 }, (_, k) => (k === 199 ? 1 : k * (1 / 199)));

/** The curve by the definition: μ = apply(f, y·w) / (apply(f, w) + floor), density = apply(f, w) / Σw. */
function reference(f: number[], y: number[], w: number[], sigma: number, floor = 1e-4) {
  const num = relplotApply(
    f,
    y.map((v, i) => v * (w[i] as number)),
    MESH,
    sigma,
  );
  const den = relplotApply(f, w, MESH, sigma);
  const total = w.reduce((a, b) => a + b, 0);
  return MESH.map((_, k) => ({
    outcome: (num[k] as number) / ((den[k] as number) + floor),
    density: (den[k] as number) / total,
  }));
}

/** n uniforms from the library's seeded xoshiro (MINSTD's consecutive draws lie on lines: y would depend on s). */
function draws(seed: number, n: number): number[] {
  const rng = createRng('test', seed);
  return Array.from({ length: n }, () => rng.uniform());
}

/** Positive-class pairs (s, y) with ties (rounded scores), exact 0 and 1, and outcomes near calibrated. */
function pairs(seed: number, n: number, round: number): { s: number[]; y: number[] } {
  const u = draws(seed, 2 * n);
  const s = Array.from({ length: n }, (_, i) => {
    const x = (u[2 * i] as number) ** 1.5;
    return i % 17 === 0 ? 0 : i % 13 === 0 ? 1 : Math.round(x * round) / round;
  });
  const y = s.map((x, i) => ((u[2 * i + 1] as number) < 0.8 * x + 0.1 ? 1 : 0));
  return { s, y };
}

const rows = (s: number[]) => s.map((x) => [1 - x, x]);
const close = (a: number, b: number, tol = 1e-11) => Math.abs(a - b) <= tol * Math.max(1, Math.abs(b));

describe('smoothReliability: the curve of the smoother whose error is smoothEce', () => {
  for (const [seed, n, round] of [
    [11, 300, 1e6],
    [12, 500, 20],
    [13, 80, 4],
  ] as const) {
    it(`seed ${seed}, ${n} pairs (scores rounded to 1/${round}): μ and density as relplot's steps, value = smoothEce`, () => {
      const { s, y } = pairs(seed, n, round);
      const o = { target: 'positive-class' as const, resamples: 0 };
      const r = smoothReliability(y, rows(s), o);
      const e = smoothEce(y, rows(s), { target: 'positive-class' });
      expect([r.value, r.bandwidth]).toEqual([e.value, e.bandwidth]);
      expect(r.measure).toBe('probability');
      expect(r.band).toBeNull();
      const ref = reference(s, y, new Array<number>(n).fill(1), r.bandwidth);
      r.points.forEach((p, k) => {
        expect(p.score).toBe(MESH[k]);
        expect(close(p.outcome, ref[k]?.outcome as number), `μ(${p.score}) ${p.outcome}`).toBe(true);
        expect(close(p.density, ref[k]?.density as number), `density(${p.score})`).toBe(true);
        // the kernel's reach in samples: density · n · σ√(2π)
        expect(close(p.support, p.density * n * r.bandwidth * Math.sqrt(2 * Math.PI))).toBe(true);
        expect([p.lower, p.upper]).toEqual([null, null]);
      });
      // a fixed bandwidth: the same smoother at that σ
      const fixed = smoothReliability(y, rows(s), { ...o, bandwidth: 0.07 });
      const at = reference(s, y, new Array<number>(n).fill(1), 0.07);
      expect(fixed.points.every((p, k) => close(p.outcome, at[k]?.outcome as number))).toBe(true);
    });
  }
  it('whole-number weights give the curve of repeated pairs; fractional weights scale the density floor as smoothEce', () => {
    const { s, y } = pairs(21, 120, 50);
    const w = s.map((_, i) => 1 + (i % 3));
    const weighted = smoothReliability(y, rows(s), { target: 'positive-class', weights: w, resamples: 0 });
    const repeated = smoothReliability(
      s.flatMap((_, i) => new Array<number>(w[i] as number).fill(y[i] as number)),
      s.flatMap((x, i) => new Array<number[]>(w[i] as number).fill([1 - x, x])),
      { target: 'positive-class', resamples: 0, bandwidth: weighted.bandwidth },
    );
    weighted.points.forEach((p, k) => {
      const q = repeated.points[k] as (typeof repeated.points)[number];
      expect(close(p.outcome, q.outcome, 1e-9)).toBe(true);
      expect(close(p.density, q.density, 1e-9)).toBe(true);
      expect(close(p.support, q.support, 1e-9)).toBe(true);
    });
    expect(weighted.value).toBe(smoothEce(y, rows(s), { target: 'positive-class', weights: w }).value);
  });
  it('top label by default: the pairs (confidence, correct) of multi-class scores', () => {
    const u = draws(31, 400);
    const probs = Array.from({ length: 100 }, (_, i) => {
      const a = 0.34 + 0.6 * (u[4 * i] as number);
      const b = (1 - a) * (u[4 * i + 1] as number);
      return [a, b, 1 - a - b];
    });
    const labels = probs.map((_, i) => ((u[4 * i + 2] as number) < 0.7 ? 0 : 1 + (i % 2)));
    const r = smoothReliability(labels, probs, { resamples: 0 });
    const conf = probs.map((p) => Math.max(...p));
    const correct = probs.map((p, i) => (p.indexOf(Math.max(...p)) === labels[i] ? 1 : 0));
    const ref = reference(conf, correct, new Array<number>(100).fill(1), r.bandwidth);
    expect(r.measure).toBe('confidence');
    expect(r.points.every((p, k) => close(p.outcome, ref[k]?.outcome as number))).toBe(true);
  });
});

describe('the bootstrap band', () => {
  it('equals the percentiles of the curve refitted on each resample (the same draws, relplot’s smoother each time)', () => {
    const { s, y } = pairs(41, 60, 10);
    const B = 12;
    const r = smoothReliability(y, rows(s), { target: 'positive-class', resamples: B, level: 0.8, seed: 7 });
    expect(r.band).toEqual({ method: 'percentile', resamples: B, level: 0.8, seed: 7 });
    const rng = createRng('test', 7);
    const curves = Array.from({ length: B }, () => {
      const drawn = Array.from({ length: s.length }, () => rng.integer(s.length));
      return reference(
        drawn.map((i) => s[i] as number),
        drawn.map((i) => y[i] as number),
        drawn.map(() => 1),
        r.bandwidth,
      ).map((p) => p.outcome);
    });
    /** numpy.quantile, linear. */
    const quantile = (v: number[], q: number) => {
      const a = [...v].sort((x, z) => x - z);
      const h = (a.length - 1) * q;
      const lo = Math.floor(h);
      return lo + 1 < a.length
        ? (a[lo] as number) + ((a[lo + 1] as number) - (a[lo] as number)) * (h - lo)
        : (a[lo] as number);
    };
    r.points.forEach((p, k) => {
      const at = curves.map((c) => c[k] as number);
      expect(close(p.lower as number, quantile(at, 0.1), 1e-9), `lower at ${p.score}`).toBe(true);
      expect(close(p.upper as number, quantile(at, 0.9), 1e-9), `upper at ${p.score}`).toBe(true);
    });
  });
  it('is seeded (same seed, same band; another seed, another band), ordered, and narrows with more data', () => {
    const small = pairs(51, 200, 1e6);
    const large = pairs(52, 3000, 1e6);
    const o = { target: 'positive-class' as const, resamples: 60 };
    const a = smoothReliability(small.y, rows(small.s), o);
    expect(smoothReliability(small.y, rows(small.s), o)).toEqual(a);
    expect(smoothReliability(small.y, rows(small.s), { ...o, seed: 1 }).points).not.toEqual(a.points);
    expect(a.points.every((p) => (p.lower as number) <= (p.upper as number))).toBe(true);
    const b = smoothReliability(large.y, rows(large.s), { ...o, bandwidth: a.bandwidth });
    const width = (x: typeof a, k: number) => (x.points[k]?.upper as number) - (x.points[k]?.lower as number);
    const mid = [60, 100, 140];
    for (const k of mid) expect(width(b, k), `at ${MESH[k]}`).toBeLessThan(width(a, k));
  });
  it('covers calibrated data: the diagonal lies inside the 95% band wherever a hundred predictions are near', () => {
    const u = draws(61, 8000);
    const s = Array.from({ length: 4000 }, (_, i) => 0.1 + 0.8 * (u[2 * i] as number));
    const y = s.map((x, i) => ((u[2 * i + 1] as number) < x ? 1 : 0));
    const r = smoothReliability(y, rows(s), { target: 'positive-class', resamples: 100, bandwidth: 0.05 });
    const supported = r.points.filter((p) => p.support >= 100 && p.score > 0.2 && p.score < 0.8);
    const inside = supported.filter((p) => (p.lower as number) <= p.score && p.score <= (p.upper as number));
    expect(supported.length).toBeGreaterThan(100);
    expect(inside.length / supported.length).toBeGreaterThan(0.85);
  });
});
