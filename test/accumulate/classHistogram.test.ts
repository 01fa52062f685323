import { describe, expect, it } from 'vitest';
import {
  BUCKETS,
  bucketOf,
  ClassHistogram,
  EXP0,
  EXPONENTS,
  SPLIT,
  SplitCollector,
  type CollectPlan,
  type CollectedClass,
} from '../../src/accumulate/classHistogram.js';
import { JsonPath } from '../../src/accumulate/store.js';
import type { ClassColumns } from '../../src/select/classColumns.js';
import { mulberry32 as rng } from '../helpers/mulberry32.js';

/** Rows of c values in [0, 1] with ties on a 1/16 grid, zeros, ones, values below 2^−32 and a continuous part. */
function rows(n: number, c: number, seed: number): { scores: Float64Array; labels: Int32Array } {
  const u = rng(seed);
  const scores = new Float64Array(n * c);
  const labels = new Int32Array(n);
  for (let i = 0; i < n * c; i++) {
    const kind = u();
    scores[i] = kind < 0.4 ? Math.floor(u() * 17) / 16 : kind < 0.45 ? 1e-12 * u() : kind < 0.5 ? 0 : u() ** 3;
  }
  for (let i = 0; i < n; i++) labels[i] = Math.floor(u() * c);
  return { scores, labels };
}

const columns = (n: number, c: number, scores: Float64Array, labels: Int32Array): ClassColumns => ({
  n,
  numClasses: c,
  data: scores,
  classMajor: false,
  round: false,
  labels,
  weights: undefined,
  unit: 1,
});

/** A plan of the rows' histogram for 15 and 7 equal-mass bins (above `threshold`). */
function planOf(c: number, seed: number, threshold: number | null): CollectPlan {
  const { scores, labels } = rows(3000, c, seed);
  const h = new ClassHistogram(c, threshold, false);
  h.add(columns(3000, c, scores, labels));
  return { threshold, round: false, numClasses: c, splits: h.splits([15, 7]) };
}

/**
 * What pass 2 must collect, entry by entry from the plan's split buckets (no slot table): a split bucket's entries
 * kept in row order; any other entry counted in segment "split buckets below it" with its significand's exact parts.
 */
function reference(plan: CollectPlan, n: number, scores: Float64Array, labels: Int32Array): CollectedClass[] {
  const c = plan.numClasses;
  const view = new DataView(new ArrayBuffer(8));
  return plan.splits.map((split, k) => {
    const segs = split.length + 1;
    const out = {
      scores: [] as number[],
      outcomes: [] as number[],
      segments: new Float64Array(4 * segs),
      sums: new Float64Array(2 * EXPONENTS * segs),
    };
    for (let j = 0; j < segs; j++) out.segments.set([0, 0, Infinity, -Infinity], 4 * j);
    for (let i = 0; i < n; i++) {
      const v = scores[i * c + k] as number;
      if (!(v > (plan.threshold ?? -Infinity))) continue;
      const b = bucketOf(v);
      const o = labels[i] === k ? 1 : 0;
      if (split.includes(b)) {
        out.scores.push(v);
        out.outcomes.push(o);
        continue;
      }
      const s = split.filter((x) => x < b).length;
      const g = out.segments;
      g[4 * s] = (g[4 * s] as number) + 1;
      g[4 * s + 1] = (g[4 * s + 1] as number) + o;
      g[4 * s + 2] = Math.min(g[4 * s + 2] as number, v);
      g[4 * s + 3] = Math.max(g[4 * s + 3] as number, v);
      // zeros (bucket 0) add nothing; buckets 1 and the last are always split when they hold entries
      if (v === 0) continue;
      view.setFloat64(0, v);
      const e = view.getUint32(0) >>> 20;
      const m = v * 2 ** (1075 - e);
      const at = 2 * (s * EXPONENTS + e - EXP0);
      const hi = Math.floor(m / SPLIT);
      out.sums[at] = (out.sums[at] as number) + hi;
      out.sums[at + 1] = (out.sums[at + 1] as number) + (m - hi * SPLIT);
    }
    return {
      scores: Float64Array.from(out.scores),
      outcomes: Uint8Array.from(out.outcomes),
      segments: out.segments,
      sums: out.sums,
    };
  });
}

describe('pass 2: collectors share their plan’s slot layout read-only', () => {
  it('collectors of one plan, of a copy of it and of other plans, interleaved in one chunk, collect as the reference', () => {
    const c = 5;
    const a = planOf(c, 1, null);
    // another threshold, and another distribution: other split buckets
    const b = planOf(c, 2, 0.01);
    expect(b.splits).not.toEqual(a.splits);
    const x = rows(2000, c, 11);
    const y = rows(1500, c, 12);
    // a worker thread receives a structured copy of the same plan with every chunk
    const collectors = [a, a, structuredClone(a), b, a, b].map((p) => new SplitCollector(p));
    const data = [x, y, x, x, y, y];
    for (let at = 0; at < 2000; at += 250)
      collectors.forEach((col, i) => {
        const d = data[i] as typeof x;
        const n = d.labels.length;
        if (at >= n) return;
        const e = Math.min(n, at + 250);
        col.add(e - at, d.scores.subarray(at * c, e * c), d.labels.subarray(at, e));
      });
    collectors.forEach((col, i) => {
      const d = data[i] as typeof x;
      expect(col.result()).toEqual(reference(col.plan, d.labels.length, d.scores, d.labels));
    });
    // and a collector made after all of them still starts from the plan's layout
    const late = new SplitCollector(a);
    late.add(2000, x.scores, x.labels);
    expect(late.result()).toEqual(reference(a, 2000, x.scores, x.labels));
  });
});

describe('pass 1: a histogram read from a state form', () => {
  const c = 3;
  const at = new JsonPath('stateFromJSON', 'h');
  const counted = (seed: number) => {
    const { scores, labels } = rows(400, c, seed);
    const h = new ClassHistogram(c, null, false);
    h.add(columns(400, c, scores, labels));
    return h;
  };

  it('merges as the dense sum, read from the JSON or the typed form, into a read or a counted histogram', () => {
    const [h1, h2, h3] = [counted(1), counted(2), counted(3)];
    const dense = new Float64Array(c * BUCKETS);
    for (const h of [h1, h2, h3])
      for (let i = 0; i < dense.length; i++) dense[i] = (dense[i] as number) + (h.counts[i] as number);
    for (const typed of [true, false]) {
      const form = (h: ClassHistogram) => (typed ? h.toJSON(true) : JSON.parse(JSON.stringify(h.toJSON(false))));
      const read = (h: ClassHistogram) => ClassHistogram.fromJSON(form(h), at, c);
      // into a histogram read from a form (its own non-zero list is stale after the first merge)
      const m = read(h1);
      m.merge(read(h2));
      m.merge(read(h3));
      expect(m.counts).toEqual(dense);
      // into a counted one, merged again with a read one that was itself merged into
      const n = counted(1);
      const r = read(h2);
      r.merge(read(h3));
      n.merge(r);
      expect(n.counts).toEqual(dense);
    }
    // the typed form is a copy: counting on does not change it
    const t = h1.toJSON(true) as { counts: Float64Array };
    expect(t.counts).not.toBe(h1.counts);
  });

  it('rejects each bad count, naming its index, in either form', () => {
    for (const typed of [true, false]) {
      const form = counted(4).toJSON(typed) as { counts: Float64Array | unknown[] };
      const counts = form.counts as unknown[];
      for (const bad of [-1, 0.5, 1.5, NaN, Infinity, -Infinity, -0.25, null, '1']) {
        if (typed && typeof bad !== 'number') continue;
        for (const index of [0, 7, BUCKETS + 3, c * BUCKETS - 1]) {
          const was = counts[index];
          counts[index] = bad;
          expect(() => ClassHistogram.fromJSON(form, at, c), `${String(bad)} at ${index}`).toThrow(
            `h.counts[${index}] must be an integer ≥ 0`,
          );
          counts[index] = was;
        }
      }
      // and with the entries restored it reads again
      expect(ClassHistogram.fromJSON(form, at, c).counts).toEqual(counted(4).counts);
    }
    expect(() => ClassHistogram.fromJSON({ threshold: null, round: false, counts: [1] }, at, c)).toThrow(
      `h.counts must have ${c * BUCKETS} entries`,
    );
  });
});
