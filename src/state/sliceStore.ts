import { assignBinsFor } from '../binning/assignBins.js';
import { binStatisticsUnchecked, binsFromSums } from '../binning/binStatistics.js';
import type { Bin, BinningSpec } from '../binning/types.js';
import { fail } from '../errors/fail.js';
import { cellCount, cellOf } from '../accumulate/cells.js';
import { ExactSum } from './exactSum.js';
import { gather } from '../math/gather.js';

/**
 * How a state keeps the (score, outcome, weight) entries of one slice (internal):
 * - `'bins'`: fixed edges — per bin the count and exact sums Σw, Σw·s, Σw·o (O(bins) memory, exact merge);
 * - `'exact'`: every entry (what an order-based metric must keep; results recomputed in a canonical order);
 * - `'sketch'`: a fine fixed grid of cells (see `cells.ts`) with the same sums per cell (O(cells) memory).
 */
export type StoreMode = 'bins' | 'exact' | 'sketch';

/** A growable Float64 buffer. */
class Column {
  data = new Float64Array(64);
  length = 0;
  push(x: number): void {
    if (this.length === this.data.length) {
      const next = new Float64Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = x;
  }
  pushAll(other: Column): void {
    for (let i = 0; i < other.length; i++) this.push(other.data[i] as number);
  }
  view(): Float64Array {
    return this.data.subarray(0, this.length);
  }
}

/** Sums of a bin or a cell. */
interface Sums {
  count: Float64Array;
  weight: ExactSum[];
  score: ExactSum[];
  outcome: ExactSum[];
}

function sums(size: number): Sums {
  const make = () => Array.from({ length: size }, () => new ExactSum());
  return { count: new Float64Array(size), weight: make(), score: make(), outcome: make() };
}

/** Entries of one slice, kept as the mode says (internal). */
export class SliceStore {
  readonly mode: StoreMode;
  /** Fixed bins: their edges (from the spec), set on first use. */
  lower: Float64Array | undefined;
  upper: Float64Array | undefined;
  private bins: Sums | undefined;
  private readonly scores = new Column();
  private readonly outcomes = new Column();
  private readonly weights = new Column();
  private cellCounts: Float64Array | undefined;
  private cellWeight: Float64Array | undefined;
  private cellScore: Float64Array | undefined;
  private cellOutcome: Float64Array | undefined;
  /** Σ w·|o − s| per cell: how much moving the cell's entries between bins can change the l1 error. */
  private cellDeviation: Float64Array | undefined;

  constructor(
    mode: StoreMode,
    private readonly spec: BinningSpec,
    /** Mantissa bits of the sketch grid. */
    readonly resolution: number,
  ) {
    this.mode = mode;
  }

  /** Adds entries (weights all > 0, or undefined for 1). */
  add(fn: string, scores: ArrayLike<number>, outcomes: ArrayLike<number>, weights: ArrayLike<number> | undefined): void {
    const n = scores.length;
    if (n === 0) return;
    if (this.mode === 'bins') {
      const a = assignBinsFor(fn, scores, this.spec);
      if (this.bins === undefined) {
        this.bins = sums(a.numBins);
        this.lower = Float64Array.from(a.lower);
        this.upper = Float64Array.from(a.upper);
      }
      const b = this.bins;
      for (let i = 0; i < n; i++) {
        const k = a.index[i] as number;
        const w = weights === undefined ? 1 : (weights[i] as number);
        b.count[k] = (b.count[k] as number) + 1;
        (b.weight[k] as ExactSum).add(w);
        (b.score[k] as ExactSum).add(w * (scores[i] as number));
        (b.outcome[k] as ExactSum).add(w * (outcomes[i] as number));
      }
      return;
    }
    if (this.mode === 'exact') {
      for (let i = 0; i < n; i++) {
        this.scores.push(scores[i] as number);
        this.outcomes.push(outcomes[i] as number);
        this.weights.push(weights === undefined ? 1 : (weights[i] as number));
      }
      return;
    }
    this.ensureCells();
    const m = this.resolution;
    const count = this.cellCounts as Float64Array;
    const weight = this.cellWeight as Float64Array;
    const score = this.cellScore as Float64Array;
    const outcome = this.cellOutcome as Float64Array;
    const deviation = this.cellDeviation as Float64Array;
    for (let i = 0; i < n; i++) {
      const s = scores[i] as number;
      const o = outcomes[i] as number;
      const w = weights === undefined ? 1 : (weights[i] as number);
      const j = cellOf(s, m);
      count[j] = (count[j] as number) + 1;
      weight[j] = (weight[j] as number) + w;
      score[j] = (score[j] as number) + w * s;
      outcome[j] = (outcome[j] as number) + w * o;
      deviation[j] = (deviation[j] as number) + w * Math.abs(o - s);
    }
  }

  private ensureCells(): void {
    if (this.cellCounts !== undefined) return;
    const g = cellCount(this.resolution);
    this.cellCounts = new Float64Array(g);
    this.cellWeight = new Float64Array(g);
    this.cellScore = new Float64Array(g);
    this.cellOutcome = new Float64Array(g);
    this.cellDeviation = new Float64Array(g);
  }

  /** Adds another store of the same mode and spec. */
  merge(other: SliceStore): void {
    if (this.mode === 'bins') {
      if (other.bins === undefined) return;
      if (this.bins === undefined) {
        this.bins = sums(other.bins.count.length);
        this.lower = other.lower;
        this.upper = other.upper;
      }
      const a = this.bins;
      const b = other.bins;
      for (let k = 0; k < a.count.length; k++) {
        a.count[k] = (a.count[k] as number) + (b.count[k] as number);
        (a.weight[k] as ExactSum).addSum(b.weight[k] as ExactSum);
        (a.score[k] as ExactSum).addSum(b.score[k] as ExactSum);
        (a.outcome[k] as ExactSum).addSum(b.outcome[k] as ExactSum);
      }
      return;
    }
    if (this.mode === 'exact') {
      this.scores.pushAll(other.scores);
      this.outcomes.pushAll(other.outcomes);
      this.weights.pushAll(other.weights);
      return;
    }
    if (other.cellCounts === undefined) return;
    this.ensureCells();
    const pairs: [Float64Array | undefined, Float64Array | undefined][] = [
      [this.cellCounts, other.cellCounts],
      [this.cellWeight, other.cellWeight],
      [this.cellScore, other.cellScore],
      [this.cellOutcome, other.cellOutcome],
      [this.cellDeviation, other.cellDeviation],
    ];
    for (const [a, b] of pairs) if (a !== undefined && b !== undefined) for (let j = 0; j < a.length; j++) a[j] = (a[j] as number) + (b[j] as number);
  }

  /** True when no entry was added. */
  isEmpty(): boolean {
    if (this.mode === 'bins') return this.bins === undefined || this.bins.count.every((c) => c === 0);
    if (this.mode === 'exact') return this.scores.length === 0;
    return this.cellCounts === undefined || this.cellCounts.every((c) => c === 0);
  }

  /** Total weight of the entries. */
  totalWeight(): number {
    if (this.mode === 'bins') {
      const t = new ExactSum();
      for (const s of this.bins?.weight ?? []) t.addSum(s);
      return t.value();
    }
    if (this.mode === 'exact') {
      const t = new ExactSum();
      for (const w of this.weights.view()) t.add(w);
      return t.value();
    }
    let t = 0;
    for (const w of this.cellWeight ?? []) t += w;
    return t;
  }

  /**
   * The entries as (score, outcome, weight) columns: kept entries in a canonical order (by score, outcome, weight —
   * so the result does not depend on the order they arrived in), or one pseudo-entry per non-empty sketch cell at
   * its weighted mean score and outcome.
   */
  entries(): { scores: Float64Array; outcomes: Float64Array; weights: Float64Array } {
    if (this.mode === 'exact') {
      const s = this.scores.view();
      const o = this.outcomes.view();
      const w = this.weights.view();
      const order = new Uint32Array(s.length);
      for (let i = 0; i < order.length; i++) order[i] = i;
      order.sort((a, b) => (s[a] as number) - (s[b] as number) || (o[a] as number) - (o[b] as number) || (w[a] as number) - (w[b] as number));
      return { scores: gather(s, order), outcomes: gather(o, order), weights: gather(w, order) };
    }
    if (this.mode === 'sketch') {
      const scores: number[] = [];
      const outcomes: number[] = [];
      const weights: number[] = [];
      const cw = this.cellWeight ?? new Float64Array(0);
      for (let j = 0; j < cw.length; j++) {
        const w = cw[j] as number;
        if (!(w > 0)) continue;
        // the weighted mean stays inside the cell up to rounding; clamp so the cell order is kept
        scores.push(Math.min(1, Math.max(0, (this.cellScore?.[j] as number) / w)));
        outcomes.push((this.cellOutcome?.[j] as number) / w);
        weights.push(w);
      }
      return { scores: Float64Array.from(scores), outcomes: Float64Array.from(outcomes), weights: Float64Array.from(weights) };
    }
    return fail('UM_STATE', 'state', 'mode', "keep entries ('exact' or 'sketch') to list them");
  }

  /** The bins of the slice under the store's spec (fixed bins from their sums; otherwise binned from `entries()`). */
  binsOf(fn: string): Bin[] {
    if (this.mode === 'bins') {
      const b = this.bins;
      if (b === undefined) return [];
      const weight = b.weight.map((s) => s.value());
      const total = new ExactSum();
      for (const s of b.weight) total.addSum(s);
      return binsFromSums(this.lower as Float64Array, this.upper as Float64Array, b.count, weight, b.score.map((s) => s.value()), b.outcome.map((s) => s.value()), total.value());
    }
    const e = this.entries();
    if (e.scores.length === 0) return [];
    const weighted = this.mode === 'sketch' || e.weights.some((w) => w !== 1);
    const w = weighted ? e.weights : undefined;
    const bins = binStatisticsUnchecked(assignBinsFor(fn, e.scores, this.spec, w), e.scores, e.outcomes, w);
    if (this.mode !== 'sketch') return bins;
    // a bin's count is the number of rows, not of cells
    return this.recount(bins, e.scores);
  }

  /** Replaces the cell counts of sketch bins by row counts (internal). */
  private recount(bins: Bin[], pseudoScores: Float64Array): Bin[] {
    const counts = this.cellCounts as Float64Array;
    const m = this.resolution;
    const perBin = new Float64Array(bins.length);
    let b = 0;
    for (let i = 0; i < pseudoScores.length; i++) {
      const s = pseudoScores[i] as number;
      while (b < bins.length - 1 && s > (bins[b] as Bin).upper) b++;
      perBin[b] = (perBin[b] as number) + (counts[cellOf(s, m)] as number);
    }
    return bins.map((bin, k) => ({ ...bin, count: perBin[k] as number }));
  }

  /**
   * A bound on |raw l1 error of the sketch − raw l1 error of the exact entries| (Σ_b f_b·|gap_b| before any class
   * averaging). Replacing a cell's entries by one pseudo-entry in the same bin keeps every bin's Σ w(o − s). Every
   * sketch bin boundary lies at an edge of the cell that holds the exact cut, so per boundary only the entries of a
   * neighbouring cell g change bin, changing Σ_b |Σ_{i∈b} w_i(o_i − s_i)| by at most 2·D_g, D_g = Σ_{i∈g} w_i|o_i − s_i|.
   * The bound is (2/W)·Σ_boundaries max(D of the cells on either side).
   */
  l1Bound(bins: Bin[]): number {
    if (this.mode !== 'sketch') return 0;
    const dev = this.cellDeviation as Float64Array;
    const cw = this.cellWeight as Float64Array;
    const cells: number[] = [];
    for (let j = 0; j < cw.length; j++) if ((cw[j] as number) > 0) cells.push(dev[j] as number);
    const e = this.entries();
    const total = this.totalWeight();
    let bound = 0;
    let i = 0;
    for (let b = 0; b < bins.length - 1; b++) {
      const upper = (bins[b] as Bin).upper;
      while (i < e.scores.length - 1 && (e.scores[i + 1] as number) <= upper) i++;
      bound += Math.max(cells[i] as number, cells[i + 1] ?? 0);
    }
    return (2 * bound) / total;
  }

  toJSON(): unknown {
    if (this.mode === 'bins') {
      const b = this.bins;
      return b === undefined
        ? null
        : {
            lower: Array.from(this.lower as Float64Array),
            upper: Array.from(this.upper as Float64Array),
            count: Array.from(b.count),
            weight: b.weight.map((s) => s.toJSON()),
            score: b.score.map((s) => s.toJSON()),
            outcome: b.outcome.map((s) => s.toJSON()),
          };
    }
    if (this.mode === 'exact') return { scores: Array.from(this.scores.view()), outcomes: Array.from(this.outcomes.view()), weights: Array.from(this.weights.view()) };
    // columnar (flat arrays of numbers stay compact in memory and in structured clones)
    const cells = { index: [] as number[], count: [] as number[], weight: [] as number[], score: [] as number[], outcome: [] as number[], deviation: [] as number[] };
    const c = this.cellCounts;
    if (c !== undefined) {
      for (let j = 0; j < c.length; j++) {
        if (c[j] === 0) continue;
        cells.index.push(j);
        cells.count.push(c[j] as number);
        cells.weight.push(this.cellWeight?.[j] as number);
        cells.score.push(this.cellScore?.[j] as number);
        cells.outcome.push(this.cellOutcome?.[j] as number);
        cells.deviation.push(this.cellDeviation?.[j] as number);
      }
    }
    return { cells };
  }

  /** Restores a store from {@link toJSON} (shapes checked by the caller's try/catch). */
  static fromJSON(json: unknown, mode: StoreMode, spec: BinningSpec, resolution: number): SliceStore {
    const s = new SliceStore(mode, spec, resolution);
    if (json === null) return s;
    const j = json as Record<string, unknown[]>;
    if (mode === 'bins') {
      type SumJson = { partials: number[]; special: number | string };
      s.lower = Float64Array.from(j.lower as number[]);
      s.upper = Float64Array.from(j.upper as number[]);
      s.bins = {
        count: Float64Array.from(j.count as number[]),
        weight: (j.weight as SumJson[]).map(ExactSum.fromJSON),
        score: (j.score as SumJson[]).map(ExactSum.fromJSON),
        outcome: (j.outcome as SumJson[]).map(ExactSum.fromJSON),
      };
      if (s.lower.length !== s.bins.count.length) throw new Error('bin arrays differ in length');
      return s;
    }
    if (mode === 'exact') {
      const scores = j.scores as number[];
      const outcomes = j.outcomes as number[];
      const weights = j.weights as number[];
      if (scores.length !== outcomes.length || scores.length !== weights.length) throw new Error('entry arrays differ in length');
      scores.forEach((x, i) => {
        s.scores.push(x);
        s.outcomes.push(outcomes[i] as number);
        s.weights.push(weights[i] as number);
      });
      return s;
    }
    s.ensureCells();
    const cells = (j as unknown as { cells: Record<'index' | 'count' | 'weight' | 'score' | 'outcome' | 'deviation', number[]> }).cells;
    const g = (s.cellCounts as Float64Array).length;
    cells.index.forEach((k, i) => {
      if (!Number.isInteger(k) || k < 0 || k >= g) throw new Error(`cell ${k} out of range`);
      (s.cellCounts as Float64Array)[k] = cells.count[i] as number;
      (s.cellWeight as Float64Array)[k] = cells.weight[i] as number;
      (s.cellScore as Float64Array)[k] = cells.score[i] as number;
      (s.cellOutcome as Float64Array)[k] = cells.outcome[i] as number;
      (s.cellDeviation as Float64Array)[k] = cells.deviation[i] as number;
    });
    return s;
  }
}
