/** The temperature search interval: validated against the calibrator range, and a fit at a bound always warns. */
import { describe, expect, it } from 'vitest';
import { fitMcTemperature, fitTemperature, parseCalibrator, type UMWarning } from '../../src/index.js';
import { failure } from '../helpers/failure.js';
import { uniforms } from '../helpers/minstd.js';

/** −ln softmax(z / T)_y of one row, from the raw logits (an independent reference: no log-probabilities, no pass). */
function rowLogLoss(z: readonly number[], y: number, t: number): number {
  const top = Math.max(...z);
  const lse = Math.log(z.reduce((s, v) => s + Math.exp((v - top) / t), 0));
  return lse - ((z[y] as number) - top) / t;
}

/** Mean NLL of softmax(z / T) (S = 1) or of the average of the members' softmax(z_s / T). */
function referenceNll(members: number[][][], labels: number[], t: number): number {
  let sum = 0;
  labels.forEach((y, i) => {
    const l = members.map((m) => -rowLogLoss(m[i] as number[], y, t));
    const top = Math.max(...l);
    sum -= top === -Infinity ? -Infinity : top + Math.log(l.reduce((s, v) => s + Math.exp(v - top), 0) / l.length);
  });
  return sum / labels.length;
}

/** Seeded logits in one of several regimes: tiny to huge scales, separable or noisy labels, 2 to 10 classes. */
function regime(seed: number): { labels: number[]; members: number[][][]; bounds: [number, number] } {
  // minstd's first outputs grow with the seed: spread the seeds and skip the start of the stream
  const u = uniforms(seed * 104729 + 1000, 18).slice(10);
  const scale = [1e-8, 1e-3, 0.5, 3, 40, 1e3, 1e8][Math.floor((u[0] as number) * 7)] as number;
  const c = [2, 3, 10][Math.floor((u[1] as number) * 3)] as number;
  const n = 4 + Math.floor((u[2] as number) * 40);
  const s = (u[3] as number) < 0.5 ? 1 : 3;
  const agree = [1, 0.9, 0.5, 0][Math.floor((u[4] as number) * 4)] as number; // share of labels equal to the argmax
  const lo = (u[5] as number) < 0.2 ? 1e-6 : 10 ** (-6 + 5.99 * (u[6] as number));
  const hi = (u[5] as number) > 0.8 ? 1e12 : 10 ** (0.01 + 11.99 * (u[7] as number));
  const v = uniforms(seed * 7919 + 5000, n * (c * s + 2) + 10).slice(10);
  const labels: number[] = [];
  const members: number[][][] = Array.from({ length: s }, () => []);
  for (let i = 0; i < n; i++) {
    const base = Array.from({ length: c }, (_, k) => scale * ((v[i * (c * s + 2) + k] as number) - 0.5));
    // separable data: a margin of one scale unit for the top class in every member, so the NLL reaches exactly 0
    const top = base.indexOf(Math.max(...base));
    if (agree === 1) base[top] = (base[top] as number) + scale;
    for (let m = 0; m < s; m++)
      (members[m] as number[][]).push(
        base.map((b, k) => b * (1 + (m === 0 ? 0 : 0.3 * ((v[i * (c * s + 2) + m * c + k] as number) - 0.5)))),
      );
    labels.push(
      (v[i * (c * s + 2) + c * s] as number) < agree ? top : Math.floor((v[i * (c * s + 2) + c * s + 1] as number) * c),
    );
  }
  return { labels, members, bounds: [lo, hi] };
}

describe('temperature bounds', () => {
  it("rejects bounds outside [1e-6, 1e12] (the issue's 1e-320 reported T = 1.4e-308 'converged'), naming the bound", () => {
    const y = [0, 1, 0];
    const z = [
      [2, 0],
      [0, 1],
      [3, 0],
    ];
    for (const fit of [
      (o: object) => fitTemperature(y, z, { input: 'logits', ...o }),
      (o: object) => fitMcTemperature(y, [z], { input: 'logits', ...o }),
    ]) {
      for (const [bounds, message] of [
        [[1e-320, 1000], /options\.bounds\[0\] must be ≥ 1e-6 \(temperatures lie in \[1e-6, 1e12\]\); got 1e-320$/],
        [[1e-7, 10], /options\.bounds\[0\] must be ≥ 1e-6 .*; got 1e-7$/],
        [
          [0.5, 1e13],
          /options\.bounds\[1\] must be ≤ 1e12 \(temperatures lie in \[1e-6, 1e12\]\); got 10000000000000$/,
        ],
      ] as const) {
        const e = failure(() => fit({ bounds }));
        expect(e.code).toBe('UM_OPTION');
        expect(e.message).toMatch(message);
      }
    }
  });
  it('on random data of every regime a fit never does worse than a bound, and sits at a bound exactly when it warns', () => {
    let atBounds = 0;
    let flat = 0;
    for (let seed = 1; seed <= 120; seed++) {
      const { labels, members, bounds } = regime(seed);
      const [lo, hi] = bounds;
      const single = members.length === 1;
      const seen: UMWarning[] = [];
      const options = { input: 'logits' as const, bounds, onWarning: (w: UMWarning) => seen.push(w) };
      const p = single
        ? fitTemperature(labels, members[0] as number[][], options)
        : fitMcTemperature(labels, members, options);
      const t = p.temperature;
      const at = referenceNll(members, labels, t);
      const [fLo, fHi] = [referenceNll(members, labels, lo), referenceNll(members, labels, hi)];
      const where = `seed ${seed}: T = ${t} in [${lo}, ${hi}], NLL ${at}, at the bounds ${fLo}, ${fHi}`;
      expect(t >= lo && t <= hi, where).toBe(true);
      expect(Number.isFinite(p.diagnostics.nllAfter), where).toBe(true);
      // never clearly worse than a bound
      for (const f of [fLo, fHi]) expect(at, where).toBeLessThanOrEqual(f + 1e-9 * Math.max(1, Math.abs(f)));
      // a bound that does exactly as well (a flat NLL: exponentials underflowed) is the reported one, unless T = 1 is
      if (t !== 1 && fLo === at && at === 0) {
        expect(p.diagnostics.atBound, where).not.toBe(null);
        flat++;
      }
      const near = Math.abs(Math.log(t / lo)) <= 1e-6 ? 'lower' : Math.abs(Math.log(t / hi)) <= 1e-6 ? 'upper' : null;
      expect(p.diagnostics.atBound, where).toBe(near);
      expect(
        seen.map((w) => w.code),
        where,
      ).toEqual(near === null ? [] : ['UM_W_BOUND']);
      // and what it produced is a calibrator that validates
      expect(parseCalibrator(JSON.stringify(p)).kind).toBe(p.kind);
      if (near !== null) atBounds++;
    }
    expect(atBounds).toBeGreaterThan(20); // the regimes do reach the bounds
    expect(flat).toBeGreaterThan(5); // and flat NLLs
  });
  it('separable data: the NLL is 0 from some T down to the lower bound; the fit reports that bound with a warning', () => {
    // margins of 30: softmax underflows to one-hot below T ≈ 0.8, long before the bound
    const y = [0, 1, 0, 1];
    const z = [
      [30, 0],
      [0, 30],
      [45, 0],
      [0, 60],
    ];
    for (const fit of ['single', 'mc'] as const) {
      const seen: string[] = [];
      const o = {
        input: 'logits' as const,
        bounds: [1e-6, 100] as [number, number],
        onWarning: (w: UMWarning) => seen.push(w.code),
      };
      const p = fit === 'single' ? fitTemperature(y, z, o) : fitMcTemperature(y, [z, z], o);
      expect([p.temperature, p.diagnostics.atBound, seen], fit).toEqual([1e-6, 'lower', ['UM_W_BOUND']]);
    }
  });
});
