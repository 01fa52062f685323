/**
 * Orders carried over between weightings of the same rows (a bootstrap's resamples): the prepared rows' argsort
 * restricted to the kept rows is the kept rows' argsort, and a candidate order stands for the sort only when it is
 * exactly that order — so a wrong hint can cost time, never change a result.
 */
import { describe, expect, it } from 'vitest';
import { canonicalSort, SCRATCH_MAX, SortScratch } from '../../src/accumulate/canonicalSort.js';
import { isStableOrder, OrderCache, RowOrigin } from '../../src/accumulate/orderHints.js';
import { argsort } from '../../src/kernels/argsort.js';
import { createRng } from '../../src/random/rng.js';

/** Keys with ties, near-ties (one ulp apart), −0 beside 0, extremes, as float64 or float32 values. */
function keys(seed: number, n: number, f32: boolean): Float64Array | Float32Array {
  const r = createRng('order-hints', seed);
  const out = f32 ? new Float32Array(n) : new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const u = r.uniform();
    let v: number;
    if (u < 0.3) v = r.integer(5) / 4;
    else if (u < 0.4) v = 0.5 + (r.integer(3) - 1) * 2 ** -53;
    else if (u < 0.45) v = r.integer(2) === 0 ? -0 : 0;
    else if (u < 0.5) v = [Number.MIN_VALUE, 1, 1 - 2 ** -53, 2 ** -1022][r.integer(4)] as number;
    else v = r.uniform();
    out[i] = v;
  }
  return out;
}

/**
 * Orders of the keys [0.5, 0, 0.5, −0, 1] that are not argsort's [1, 3, 0, 2, 4]: ties out of position (−0 and 0 are
 * equal keys: positions must ascend), swapped keys, a repeat, short, long, unsorted, out of range.
 */
const BAD_HINTS = [
  [3, 1, 0, 2, 4],
  [1, 3, 2, 0, 4],
  [1, 1, 0, 2, 4],
  [1, 3, 0, 2],
  [1, 3, 0, 2, 4, 5],
  [1, 3, 0, 4, 2],
  [1, 3, 0, 2, 9],
];

describe('order hints', () => {
  it('the prepared order restricted to the kept rows is the kept keys’ argsort, and passes the check', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const n = 1 + (seed % 7 === 0 ? 1 : seed * 13);
      const all = keys(seed, n, seed % 2 === 0);
      const r = createRng('order-hints-rows', seed);
      const keep = seed % 5 === 0 ? 1 : ([0.1, 0.5, 0.9][seed % 3] as number);
      const rows = Int32Array.from(Array.from({ length: n }, (_, i) => i).filter(() => r.uniform() < keep));
      const source = { p: { n } as never, y: new Int32Array(n), w: undefined };
      const origin = new RowOrigin(source, rows, new OrderCache());
      const kept = Float64Array.from(rows, (i) => all[i] as number);
      const hint = origin.restrict(argsort(all));
      expect(Array.from(hint), `seed ${seed}`).toEqual(Array.from(argsort(kept)));
      expect(
        isStableOrder(
          Float64Array.from(hint, (i) => kept[i] as number),
          hint,
          kept.length,
        ),
      ).toBe(true);
    }
  });

  it('rejects every order that is not exactly argsort’s: ties out of position, repeats, wrong lengths, unsorted', () => {
    const k = Float64Array.from([0.5, 0, 0.5, -0, 1]);
    const check = (order: number[]) =>
      isStableOrder(
        order.map((i) => k[i] ?? 0),
        Uint32Array.from(order),
        k.length,
      );
    expect(check([1, 3, 0, 2, 4])).toBe(true);
    for (const bad of BAD_HINTS) expect(check(bad), JSON.stringify(bad)).toBe(false);
  });

  it('canonicalSort reads a hint only when isStableOrder would take it: every other hint gives the sort’s bits', () => {
    // the table above: −0 and 0 out of position, swapped keys, a repeat, short, long, out of range
    const k = Float64Array.from([0.5, 0, 0.5, -0, 1]);
    const e = { scores: k, outcomes: Float64Array.from([1, 0, 0, 1, 1]), weights: Float64Array.from([2, 1, 3, 1, 2]) };
    const bits = (c: { scores: Float64Array; outcomes: Float64Array; weights?: Float64Array }) =>
      [...c.scores].map((v) => (Object.is(v, -0) ? '-0' : String(v))).join() +
      `|${[...c.outcomes].join()}|${[...(c.weights ?? [])].join()}`;
    const want = bits(canonicalSort({ ...e, unit: 1 }));
    for (const order of [[1, 3, 0, 2, 4], ...BAD_HINTS]) {
      const hint = Uint32Array.from(order);
      const taken = isStableOrder(
        order.map((i) => k[i] ?? 0),
        hint,
        k.length,
      );
      expect(bits(canonicalSort({ ...e, unit: 1 }, hint)), JSON.stringify(order)).toBe(want);
      // a hint taken is argsort's own order; float32 keys read alike
      expect(taken).toBe(order.join() === Array.from(argsort(k)).join());
      expect(bits(canonicalSort({ ...e, scores: Float32Array.from(k), unit: 1 }, hint))).toBe(want);
    }
  });

  it('canonicalSort into a scratch gives its own bits, small or larger than the scratch keeps, hint or none', () => {
    // a scratch keeps up to SCRATCH_MAX entries between calls; larger columns get arrays of their own (and free them)
    const scratch = new SortScratch();
    for (const n of [40, SCRATCH_MAX + 3, 17]) {
      const r = createRng('order-hints-scratch', n);
      const scores = Float64Array.from({ length: n }, () => r.integer(50) / 49);
      const e = {
        scores,
        outcomes: Float64Array.from({ length: n }, () => r.integer(2)),
        weights: Float64Array.from({ length: n }, () => 1 + r.integer(4)),
        unit: 1,
      };
      const want = canonicalSort(e);
      for (const hint of [undefined, argsort(scores)]) {
        const got = canonicalSort(e, hint, scratch);
        expect([got.scores, got.outcomes, got.weights], `${n} entries, hint ${hint !== undefined}`).toEqual([
          want.scores,
          want.outcomes,
          want.weights,
        ]);
      }
    }
  });

  it('canonicalSort gives the brute-force canonical order with a right hint, a wrong one or none', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const r = createRng('order-hints-sort', seed);
      const n = 50 + seed * 7;
      const scores = keys(seed + 100, n, seed % 2 === 1);
      const outcomes = Float64Array.from({ length: n }, () => r.integer(2));
      // resample counts (counted), fractional and large weights (compared), or none
      const weight = [() => 1 + r.integer(6), () => r.uniform() * 3 + 2 ** -30, () => 1 + r.integer(200)][seed % 3];
      const weights = seed % 4 === 0 ? undefined : Float64Array.from({ length: n }, weight as () => number);
      const e = { scores, outcomes, weights, unit: 1 };
      const want = reference(scores, outcomes, weights);
      const wrong = argsort(scores, true);
      for (const hint of [argsort(scores), wrong, wrong.subarray(1)]) {
        const got = canonicalSort(e, hint);
        expect(Array.from(got.scores)).toEqual(Array.from(want.scores));
        expect(Array.from(got.outcomes)).toEqual(Array.from(want.outcomes));
        expect(got.weights === undefined ? undefined : Array.from(got.weights)).toEqual(
          want.weights === undefined ? undefined : Array.from(want.weights),
        );
      }
    }
  });
});

/**
 * The canonical order by comparisons: positions by ascending score (−0 equal to 0, ties by position: the scores column
 * keeps that order), then within each block of equal scores the (outcome, weight) pairs ascending.
 */
function reference(scores: ArrayLike<number>, outcomes: Float64Array, weights: Float64Array | undefined) {
  const n = scores.length;
  const pos = Array.from({ length: n }, (_, i) => i).sort(
    (i, j) => (scores[i] as number) - (scores[j] as number) || i - j,
  );
  const out = {
    scores: Float64Array.from(pos, (i) => scores[i] as number),
    outcomes: new Float64Array(n),
    weights: weights === undefined ? undefined : new Float64Array(n),
  };
  for (let a = 0; a < n;) {
    let b = a + 1;
    while (b < n && out.scores[b] === out.scores[a]) b++;
    const pairs = pos
      .slice(a, b)
      .map((i) => [outcomes[i] as number, weights === undefined ? 0 : (weights[i] as number)] as const)
      .sort((x, y) => x[0] - y[0] || x[1] - y[1]);
    pairs.forEach(([o, w], j) => {
      out.outcomes[a + j] = o;
      if (out.weights !== undefined) out.weights[a + j] = w;
    });
    a = b;
  }
  return out;
}
