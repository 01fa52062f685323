import type { StateMode } from '../engine/definition.js';
import type { InputOptions } from '../input/types.js';
import type { WarningOptions } from '../warnings/warnings.js';

export type { StateMode };

/** Options of `createState`: the metric's own options (as its function takes them) plus the state's. */
export interface StateOptions extends InputOptions, WarningOptions {
  /**
   * Order-based metrics (equal-mass bins, AUROC, AUPR, AURC): `'exact'` (default) keeps the entries they rank;
   * `'bounded'` keeps a fine fixed grid of cells instead, in O(cells) memory, with a proven `errorBound()` — or
   * refuses a metric that has no proven bound there.
   */
  mode?: StateMode;
  /** Mantissa bits of the bounded grid's cells (1 … 12, default 8: relative width 2^−8 near 0 and 1). */
  cellBits?: number;
  /** Any option of the metric's function (bins, preset, norm, threshold, by, estimator, …). */
  [option: string]: unknown;
}

/** The JSON form of a state: the metric, its options and the accumulated sufficient statistics (version 2). */
export interface StateJSON {
  readonly format: 'uncertainty-metrics/state';
  readonly version: 2;
  readonly metric: string;
  readonly options: Record<string, unknown>;
  readonly mode: StateMode;
  /** Classes of the rows added (null before the first batch, and for metrics of other shapes). */
  readonly numClasses: number | null;
  /** The metric's stores (their shape is the metric's; every field is checked when read back). */
  readonly stores: unknown;
  /** Labelled-probability states: rows added, whether weighted, and the declared kind of the scores. */
  readonly rows?: number;
  readonly weighted?: boolean;
  readonly input?: { readonly input: string; readonly binary: boolean };
}

/** A mergeable, serializable accumulator of one metric; `result()` has the metric's type. */
export interface MetricState<R = unknown> {
  readonly metric: string;
  readonly mode: StateMode;
  /** Classes seen (fixed by the first batch or `options.numClasses`); null before, and for other shapes. */
  readonly numClasses: number | null;
  /**
   * Adds a batch of rows (labels and scores as the metric takes them; `batch.weights` one per row). Ensemble states
   * take members [S, n, C] as `scores` (labels `null` where the metric has none); OoD states take the two sides.
   */
  update(first: unknown, second: unknown, batch?: Record<string, unknown>): MetricState<R>;
  /** Adds another state of the same metric and configuration (`UM_STATE` otherwise, and at once for the state itself). */
  merge(other: MetricState<R>): MetricState<R>;
  /** The metric over every row added so far. */
  result(): R;
  /** Bound on |result() − the exact one-pass value|: 0 when exact, a proven number in mode `'bounded'`. */
  errorBound(): number | null;
  toJSON(): StateJSON;
}
