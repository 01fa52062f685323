/**
 * The bounded grid store's merge (src/accumulate/grid.ts) against the dense sum it replaced — every field of every
 * cell added, empty or not — bit for bit: stores of random pairs (ties, the ends 0 and 1, ±0, weights none, fractional
 * and huge, an offset), groups present on one side only, stores read back from their JSON, merged in a chain.
 */
import { describe, expect, it } from 'vitest';
import { cellCount } from '../../src/accumulate/cells.js';
import { GridStore } from '../../src/accumulate/grid.js';
import { JsonPath } from '../../src/accumulate/store.js';
import type { Pairs } from '../../src/select/selectPairs.js';
import { createRng, type Rng } from '../../src/random/rng.js';
import { expectSame } from '../helpers/expectSame.js';

const FIELDS = 5;
const GROUPS = 3;
const BITS = 4;

interface GridJson {
  groups: { index: number[]; sums: number[] }[];
}

function pairsOf(rng: Rng, n: number, weights: 'none' | 'fractional' | 'huge', offset: number): Pairs {
  const pick = [0, -0, 1, 0.5, 0.25, 1e-13, 1 - 2 ** -53];
  const scores = Float64Array.from({ length: n }, () => {
    const u = rng.uniform();
    return (u < 0.3 ? (pick[rng.integer(pick.length)] as number) : u ** 3) - offset;
  });
  const outcomes = Float64Array.from({ length: n }, () => rng.integer(2));
  const w =
    weights === 'none'
      ? undefined
      : Float64Array.from({ length: n }, () => (weights === 'huge' ? 2 ** 60 : 1) * (0.05 + rng.uniform()));
  return { scores, outcomes, weights: w, unit: 1 };
}

/** A store of random pairs in some of its groups (the others never written). */
function storeOf(rng: Rng, offset: number): GridStore {
  const s = new GridStore(GROUPS, BITS, offset);
  const kinds = ['none', 'fractional', 'huge'] as const;
  s.add(
    Array.from({ length: GROUPS }, () =>
      pairsOf(rng, rng.uniform() < 0.3 ? 0 : 1 + rng.integer(60), kinds[rng.integer(3)] as 'none', offset),
    ),
  );
  return s;
}

/** The cells of a store's JSON as dense arrays (undefined: no counted cell). */
function dense(json: GridJson): (number[] | undefined)[] {
  return json.groups.map((g) => {
    if (g.index.length === 0) return undefined;
    const out = new Array<number>(FIELDS * cellCount(BITS)).fill(0);
    g.index.forEach((j, r) => {
      for (let f = 0; f < FIELDS; f++) out[j * FIELDS + f] = g.sums[r * FIELDS + f] as number;
    });
    return out;
  });
}

/** The merge it replaced: every field of every cell added (a group absent on the left starts at zeros). */
function denseMerge(a: (number[] | undefined)[], b: (number[] | undefined)[]): (number[] | undefined)[] {
  return a.map((x, k) => {
    const y = b[k];
    if (y === undefined) return x;
    const base = x ?? new Array<number>(y.length).fill(0);
    return base.map((v, j) => v + (y[j] as number));
  });
}

const json = (s: GridStore) => s.toJSON() as GridJson;

describe('grid store merge', () => {
  it('equals the dense sum of every cell, bit for bit, through JSON and in a chain', () => {
    const rng = createRng('test', 1801);
    for (const offset of [0, 1]) {
      for (let round = 0; round < 12; round++) {
        const stores = Array.from({ length: 4 }, () => storeOf(rng, offset));
        let want = dense(json(stores[0] as GridStore));
        // the first store as read back from its JSON, the others as made
        const merged = GridStore.fromJSON(
          JSON.parse(JSON.stringify(json(stores[0] as GridStore))),
          new JsonPath('test', 'grid'),
          GROUPS,
          BITS,
          offset,
        );
        for (const s of stores.slice(1)) {
          want = denseMerge(want, dense(json(s)));
          merged.merge(s);
          expectSame(dense(json(merged)), want, `offset ${offset}, round ${round}`);
        }
        for (let k = 0; k < GROUPS; k++)
          expect(merged.cellsOf(k).counts.reduce((a, b) => a + b, 0)).toBe(
            stores.reduce((a, s) => a + s.cellsOf(k).counts.reduce((x, y) => x + y, 0), 0),
          );
      }
    }
  });

  it('a group copied from the other store is its own: adding to the other afterwards leaves it', () => {
    const rng = createRng('test', 1802);
    const a = new GridStore(GROUPS, BITS);
    const b = storeOf(rng, 0);
    a.merge(b);
    const before = JSON.stringify(a.toJSON());
    b.add(Array.from({ length: GROUPS }, () => pairsOf(rng, 20, 'none', 0)));
    expect(JSON.stringify(a.toJSON())).toBe(before);
    expect(JSON.stringify(b.toJSON())).not.toBe(before);
  });
});
