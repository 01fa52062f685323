import { describe, expect, it } from 'vitest';
import { iscv, negativeWaic } from '../../src/index.js';
import { createRng } from '../../src/random/rng.js';

const LOGP = [
  [-0.1, -0.3, -0.2],
  [-1.2, -0.9, -1.5],
  [-0.05, -0.02, -0.4],
  [-2.0, -1.0, -3.0],
];

describe('uncertainty_metrics information criteria (reference_values §12.2)', () => {
  const um = { preset: 'uncertainty-metrics' } as const;
  it('negative WAIC1, WAIC2 and ISCV with standard errors over members', () => {
    const w1 = negativeWaic(LOGP, um);
    expect(w1.value).toBeCloseTo(-0.990853869718077, 15);
    expect(w1.sem).toBeCloseTo(0.5176787792232468, 15);
    const w2 = negativeWaic(LOGP, { ...um, type: 'waic2' });
    expect(w2.value).toBeCloseTo(-0.9782516858374786, 15);
    expect(w2.sem).toBeCloseTo(0.5071531406197713, 15);
    const i = iscv(LOGP, um);
    expect(i.value).toBeCloseTo(-0.9785440263492193, 15);
    expect(i.sem).toBeCloseTo(0.5069980736339535, 15);
  });
});

/** The definitions written as plain loops, independently of the implementation. */
function directWaic(logp: number[][], type: 'waic1' | 'waic2'): { value: number; sem: number } {
  const terms = logp.map((row) => {
    const m = row.length;
    const lpd = Math.log(row.reduce((a, l) => a + Math.exp(l), 0) / m);
    const mean = row.reduce((a, l) => a + l, 0) / m;
    const v = row.reduce((a, l) => a + (l - mean) ** 2, 0) / (m - 1);
    return type === 'waic1' ? lpd - v : 2 * mean - lpd;
  });
  const n = terms.length;
  const mean = terms.reduce((a, t) => a + t, 0) / n;
  const s2 = terms.reduce((a, t) => a + (t - mean) ** 2, 0) / (n - 1);
  return { value: mean, sem: Math.sqrt(s2 / n) };
}
function directIscv(logp: number[][]): { value: number; sem: number } {
  const terms = logp.map((row) => -Math.log(row.reduce((a, l) => a + Math.exp(-l), 0) / row.length));
  const n = terms.length;
  const mean = terms.reduce((a, t) => a + t, 0) / n;
  const s2 = terms.reduce((a, t) => a + (t - mean) ** 2, 0) / (n - 1);
  return { value: mean, sem: Math.sqrt(s2 / n) };
}

describe('WAIC and ISCV match a direct loop over the definitions (default conventions)', () => {
  const rng = createRng('test', 21);
  const logp = Array.from({ length: 300 }, () => Array.from({ length: 40 }, () => -Math.abs(rng.normal()) - 0.01));
  it('WAIC1, WAIC2', () => {
    for (const type of ['waic1', 'waic2'] as const) {
      const a = negativeWaic(logp, { type });
      const b = directWaic(logp, type);
      expect(a.value).toBeCloseTo(b.value, 13);
      expect(a.sem).toBeCloseTo(b.sem, 13);
    }
  });
  it('ISCV', () => {
    const a = iscv(logp);
    const b = directIscv(logp);
    expect(a.value).toBeCloseTo(b.value, 13);
    expect(a.sem).toBeCloseTo(b.sem, 13);
  });
  it('the standard error is undefined (null) with a single instance', () => {
    expect(iscv([[-1, -2]]).sem).toBeNull();
    expect(negativeWaic([[-1, -2]], { preset: 'uncertainty-metrics' }).sem).toBe(0);
  });
  it('all criteria equal the log-likelihood when every member agrees', () => {
    const same = [
      [-0.7, -0.7, -0.7],
      [-1.2, -1.2, -1.2],
    ];
    expect(negativeWaic(same).value).toBeCloseTo(-0.95, 15);
    expect(negativeWaic(same, { type: 'waic2' }).value).toBeCloseTo(-0.95, 15);
    expect(iscv(same).value).toBeCloseTo(-0.95, 15);
  });
});
