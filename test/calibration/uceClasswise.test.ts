/**
 * Class-wise UCE in both averaging forms against a brute-force reference: seeded random predictions with ties,
 * one-hot and uniform rows, whole-number weights, a class that is never predicted and one that is never the label.
 */
import { describe, expect, it } from 'vitest';
import { createState, evaluate, uce, UMError, type UceClassAverage } from '../../src/index.js';
import { uniforms } from '../helpers/minstd.js';

type Data = { labels: number[]; probs: number[][]; weights: number[] };

/** Σ_b (w_b/W)·|mean err − mean u| of one group's rows, bins b = min(⌊B·u⌋, B − 1); null when the group is empty. */
function groupUce(rows: { u: number; e: number; w: number }[], bins: number, norm: 'l1' | 'max'): number | null {
  if (rows.length === 0) return null;
  const sw = new Array<number>(bins).fill(0);
  const se = new Array<number>(bins).fill(0);
  const su = new Array<number>(bins).fill(0);
  for (const r of rows) {
    const b = Math.min(Math.floor(bins * r.u), bins - 1);
    sw[b] = (sw[b] as number) + r.w;
    se[b] = (se[b] as number) + r.w * r.e;
    su[b] = (su[b] as number) + r.w * r.u;
  }
  const total = sw.reduce((a, b) => a + b, 0);
  let out = 0;
  for (let b = 0; b < bins; b++) {
    const w = sw[b] as number;
    if (w === 0) continue;
    const gap = Math.abs((se[b] as number) / w - (su[b] as number) / w);
    out = norm === 'max' ? Math.max(out, gap) : out + (w / total) * gap;
  }
  return out;
}

/** The class-wise UCE written out: normalized entropy, first-index argmax, one group per predicted class. */
function referenceUce(d: Data, bins: number, average: UceClassAverage, norm: 'l1' | 'max' = 'l1'): number {
  const c = (d.probs[0] as number[]).length;
  const groups: { u: number; e: number; w: number }[][] = Array.from({ length: c }, () => []);
  d.probs.forEach((row, i) => {
    let h = 0;
    for (const p of row) if (p > 0) h -= p * Math.log(p);
    let top = 0;
    for (let k = 1; k < c; k++) if ((row[k] as number) > (row[top] as number)) top = k;
    if ((d.weights[i] as number) > 0)
      groups[top]?.push({ u: h / Math.log(c), e: top === d.labels[i] ? 0 : 1, w: d.weights[i] as number });
  });
  const per = groups.map((g) => groupUce(g, bins, norm));
  const present = per.filter((v): v is number => v !== null);
  if (norm === 'max') return Math.max(...present);
  return present.reduce((a, b) => a + b, 0) / (average === 'all-classes' ? c : present.length);
}

/**
 * Random rows over C classes: class `never` gets probability 0 (never predicted; it can still be a label), class
 * `unlabelled` is never a label (it can still be predicted); some rows are one-hot, uniform, or tied at the top.
 */
function randomData(seed: number, n: number, c: number, never: number, unlabelled: number): Data {
  const u = uniforms(seed, n * (c + 3));
  const labels: number[] = [];
  const probs: number[][] = [];
  const weights: number[] = [];
  for (let i = 0; i < n; i++) {
    const v = (k: number) => u[i * (c + 3) + k] as number;
    const kind = v(c + 1);
    let row: number[];
    if (kind < 0.1) row = Array.from({ length: c }, (_, k) => (k === Math.floor(v(0) * c) % c ? 1 : 0));
    else if (kind < 0.15) row = new Array<number>(c).fill(1 / c);
    else if (kind < 0.25)
      row = Array.from({ length: c }, (_, k) => (k < 2 ? 0.5 : 0)); // a tie at the top → class 0
    else {
      const raw = Array.from({ length: c }, (_, k) => Math.exp(3 * v(k)));
      const s = raw.reduce((a, b) => a + b, 0);
      row = raw.map((x) => x / s);
    }
    if (row[never] !== 0) {
      // move the never-predicted class's mass to the next class, so it is never the argmax
      const next = (never + 1) % c;
      row[next] = (row[next] as number) + (row[never] as number);
      row[never] = 0;
    }
    probs.push(row);
    let y = Math.min(c - 1, Math.floor(v(c) * c));
    if (y === unlabelled) y = (y + 1) % c;
    labels.push(y);
    weights.push(Math.floor(v(c + 2) * 4)); // 0 … 3; a weight-0 row predicts nothing
  }
  return { labels, probs, weights };
}

describe('class-wise UCE: both averages against a brute-force reference', () => {
  const configs = [
    { seed: 11, n: 60, c: 3, never: 2, unlabelled: 1, bins: 15 },
    { seed: 12, n: 200, c: 5, never: 0, unlabelled: 4, bins: 10 },
    { seed: 13, n: 500, c: 10, never: 7, unlabelled: 3, bins: 15 },
    { seed: 14, n: 9, c: 4, never: 3, unlabelled: 0, bins: 30 },
    { seed: 15, n: 300, c: 2, never: 1, unlabelled: 1, bins: 5 },
  ];
  for (const k of configs) {
    it(`seed ${k.seed}: ${k.n} rows, ${k.c} classes, class ${k.never} never predicted, class ${k.unlabelled} never a label`, () => {
      const d = randomData(k.seed, k.n, k.c, k.never, k.unlabelled);
      const unweighted = { ...d, weights: d.weights.map(() => 1) };
      for (const average of ['all-classes', 'predicted-classes'] as const) {
        const o = { bins: k.bins, classwise: true, classAverage: average };
        expect(uce(d.labels, d.probs, o)).toBeCloseTo(referenceUce(unweighted, k.bins, average), 12);
        expect(uce(d.labels, d.probs, { ...o, weights: d.weights })).toBeCloseTo(referenceUce(d, k.bins, average), 12);
        expect(uce(d.labels, d.probs, { ...o, norm: 'max' })).toBeCloseTo(
          referenceUce(unweighted, k.bins, average, 'max'),
          12,
        );
      }
      // the default is the paper's 1/C mean; it is the predicted-classes mean scaled by |K|/C
      const all = uce(d.labels, d.probs, { bins: k.bins, classwise: true });
      const predicted = uce(d.labels, d.probs, { bins: k.bins, classwise: true, classAverage: 'predicted-classes' });
      expect(all).toBe(uce(d.labels, d.probs, { bins: k.bins, classwise: true, classAverage: 'all-classes' }));
      const k1 = new Set(d.probs.map((r) => r.indexOf(Math.max(...r)))).size;
      expect(k1).toBeLessThan(k.c);
      expect(all).toBeCloseTo((k1 / k.c) * predicted, 12);
      expect(Number.isFinite(predicted)).toBe(true);
      // a mergeable state gives the same numbers
      for (const average of ['all-classes', 'predicted-classes'] as const) {
        const s = createState('uce', { bins: k.bins, classwise: true, classAverage: average });
        const half = Math.floor(k.n / 2);
        s.update(d.labels.slice(0, half), d.probs.slice(0, half));
        const t = createState('uce', { bins: k.bins, classwise: true, classAverage: average });
        t.update(d.labels.slice(half), d.probs.slice(half));
        s.merge(t);
        expect(s.result() as number).toBeCloseTo(
          uce(d.labels, d.probs, { bins: k.bins, classwise: true, classAverage: average }),
          14,
        );
      }
    });
  }

  it('every class predicted: the two averages agree', () => {
    const labels = [0, 1, 2, 2];
    const probs = [
      [0.8, 0.1, 0.1],
      [0.2, 0.7, 0.1],
      [0.1, 0.2, 0.7],
      [0.5, 0.1, 0.4],
    ];
    expect(uce(labels, probs, { classwise: true, classAverage: 'predicted-classes' })).toBeCloseTo(
      uce(labels, probs, { classwise: true }),
      15,
    );
  });

  it("evaluate's UCE is the global one and says so", () => {
    expect(
      evaluate(
        [0, 1],
        [
          [0.9, 0.1],
          [0.4, 0.6],
        ],
      ).config.uce,
    ).toEqual({ classwise: false, classAverage: null, norm: 'l1' });
  });

  it('rejects a classAverage without classwise, or an unknown one', () => {
    const y = [0, 1];
    const p = [
      [0.9, 0.1],
      [0.4, 0.6],
    ];
    const code = (o: Record<string, unknown>) => {
      try {
        uce(y, p, o);
      } catch (e) {
        return e instanceof UMError ? `${e.code} ${e.message}` : String(e);
      }
      return 'no error';
    };
    expect(code({ classAverage: 'predicted-classes' })).toMatch(
      /^UM_OPTION uce: options.classAverage must be omitted unless classwise is true/,
    );
    expect(code({ classwise: false, classAverage: 'all-classes' })).toMatch(
      /^UM_OPTION uce: options.classAverage must be omitted unless classwise is true/,
    );
    expect(code({ classwise: true, classAverage: 'predicted' })).toMatch(
      /^UM_OPTION uce: options.classAverage must be one of 'all-classes', 'predicted-classes'; got "predicted"/,
    );
  });
});
