/**
 * The row-sum screen of typed and nested probabilities (probMatrix.ts): a row passes unchecked only when its fused-pass
 * sum is within the tolerance less that sum's rounding bound, which grows with the row's size (Σ|p| ≤ 1 + tolerance).
 * The reference is the in-order check (`|Σ p − 1| > tolerance`, summed left to right): rows of 200–2000 classes are
 * built so that their in-order sum lies a few ulps either side of 1 ± tolerance, for tolerances up to 0.9 · C, where
 * a margin that did not scale with the sum let rows through.
 */
import { describe, expect, it } from 'vitest';
import { toProbabilities, UMError } from '../../src/index.js';
import { mulberry32 } from '../helpers/mulberry32.js';

/** The in-order sum the reference check compares. */
function inOrder(row: ArrayLike<number>): number {
  let s = 0;
  for (let k = 0; k < row.length; k++) s += row[k] as number;
  return s;
}

/** The outcome of converting one row: 'ok', or the error code. */
function outcome(row: Float64Array | number[], tolerance: number): string {
  try {
    toProbabilities(row instanceof Float64Array ? row : [row], {
      numClasses: row.length,
      sumTolerance: tolerance,
    });
    return 'ok';
  } catch (e) {
    if (e instanceof UMError) return e.code;
    throw e;
  }
}

describe('row-sum screen', () => {
  it('agrees with the in-order check on rows within ulps of 1 ± tolerance, up to 2000 classes', () => {
    const rnd = mulberry32(20261124);
    let near = 0;
    let rejected = 0;
    for (let t = 0; t < 300; t++) {
      const c = [200, 700, 2000][t % 3] as number;
      const tolerance = [0.001, 0.3, 0.5 * c, 0.9 * c, 0.3 * c][t % 5] as number;
      const target = t % 2 === 0 || tolerance >= 1 ? 1 + tolerance : 1 - tolerance;
      // entries in [0, 1] of about the target's mean; the last entries are then moved so that the in-order sum
      // lands on the target, and nudged by a few ulps either way
      const row = new Float64Array(c);
      const mean = Math.min(1, target / c);
      for (let k = 0; k < c; k++) row[k] = mean <= 0.5 ? mean * 2 * rnd() : 1 - (1 - mean) * 2 * rnd();
      let total = inOrder(row);
      for (let k = c - 1; k >= 0 && Math.abs(total - target) > 4 * Number.EPSILON * (1 + target); k--) {
        row[k] = Math.min(1, Math.max(0, target - (total - (row[k] as number))));
        total = inOrder(row);
      }
      // up to ±40 ulps of the sum (the fused pass adds in another order: its sum differs by some ulps), on an entry
      // with room to move
      const nudge = (Math.floor(rnd() * 81) - 40) * target * Number.EPSILON;
      const k = row.findIndex((v) => v + nudge >= 0 && v + nudge <= 1);
      row[k] = (row[k] as number) + nudge;
      const expected = Math.abs(inOrder(row) - 1) > tolerance ? 'UM_ROW_SUM' : 'ok';
      if (Math.abs(Math.abs(inOrder(row) - 1) - tolerance) <= 64 * Number.EPSILON * (1 + tolerance)) near++;
      if (expected !== 'ok') rejected++;
      expect(outcome(row, tolerance), `row ${t}: C ${c}, tolerance ${tolerance}`).toBe(expected);
      expect(outcome(Array.from(row), tolerance), `row ${t} (nested): C ${c}, tolerance ${tolerance}`).toBe(expected);
    }
    // the rows do lie at the boundary, on both sides of it
    expect(near).toBeGreaterThanOrEqual(250);
    expect(rejected).toBeGreaterThanOrEqual(60);
    expect(rejected).toBeLessThanOrEqual(240);
  });
});
