/**
 * The member-pair measures (disagreement, double fault, pairwise KL, cosine distance, L1 distance and their mean in
 * averagePairwiseDiversity) are computed from per-member sums in O(S·N·C): equal to a brute-force loop over every
 * pair (compensated sums) on seeded data with ties, identical members, exact zeros, weights (zeros included) and
 * clip; and 40 000 members take milliseconds (the pair loop took 3.5–42 s; found by the API fuzz).
 */
import { describe, expect, it } from 'vitest';
import {
  averagePairwiseDiversity,
  cosineDistance,
  disagreement,
  doubleFault,
  lpDistance,
  pairwiseKl,
} from '../../src/index.js';
import { uniforms } from '../helpers/minstd.js';

/** Σ with Neumaier compensation. */
function fsum(xs: readonly number[]): number {
  let s = 0;
  let c = 0;
  for (const x of xs) {
    const t = s + x;
    if (Number.isFinite(t)) c += Math.abs(s) >= Math.abs(x) ? s - t + x : x - t + s;
    s = t;
  }
  return s + c;
}

type M = number[][][];
const argmax = (r: number[]) => r.reduce((b, v, k) => (v > (r[b] as number) ? k : b), 0);

/** Brute force: the definition of each measure over every pair, weighted rows. */
function reference(m: M, y: number[], w: number[], clip: number) {
  const s = m.length;
  const n = (m[0] as number[][]).length;
  const total = fsum(w);
  const pairs: [number, number][] = [];
  for (let a = 0; a < s; a++) for (let b = a + 1; b < s; b++) pairs.push([a, b]);
  const rowMean = (f: (i: number) => number) =>
    fsum(Array.from({ length: n }, (_, i) => ((w[i] as number) > 0 ? (w[i] as number) * f(i) : 0))) / total;
  const row = (a: number, i: number) => (m[a] as number[][])[i] as number[];
  const kl = (p: number[], q: number[]) =>
    fsum(
      p.map((x, k) => {
        const pp = Math.max(x, clip);
        const qq = Math.max(q[k] as number, clip);
        return pp > 0 ? pp * Math.log(pp / qq) : 0;
      }),
    );
  const cos = (p: number[], q: number[]) =>
    fsum(p.map((x, k) => x * (q[k] as number))) /
    Math.sqrt(fsum(p.map((x) => x * x))) /
    Math.sqrt(fsum(q.map((x) => x * x)));
  const l1 = (p: number[], q: number[]) => fsum(p.map((x, k) => Math.abs(x - (q[k] as number))));
  const over = (f: (a: number, b: number) => number) => fsum(pairs.map(([a, b]) => f(a, b))) / pairs.length;
  const df: number[] = [];
  for (let a = 0; a < s; a++) {
    for (let b = 0; b < s; b++) {
      if (a === b) continue;
      const faults = fsum(
        Array.from({ length: n }, (_, i) =>
          (w[i] as number) > 0 && argmax(row(a, i)) !== y[i] ? (w[i] as number) : 0,
        ),
      );
      const both = fsum(
        Array.from({ length: n }, (_, i) =>
          (w[i] as number) > 0 && argmax(row(a, i)) !== y[i] && argmax(row(b, i)) !== y[i] ? (w[i] as number) : 0,
        ),
      );
      if (faults > 0) df.push(both / faults);
    }
  }
  return {
    disagreement: over((a, b) => rowMean((i) => (argmax(row(a, i)) === argmax(row(b, i)) ? 0 : 1))),
    kl: over((a, b) => rowMean((i) => kl(row(a, i), row(b, i)))),
    cosine: over((a, b) => rowMean((i) => 1 - cos(row(a, i), row(b, i)))),
    l1: over((a, b) => rowMean((i) => l1(row(a, i), row(b, i)))),
    doubleFault: df.length === 0 ? 0 : fsum(df) / df.length,
  };
}

/** Seeded members with ties: coarse values (many equal rows and argmax ties), copies of a member, exact zeros. */
function members(seed: number): { m: M; y: number[]; w: number[]; clip: number } {
  const u = uniforms(seed, 4000);
  let at = 0;
  const next = () => u[at++ % u.length] as number;
  const s = 2 + Math.floor(next() * 12);
  const n = 1 + Math.floor(next() * 6);
  const c = 2 + Math.floor(next() * 3);
  const zeros = next() < 0.4;
  const m: M = [];
  for (let a = 0; a < s; a++) {
    if (a > 0 && next() < 0.25) {
      m.push((m[Math.floor(next() * a)] as number[][]).map((r) => r.slice()));
      continue;
    }
    m.push(
      Array.from({ length: n }, () => {
        const r: number[] = Array.from({ length: c }, () => (zeros && next() < 0.3 ? 0 : Math.round(next() * 4) + 1));
        if (!r.some((x) => x > 0)) r[0] = 1;
        const t = r.reduce((x, v) => x + v, 0);
        return r.map((x) => x / t);
      }),
    );
  }
  const y = Array.from({ length: n }, () => Math.floor(next() * c));
  const w: number[] = Array.from({ length: n }, () =>
    next() < 0.2 ? 0 : next() < 0.5 ? 1 : Math.round(next() * 8) / 4,
  );
  if (!w.some((x) => x > 0)) w[0] = 1;
  return { m, y, w, clip: next() < 0.3 ? 1e-7 : 0 };
}

const close = (a: number, b: number) => a === b || Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b));

describe('member-pair measures from per-member sums', () => {
  it('equal the brute-force pair loop on 300 seeded ensembles', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const { m, y, w, clip } = members(seed);
      const r = reference(m, y, w, clip);
      const o = { weights: w, onWarning: () => {} };
      const got = {
        disagreement: disagreement(m, { weights: w }),
        kl: pairwiseKl(m, { ...o, clip }),
        cosine: cosineDistance(m, { weights: w }),
        l1: lpDistance(m, { weights: w }),
        doubleFault: doubleFault(y, m, { weights: w }),
      };
      for (const k of Object.keys(r) as (keyof typeof r)[])
        expect(close(got[k], r[k]), `seed ${seed} ${k}: ${got[k]} vs ${r[k]}`).toBe(true);
      const apd = averagePairwiseDiversity(m, o);
      if (clip === 0)
        expect(
          close(apd.averageKl, r.kl) &&
            close(apd.cosineSimilarity, 1 - r.cosine) &&
            close(apd.disagreement, r.disagreement),
          `seed ${seed}`,
        ).toBe(true);
    }
  });
  it('40 000 members of one row take milliseconds, and p ≠ 1 distances bound the members', () => {
    const m = Array.from({ length: 40_000 }, (_, s) => [[(s % 7) / 8 + 0.0625, 1 - ((s % 7) / 8 + 0.0625)]]);
    const start = performance.now();
    disagreement(m);
    doubleFault([0], m);
    pairwiseKl(m);
    cosineDistance(m);
    lpDistance(m);
    averagePairwiseDiversity(m);
    expect(performance.now() - start).toBeLessThan(2000);
    expect(() => lpDistance(m, { p: 2 })).toThrow(/^lpDistance: members must hold at most 4096 members for p ≠ 1/);
  });
});
