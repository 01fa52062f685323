import { describe, expect, it } from 'vitest';
import { KeptEntriesStore } from '../../src/accumulate/keptEntries.js';
import { binStatisticsUnchecked as binStatistics } from '../../src/binning/binStatistics.js';
import { equalMassBins, equalMassStatistics } from '../../src/binning/equalMass.js';
import { quantileAssignment, quantileStatistics } from '../../src/binning/quantileSelect.js';
import { RankSelection, SELECT_MIN, valuesAtRanks } from '../../src/binning/rankSelect.js';
import type { BinAssignment, EqualMassMethod } from '../../src/binning/types.js';
import { binsOfGroup } from '../../src/calibration/binnedStores.js';
import { expectSame } from '../helpers/expectSame.js';
import { createRng, type Rng } from '../../src/random/rng.js';

/**
 * Equal-mass bins by selection (src/binning/rankSelect.ts, quantileSelect.ts) against brute force: a comparison sort
 * and the construction's definition written out, bit for bit (expectSame and toEqual compare numbers with Object.is, so
 * −0 ≠ 0).
 */

const f64 = new Float64Array(1);
const bits = new BigInt64Array(f64.buffer);
/** The neighbouring double of x towards +∞ (`up`) or −∞. */
function ulp(x: number, up: boolean): number {
  if (x === 0) return up ? 5e-324 : -5e-324;
  f64[0] = x;
  bits[0] = (bits[0] as bigint) + (x > 0 === up ? 1n : -1n);
  return f64[0] as number;
}
/** The neighbouring float32 value of a float32 x. */
function ulp32(x: number, up: boolean): number {
  const f = new Float32Array([x]);
  const u = new Int32Array(f.buffer);
  if (x === 0) u[0] = up ? 1 : -2147483647;
  else u[0] = (u[0] as number) + (x > 0 === up ? 1 : -1);
  return f[0] as number;
}

type Kind = 'ties' | 'near32' | 'near64' | 'zeros' | 'bucket32' | 'bucket64' | 'signed' | 'extreme' | 'uniform32';
const KINDS: readonly Kind[] = [
  'ties',
  'near32',
  'near64',
  'zeros',
  'bucket32',
  'bucket64',
  'signed',
  'extreme',
  'uniform32',
];

/** Seeded scores of one kind: heavy ties, one-ulp near-ties (float32 and float64), ±0 and 1, one crowded bucket, … */
function scoresOf(kind: Kind, n: number, rng: Rng): Float64Array {
  const pick = <T>(a: readonly T[]): T => a[rng.integer(a.length)] as T;
  const s = new Float64Array(n);
  const base32 = Math.fround(0.3 + 0.4 * rng.uniform());
  for (let i = 0; i < n; i++) {
    const u = rng.uniform();
    switch (kind) {
      case 'ties':
        s[i] = pick([0, 0.1, 0.25, 0.5, 0.5, 0.5, 0.75, 1]);
        break;
      case 'near32':
        s[i] = pick([
          base32,
          ulp32(base32, true),
          ulp32(base32, false),
          Math.fround(0.9),
          ulp32(Math.fround(0.9), true),
          0,
          1,
        ]);
        break;
      case 'near64':
        s[i] = pick([
          0.3,
          ulp(0.3, true),
          ulp(0.3, false),
          ulp(ulp(0.3, true), true),
          0.7,
          ulp(0.7, true),
          1,
          ulp(1, false),
        ]);
        break;
      case 'zeros':
        s[i] = u < 0.4 ? 0 : u < 0.7 ? -0 : u < 0.85 ? 1 : Math.fround(u);
        break;
      case 'bucket32':
        // one top-16-bit bucket (sign, exponent, 7 mantissa bits): counted again on the low bits, ties and ±0 inside
        s[i] = u < 0.1 ? 0 : u < 0.2 ? -0 : Math.fround(0.5 + rng.integer(u < 0.6 ? 40 : 4000) * 2 ** -24);
        break;
      case 'bucket64':
        s[i] = u < 0.5 ? 0.5 + rng.integer(3) * 2 ** -52 : 0.5 + rng.integer(5000) * 2 ** -40;
        break;
      case 'signed':
        s[i] =
          pick([-1, -0.5, ulp(-0.5, true), -0, 0, 5e-324, -5e-324, 0.5, 2, 1e3]) * (u < 0.5 ? 1 : 1 + rng.integer(3));
        break;
      case 'extreme':
        s[i] =
          pick([1e-300, 5e-324, 1e300, -1e300, 2.2250738585072014e-308, 1 - 2 ** -53, 1]) *
          (1 + rng.integer(4) * 2 ** -52);
        break;
      case 'uniform32':
        s[i] = Math.fround(u ** 6);
        break;
    }
  }
  return s;
}

/** The brute force's stable sort of scores (−0 = 0) and each sorted position's run of equal values. */
interface Sorted {
  readonly order: number[];
  readonly v: number[];
  readonly runStart: Int32Array;
  readonly runEnd: Int32Array;
}
/** Sorted once per scores array (not changed after its first use): each is binned with ~10 bin counts. */
const sortedOf = new WeakMap<ArrayLike<number>, Sorted>();
function sortedRuns(s: ArrayLike<number>): Sorted {
  const known = sortedOf.get(s);
  if (known !== undefined) return known;
  const n = s.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => (s[a] as number) - (s[b] as number) || a - b);
  const v = order.map((i) => s[i] as number);
  // each sorted position's run of equal values [runStart, runEnd), found once (scanning the run at every cut costs
  // N × B with heavy ties and B ≈ N)
  const runStart = new Int32Array(n);
  const runEnd = new Int32Array(n);
  for (let j = 1; j < n; j++) runStart[j] = v[j - 1] === v[j] ? (runStart[j - 1] as number) : j;
  for (let j = n - 1; j >= 0; j--) runEnd[j] = j + 1 < n && v[j + 1] === v[j] ? (runEnd[j + 1] as number) : j + 1;
  const sorted = { order, v, runStart, runEnd };
  sortedOf.set(s, sorted);
  return sorted;
}

/** Brute force: stable sort by value (−0 = 0), the round(k·N/B) cuts moved off ties, midpoints between groups. */
function referenceQuantile(s: ArrayLike<number>, bins: number): BinAssignment {
  const n = s.length;
  const { order, v, runStart, runEnd } = sortedRuns(s);
  const cuts: number[] = [];
  for (let k = 1; k < bins; k++) {
    let r = Math.floor((k * n) / bins + 0.5); // round(k·N/B), half up
    if (r > 0 && r < n && v[r - 1] === v[r]) {
      const lo = runStart[r] as number;
      const hi = runEnd[r] as number;
      r = r - lo < hi - r ? lo : hi;
    }
    if (r > 0 && r < n && r !== cuts[cuts.length - 1]) cuts.push(r);
  }
  const bounds = [0, ...cuts, n];
  const numBins = bounds.length - 1;
  const lower = new Float64Array(numBins);
  const upper = new Float64Array(numBins);
  const index = new Int32Array(n);
  for (let b = 0; b < numBins; b++) {
    const a = bounds[b] as number;
    const e = bounds[b + 1] as number;
    lower[b] = b === 0 ? (v[a] as number) : ((v[a - 1] as number) + (v[a] as number)) / 2;
    upper[b] = b === numBins - 1 ? (v[e - 1] as number) : ((v[e - 1] as number) + (v[e] as number)) / 2;
    for (let j = a; j < e; j++) index[order[j] as number] = b;
  }
  return { numBins, lower, upper, index };
}

/**
 * Bin counts B worth trying for N entries: 1, small, the default, around N and beyond it. The cut ranks are computed
 * from N and B the same way whichever source answers them (a sorted copy below SELECT_MIN, the selection above), so the
 * roundings of B = N − 1 and N + 1 are tried where they are cheap; at N ≥ SELECT_MIN they ask the selection for every
 * rank as B = N does (and valuesAtRanks is checked at every rank of every kind), so B = N and beyond N stand for them.
 */
function binCounts(n: number, rng: Rng): number[] {
  const nearN = n < SELECT_MIN ? [Math.max(1, n - 1), n, n + 1] : [n];
  return [...new Set([1, 2, 3, 7, 15, 1 + rng.integer(60), ...nearN, 2 * n + 3])];
}

describe('radix selection: values at ranks', () => {
  it('every rank of every kind equals the sorted array (−0 before 0), narrow and wide keys, crowded buckets', () => {
    const rng = createRng('test', 17);
    for (const kind of KINDS) {
      for (const n of [1, 2, 5, 300, 5000]) {
        const s = scoresOf(kind, n, rng);
        const all = Array.from({ length: n }, (_, r) => r);
        const sorted = Float64Array.from(s).sort();
        expect(valuesAtRanks(s, all), `${kind} N=${n}`).toEqual(sorted);
        // valuesAtRanks reads this many ranks from a sorted copy: the selection itself at every rank
        if (n >= SELECT_MIN) {
          const sel = RankSelection.of(s);
          try {
            for (const r of all) sel.want(r);
            sel.gather();
            expect(
              Float64Array.from(all, (r) => sel.valueAt(r)),
              `${kind} N=${n} selection`,
            ).toEqual(sorted);
          } finally {
            sel.release();
          }
        }
        const few = [0, n - 1, rng.integer(n), rng.integer(n)];
        expect(valuesAtRanks(s, few), `${kind} N=${n} few`).toEqual(Float64Array.from(few, (r) => sorted[r] as number));
      }
    }
  });
});

describe("'quantile' equal-mass bins by selection equal the sorted construction", () => {
  it('assignment (bins, edges, index) for every kind and B from 1 to beyond N', () => {
    const rng = createRng('test', 18);
    for (const kind of KINDS) {
      for (const n of [1, 2, 3, 10, 97, 2500, 6000]) {
        const s = scoresOf(kind, n, rng);
        // B = N − 1 above SELECT_MIN once (ties): one bin of two among single-entry bins, read from the selection's
        // own bucket table
        const extra = n >= SELECT_MIN && kind === 'ties' ? [n - 1] : [];
        for (const bins of [...binCounts(n, rng), ...extra]) {
          const want = referenceQuantile(s, bins);
          expectSame(quantileAssignment(s, bins), want, `${kind} N=${n} B=${bins}`);
          // the public construction without an order takes the selection; with one, the sorted path
          expectSame(equalMassBins(s, bins, 'quantile'), want, `${kind} N=${n} B=${bins} public`);
        }
      }
    }
  });

  it('bin statistics (fused per-bucket sums) equal binStatistics over the brute-force bins, outcomes 0/1 or fractional', () => {
    const rng = createRng('test', 19);
    for (const kind of KINDS) {
      for (const n of [1, 4, 150, 4000]) {
        const s = scoresOf(kind, n, rng);
        const binary = Float64Array.from(s, () => rng.integer(2));
        const fractional = Float64Array.from(s, () => (rng.uniform() < 0.9 ? rng.integer(2) : rng.uniform()));
        for (const bins of binCounts(n, rng)) {
          const bruteForce = referenceQuantile(s, bins);
          for (const o of [binary, fractional])
            expectSame(
              equalMassStatistics(s, o, bins, 'quantile'),
              binStatistics(bruteForce, s, o),
              `${kind} N=${n} B=${bins}`,
            );
        }
      }
    }
  });

  it('per-bucket sums stay exact across exponents (a sum rounded twice would lose the tie-breaking 2^−60)', () => {
    // 2^53 + 1 is a tie that rounds to even; the exact sum 2^53 + 1 + 2^−60 rounds up. Zeros pad N past the sorted path.
    for (const n of [3000, 5000]) {
      const s = new Float64Array(n);
      s.set([2 ** -60, 1, 2 ** 53, 2 ** -60 * 3], n - 4);
      const o = Float64Array.from(s, (_, i) => i % 2);
      for (const bins of [1, 2]) {
        const got = equalMassStatistics(s, o, bins, 'quantile');
        expect(got).toEqual(binStatistics(referenceQuantile(s, bins), s, o));
        if (bins === 1) expect(got[0]?.meanScore).toBe((2 ** 53 + 2) / n);
      }
    }
  });

  it('kept entries in any order and batching: binsOfGroup equals the brute force over all entries', () => {
    const rng = createRng('test', 20);
    const spec = (bins: number) => ({ scheme: 'equal-mass' as const, bins, method: 'quantile' as const });
    for (const kind of KINDS) {
      const n = 3000;
      const s = scoresOf(kind, n, rng);
      const o = Float64Array.from(s, () => rng.integer(2));
      const store = new KeptEntriesStore(2);
      for (let at = 0; at < n;) {
        const m = Math.min(n - at, 1 + rng.integer(700));
        store.add([
          { scores: s.slice(at, at + m), outcomes: o.slice(at, at + m), weights: undefined, unit: 1 },
          { scores: new Float64Array(0), outcomes: new Float64Array(0), weights: undefined, unit: 1 },
        ]);
        at += m;
      }
      for (const bins of [1, 15, 100, n + 1]) {
        expectSame(
          binsOfGroup('test', store, spec(bins), 0),
          binStatistics(referenceQuantile(s, bins), s, o),
          `${kind} B=${bins}`,
        );
        expect(binsOfGroup('test', store, spec(bins), 1)).toBeNull();
      }
    }
  });

  it('weighted entries keep the sorted construction (cumulative weights need the order)', () => {
    const rng = createRng('test', 21);
    const s = scoresOf('ties', 500, rng);
    const o = Float64Array.from(s, () => rng.integer(2));
    const w = Float64Array.from(s, () => 1 + rng.integer(3));
    const store = new KeptEntriesStore(1);
    store.add([{ scores: s, outcomes: o, weights: w, unit: 1 }]);
    const e = store.sorted(0);
    const order = Uint32Array.from(e.scores, (_, i) => i);
    const want = binStatistics(
      equalMassBins(e.scores, 15, 'quantile', e.weights, order),
      e.scores,
      e.outcomes,
      e.weights,
    );
    expect(binsOfGroup('test', store, { scheme: 'equal-mass', bins: 15, method: 'quantile' }, 0)).toEqual(want);
  });
});

/** A sorted copy of the scores, made once per scores array (each is binned with ~10 bin counts). */
const ascendingOf = new WeakMap<ArrayLike<number>, Float64Array>();
function ascending(s: ArrayLike<number>): Float64Array {
  let v = ascendingOf.get(s);
  if (v === undefined) ascendingOf.set(s, (v = Float64Array.from(s).sort()));
  return v;
}

/** The peers' constructions as they were written on a full sort (numpy emulation from src/binning/numpy.ts). */
function referencePeer(
  s: ArrayLike<number>,
  bins: number,
  method: Exclude<EqualMassMethod, 'quantile'>,
): { lower: number[]; upper: number[] } {
  const v = ascending(s);
  const n = v.length;
  const quantile = (q: number) => {
    const vi = (n - 1) * q;
    if (vi >= n - 1) return v[n - 1] as number;
    if (vi < 0) return v[0] as number;
    const prev = Math.floor(vi);
    const g = vi - prev;
    const a = v[prev] as number;
    const b = v[prev + 1] as number;
    return g >= 0.5 ? b - (b - a) * (1 - g) : a + (b - a) * g;
  };
  const lin = Array.from({ length: bins + 1 }, (_, i) => (i === bins ? 1 : i * (1 / bins)));
  if (method === 'uncertainty-metrics') {
    const even = (x: number) =>
      x - Math.floor(x) === 0.5 ? (Math.floor(x) % 2 === 0 ? Math.floor(x) : Math.floor(x) + 1) : Math.round(x);
    const e = Array.from({ length: bins - 1 }, (_, k) => v[Math.min(even((k + 1) * (n / bins)), n - 1)] as number);
    return { lower: [v[0] as number, ...e], upper: [...e, v[n - 1] as number] };
  }
  if (method === 'verified-calibration') {
    const parts = Math.min(bins, n);
    const raw: number[] = [];
    for (let i = 0, end = 0; i < parts - 1; i++) {
      end += Math.floor(n / parts) + (i < n % parts ? 1 : 0);
      raw.push(((v[end - 1] as number) + (v[end] as number)) / 2);
    }
    const edges = [...new Set([...raw, 1])].sort((a, b) => a - b);
    return {
      lower: edges.map((e, b) => (b === 0 ? Math.min(v[0] as number, edges[0] as number) : (edges[b - 1] as number))),
      upper: edges,
    };
  }
  const edges = lin.map((q) => quantile(method === 'sklearn' ? (q * 100) / 100 : q));
  if (method === 'netcal') {
    edges[0] = 0;
    edges[bins] = 1;
  }
  return { lower: edges.slice(0, bins), upper: edges.slice(1) };
}

describe("the peers' equal-mass constructions read their order statistics by selection", () => {
  it('edges equal the full-sort construction for every kind and B; the statistics equal binStatistics', () => {
    const rng = createRng('test', 22);
    for (const method of ['uncertainty-metrics', 'verified-calibration', 'netcal', 'sklearn'] as const) {
      for (const kind of KINDS) {
        for (const n of [1, 2, 33, 3000]) {
          const s = scoresOf(kind, n, rng);
          const o = Float64Array.from(s, () => rng.integer(2));
          for (const bins of binCounts(n, rng)) {
            const a = equalMassBins(s, bins, method);
            const want = referencePeer(s, bins, method);
            expectSame(
              { lower: Array.from(a.lower), upper: Array.from(a.upper) },
              want,
              `${method} ${kind} N=${n} B=${bins}`,
            );
            expectSame(
              equalMassStatistics(s, o, bins, method),
              binStatistics(a, s, o),
              `${method} ${kind} N=${n} B=${bins} statistics`,
            );
          }
        }
      }
    }
  });
});

describe('selections one after another share the module scratch (keys, bin indices)', () => {
  it('a second selection while one holds the tables, or a released one read, throws instead of reading dirty tables', () => {
    const r = createRng('two-selections', 1);
    const x = Float64Array.from({ length: 5000 }, () => r.uniform());
    const a = RankSelection.of(x);
    a.want(10);
    a.gather();
    expect(() => RankSelection.of(Float64Array.from({ length: 3000 }, () => r.uniform()))).toThrow(/holds the shared/);
    a.release();
    expect(() => a.block(10)).toThrow(/after its release/);
    expect(() => a.want(20)).toThrow(/after its release/);
    const c = RankSelection.of(x);
    c.want(10);
    c.gather();
    expect(c.valueAt(10)).toBe(Float64Array.from(x).sort()[10]);
    c.release();
  });
  it('class columns of float64 values (softmax of logits), large, small, float32, beyond the scratch: as the brute force', () => {
    const rng = createRng('test', 41);
    // sizes out of order so a column reads scratch a larger one wrote; 2^18 + 3 is past the scratch (its own arrays)
    const columns: [number, boolean][] = [
      [70000, false],
      [5000, false],
      [6000, true],
      [70000, false],
      [2 ** 18 + 3, false],
      [4000, false],
    ];
    for (const [n, f32] of columns) {
      const s = Float64Array.from({ length: n }, () => rng.uniform() ** 6 / 3);
      if (f32) for (let i = 0; i < n; i++) s[i] = Math.fround(s[i] as number);
      const o = Float64Array.from(s, () => (rng.uniform() < 0.2 ? 1 : 0));
      const positives = Int32Array.from(Array.from(o.keys()).filter((i) => o[i] === 1));
      for (const bins of [15, 4]) {
        const want = binStatistics(referenceQuantile(s, bins), s, o);
        expectSame(quantileStatistics(s, o, bins, positives), want, `N=${n} f32=${f32} B=${bins}`);
        // the assignment into given room equals its own (the room holds nothing of the previous column's after it)
        const room = new Int32Array(n).fill(-7);
        expectSame(quantileAssignment(s, bins, room), quantileAssignment(s, bins), `N=${n} B=${bins} room`);
      }
    }
  });
});
