import { SplitCollector, type CollectPlan, type CollectedClass } from '../accumulate/classHistogram.js';
import { classBinsOf } from '../accumulate/classSplitBins.js';
import type { KeptEntriesStore } from '../accumulate/keptEntries.js';
import type { Bin } from '../binning/types.js';
import { EngineState } from './engineState.js';
import type { MetricState } from './types.js';

/**
 * Two passes over a re-readable source for the class-wise equal-mass bins (ACE, TACE) of a state, instead of keeping
 * all N·C entries (internal; see accumulate/classHistogram.ts). Pass 1: {@link countClassColumns} before the first
 * update, then update and merge as usual (the stores count their entries per bucket). Between the passes:
 * {@link collectPlans} of the merged state. Pass 2: a {@link PassTwo} per chunk over the same rows, merged by
 * concatenating its results; then {@link resolveTwoPass} installs every class's bins — the bits of the one-pass state.
 */

/**
 * The most classes counted in two passes: a class's histogram is 2^17 counts (1 MiB), per store and chunk, so wider
 * files keep their entries in one pass as before.
 */
export const MAX_TWO_PASS_CLASSES = 32;

/** Pass 1: makes the state's class-column stores count (probabilities only; before the first update). */
export function countClassColumns(state: MetricState, numClasses: number): number {
  if (numClasses > MAX_TWO_PASS_CLASSES || !(state instanceof EngineState)) return 0;
  return state.countClassColumns(numClasses).length;
}

/** The counting stores of a merged state, in order. */
function countedStores(state: MetricState): KeptEntriesStore[] {
  return state instanceof EngineState ? state.keptStores().filter((s) => s.histogram !== undefined) : [];
}

/** What pass 2 needs per counting store ([] when there is none: no second pass). */
export function collectPlans(state: MetricState): CollectPlan[] {
  return countedStores(state).map((s) => {
    const h = s.histogram as NonNullable<KeptEntriesStore['histogram']>;
    return { threshold: h.threshold, round: h.round, numClasses: h.numClasses, splits: h.splits(s.quantileBins) };
  });
}

/** Pass 2 over one chunk's rows (unweighted, validated in pass 1). */
export class PassTwo {
  private readonly collectors: SplitCollector[];
  private rows = 0;

  constructor(plans: readonly CollectPlan[]) {
    this.collectors = plans.map((p) => new SplitCollector(p));
  }

  /** Adds n rows of row-major scores [n, C] with their labels. */
  add(n: number, scores: ArrayLike<number>, labels: ArrayLike<number>): void {
    this.rows += n;
    if (this.rows > SplitCollector.MAX_ROWS) throw new Error('PassTwo: a chunk of more than 2^25 rows');
    for (const c of this.collectors) c.add(n, scores, labels);
  }

  /** Per plan, per class: what a chunk contributes (typed arrays: posted between threads as memory). */
  result(): CollectedClass[][] {
    return this.collectors.map((c) => c.result());
  }
}

/**
 * Installs the bins of both passes in the merged state (`chunks`: every chunk's {@link PassTwo.result}). Returns an
 * explanation when the passes disagree (the file changed in between), else undefined.
 */
export function resolveTwoPass(
  state: MetricState,
  plans: readonly CollectPlan[],
  chunks: readonly CollectedClass[][][],
): string | undefined {
  const stores = countedStores(state);
  for (let i = 0; i < stores.length; i++) {
    const store = stores[i] as KeptEntriesStore;
    const h = store.histogram as NonNullable<KeptEntriesStore['histogram']>;
    const plan = plans[i] as CollectPlan;
    const counts = store.quantileBins;
    const perClass: (Bin[] | null)[][] = [];
    for (let k = 0; k < h.numClasses; k++) {
      const parts = chunks.map((c) => (c[i] as CollectedClass[])[k] as CollectedClass);
      const bins = classBinsOf(h, k, plan.splits[k] as Int32Array, parts, counts);
      if (typeof bins === 'string') return bins;
      perClass.push(bins);
    }
    // bins[i][k]: bin count i, class k
    store.resolveClassBins(
      counts,
      counts.map((_, j) => perClass.map((b) => b[j] ?? null)),
    );
  }
  return undefined;
}
