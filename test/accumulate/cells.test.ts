/**
 * The bounded grid's cells (src/accumulate/cells.ts): monotone in x, each value inside its cell's range, relative width
 * 2^−m away from the ends, the end cells holding everything within 2^−41 of 0 or 1, and mirror symmetry about 0.5.
 * Violations are collected and compared once (an expect per point would cost more than the cells).
 */
import { describe, expect, it } from 'vitest';
import { cellCount, cellOf, cellRange } from '../../src/accumulate/cells.js';
import { uniforms } from '../helpers/minstd.js';

/** Points in [0, 1]: a fine even grid, seeded uniforms and their powers (crowding at 0 and 1), and the extremes. */
function points(): number[] {
  const grid = Array.from({ length: 100_001 }, (_, i) => i / 100_000);
  const random = Array.from(uniforms(5, 20_000), (u, i) =>
    i % 4 === 0 ? u : i % 4 === 1 ? u ** 8 : i % 4 === 2 ? 1 - u ** 8 : u ** 40,
  );
  const extremes = [
    0,
    5e-324,
    1e-300,
    2 ** -41,
    2 ** -40,
    1e-13,
    0.25,
    0.5 - 2 ** -54,
    0.5 - 1e-17,
    0.5,
    0.5 + 2 ** -53,
    0.75,
    1 - 2 ** -40,
    1 - 2 ** -41,
    1 - 1e-16,
    1 - 2 ** -53,
    1,
  ];
  return [...grid, ...random, ...extremes].sort((a, b) => a - b);
}

describe('cells of the bounded grid', () => {
  const xs = points();
  for (const m of [0, 3, 8, 10]) {
    it(`m = ${m}: monotone, each x inside its cell, 2·(40·2^m + 1) cells`, () => {
      const count = cellCount(m);
      expect(count).toBe(2 * (40 * 2 ** m + 1));
      const problems: string[] = [];
      let previous = 0;
      for (const x of xs) {
        const c = cellOf(x, m);
        const [lo, hi] = cellRange(c, m);
        if (!Number.isInteger(c) || c < 0 || c >= count) problems.push(`${x}: cell ${c} outside [0, ${count})`);
        if (c < previous) problems.push(`${x}: cell ${c} after cell ${previous}`);
        if (!(x >= lo && x <= hi)) problems.push(`${x}: cell ${c} is [${lo}, ${hi}]`);
        // relative width 2^−m of the distance to the nearer end (cells away from the end cells)
        const d = Math.min(x, 1 - x);
        if (d >= 2 ** -40 && hi - lo > d * 2 ** -m * 1.0000001) problems.push(`${x}: cell ${c} is ${hi - lo} wide`);
        // x within 2^−41 of an end shares the end cell
        if (x < 2 ** -41 && c !== 0) problems.push(`${x}: cell ${c}, not the first`);
        if (1 - x < 2 ** -41 && c !== count - 1) problems.push(`${x}: cell ${c}, not the last`);
        // 1 − x is exact for dyadic x with few bits: the mirror image lands in the mirror cell (0.5 is its own mirror
        // and belongs to the upper half)
        if (Number.isInteger(x * 2 ** 20) && x !== 0.5) {
          const mirror = cellOf(1 - x, m);
          if (mirror !== count - 1 - c) problems.push(`${x}: cell ${c}, its mirror ${1 - x} in ${mirror}`);
        }
        previous = c;
      }
      expect(problems.slice(0, 10)).toEqual([]);
    });
  }
});
