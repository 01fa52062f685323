import type { CustomStore, JsonPath, Store } from '../accumulate/store.js';
import type { FixedSpec } from '../accumulate/fixedBins.js';
import type { BinningSpec } from '../binning/types.js';
import type { LabeledBatch } from '../input/types.js';
import type { WeightRules } from '../input/weights.js';
import type { RowStatsMode } from '../kernels/rowStatsTypes.js';
import type { SelectionSpec } from '../select/selectPairs.js';
import type { UMWarning } from '../warnings/warnings.js';

/** Exact (keeps what it must) or bounded memory (a fine fixed grid, with proven error bounds) for order-based metrics. */
export type StateMode = 'exact' | 'bounded';

/** One validated batch: probabilities, labels and weights (all > 0; scaled, see `WeightOptions`). */
export type Batch = LabeledBatch;

/**
 * What a metric needs kept, as plain data (functions aside): the planner gives requests with equal keys one shared
 * store, so metrics that bin the same pairs the same way share one binning, and metrics that rank the same pairs
 * share one kept copy.
 */
export type StoreRequest =
  /** Fixed bins of selected pairs (equal-width rules, user edges). */
  | { readonly kind: 'fixed-bins'; readonly selection: SelectionSpec; readonly spec: FixedSpec }
  /**
   * Every selected pair (exact mode of order-based metrics); `binning`: how the metric will bin them (a hint, so that
   * the class-wise binnings of one batch are computed in one sweep; stores are shared whatever it says).
   */
  | { readonly kind: 'entries'; readonly selection: SelectionSpec; readonly binning?: BinningSpec }
  /** Selected pairs on the bounded grid (bounded mode); `offset` shifts scores of [−offset, 1 − offset] into [0, 1]. */
  | { readonly kind: 'grid'; readonly selection: SelectionSpec; readonly cellBits: number; readonly offset?: number }
  /** A weighted mean of one value per row; `key` names the values (equal keys, equal values). */
  | { readonly kind: 'mean'; readonly key: string; readonly values: (batch: Batch, fn: string) => Float64Array }
  /** Every row (exact mode only): metrics recomputed on them. */
  | { readonly kind: 'rows' }
  /** A metric's own sufficient statistics (e.g. the Brier decomposition's O(C²) sums), made and read by it. */
  | {
      readonly kind: 'custom';
      readonly key: string;
      make(numClasses: number): CustomStore;
      load(json: unknown, at: JsonPath, numClasses: number): CustomStore;
    };

/** What a metric's `finish` may use besides its stores. */
export interface FinishContext {
  /** The public function (or state method) named in errors and warnings. */
  readonly fn: string;
  readonly numClasses: number;
  readonly mode: StateMode;
  /** Whether any batch carried sample weights. */
  readonly weighted: boolean;
  /** Emits a warning through the caller's `onWarning` (or the global handler). */
  warn(warning: UMWarning): void;
}

/**
 * The one definition of a metric: its options, how they resolve to a plain-JSON configuration (presets applied, every
 * default made explicit), what it keeps, how it finishes and — in bounded mode — its proven error bound. The public
 * function, the mergeable state, its JSON, `evaluate`'s entry, the streamed and threaded forms and the SQL finisher
 * are all derived from it (internal).
 */
export interface MetricDefinition<C = unknown, R = unknown> {
  /** The public name (`'ece'`), also the state's metric name. */
  readonly name: string;
  /** Option keys beyond the input options, `weights` and `onWarning`. */
  readonly keys: readonly string[];
  /** Validates options and resolves them to a plain-JSON configuration; throws `UM_OPTION`. */
  resolve(fn: string, options: Readonly<Record<string, unknown>>): C;
  /** Row statistics the validating pass should compute (Σp² for Brier, Σp·ln p for entropies). */
  statsMode?(config: C): RowStatsMode;
  /** What the weights must be (whole numbers for metrics that count samples). */
  weightRules?(config: C): WeightRules;
  /** Checks a validated batch against the configuration (e.g. a decision threshold needs two classes). */
  checkBatch?(fn: string, config: C, batch: Batch): void;
  /**
   * What to keep; in bounded mode (a grid of `cellBits` mantissa bits), throws `UM_OPTION` when the metric has no
   * proven bound there.
   */
  requests(fn: string, config: C, mode: StateMode, cellBits?: number): readonly StoreRequest[];
  /** The value from the stores of its requests (in their order). */
  finish(config: C, stores: readonly Store[], context: FinishContext): R;
  /**
   * Bound on |value − the exact value| (bounded mode; 0 when every store is exact). Absent: 0 (the metric keeps only
   * exact stores).
   */
  bound?(config: C, stores: readonly Store[], context: FinishContext): number | null;
}
