import { assignBinsFor } from '../binning/assignBins.js';
import { MAX_COUNT } from '../errors/checkCount.js';
import { fail } from '../errors/fail.js';
import {
  addToBinSums,
  binsOfSums,
  emptyBinSums,
  mergeBinSums,
  type BinExactSums,
  type BinSums,
} from '../binning/binSums.js';
import { addEqualWidthColumn } from '../binning/columnSums.js';
import type { Bin, BinningSpec } from '../binning/types.js';
import { ColumnBlocks, type ClassColumns } from '../select/classColumns.js';
import type { Pairs } from '../select/selectPairs.js';
import type { ClassSweep } from './classSweep.js';
import { isCount, type JsonPath, type Store } from './store.js';

/** Binnings whose edges do not depend on the data: equal-width rules and user edges. */
export type FixedSpec = Extract<BinningSpec, { scheme: 'equal-width' | 'edges' }>;

/**
 * Fixed bins per group: for every bin its count and the exact Σw, Σw·s, Σw·o (O(groups × bins) memory whatever the
 * number of rows; exact merge). What ECE, MCE, SCE, UCE and reliability tables with equal-width or given edges keep
 * (internal).
 */
export class FixedBinsStore implements Store {
  readonly kind = 'fixed-bins';
  readonly lower: Float64Array;
  readonly upper: Float64Array;
  readonly groups: BinSums[];
  private isFractional = false;
  private weightUnit = 1;
  /** A sweep that adds a lent batch's class columns when first read (see {@link defer}). */
  private pending: ClassSweep | undefined;

  /** Whether some weight (times its scale) was not a whole number: weights are then relative, not counts. */
  get fractional(): boolean {
    this.settle();
    return this.isFractional;
  }

  set fractional(value: boolean) {
    this.isFractional = value;
  }

  /** The weights' scale (1 unless the caller's weights were rescaled; a state's batches share scale 1). */
  get unit(): number {
    this.settle();
    return this.weightUnit;
  }

  set unit(value: number) {
    this.weightUnit = value;
  }

  /** Notes the weights of a group's entries a sweep added (see {@link add}). */
  noteWeights(weights: Float64Array, unit: number): void {
    this.weightUnit = unit;
    if (this.isFractional) return;
    for (let i = 0; i < weights.length; i++)
      if (!Number.isInteger((weights[i] as number) * unit)) {
        this.isFractional = true;
        return;
      }
  }

  constructor(
    readonly fn: string,
    readonly spec: FixedSpec,
    groups: number,
  ) {
    const a = assignBinsFor(fn, new Float64Array(0), spec);
    // every group keeps every bin (exact sums, then a Bin each), whatever the data: 2^20 bins in each of 10 classes
    // took 4 GB and 46 s on 10 rows, and more classes ran out of memory — so bins × groups has the count bound
    if (groups > 1 && a.numBins * groups > MAX_COUNT) {
      const most = Math.floor(MAX_COUNT / groups);
      const why = `with ${groups} classes binned one by one (bins × classes ≤ 2^20: each class keeps every bin)`;
      if (spec.scheme === 'edges')
        fail('UM_OPTION', fn, 'options.binning.edges', `give at most ${most} bins ${why}`, { value: a.numBins });
      fail('UM_OPTION', fn, 'options.bins', `be at most ${most} ${why}`, { value: a.numBins });
    }
    this.lower = Float64Array.from(a.lower);
    this.upper = Float64Array.from(a.upper);
    this.groups = Array.from({ length: groups }, () => emptyBinSums(a.numBins));
  }

  /** Adds the pairs of every group. */
  add(pairs: readonly Pairs[]): void {
    pairs.forEach((g, k) => {
      if (g.scores.length === 0) return;
      this.unit = g.unit;
      if (!this.fractional && g.weights !== undefined)
        this.fractional = g.weights.some((w) => !Number.isInteger(w * g.unit));
      const a = assignBinsFor(this.fn, g.scores, this.spec);
      addToBinSums(this.groups[k] as BinSums, a.index, g.scores, g.outcomes, g.weights);
    });
  }

  /**
   * Adds every class of a batch read as class columns (group k: the entries of class k above `threshold`) — the same
   * sums as {@link add} of `selectPairs`' pairs, without copying a pair per entry.
   */
  addColumns(cols: ClassColumns, threshold: number | null): void {
    const blocks = new ColumnBlocks([{ cols, threshold }]);
    const index = new Int32Array(cols.n);
    // whole weights (times their scale) make every group's check pass: look per group only when some row is not whole
    const w = cols.weights;
    const someFractional = w !== undefined && w.some((x) => !Number.isInteger(x * cols.unit));
    for (let k = 0; k < this.groups.length; k++) {
      const g = blocks.column(k);
      const m = g.scores.length;
      if (m === 0) continue;
      this.unit = g.unit;
      if (someFractional && !this.fractional && g.weights !== undefined)
        this.fractional = g.weights.some((x) => !Number.isInteger(x * g.unit));
      const sums = this.groups[k] as BinSums;
      if (this.spec.scheme === 'equal-width') {
        const { bins, rule, precision } = this.spec;
        addEqualWidthColumn(sums, bins, rule, precision, g.scores, g.outcomes, g.positives, g.weights, index);
      } else {
        const a = assignBinsFor(this.fn, g.scores, this.spec);
        addToBinSums(sums, a.index, g.scores, g.outcomes, g.weights);
      }
    }
  }

  /**
   * Leaves an unweighted lent batch's class columns to a sweep that bins them for other stores too (`ClassSweep`): its
   * sums are added when the store is first read, merged or written — while the lender still holds the batch.
   */
  defer(sweep: ClassSweep): void {
    this.settle();
    this.pending = sweep;
  }

  /** Adds what a deferred sweep holds. */
  private settle(): void {
    const p = this.pending;
    if (p === undefined) return;
    this.pending = undefined;
    p.run();
  }

  merge(other: Store): void {
    const o = other as FixedBinsStore;
    this.settle();
    o.settle();
    this.groups.forEach((g, k) => mergeBinSums(g, o.groups[k] as BinSums));
    this.fractional ||= o.fractional;
  }

  /**
   * The bins of group k (empty bins included, or with `occupied` only those with a gap: what a binned error reads);
   * `null` when the group holds no entry.
   */
  bins(k: number, occupied = false): Bin[] | null {
    this.settle();
    const g = this.groups[k] as BinSums;
    return g.count.every((c) => c === 0) ? null : binsOfSums(this.lower, this.upper, g, occupied);
  }

  toJSON(): unknown {
    this.settle();
    return {
      fractional: this.fractional,
      groups: this.groups.map((g) => ({
        count: Array.from(g.count),
        weight: sumsJSON(g.weight),
        score: sumsJSON(g.score),
        outcome: sumsJSON(g.outcome),
      })),
    };
  }

  /** Reads {@link toJSON}'s form for this spec and number of groups, checking every field. */
  static fromJSON(json: unknown, at: JsonPath, fn: string, spec: FixedSpec, groups: number): FixedBinsStore {
    const s = new FixedBinsStore(fn, spec, groups);
    const bins = s.lower.length;
    const o0 = at.object(json);
    if (typeof o0.fractional !== 'boolean') at.at('fractional').fail('be true or false', o0.fractional);
    s.fractional = o0.fractional as boolean;
    const g = at.at('groups').array(o0.groups, groups);
    g.forEach((x, k) => {
      const here = at.at('groups').at(k);
      const o = here.object(x);
      const sums = s.groups[k] as BinSums;
      sums.count.set(here.at('count').numbers(o.count, bins, isCount, 'be a whole number ≥ 0'));
      for (const key of ['weight', 'score', 'outcome'] as const)
        here
          .at(key)
          .exactSums(o[key], bins)
          .forEach((sum, b) => sums[key].set(b, sum));
    });
    return s;
  }
}

/** Every bin's exact sum in its JSON form (an empty sum's for the bins nothing was added to). */
function sumsJSON(sums: BinExactSums): unknown[] {
  return Array.from({ length: sums.length }, (_, b) => sums.read(b).toJSON());
}
