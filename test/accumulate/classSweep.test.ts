import { describe, it } from 'vitest';
import { FixedBinsStore } from '../../src/accumulate/fixedBins.js';
import type { KeptEntriesStore } from '../../src/accumulate/keptEntries.js';
import { JsonPath, type Store } from '../../src/accumulate/store.js';
import type { Bin, BinningSpec, EqualWidthRule, Precision } from '../../src/binning/types.js';
import { binsOfGroup } from '../../src/calibration/binnedStores.js';
import { Accumulator } from '../../src/engine/accumulator.js';
import type { Batch, StoreRequest } from '../../src/engine/definition.js';
import { withUnit } from '../../src/input/weights.js';
import { useKernels } from '../../src/kernels/rowStats.js';
import { expectSame } from '../helpers/expectSame.js';
import { createRng, type Rng } from '../../src/random/rng.js';
import { columnBlockBytes } from '../../src/select/classColumns.js';
import { selectPairs, type SelectionSpec } from '../../src/select/selectPairs.js';
import { classPairs, referenceEqualWidth, referenceQuantile, type ClassPairs } from '../helpers/classwiseReference.js';

/**
 * The class-wise path (class columns, the sweep of one lent batch, one radix histogram per class, kept copies of a
 * state's batches) against brute force: every class's bins, bit for bit (expectSame compares numbers with Object.is, as toEqual does).
 * Data with ties, one-ulp near-ties, ±0 and 1, scores on bin edges, crowded radix buckets; float32 and float64;
 * weights none, whole, fractional, huge, tiny and of scale ≠ 1; thresholds that keep all, some, or none of a class.
 */

const FLOOR: EqualWidthRule = { index: 'floor', edges: 'exact', closed: 'left', one: 'last-bin' };
const NUMPY_RIGHT: EqualWidthRule = { index: 'edges', edges: 'numpy', closed: 'right', one: 'last-bin' };
const OWN: EqualWidthRule = { index: 'edges', edges: 'exact', closed: 'left', one: 'own-bin' };
const DIVIDE: EqualWidthRule = { index: 'divide', edges: 'exact', closed: 'left', one: 'last-bin' };

type Kind = 'softmax32' | 'ties' | 'edges' | 'near32' | 'crowded32' | 'zeros' | 'float64';
type Weights = 'none' | 'whole' | 'fractional' | 'huge' | 'tiny' | 'scaled';

/** One float32 ulp up or down. */
function ulp32(x: number, up: boolean): number {
  const f = new Float32Array([x]);
  const u = new Int32Array(f.buffer);
  if (x === 0) u[0] = up ? 1 : 0;
  else u[0] = (u[0] as number) + (up ? 1 : -1);
  return f[0] as number;
}
/** One float64 ulp up or down (x > 0). */
function ulp64(x: number, up: boolean): number {
  const f = new Float64Array([x]);
  const u = new BigInt64Array(f.buffer);
  u[0] = (u[0] as bigint) + (up ? 1n : -1n);
  return f[0] as number;
}

/** N × C scores in [0, 1] of a kind (rows need not sum to 1: the stores do not validate), float32 when `f32`. */
function scoresOf(kind: Kind, n: number, c: number, rng: Rng): Float32Array | Float64Array {
  const pick = <T>(a: readonly T[]): T => a[rng.integer(a.length)] as T;
  const f32 = kind.endsWith('32');
  const out = f32 ? new Float32Array(n * c) : new Float64Array(n * c);
  const edge = (b: number) => b / 15;
  for (let i = 0; i < n; i++) {
    let total = 0;
    for (let k = 0; k < c; k++) {
      const u = rng.uniform();
      let v: number;
      switch (kind) {
        case 'softmax32':
          v = Math.exp(12 * u);
          total += v;
          break;
        case 'ties':
          v = pick([0, 1, 0.01, Math.fround(0.01), 0.5, 0.5, 1 / 3, edge(1), edge(7), 0.25]);
          break;
        case 'edges': {
          const e = edge(rng.integer(16));
          v = pick([e, e, Math.fround(e), e === 0 ? 0 : ulp64(e, false), e === 1 ? 1 : ulp64(e, true), 0.3 + 2 ** -54]);
          break;
        }
        case 'near32': {
          const base = Math.fround(0.3 + 0.01 * rng.integer(3));
          v = pick([
            base,
            ulp32(base, true),
            ulp32(base, false),
            Math.fround(edge(4)),
            ulp32(Math.fround(edge(4)), true),
            0,
            1,
          ]);
          break;
        }
        case 'crowded32':
          // one top-16-bit bucket (counted again on its low bits beyond 2048 entries), ties, a few others
          v = u < 0.8 ? Math.fround(0.5 + rng.integer(u < 0.4 ? 30 : 3000) * 2 ** -24) : Math.fround(u ** 4);
          break;
        case 'zeros':
          v = u < 0.4 ? 0 : u < 0.55 ? -0 : u < 0.7 ? 1 : u;
          break;
        case 'float64':
          v = u ** 3;
          break;
      }
      out[i * c + k] = v;
    }
    if (kind === 'softmax32') for (let k = 0; k < c; k++) out[i * c + k] = (out[i * c + k] as number) / total;
  }
  return out;
}

function weightsOf(kind: Weights, n: number, rng: Rng): Float64Array | undefined {
  switch (kind) {
    case 'none':
      return undefined;
    case 'whole':
      return Float64Array.from({ length: n }, () => 1 + rng.integer(4));
    case 'fractional':
      return Float64Array.from({ length: n }, () => (rng.uniform() < 0.3 ? 1 : 0.05 + rng.uniform()));
    case 'huge':
      return Float64Array.from({ length: n }, () => 2 ** 60 * (1 + rng.integer(3)));
    case 'tiny':
      return Float64Array.from({ length: n }, () => 2 ** -40 * (0.5 + rng.uniform()));
    case 'scaled':
      // whole weights of scale 2^−8 (a caller's weights rescaled by a power of two)
      return withUnit(
        Float64Array.from({ length: n }, () => 2 ** 8 * (1 + rng.integer(3))),
        2 ** -8,
      );
  }
}

interface Case {
  readonly kind: Kind;
  readonly n: number;
  readonly c: number;
  readonly weights: Weights;
  readonly precision: Precision;
}

const selection = (threshold: number | null, precision: Precision): SelectionSpec => ({
  target: 'all-classes',
  groupBy: 'class',
  threshold,
  precision,
});

/** SCE-like fixed bins under several rules, ACE/TACE-like kept entries at several thresholds and bin counts. */
function requestsOf(precision: Precision, thresholds: readonly (number | null)[]): StoreRequest[] {
  const out: StoreRequest[] = [];
  for (const rule of [FLOOR, NUMPY_RIGHT, OWN, DIVIDE])
    out.push({
      kind: 'fixed-bins',
      selection: selection(null, precision),
      spec: { scheme: 'equal-width', bins: 15, rule, precision },
    });
  // the first threshold given also rides on the histogram pass (its count of the entries at or below it)
  out.push({
    kind: 'fixed-bins',
    selection: selection(thresholds[1] ?? 0.01, precision),
    spec: { scheme: 'equal-width', bins: 10, rule: FLOOR, precision: 'float32' },
  });
  for (const t of thresholds)
    for (const bins of [1, 4, 15])
      out.push({
        kind: 'entries',
        selection: selection(t, precision),
        binning: { scheme: 'equal-mass', bins, method: 'quantile' },
      });
  return out;
}

/** The bins every request reads from the stores, class by class. */
function readAll(acc: Accumulator, requests: readonly StoreRequest[], c: number): (Bin[] | null)[][] {
  return requests.map((r, i) => {
    const store = acc.stores[acc.index[i] as number] as Store;
    const spec = (r.kind === 'fixed-bins' ? r.spec : (r as { binning: BinningSpec }).binning) as BinningSpec;
    return Array.from({ length: c }, (_, k) => binsOfGroup('test', store, spec, k));
  });
}

/**
 * The brute force of every request. A threshold keeps the entries of a class above it, so two thresholds that keep as
 * many entries of class k (at one precision) keep the same pairs, in the same order: their brute force under one spec
 * is computed once (no threshold and −1 keep every entry; the brute force was a third of this file's time). The pairs
 * of one class, threshold and precision are selected once for all the specs that bin them (the equal-mass reference
 * sorts each pairs object once for its bin counts).
 */
function reference(batch: Batch, requests: readonly StoreRequest[], unit: number): (Bin[] | null)[][] {
  const { p, y, w } = batch;
  const memo = new Map<string, Bin[] | null>();
  const selected = new Map<string, ClassPairs>();
  return requests.map((r) => {
    const s = (r as { selection: SelectionSpec }).selection;
    const spec = JSON.stringify(r.kind === 'fixed-bins' ? r.spec : (r as { binning: BinningSpec }).binning);
    return Array.from({ length: p.numClasses }, (_, k) => {
      const at = `${k} ${s.threshold} ${s.precision}`;
      let pairs = selected.get(at);
      if (pairs === undefined)
        selected.set(at, (pairs = classPairs(p.data, y, w, p.numClasses, k, s.threshold, s.precision, unit)));
      const key = `${k} ${s.precision} ${pairs.scores.length} ${r.kind} ${spec}`;
      if (memo.has(key)) return memo.get(key) as Bin[] | null;
      let bins: Bin[] | null;
      if (r.kind === 'fixed-bins') {
        const spec = r.spec as Extract<BinningSpec, { scheme: 'equal-width' }>;
        bins = referenceEqualWidth(pairs, spec.bins, spec.rule, spec.precision);
      } else bins = referenceQuantile(pairs, ((r as { binning: BinningSpec }).binning as { bins: number }).bins);
      memo.set(key, bins);
      return bins;
    });
  });
}

function batchOf(data: Float32Array | Float64Array, y: Int32Array, w: Float64Array | undefined, c: number): Batch {
  return {
    p: { kind: 'probabilities', data, n: y.length, numClasses: c, input: 'probs', binary: false },
    y,
    w,
  };
}

/** Rows [from, to) of a batch (weights keep their scale). */
function rowsOf(b: Batch, from: number, to: number, unit: number): Batch {
  const c = b.p.numClasses;
  const w = b.w === undefined ? undefined : withUnit(b.w.slice(from, to), unit);
  return batchOf(b.p.data.slice(from * c, to * c), b.y.slice(from, to), w, c);
}

const CASES: readonly Case[] = [
  { kind: 'softmax32', n: 1, c: 2, weights: 'none', precision: 'float64' },
  { kind: 'ties', n: 2, c: 3, weights: 'whole', precision: 'float64' },
  { kind: 'edges', n: 17, c: 2, weights: 'none', precision: 'float64' },
  { kind: 'edges', n: 120, c: 3, weights: 'fractional', precision: 'float32' },
  { kind: 'near32', n: 300, c: 5, weights: 'none', precision: 'float64' },
  { kind: 'zeros', n: 250, c: 3, weights: 'huge', precision: 'float64' },
  // many classes, most entries below TACE's 0.01 (a sparse threshold): 200 and 100 classes of softmax values are that
  // already, at a fifth of 1 000 classes' time (the brute force and the JSON round trip grow with N·C·requests)
  { kind: 'softmax32', n: 40, c: 200, weights: 'none', precision: 'float64' },
  { kind: 'softmax32', n: 40, c: 100, weights: 'whole', precision: 'float64' },
  { kind: 'softmax32', n: 2999, c: 3, weights: 'none', precision: 'float64' },
  { kind: 'softmax32', n: 3000, c: 4, weights: 'none', precision: 'float64' },
  { kind: 'crowded32', n: 5000, c: 2, weights: 'none', precision: 'float64' },
  { kind: 'near32', n: 3500, c: 3, weights: 'none', precision: 'float32' },
  { kind: 'zeros', n: 3200, c: 2, weights: 'none', precision: 'float64' },
  { kind: 'ties', n: 3100, c: 2, weights: 'none', precision: 'float64' },
  { kind: 'float64', n: 3000, c: 3, weights: 'none', precision: 'float64' },
  { kind: 'float64', n: 800, c: 3, weights: 'tiny', precision: 'float32' },
  { kind: 'softmax32', n: 600, c: 7, weights: 'scaled', precision: 'float64' },
  { kind: 'softmax32', n: 900, c: 6, weights: 'fractional', precision: 'float64' },
];

describe('class-wise bins: class columns and sweeps equal the brute force', () => {
  // one brute force per case serves every path (the JavaScript passes and the blocks of classes had data and brute
  // forces of their own): lent, kept, merged and through JSON, by the JavaScript passes, in several blocks of
  // classes, and fed as selected pairs
  it('lent, kept, merged through JSON, JavaScript passes, blocks of classes, selected pairs: every class bit for bit', () => {
    const rng = createRng('test', 1701);
    for (const cs of CASES) {
      const { n, c } = cs;
      const data = scoresOf(cs.kind, n, c, rng);
      const y = Int32Array.from({ length: n }, () => rng.integer(c));
      const w = weightsOf(cs.weights, n, rng);
      const unit = cs.weights === 'scaled' ? 2 ** -8 : 1;
      // thresholds keeping all, some (the first equal to a score present: entries equal to it are left out), most,
      // and none of a class
      const present = data[rng.integer(n * c)] as number;
      const thresholds = [null, present, 0.01, 0.5, Math.max(...Array.from(data).filter((_, e) => e % c === 0)), -1];
      const requests = requestsOf(cs.precision, thresholds);
      const batch = batchOf(data, y, w, c);
      const want = reference(batch, requests, unit);
      const label = `${cs.kind} N=${n} C=${c} weights=${cs.weights} ${cs.precision}`;

      const lent = new Accumulator('test', requests, c);
      lent.add(batch);
      expectSame(readAll(lent, requests, c), want, `${label} lent`);

      const kept = new Accumulator('test', requests, c);
      kept.add(batch, true);
      expectSame(readAll(kept, requests, c), want, `${label} kept`);

      if (unit === 1 && n > 2) {
        // a state's batches, merged, then through its JSON
        const cut = 1 + rng.integer(n - 2);
        const a = new Accumulator('test', requests, c);
        a.add(rowsOf(batch, 0, cut, unit), true);
        const b = new Accumulator('test', requests, c);
        b.add(rowsOf(batch, cut, n, unit), true);
        a.merge(b);
        expectSame(readAll(a, requests, c), want, `${label} merged`);
        const json = JSON.parse(JSON.stringify(a.toJSON())) as unknown;
        const back = Accumulator.fromJSON('test', requests, c, json, new JsonPath('test', 'state.stores'));
        // JSON numbers have no −0: the kept entries come back as +0 (the brute force again only where there is a −0)
        const negativeZero = data.some((v) => Object.is(v, -0));
        const positive = batchOf(
          data.map((v) => v + 0),
          y,
          w,
          c,
        );
        expectSame(
          readAll(back, requests, c),
          negativeZero ? reference(positive, requests, unit) : want,
          `${label} JSON`,
        );
      }

      if (n >= 3000 && cs.kind.endsWith('32')) {
        // the JavaScript passes (reference backend) give the bins the WebAssembly column kernel gives
        // (useKernels returns the backend in effect, not the previous one: the default is restored explicitly)
        useKernels('reference');
        try {
          const js = new Accumulator('test', requests, c);
          js.add(batch);
          expectSame(readAll(js, requests, c), want, `${label} reference backend`);
        } finally {
          useKernels('wasm');
        }
      }

      if (n * c >= 2000) {
        // several blocks of classes: thresholds keeping most entries (null, −1, 0.01 on most kinds) are read by
        // blocks, those keeping few (0.5, the largest score of class 0) sparse, in one pass
        const previous = columnBlockBytes(4096);
        try {
          for (const keep of [false, true]) {
            const acc = new Accumulator('test', requests, c);
            acc.add(batch, keep);
            expectSame(readAll(acc, requests, c), want, `${label} blocks keep=${keep}`);
          }
        } finally {
          columnBlockBytes(previous);
        }
      }

      // the pairs every entry used to be copied into (selectPairs), through the same stores
      const pairs = new Accumulator('test', requests, c);
      pairs.requests.forEach((r, i) => {
        const store = pairs.stores[i] as Store;
        const sel = selectPairs(batch.p, y, w, (r as { selection: SelectionSpec }).selection);
        if (store instanceof FixedBinsStore) store.add(sel);
        else (store as KeptEntriesStore).add(sel);
      });
      expectSame(readAll(pairs, requests, c), want, `${label} pairs`);
    }
  });
});

describe('class-wise bins the sweep leaves to the stores', () => {
  it('Ding, a peer’s equal-mass, distinct and user-edge bins read from class columns equal the selected pairs', () => {
    const rng = createRng('test', 1703);
    const specs: BinningSpec[] = [
      { scheme: 'ding', ding: { z: 1.645, minRemaining: 40, minGap: 0.05 } },
      { scheme: 'equal-mass', bins: 10, method: 'uncertainty-metrics' },
      { scheme: 'distinct' },
    ];
    for (const cs of CASES.filter((x) => x.n >= 100 && x.n <= 3200)) {
      const { n, c } = cs;
      const batch = batchOf(
        scoresOf(cs.kind, n, c, rng),
        Int32Array.from({ length: n }, () => rng.integer(c)),
        undefined,
        c,
      );
      for (const threshold of [null, 0.2]) {
        const requests: StoreRequest[] = [
          ...specs.map((binning): StoreRequest => ({
            kind: 'entries',
            selection: selection(threshold, cs.precision),
            binning,
          })),
          {
            kind: 'fixed-bins',
            selection: selection(threshold, cs.precision),
            spec: { scheme: 'edges', edges: [0, 0.3, 0.75, 1], closed: 'right' },
          },
        ];
        const read = (acc: Accumulator) =>
          requests.map((r, i) => {
            const store = acc.stores[acc.index[i] as number] as Store;
            const spec = (r.kind === 'fixed-bins' ? r.spec : (r as { binning: BinningSpec }).binning) as BinningSpec;
            return Array.from({ length: c }, (_, k) => binsOfGroup('test', store, spec, k));
          });
        const pairs = new Accumulator('test', requests, c);
        pairs.requests.forEach((r, i) => {
          const sel = selectPairs(batch.p, batch.y, undefined, (r as { selection: SelectionSpec }).selection);
          const store = pairs.stores[i] as Store;
          if (store instanceof FixedBinsStore) store.add(sel);
          else (store as KeptEntriesStore).add(sel);
        });
        const want = read(pairs);
        for (const keep of [false, true]) {
          const acc = new Accumulator('test', requests, c);
          acc.add(batch, keep);
          expectSame(read(acc), want, `${cs.kind} N=${n} C=${c} t=${threshold} keep=${keep}`);
        }
      }
    }
  });
});
