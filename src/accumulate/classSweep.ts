import type { BinSums } from '../binning/binSums.js';
import { columnBins, type ColumnRequest } from '../binning/columnBins.js';
import { addSortedEqualWidth } from '../binning/columnSums.js';
import { sortedQuantileStatistics } from '../binning/equalMass.js';
import { SELECT_MIN } from '../binning/rankSelect.js';
import type { Bin, BinningSpec } from '../binning/types.js';
import { ColumnBlocks, type ClassColumn, type ColumnChunk } from '../select/classColumns.js';
import { canonicalSort, SCRATCH_MAX, SortScratch } from './canonicalSort.js';
import type { EntryColumns } from './keptEntries.js';
import { orderHint } from './orderHints.js';

/**
 * A store's binnings that one sweep computes, of the class entries above `threshold`: equal-width sums added to
 * `sums(k)` (and the weights seen reported to `weighted`), or quantile bins handed to `keep`.
 */
export interface SweepConsumer {
  readonly threshold: number | null;
  readonly equalWidth?: {
    readonly spec: Extract<BinningSpec, { scheme: 'equal-width' }>;
    readonly sums: (k: number) => BinSums;
    readonly weighted?: (weights: Float64Array, unit: number) => void;
  };
  readonly quantile?: { readonly bins: readonly number[]; readonly keep: (k: number, bins: (Bin[] | null)[]) => void };
}

/** Bin indices of a sorted column (scratch). */
let indexScratch = new Int32Array(0);

/** The sorted entries of one class (scratch). */
const sortScratch = new SortScratch();

/** Whether a binning is one a sweep computes: this library's equal-mass construction. */
export function sweepsQuantile(spec: BinningSpec): spec is Extract<BinningSpec, { scheme: 'equal-mass' }> {
  return spec.scheme === 'equal-mass' && spec.method === 'quantile';
}

/** The first position of ascending `v` above t (0 without a threshold). */
function firstAbove(v: Float64Array, t: number | null): number {
  if (t === null) return 0;
  let lo = 0;
  let hi = v.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((v[mid] as number) > t) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * Class columns binned for several stores in one reading (internal): every class's column is read once (see
 * `ColumnBlocks`) and binned every way the consumers ask — the class-wise SCE, ACE and TACE of one batch cost one pass
 * over the matrix instead of a copy of every entry per metric. Unweighted columns are binned by selection (`columnBins`:
 * float32 columns from one selection for every binning, float64 ones — softmax of logits — one selection per binning,
 * their exact bin sums in the column kernel); weighted ones from one canonical sort, whose suffix above a threshold is the sorted entries above it,
 * binned by the same calls as a store's own sorted entries. Runs once, when a consumer first needs its result.
 */
export class ClassSweep {
  private done = false;

  constructor(
    private readonly chunks: readonly ColumnChunk[],
    private readonly consumers: readonly SweepConsumer[],
  ) {}

  run(): void {
    if (this.done) return;
    this.done = true;
    const blocks = new ColumnBlocks(this.chunks);
    for (let k = 0; k < blocks.numClasses; k++) {
      const col = blocks.column(k);
      if (col.weights === undefined && col.scores.length >= SELECT_MIN) this.selected(k, col);
      else this.sorted(k, col);
    }
  }

  /** A large unweighted column: every binning by selection (see `columnBins`). */
  private selected(k: number, col: ClassColumn): void {
    const requests: ColumnRequest[] = [];
    for (const c of this.consumers) {
      const w = c.equalWidth;
      if (w !== undefined) requests.push({ kind: 'equal-width', threshold: c.threshold, ...w.spec, sums: w.sums(k) });
      for (const bins of c.quantile?.bins ?? []) requests.push({ kind: 'quantile', threshold: c.threshold, bins });
    }
    const results = columnBins(col, requests);
    let at = 0;
    for (const c of this.consumers) {
      if (c.equalWidth !== undefined) at++;
      const q = c.quantile;
      if (q === undefined) continue;
      q.keep(k, results.slice(at, at + q.bins.length) as (Bin[] | null)[]);
      at += q.bins.length;
    }
  }

  /**
   * Any other column (weighted, or small): one canonical sort, whose suffix above a threshold is the sorted
   * entries above it; equal-mass bins are runs of it (the sorted construction, which the selection's equals).
   */
  private sorted(k: number, col: ClassColumn): void {
    // the resamples of prepared rows: the column's order carried over from the prepared rows' (orderHints.ts)
    const only = this.chunks.length === 1 ? this.chunks[0] : undefined;
    // sorted into scratch: every consumer reads this class's entries before the next class is sorted
    const sorted = canonicalSort(col, only?.threshold === null ? orderHint(only.cols, k) : undefined, sortScratch);
    const memo = new Map<string, Bin[]>();
    const n = sorted.scores.length;
    // kept between columns up to SCRATCH_MAX entries; a larger column's indices are freed with it
    if (indexScratch.length < n && n <= SCRATCH_MAX) indexScratch = new Int32Array(n);
    const index = n <= SCRATCH_MAX ? indexScratch : new Int32Array(n);
    for (const c of this.consumers) {
      const from = firstAbove(sorted.scores, c.threshold);
      const e: EntryColumns = {
        scores: sorted.scores.subarray(from),
        outcomes: sorted.outcomes.subarray(from),
        weights: sorted.weights?.subarray(from),
        unit: sorted.unit,
      };
      const m = e.scores.length;
      const w = c.equalWidth;
      if (w !== undefined && m > 0) {
        const { bins, rule, precision } = w.spec;
        addSortedEqualWidth(w.sums(k), bins, rule, precision, e.scores, e.outcomes, e.weights, index);
        if (e.weights !== undefined) w.weighted?.(e.weights, e.unit);
      }
      const q = c.quantile;
      if (q === undefined) continue;
      q.keep(
        k,
        q.bins.map((b) => {
          if (m === 0) return null;
          // the same entries in the same number of bins (a threshold below every score: TACE is ACE) bin alike
          const key = `${from}|${b}`;
          let bins = memo.get(key);
          // the bins of a store's sorted entries (binnedStores.ts), run by run
          if (bins === undefined)
            memo.set(key, (bins = sortedQuantileStatistics(e.scores, e.outcomes, e.weights, b, e.unit)));
          return bins.slice();
        }),
      );
    }
  }
}
