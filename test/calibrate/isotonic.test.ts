/** Isotonic regression: tied scores pooled first, order-independent, equal to a brute-force fit and to scikit-learn. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applyIsotonic, fitIsotonic } from '../../src/index.js';
import { randomProbs } from '../helpers/data.js';
import { uniforms } from '../helpers/minstd.js';

/**
 * Brute-force isotonic regression on scores that lie on the grid k/100 up to rounding: rows are grouped by
 * round(100·score) (the group stands at its smallest score, as scikit-learn keeps the first of a run), and every
 * group gets the min–max formula value max_{i ≤ g} min_{j ≥ g} mean(groups i…j) — O(G³), no PAV. Breakpoints are the
 * first and last group of each run of equal values.
 */
function reference(scores: number[], outcomes: number[]): { x: number[]; y: number[] } {
  const groups = new Map<number, { x: number; s: number; w: number }>();
  scores.forEach((v, i) => {
    const k = Math.round(v * 100);
    const g = groups.get(k) ?? { x: v, s: 0, w: 0 };
    g.x = Math.min(g.x, v);
    g.s += outcomes[i] as number;
    g.w += 1;
    groups.set(k, g);
  });
  const gs = [...groups.entries()].sort((a, b) => a[0] - b[0]).map(([, g]) => g);
  const value = gs.map((_, g) => {
    let best = -Infinity;
    for (let i = 0; i <= g; i++) {
      let low = Infinity;
      for (let j = g; j < gs.length; j++) {
        let s = 0;
        let w = 0;
        for (let m = i; m <= j; m++) {
          s += (gs[m] as { s: number }).s;
          w += (gs[m] as { w: number }).w;
        }
        low = Math.min(low, s / w);
      }
      best = Math.max(best, low);
    }
    return best;
  });
  const x: number[] = [];
  const y: number[] = [];
  for (let g = 0; g < gs.length; g++) {
    const first = g === 0 || value[g - 1] !== value[g];
    const last = g === gs.length - 1 || value[g + 1] !== value[g];
    if (first || last) {
      x.push((gs[g] as { x: number }).x);
      y.push(value[g] as number);
    }
  }
  return { x, y };
}

/** k/100 written four ways: equal up to an ulp or two, as scores computed by different code paths. */
function gridScore(k: number, way: number): number {
  return [k / 100, k * 0.01, (k * 0.1) / 10, 1 - (100 - k) / 100][way] as number;
}

/** A seeded random permutation (Fisher–Yates). */
function shuffle<T>(items: T[], seed: number): T[] {
  const u = uniforms(seed, items.length);
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor((u[i] as number) * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

describe('fitIsotonic pools tied scores before PAV', () => {
  it("the issue's example: both row orders give scikit-learn's 0.5 / 0.667", () => {
    for (const [y, s] of [
      [
        [0, 1, 0, 1, 1],
        [0.2, 0.2, 0.7, 0.7, 0.7],
      ],
      [
        [1, 0, 1, 0, 1],
        [0.2, 0.2, 0.7, 0.7, 0.7],
      ],
      [
        [1, 0, 0, 1, 1],
        [0.2, 0.7, 0.2, 0.7, 0.7],
      ],
    ]) {
      expect(fitIsotonic(y as number[], s as number[], { binary: true }).maps).toEqual([
        { x: [0.2, 0.7], y: [0.5, 2 / 3] },
      ]);
    }
  });
  it('random data with many ties and near-ties: equal to the brute-force fit, identical under row permutations', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const n = 5 + Math.floor((uniforms(seed, 1)[0] as number) * 120);
      const u = uniforms(seed + 1000, 3 * n);
      // few distinct grid values (2–30), so most rows tie; labels loosely increasing in the score
      const levels = 2 + (seed % 29);
      const ks = Array.from({ length: n }, (_, i) =>
        Math.round(Math.floor((u[i] as number) * levels) * (100 / levels)),
      );
      const scores = ks.map((k, i) => gridScore(k, Math.floor((u[n + i] as number) * 4)));
      const labels = scores.map((s, i) => ((u[2 * n + i] as number) < 0.2 + 0.6 * s ? 1 : 0));
      const fitted = fitIsotonic(labels, scores, { binary: true }).maps;
      expect(fitted).toEqual([reference(scores, labels)]);
      for (const p of [1, 2, 3]) {
        const order = shuffle(
          Array.from({ length: n }, (_, i) => i),
          seed * 7 + p,
        );
        expect(
          fitIsotonic(
            order.map((i) => labels[i] as number),
            order.map((i) => scores[i] as number),
            { binary: true },
          ).maps,
        ).toEqual(fitted);
      }
    }
  });
  it('extremes pool by the 1e-15 rule: 0, 1e-300 and 5e-16 are one group; 1 − 1e-16 and 1 another', () => {
    const m = fitIsotonic([1, 0, 0, 1, 0, 1], [0, 1e-300, 5e-16, 1 - 1e-16, 1, 0.5], { binary: true }).maps[0];
    // scikit-learn 1.2.1 on the same rows: X_thresholds_ [0, 0.5, 0.9999999999999999], y_thresholds_ [1/3, 2/3, 2/3]
    expect(m).toEqual({ x: [0, 0.5, 1 - 1e-16], y: [1 / 3, 2 / 3, 2 / 3] });
    // 1.2e-15 above the group's first score starts a new group (the distance is to the first, not the previous)
    const n = fitIsotonic([1, 0, 0], [0.1, 0.1 + 9e-16, 0.1 + 1.3e-15], { binary: true }).maps[0];
    // groups {0.1, 0.1 + 9e-16} (mean 1/2) and {0.1 + 1.3e-15} (0), pooled by PAV; scikit-learn gives the same
    expect(n).toEqual({ x: [0.1, 0.1 + 1.3e-15], y: [1 / 3, 1 / 3] });
  });
  it('one-vs-rest for C > 2: every class map equals the brute-force fit of its column, in any row order', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const c = 3 + (seed % 3);
      const n = 40 + seed * 9;
      // multiples of 1/20 that sum to 1 (many ties), each row written one of the four ways
      const { labels, probs } = randomProbs(seed, n, c, 20);
      const ways = uniforms(seed + 77, n);
      const rows = probs.map((r, i) =>
        r.map((v) => gridScore(Math.round(v * 100), Math.floor((ways[i] as number) * 4))),
      );
      const fitted = fitIsotonic(labels, rows).maps;
      expect(fitted).toHaveLength(c);
      fitted.forEach((m, k) =>
        expect(m).toEqual(
          reference(
            rows.map((r) => r[k] as number),
            labels.map((y) => (y === k ? 1 : 0)),
          ),
        ),
      );
      const order = shuffle(
        Array.from({ length: n }, (_, i) => i),
        seed,
      );
      expect(
        fitIsotonic(
          order.map((i) => labels[i] as number),
          order.map((i) => rows[i] as number[]),
        ).maps,
      ).toEqual(fitted);
      const out = applyIsotonic({ ...fitIsotonic(labels, rows) }, rows);
      for (let i = 0; i < n; i++)
        expect(Array.from(out.data.subarray(i * c, (i + 1) * c)).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 14);
    }
  });
});

interface Case {
  name: string;
  labels: number[];
  scores: number[] | number[][];
  grid?: number[];
  test?: number[][];
  calibrated?: number[][];
  maps: { x: number[]; y: number[]; predict?: number[] }[];
}

describe('fitIsotonic agrees with scikit-learn 1.2.1 on tied data (test/fixtures/calibrate/sklearnIsotonic.py)', () => {
  const { cases } = JSON.parse(readFileSync('test/fixtures/calibrate/sklearnIsotonic.json', 'utf8')) as {
    cases: Case[];
  };
  for (const c of cases) {
    it(c.name, () => {
      const binary = !Array.isArray(c.scores[0]);
      const fitted = fitIsotonic(c.labels, c.scores, { binary });
      fitted.maps.forEach((m, k) => {
        const s = c.maps[k] as Case['maps'][number];
        // X_thresholds_ exactly; y_thresholds_ up to sklearn's rounding of its running weighted means
        expect(m.x).toEqual(s.x);
        m.y.forEach((v, j) => expect(Math.abs(v - (s.y[j] as number))).toBeLessThan(1e-15));
      });
      if (binary) {
        const out = applyIsotonic(fitted, c.grid as number[], { binary: true }).data;
        (c.maps[0]?.predict as number[]).forEach((v, i) =>
          expect(Math.abs((out[2 * i + 1] as number) - v)).toBeLessThan(1e-15),
        );
      } else {
        const out = applyIsotonic(fitted, c.test as number[][]).data;
        (c.calibrated as number[][])
          .flat()
          .forEach((v, i) => expect(Math.abs((out[i] as number) - v)).toBeLessThan(1e-15));
      }
    });
  }
});
