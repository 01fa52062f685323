import { FixedBinsStore, type FixedSpec } from '../accumulate/fixedBins.js';
import { GridStore } from '../accumulate/grid.js';
import { KeptEntriesStore } from '../accumulate/keptEntries.js';
import type { Store } from '../accumulate/store.js';
import { assignBinsFor } from '../binning/assignBins.js';
import { binnedErrorRaw, finishNorm, type Norm } from '../binning/binnedError.js';
import { binStatisticsUnchecked } from '../binning/binStatistics.js';
import { sortedDingStatistics } from '../binning/dingBins.js';
import { equalMassStatistics, sortedQuantileStatistics } from '../binning/equalMass.js';
import { sweepsQuantile } from '../accumulate/classSweep.js';
import type { Bin, BinningSpec } from '../binning/types.js';
import type { StateMode, StoreRequest } from '../engine/definition.js';
import { fail } from '../errors/fail.js';
import type { SelectionSpec } from '../select/selectPairs.js';

/** Mantissa bits of the bounded grid (relative cell width 2^−8 near 0 and 1). */
export const DEFAULT_CELL_BITS = 8;

/** Whether a binning's edges are fixed in advance (equal-width rules, user edges). */
export function isFixed(spec: BinningSpec): spec is FixedSpec {
  return spec.scheme === 'equal-width' || spec.scheme === 'edges';
}

/**
 * What a binned error keeps: fixed bins in every mode; the entries (exact) or the grid (bounded, only where a bound
 * is proven: the l1 norm of equal-mass bins) otherwise (internal).
 */
export function binnedRequest(
  fn: string,
  name: string,
  selection: SelectionSpec,
  spec: BinningSpec,
  norm: Norm,
  mode: StateMode,
  cellBits: number = DEFAULT_CELL_BITS,
): StoreRequest {
  if (isFixed(spec)) return { kind: 'fixed-bins', selection, spec };
  if (mode === 'exact') return { kind: 'entries', selection, binning: spec };
  // the bound is proven for this library's weighted quantile cuts (a peer's construction has no weighted form)
  if (spec.scheme === 'equal-mass' && spec.method === 'quantile' && norm === 'l1')
    return { kind: 'grid', selection, cellBits };
  const what =
    spec.scheme === 'equal-mass' && spec.method !== 'quantile'
      ? `${spec.method} equal-mass bins`
      : `${spec.scheme} bins and the ${norm} norm`;
  return fail(
    'UM_OPTION',
    fn,
    'options.mode',
    `be 'exact' for ${name} with ${what}: no error bound is proven for it on the bounded grid`,
    { value: mode },
  );
}

/** An identity order (the entries of a kept store are sorted already). */
function identity(n: number): Uint32Array {
  const a = new Uint32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  return a;
}

/**
 * The bins of group k of a binned error's store (`null` when the group is empty). `occupied`: the bins without a gap
 * (empty) may be left out — a fixed-bins store then makes none of its (up to 2^20) empty bins; the others return all.
 */
export function binsOfGroup(fn: string, store: Store, spec: BinningSpec, k: number, occupied = false): Bin[] | null {
  if (store instanceof FixedBinsStore) return store.bins(k, occupied);
  if (store instanceof KeptEntriesStore) {
    // class columns: every class binned in one sweep (shared with the other class-wise metrics of a lent batch)
    const swept = store.classBins(k, spec);
    if (swept !== undefined) return swept;
    // the same entries binned alike once for every metric reading them (AECE and AMCE: one Ding binning)
    return store.memoBins(`${k}|${JSON.stringify(spec)}`, () => keptBins(fn, store, spec, k));
  }
  const c = (store as GridStore).cellsOf(k);
  if (c.scores.length === 0) return null;
  // the cells as weighted pseudo-entries at their mean score; a bin's count is its rows, not its cells
  const a = assignBinsFor(fn, c.scores, spec, c.weights, identity(c.scores.length));
  const bins = binStatisticsUnchecked(a, c.scores, c.outcomes, c.weights);
  const rows = new Float64Array(bins.length);
  for (let i = 0; i < c.scores.length; i++)
    rows[a.index[i] as number] = (rows[a.index[i] as number] as number) + (c.counts[i] as number);
  return bins.map((b, j) => ({ ...b, count: rows[j] as number }));
}

/** The bins of group k of kept entries that no sweep bins. */
function keptBins(fn: string, store: KeptEntriesStore, spec: BinningSpec, k: number): Bin[] | null {
  // entries in the canonical order at hand (a streamed file's sorted runs, merged for the ranking metrics anyway):
  // this library's equal-mass bins are runs of them, read without the copies a selection makes (~200 MB for 10^7)
  if (spec.scheme === 'equal-mass' && !(sweepsQuantile(spec) && store.sortedAtHand(k))) {
    // unweighted equal-mass cuts are order statistics and the sums are exact: the entries as they came, unsorted
    const u = store.view(k);
    if (u.scores.length === 0) return null;
    if (u.weights === undefined) return equalMassStatistics(u.scores, u.outcomes, spec.bins, spec.method, u.positives);
  }
  // weighted cuts walk cumulative weights, Ding's bins grow in order: the canonical order
  const e = store.sorted(k);
  if (e.scores.length === 0) return null;
  // this library's equal-mass bins of sorted entries are runs of them, summed run by run (as the class sweep does)
  if (sweepsQuantile(spec)) return sortedQuantileStatistics(e.scores, e.outcomes, e.weights, spec.bins, e.unit);
  // Ding's bins are runs of the sorted entries too: cut and summed in place (~270 MB less for 10^7 entries)
  if (spec.scheme === 'ding') return sortedDingStatistics(e.scores, e.outcomes, e.weights, spec.ding, e.unit);
  const a = assignBinsFor(fn, e.scores, spec, e.weights, identity(e.scores.length), e.unit);
  return binStatisticsUnchecked(a, e.scores, e.outcomes, e.weights);
}

/** Number of groups of a binned error's store. */
export function groupsOf(store: Store): number {
  if (store instanceof FixedBinsStore) return store.groups.length;
  if (store instanceof KeptEntriesStore) return store.groupCount;
  return (store as GridStore).groupCount;
}

/** The raw binned error (before √ for l2) of every group; `null` for an empty group. */
export function rawErrors(fn: string, store: Store, spec: BinningSpec, norm: Norm): (number | null)[] {
  return Array.from({ length: groupsOf(store) }, (_, k) => {
    // the error skips bins without a gap: they need not be made (the same bins with a gap, in the same order)
    const bins = binsOfGroup(fn, store, spec, k, true);
    return bins === null ? null : binnedErrorRaw(bins, norm);
  });
}

/** How the errors of several groups combine: the mean over all groups (an empty one counting 0) or the non-empty ones. */
export type GroupAverage = 'all' | 'non-empty';

/** Combines the raw errors of the groups (one group: its error) and finishes the norm; `UM_EMPTY` when all are empty. */
export function combineGroups(
  fn: string,
  raws: readonly (number | null)[],
  norm: Norm,
  average: GroupAverage,
  what: string,
): number {
  const nonEmpty = raws.reduce<number>((k, raw) => (raw === null ? k : k + 1), 0);
  if (nonEmpty === 0) fail('UM_EMPTY', fn, 'probs', `leave at least one entry to bin (${what})`);
  const divisor = average === 'all' ? raws.length : nonEmpty;
  let acc = 0;
  for (const raw of raws) {
    if (raw === null) continue;
    if (norm === 'max') acc = Math.max(acc, raw);
    else acc += raw / divisor;
  }
  return finishNorm(acc, norm);
}

/**
 * The proven bound of an l1 error of equal-mass bins on the grid, before group averaging: replacing a cell's entries
 * by one pseudo-entry in the same bin keeps every bin's Σ w(o − s); every grid bin boundary lies at an edge of the cell
 * that holds the exact cut, so per boundary only the entries of a neighbouring cell g change bin, changing
 * Σ_b |Σ_{i∈b} w_i(o_i − s_i)| by at most 2·D_g, D_g = Σ_{i∈g} w_i|o_i − s_i|. The bound is
 * (2/W)·Σ_boundaries max(D of the cells on either side), plus the rounding of the float64 cell sums.
 */
export function gridL1Bound(fn: string, store: GridStore, spec: BinningSpec, k: number): number {
  const c = store.cellsOf(k);
  const n = c.scores.length;
  if (n === 0) return 0;
  const bins = binsOfGroup(fn, store, spec, k) as Bin[];
  let total = 0;
  let rows = 0;
  for (let i = 0; i < n; i++) {
    total += c.weights[i] as number;
    rows += c.counts[i] as number;
  }
  let bound = 0;
  let i = 0;
  for (let b = 0; b < bins.length - 1; b++) {
    const upper = (bins[b] as Bin).upper;
    while (i < n - 1 && (c.scores[i + 1] as number) <= upper) i++;
    bound += Math.max(c.deviations[i] as number, c.deviations[i + 1] ?? 0);
  }
  // each cell sum of m terms in [0, W] is off by at most m·2^−53 relative: a margin of 4·rows·2^−53 covers the error
  return (2 * bound) / total + 4 * rows * 2 ** -53;
}

/** The bound of a grouped l1 error on the grid: the groups' bounds averaged as the errors are (0 for exact stores). */
export function groupedGridBound(fn: string, store: Store, spec: BinningSpec, average: GroupAverage): number {
  if (!(store instanceof GridStore)) return 0;
  const bounds: number[] = [];
  for (let k = 0; k < store.groupCount; k++)
    if (store.cellsOf(k).scores.length > 0) bounds.push(gridL1Bound(fn, store, spec, k));
  const divisor = average === 'all' ? store.groupCount : Math.max(1, bounds.length);
  return bounds.reduce((a, b) => a + b, 0) / divisor;
}

/** The weights' scale and whether any weight (times it) is not whole (then weights are relative, not counts). */
export function weightsOf(store: Store): { unit: number; fractional: boolean } {
  if (store instanceof FixedBinsStore) return { unit: store.unit, fractional: store.fractional };
  if (store instanceof KeptEntriesStore) {
    let unit = 1;
    let fractional = false;
    for (let k = 0; k < store.groupCount && !fractional; k++) {
      const e = store.weightsAt(k);
      unit = e.unit;
      if (e.weights !== undefined) fractional = e.weights.some((w) => !Number.isInteger(w * e.unit));
    }
    return { unit, fractional };
  }
  return { unit: 1, fractional: false };
}
