import { UMError } from '../errors/UMError.js';
import { checkOptions } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import type { WarningOptions } from '../warnings/warnings.js';
import { EngineState } from './engineState.js';
import { makeState, type StateMetric, type StateResult } from './registry.js';
import type { MetricState, StateJSON, StateOptions } from './types.js';

export { STATE_METRICS, type StateMetric, type StateResult } from './registry.js';
export type { MetricState, StateJSON, StateMode, StateOptions } from './types.js';

/**
 * A mergeable state of a metric: feed it batches with `update`, combine states built elsewhere (other files,
 * workers, machines) with `merge`, store it with `toJSON`/{@link stateFromJSON}, and read the metric with `result`.
 *
 * **Formula.** `result()` equals the metric's function on every row added so far (with the same options). What
 * a state keeps: fixed-edge binned metrics (ECE, MCE, SCE, UCE, `gce` with equal-width or given edges, reliability
 * tables) per slice and bin the count and exact sums Σw, Σw·s, Σw·o — O(bins × classes); Brier, NLL and accuracy
 * the exact sums Σw·v and Σw; the Brier decomposition per predicted class k the label weights, Σw·p_k· and
 * Σw·‖p‖², and Σw·p_y — O(classes²). Curves (`rocCurve`, `precisionRecallCurve`, `riskCoverageCurve`,
 * `rejectionCurve`), `accuracyAtCoverage`, `coverageAtRisk`, `oracleCollaborativeAccuracy` and the bin-free
 * estimators (`mmce`, `debiasedEce`, `smoothEce`, `bayesianEce`) keep the rows (exact mode only; their own options
 * are checked when `result()` runs them). Ensemble states take members [S, n, C] per batch and keep exact sums:
 * `ensembleNll`, `gibbsNll`, and `modelUncertainty` — the means of total, expected-data and mutual-information
 * uncertainty over rows. Metrics of other shapes keep their rows too (exact mode only; values checked at `result()`):
 * binary pairs (`binaryCalibrationError`, `binaryReliability`, `binaryBrier`, `semiparametricCalibrationError`:
 * `update(outcomes, probs)`), ensemble diversity and `evaluateEnsemble` (`update(labels | null, members [S][n][C])`),
 * and `negativeWaic`, `iscv` (`update(null, logLikelihood [n][M])`). `crps` keeps the exact sums of its per-example
 * scores (`update(observations, forecast)`); `oodAuroc`, `fprAtTpr`, `oodCurve` keep both sides' samples
 * (`update(inDistribution, outOfDistribution, { weights: { inDistribution, outOfDistribution } })`, either side may be
 * `null` in a batch). Order-based metrics (equal-mass and adaptive binning: RMSCE, ACE, TACE, AECE, AMCE;
 * AUROC, AUPR, AURC, E-AURC) keep their (score, outcome, weight) entries in mode `'exact'`, or in mode
 * `'bounded'` per slice a grid of 2·(40·2^m + 1) cells by the leading bits of min(x, 1 − x) (m = `cellBits`),
 * binned or ranked as one weighted pseudo-entry per cell.
 *
 * **Conventions.**
 * - A labelled-probability metric's state runs the same definition and stores as its function (`ece(…)` is one batch
 *   through them): sums are exact (a BigInt multiple of 2^−1074, rounded once at `result`) and kept entries are
 *   processed in a canonical order, so the function, `evaluate`, a state fed in any batches and merged in any grouping,
 *   the streamed and threaded forms give bit-identical results.
 * - `merge` refuses the state itself (its rows would count twice) and a state of another metric, configuration or
 *   number of classes (`UM_STATE`); `createState` checks `metric` against the registry's own keys.
 * - `errorBound()`: 0 for exact states. Bounded ranking metrics: the exact value lies between the values with each
 *   cell's correct predictions ranked first and last; the bound is the larger distance to those. Bounded l1
 *   equal-mass errors (ACE, TACE, `gce` l1): (2/W)·Σ over bin boundaries of the larger neighbouring cell weight,
 *   averaged over classes when class-conditional, plus the rounding of the float64 cell sums. Metrics without a proven
 *   bound there (l2/max norms, Ding's bins: RMSCE, AMCE, AECE; curves and estimators that keep rows) refuse mode
 *   `'bounded'` with `UM_OPTION`; the `evaluate` suite reports them `null` with a `UM_W_BOUNDED` warning. The grid's
 *   float64 cell sums may differ in their last bits between merge orders (exact mode never does).
 * - Weights: `update(labels, scores, { weights })`, as every metric's `weights`.
 *
 * **References.**
 * - Neal, "Fast exact summation using small and large superaccumulators", arXiv:1505.05571 (2015) (exact sums by
 *   exponent).
 * - google/uncertainty-metrics stateful `update_state`/`result` metrics.
 *
 * @param metric a {@link StateMetric}.
 * @param options the metric's options plus `mode`, `cellBits`, `onWarning` and input options.
 * @returns a {@link MetricState}.
 * @throws {UMError} `UM_OPTION` for unknown metrics or options (or a mode the metric has no form for); `update` throws
 *   like the metric; `merge` throws `UM_STATE` for another metric, configuration or number of classes.
 * @example
 * ```js
 * import { createState, ece } from 'uncertainty-metrics';
 * const a = createState('ece', { bins: 10 }).update([0, 1], [[0.9, 0.1], [0.2, 0.8]]);
 * const b = createState('ece', { bins: 10 }).update([1], [[0.6, 0.4]]);
 * a.merge(b).result(); // => 0.3
 * ```
 */
export function createState<M extends StateMetric>(metric: M, options: StateOptions = {}): MetricState<StateResult<M>> {
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    fail('UM_OPTION', 'createState', 'options', 'be an object', { value: options });
  return makeState('createState', metric, options) as MetricState<StateResult<M>>;
}

/**
 * Restores a state from its JSON form ({@link MetricState.toJSON}), e.g. one written by another worker or machine.
 *
 * **Formula.** `stateFromJSON(s.toJSON())` holds the same sufficient statistics as `s`: its `result()` and merges are
 * bit-identical (exact sums are stored as their partials, not rounded).
 *
 * **Conventions.** The JSON holds the metric, its options (without functions) and the sufficient statistics; the
 * restored state merges with states of the same configuration. Warning handlers are not stored: pass `onWarning`.
 * Every field is checked — the format and version, the metric (a registered name), the options (as `createState`
 * checks them), the number of classes, and every store: types, lengths, ranges and finiteness — and a bad one is
 * named (`json.stores[0].groups[1].count[3]`).
 *
 * **References.** See {@link createState}.
 *
 * @param json a {@link StateJSON} object (or its `JSON.stringify` text).
 * @param options `onWarning`.
 * @returns the state.
 * @throws {UMError} `UM_STATE` for malformed JSON, another format or version, or any field out of range.
 * @example
 * ```js
 * import { createState, stateFromJSON } from 'uncertainty-metrics';
 * const s = createState('brier').update([0, 1], [[0.8, 0.2], [0.4, 0.6]]);
 * stateFromJSON(JSON.stringify(s)).result(); // ≈ 0.2
 * ```
 */
export function stateFromJSON(json: StateJSON | string, options: WarningOptions = {}): MetricState {
  const fn = 'stateFromJSON';
  checkOptions(fn, options, ['onWarning']);
  let j: unknown;
  try {
    j = typeof json === 'string' ? JSON.parse(json) : json;
  } catch (e) {
    return fail('UM_STATE', fn, 'json', 'be valid JSON', { value: (e as Error).message });
  }
  if (j === null || typeof j !== 'object' || Array.isArray(j))
    return fail('UM_STATE', fn, 'json', 'be an object', { value: j });
  const o = j as Record<string, unknown>;
  if (o.format !== 'uncertainty-metrics/state')
    fail('UM_STATE', fn, 'json.format', "be 'uncertainty-metrics/state'", { value: o.format });
  if (o.version !== 2)
    fail('UM_STATE', fn, 'json.version', 'be 2 (states of earlier versions cannot be read: compute them again)', {
      value: o.version,
    });
  if (o.options === null || typeof o.options !== 'object' || Array.isArray(o.options))
    fail('UM_STATE', fn, 'json.options', 'be an object', { value: o.options });
  let state: ReturnType<typeof makeState>;
  try {
    state = makeState(fn, o.metric, {
      ...(o.options as StateOptions),
      ...(options.onWarning === undefined ? {} : { onWarning: options.onWarning }),
    });
  } catch (e) {
    if (!(e instanceof UMError)) throw e;
    const what = e.details.argument === 'metric' ? 'json.metric' : `json.${e.details.argument ?? 'options'}`;
    throw new UMError('UM_STATE', `${fn}: ${what}: ${e.message.replace(/^[^:]*: /, '')}`, {
      ...e.details,
      fn,
      argument: what,
    });
  }
  if (o.mode !== state.mode)
    fail('UM_STATE', fn, 'json.mode', `be '${state.mode}' (the options' mode)`, { value: o.mode });
  if (state instanceof EngineState) state.load(o);
  else {
    if (o.numClasses !== null)
      fail('UM_STATE', fn, 'json.numClasses', `be null for a '${String(o.metric)}' state`, { value: o.numClasses });
    state.load(o.stores);
  }
  return state;
}

/**
 * A state's form for another thread (internal): {@link MetricState.toJSON}, with an engine state's long number lists
 * as `Float64Array`s so that `postMessage` moves them as memory (a million-row chunk's kept entries as JSON numbers
 * would fill a worker's heap; cli/transferList.ts). {@link stateFromJSON} reads it.
 */
export function transferForm(state: MetricState): StateJSON {
  return state instanceof EngineState ? state.toTransfer() : state.toJSON();
}
