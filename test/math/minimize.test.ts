/** Brent's one-dimensional minimiser (internal, behind temperature scaling). */
import { describe, expect, it } from 'vitest';
import { brentMinimize } from '../../src/math/minimize.js';

describe('brentMinimize', () => {
  it('finds the minimum of a parabola and of a skewed function to the tolerance', () => {
    const r = brentMinimize((x) => (x - 0.3) ** 2 + 1, -5, 5);
    expect(r.converged).toBe(true);
    expect(Math.abs(r.x - 0.3)).toBeLessThan(1e-7);
    expect(r.fx).toBeCloseTo(1, 14);
    const s = brentMinimize((x) => Math.exp(x) - 2 * x, -3, 4); // minimum at ln 2
    expect(Math.abs(s.x - Math.LN2)).toBeLessThan(1e-7);
    expect(s.evaluations).toBeLessThan(40);
  });
  it('approaches the bound when the function keeps falling beyond it', () => {
    const r = brentMinimize((x) => -x, 0, 1);
    expect(1 - r.x).toBeLessThan(1e-9);
  });
  it('treats NaN as +Infinity and stops at the evaluation budget', () => {
    const r = brentMinimize((x) => (x < 0 ? Number.NaN : (x - 1) ** 2), -2, 3);
    expect(Math.abs(r.x - 1)).toBeLessThan(1e-6);
    const capped = brentMinimize((x) => (x - 0.123) ** 2, 0, 1, 1e-15, 5);
    expect([capped.evaluations, capped.converged]).toEqual([5, false]);
  });
});
