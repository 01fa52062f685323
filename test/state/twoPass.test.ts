import { describe, expect, it } from 'vitest';
import { BUCKETS, bucketOf, ClassHistogram } from '../../src/accumulate/classHistogram.js';
import { createState, evaluate, stateFromJSON } from '../../src/index.js';
import { transferForm } from '../../src/state/createState.js';
import type { CollectedClass } from '../../src/accumulate/classHistogram.js';
import {
  collectPlans,
  countClassColumns,
  MAX_TWO_PASS_CLASSES,
  PassTwo,
  resolveTwoPass,
} from '../../src/state/twoPass.js';
import { mulberry32 as rng } from '../helpers/mulberry32.js';

/**
 * Rows of C probabilities with exact ties (multiples of 1/grid, zeros and ones), near-ties (a value and its
 * neighbouring doubles), values below 2^−32 and a continuous part — what moves a cut off a block of ties or puts it
 * at a bucket's edge.
 */
function data(n: number, c: number, seed: number, grid: number): { labels: number[]; scores: Float64Array } {
  const u = rng(seed);
  const scores = new Float64Array(n * c);
  const labels: number[] = [];
  for (let i = 0; i < n; i++) {
    const row = scores.subarray(i * c, (i + 1) * c);
    const kind = u();
    if (kind < 0.5) {
      // a multiple of 1/grid per class, summing to 1
      let left = grid;
      for (let k = 0; k < c - 1; k++) {
        const a = Math.floor(u() * (left + 1) * (k === 0 ? 1 : 0.7));
        row[k] = a / grid;
        left -= a;
      }
      row[c - 1] = left / grid;
    } else if (kind < 0.6) {
      row[Math.floor(u() * c)] = 1;
    } else {
      let z = 0;
      for (let k = 0; k < c; k++) z += row[k] = Math.exp(6 * u());
      for (let k = 0; k < c; k++) row[k] = (row[k] as number) / z;
      if (kind < 0.7) {
        // below 2^−32: the mixed bucket (its mass moved to the next class)
        const tiny = 1e-12 * u();
        row[1] = (row[1] as number) + (row[0] as number) - tiny;
        row[0] = tiny;
      }
    }
    if (u() < 0.2) {
      // a near-tie: one ulp off a tied value (the row's sum stays within tolerance)
      const k = Math.floor(u() * c);
      const x = row[k] as number;
      if (x > 0 && x < 1) row[k] = u() < 0.5 ? x * (1 + 2 ** -52) : x * (1 - 2 ** -53);
    }
    labels.push(Math.floor(u() * c));
  }
  return { labels, scores };
}

/** The evaluate state of the rows in `chunks` chunks by both passes (pass 2 on the same chunks). */
function twoPass(
  labels: number[],
  scores: Float64Array,
  c: number,
  chunks: number,
  options: Record<string, unknown>,
  via: 'json' | 'transfer' | 'none' = 'transfer',
) {
  const n = labels.length;
  const bounds = Array.from({ length: chunks + 1 }, (_, j) => Math.round((j * n) / chunks));
  const states = [];
  for (let j = 0; j < chunks; j++) {
    const s = createState('evaluate', { ...options, numClasses: c });
    expect(countClassColumns(s, c)).toBeGreaterThan(0);
    const [a, b] = [bounds[j] as number, bounds[j + 1] as number];
    // batches of 97 rows within a chunk
    for (let i = a; i < b; i += 97) {
      const e = Math.min(b, i + 97);
      s.update(labels.slice(i, e), scores.slice(i * c, e * c));
    }
    // as the CLI's chunks cross threads (transferForm), or as JSON text
    states.push(via === 'none' ? s : stateFromJSON(via === 'json' ? JSON.stringify(s) : (transferForm(s) as never)));
  }
  const merged = states[0] as (typeof states)[number];
  for (const s of states.slice(1)) merged.merge(s);
  const plans = collectPlans(merged);
  expect(plans.length).toBeGreaterThan(0);
  const parts: CollectedClass[][][] = [];
  for (let j = 0; j < chunks; j++) {
    const p = new PassTwo(plans);
    const [a, b] = [bounds[j] as number, bounds[j + 1] as number];
    p.add(b - a, scores.subarray(a * c, b * c), labels.slice(a, b));
    parts.push(p.result());
  }
  expect(resolveTwoPass(merged, plans, parts)).toBeUndefined();
  return merged.result();
}

describe('two passes over a file for the class-wise equal-mass bins', () => {
  it('bucketOf is ascending with the value over zeros, tiny values, every exponent up to 1 and above', () => {
    const u = rng(3);
    const xs = [0, 1e-300, 2 ** -40, 2 ** -32, 2 ** -31, 1e-9, 0.01, 0.5, 1 - 2 ** -53, 1, 1 + 2 ** -52, 2];
    for (let i = 0; i < 2000; i++) xs.push(u() ** 8, u());
    xs.sort((a, b) => a - b);
    // the pairs out of order, checked at once (an expect per pair was most of this test's time)
    const descending = xs.slice(1).filter((x, i) => bucketOf(x) < bucketOf(xs[i] as number));
    expect(descending).toEqual([]);
    expect(bucketOf(0)).toBe(0);
    expect(bucketOf(1e-300)).toBe(1);
    expect(bucketOf(2)).toBe(BUCKETS - 1);
    expect(bucketOf(1)).toBe(BUCKETS - 2);
  });

  it('nominal cut ranks are round(k·n/B) half up', () => {
    expect(ClassHistogram.ranks(10, 4)).toEqual([3, 5, 8]);
    expect(ClassHistogram.ranks(3, 15).length).toBe(14);
  });

  // every shape in 3 chunks (pass 1's states merged, pass 2 in 3 parts); one chunk (no merge, pass 2 in one part)
  // on the smallest shape only: it takes no path the 3 chunks do not, and on every shape it cost a fifth of this
  // file's CPU (2.4 → 2.0 s)
  for (const [n, c, grid, seed, chunkings] of [
    [3000, 4, 16, 1, [3]],
    [5000, 3, 1000, 2, [3]],
    [2500, 10, 64, 3, [3]],
    [700, 5, 8, 4, [1, 3]],
  ] as const) {
    // the data and evaluate()'s results, made once for every chunking
    let made: { labels: number[]; scores: Float64Array; expected: Map<number, ReturnType<typeof evaluate>> };
    const reference = () => {
      if (made === undefined) {
        const { labels, scores } = data(n, c, seed, grid);
        const expected = new Map([15, 7].map((bins) => [bins, evaluate(labels, scores, { numClasses: c, bins })]));
        made = { labels, scores, expected };
      }
      return made;
    };
    for (const chunks of chunkings) {
      it(`equals evaluate() bit for bit: ${n} × ${c}, ties on a 1/${grid} grid, ${chunks} chunk(s)`, () => {
        const { labels, scores, expected: results } = reference();
        for (const bins of [15, 7]) {
          const expected = results.get(bins) as ReturnType<typeof evaluate>;
          const got = twoPass(labels, scores, c, chunks, { bins }) as typeof expected;
          expect(got).toEqual(expected);
          expect(got.ace).not.toBeNull();
          expect(got.tace).not.toBeNull();
        }
      });
    }
  }

  it('wider files than MAX_TWO_PASS_CLASSES keep their entries in one pass (no histograms, no plans)', () => {
    const c = MAX_TWO_PASS_CLASSES + 1;
    const { labels, scores } = data(200, c, 8, 64);
    const s = createState('evaluate', { numClasses: c });
    expect(countClassColumns(s, c)).toBe(0);
    s.update(labels, scores);
    expect(collectPlans(s)).toEqual([]);
    expect(s.result()).toEqual(evaluate(labels, scores, { numClasses: c }));
  });

  it('reports a file that changed between the passes', () => {
    const c = 3;
    const { labels, scores } = data(900, c, 9, 32);
    const s = createState('evaluate', { numClasses: c });
    countClassColumns(s, c);
    s.update(labels, scores);
    const plans = collectPlans(s);
    const p = new PassTwo(plans);
    p.add(899, scores.subarray(0, 899 * c), labels.slice(0, 899));
    expect(resolveTwoPass(s, plans, [p.result()])).toMatch(/pass 1/);
  });

  it('a counting state round-trips through JSON (histogram checked on reading) and in-thread', () => {
    const c = 4;
    const { labels, scores } = data(1500, c, 6, 16);
    const expected = evaluate(labels, scores, { numClasses: c });
    expect(twoPass(labels, scores, c, 3, {}, 'json')).toEqual(expected);
    expect(twoPass(labels, scores, c, 3, {}, 'none')).toEqual(expected);
    const s = createState('evaluate', { numClasses: c });
    countClassColumns(s, c);
    s.update(labels, scores);
    const json = JSON.parse(JSON.stringify(s)) as { stores: { histogram?: { counts: number[] } }[] };
    const h = json.stores.find((x) => x.histogram !== undefined)?.histogram as { counts: number[] };
    h.counts[5] = -1;
    expect(() => stateFromJSON(json as never)).toThrow(/histogram\.counts\[5\].*integer ≥ 0/);
  });
});
