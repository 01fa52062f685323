import type { Pairs } from '../select/selectPairs.js';
import { cellCount, cellOf } from './cells.js';
import { isCount, numberList, type JsonPath, type Store } from './store.js';

/** Per-cell sums of one group of a grid, in cell order (only the non-empty cells). */
export interface GridCells {
  /** Weighted mean score of each cell (inside the cell), ascending. */
  readonly scores: Float64Array;
  /** Weighted mean outcome of each cell. */
  readonly outcomes: Float64Array;
  /** Σw of each cell. */
  readonly weights: Float64Array;
  /** Rows in each cell. */
  readonly counts: Float64Array;
  /** Σw·|o − s| of each cell. */
  readonly deviations: Float64Array;
}

const FIELDS = 5; // count, Σw, Σw·s, Σw·o, Σw·|o − s|

/**
 * The bounded-memory store of order-based metrics: every pair goes to a cell of a fine fixed grid on [0, 1] (see
 * `cells.ts`: relative width 2^−cellBits near 0 and 1), which keeps the count and Σw, Σw·s, Σw·o, Σw·|o − s| —
 * O(groups × cells) memory whatever the number of rows. A metric finished from the cells treats each cell's pairs as
 * tied, and reports a bound on the difference to the exact value that it proves from the cells (internal).
 *
 * The sums are float64: merging in another order can change their last bits (the bounds allow for that rounding);
 * exact mode is bit-identical in any order.
 */
export class GridStore implements Store {
  readonly kind = 'grid';
  private readonly cells: (Float64Array | undefined)[];

  /**
   * @param offset added to every score before it is placed (scores in [−offset, 1 − offset]: 1 for the negated
   *   normalized entropy, a confidence in [−1, 0]).
   */
  constructor(
    groups: number,
    readonly cellBits: number,
    readonly offset = 0,
  ) {
    this.cells = new Array<Float64Array | undefined>(groups).fill(undefined);
  }

  private group(k: number): Float64Array {
    let c = this.cells[k];
    if (c === undefined) {
      c = new Float64Array(FIELDS * cellCount(this.cellBits));
      this.cells[k] = c;
    }
    return c;
  }

  add(pairs: readonly Pairs[]): void {
    pairs.forEach((g, k) => {
      if (g.scores.length === 0) return;
      const c = this.group(k);
      const { scores, outcomes, weights } = g;
      for (let i = 0; i < scores.length; i++) {
        const s = scores[i] as number;
        const o = outcomes[i] as number;
        const w = weights === undefined ? 1 : (weights[i] as number);
        const at = FIELDS * cellOf(Math.min(1, Math.max(0, s + this.offset)), this.cellBits);
        c[at] = (c[at] as number) + 1;
        c[at + 1] = (c[at + 1] as number) + w;
        c[at + 2] = (c[at + 2] as number) + w * s;
        c[at + 3] = (c[at + 3] as number) + w * o;
        c[at + 4] = (c[at + 4] as number) + w * Math.abs(o - s);
      }
    });
  }

  /**
   * Adds the other store's cells. Most of a grid's cells are empty (2^cellBits · 80 cells per group, whatever the
   * rows), and an empty cell holds +0 in every field (add and fromJSON write only the cells they count; a sum that
   * starts at +0 never becomes −0): it is skipped, and a group this store has not yet is copied — the bits of adding
   * every field, at a fraction of the work.
   */
  merge(other: Store): void {
    const o = other as GridStore;
    o.cells.forEach((c, k) => {
      if (c === undefined) return;
      const mine = this.cells[k];
      if (mine === undefined) {
        this.cells[k] = c.slice();
        return;
      }
      for (let j = 0; j < c.length; j += FIELDS) {
        if (c[j] === 0) continue;
        for (let f = j; f < j + FIELDS; f++) mine[f] = (mine[f] as number) + (c[f] as number);
      }
    });
  }

  get groupCount(): number {
    return this.cells.length;
  }

  /** The non-empty cells of group k, ascending. */
  cellsOf(k: number): GridCells {
    const c = this.cells[k];
    const rows: number[] = [];
    if (c !== undefined) for (let j = 0; j < c.length; j += FIELDS) if ((c[j + 1] as number) > 0) rows.push(j);
    const m = rows.length;
    const out = {
      scores: new Float64Array(m),
      outcomes: new Float64Array(m),
      weights: new Float64Array(m),
      counts: new Float64Array(m),
      deviations: new Float64Array(m),
    };
    rows.forEach((j, r) => {
      const cc = c as Float64Array;
      const w = cc[j + 1] as number;
      // the weighted means stay inside the cell up to rounding; clamped so the cell order is kept
      out.scores[r] = Math.min(1 - this.offset, Math.max(-this.offset, (cc[j + 2] as number) / w));
      out.outcomes[r] = Math.min(1, Math.max(0, (cc[j + 3] as number) / w));
      out.weights[r] = w;
      out.counts[r] = cc[j] as number;
      out.deviations[r] = cc[j + 4] as number;
    });
    // clamping may have made two adjacent means equal or reversed them by an ulp: keep them ascending
    for (let r = 1; r < m; r++)
      if ((out.scores[r] as number) < (out.scores[r - 1] as number)) out.scores[r] = out.scores[r - 1] as number;
    return out;
  }

  toJSON(typed = false): unknown {
    return {
      groups: this.cells.map((c) => {
        const index: number[] = [];
        const sums: number[] = [];
        if (c !== undefined) {
          for (let j = 0; j < c.length; j += FIELDS) {
            if ((c[j] as number) === 0) continue;
            index.push(j / FIELDS);
            for (let f = 0; f < FIELDS; f++) sums.push(c[j + f] as number);
          }
        }
        return { index: numberList(index, typed), sums: numberList(sums, typed) };
      }),
    };
  }

  static fromJSON(json: unknown, at: JsonPath, groups: number, cellBits: number, offset = 0): GridStore {
    const s = new GridStore(groups, cellBits, offset);
    const total = cellCount(cellBits);
    const list = at.at('groups').array(at.object(json).groups, groups);
    list.forEach((x, k) => {
      const here = at.at('groups').at(k);
      const o = here.object(x);
      const index = here
        .at('index')
        .numbers(o.index, undefined, (v) => isCount(v) && v < total, `be a cell index in [0, ${total})`);
      const sums = here.at('sums').numbers(o.sums, index.length * FIELDS);
      if (index.length === 0) return;
      const c = s.group(k);
      index.forEach((j, r) => {
        const count = sums[r * FIELDS] as number;
        const w = sums[r * FIELDS + 1] as number;
        if (!isCount(count) || count === 0)
          here
            .at('sums')
            .at(r * FIELDS)
            .fail('be a whole number > 0 (the cell count)', count);
        if (!(w > 0))
          here
            .at('sums')
            .at(r * FIELDS + 1)
            .fail('be > 0 (the cell weight)', w);
        for (let f = 0; f < FIELDS; f++) c[j * FIELDS + f] = sums[r * FIELDS + f] as number;
      });
    });
    return s;
  }
}
