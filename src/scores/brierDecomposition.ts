import { BrierDecompositionStore } from '../accumulate/brierDecompositionStore.js';
import type { MeanStore } from '../accumulate/meanStore.js';
import type { MetricDefinition } from '../engine/definition.js';
import { runMetric } from '../engine/run.js';
import type { ExactSum } from '../math/exactSum.js';
import { meanOf } from './accuracy.js';
import { BRIER } from './brier.js';
import type { WeightOptions } from '../input/weights.js';
import { fail } from '../errors/fail.js';
import type { InputOptions, Labels, Scores } from '../input/types.js';
import { presetOf } from '../options/binning.js';
import type { BrierDecompositionConvention, PresetName } from '../presets/presets.js';

/** Options of {@link brierDecomposition}. */
export interface BrierDecompositionOptions extends InputOptions, WeightOptions, Partial<BrierDecompositionConvention> {
  /** Compatibility preset: `'uncertainty-metrics'` reproduces Google's `brier_decomposition` exactly. */
  preset?: PresetName;
}

/** Resolves and checks the decomposition's conventions (internal; shared with its state). */
export function resolveBrierDecomposition(
  fn: string,
  options: BrierDecompositionOptions,
): BrierDecompositionConvention {
  const base = presetOf(fn, options.preset).brierDecomposition;
  const config: BrierDecompositionConvention = {
    form: options.form ?? base.form,
    reliability: options.reliability ?? base.reliability,
    resolution: options.resolution ?? base.resolution,
    epsilon: options.epsilon ?? base.epsilon,
  };
  if (config.form !== 'standard' && config.form !== 'minus-one')
    fail('UM_OPTION', fn, 'options.form', `be 'standard' or 'minus-one'`, { value: config.form });
  if (config.reliability !== 'exact' && config.reliability !== 'distance')
    fail('UM_OPTION', fn, 'options.reliability', `be 'exact' or 'distance'`, { value: config.reliability });
  if (config.resolution !== 'correct' && config.resolution !== 'transposed')
    fail('UM_OPTION', fn, 'options.resolution', `be 'correct' or 'transposed'`, { value: config.resolution });
  if (typeof config.epsilon !== 'number' || !Number.isFinite(config.epsilon) || config.epsilon < 0) {
    fail('UM_OPTION', fn, 'options.epsilon', 'be a finite number ≥ 0', { value: config.epsilon });
  }
  return config;
}

/** The three terms, the score they decompose, and the conventions used. */
export interface BrierDecomposition {
  /** Brier score of the climatological forecast p̄ (class frequencies). */
  readonly uncertainty: number;
  /** How far the observed class frequencies of the partition cells lie from p̄ (higher is better). */
  readonly resolution: number;
  /** How far the forecasts lie from their cells' observed frequencies (lower is better). */
  readonly reliability: number;
  /** The Brier score in the same form: uncertainty − resolution + reliability (exactly, with the default conventions). */
  readonly score: number;
  readonly config: BrierDecompositionConvention;
}

/**
 * Decomposition of the Brier score into uncertainty, resolution and reliability over the partition of the examples
 * by predicted class.
 *
 * **Formula.** Partition: cell k holds the rows predicted as class k (argmax), N_k rows, weight w_k = N_k/N;
 * d_kj = #{i ∈ k : y_i = j}/(N_k + ε) is the observed class distribution of cell k; p̄_j = #{i : y_i = j}/N.
 * UNC = Σ_j p̄_j(1 − p̄_j) (form `'minus-one'`: −Σ_j p̄_j²); RES = Σ_k w_k Σ_j (d_kj − p̄_j)²;
 * REL (`'exact'`) = (1/N)·Σ_i [‖p_i − e_{y_i}‖² − ‖d_{k(i)} − e_{y_i}‖²] = BS − BS(d): the Brier score that replacing
 * each forecast by its cell's observed distribution would save. Then BS = UNC − RES + REL exactly (with ε = 0).
 * REL (`'distance'`) = (1/N)·Σ_i ‖p_i − d_{k(i)}‖², which equals the exact term only when forecasts are constant
 * within cells; otherwise BS = UNC − RES + REL_distance + (2/N)·Σ_i ⟨p_i − d_{k(i)}, d_{k(i)} − e_{y_i}⟩.
 *
 * **Conventions.**
 * - Argmax ties → lowest class index. Empty cells have weight 0.
 * - Defaults: form `'standard'`, reliability `'exact'`, resolution `'correct'`, ε = 0 — the terms add up to
 *   `brier(...)` exactly. The exact reliability is the recalibration gain for this partition; it is negative only
 *   when the forecasts within a cell are better than the cell's frequencies (the partition is coarser than the
 *   forecasts' information).
 * - `preset: 'uncertainty-metrics'` reproduces Google's function exactly: form `'minus-one'`, reliability
 *   `'distance'`, ε = 1e-7 and its transposed resolution Σ_k w_k Σ_j (p̄_k − d_kj)² (a broadcasting error,
 *   CONVENTIONS.md §4.9), which does not add up.
 *
 * **References.**
 * - Murphy, "A New Vector Partition of the Probability Score", J. Appl. Meteorology 1973,
 *   doi:10.1175/1520-0450(1973)012<0595:ANVPOT>2.0.CO;2.
 * - Bröcker, "Reliability, sufficiency, and the decomposition of proper scores", Q. J. R. Meteorol. Soc. 2009,
 *   doi:10.1002/qj.456.
 * - Dimitriadis, Gneiting & Jordan, "Stable reliability diagrams for probabilistic classifiers", PNAS 2021,
 *   doi:10.1073/pnas.2016191118 (score = miscalibration − discrimination + uncertainty via recalibration).
 *
 * @param labels N integer labels in [0, C).
 * @param scores [N, C] scores of the declared kind.
 * @param options `form`, `reliability`, `resolution`, `epsilon`, `preset` and input options.
 * @returns `{ uncertainty, resolution, reliability, score, config }`.
 * @throws {UMError} on invalid input or options.
 * @example
 * ```js
 * import { brierDecomposition } from 'uncertainty-metrics';
 * // cell "predicted 0" = rows 0, 1, 3 (labels 0, 0, 1): d = (2/3, 1/3); cell "predicted 1" = row 2 (label 1): d = (0, 1)
 * const d = brierDecomposition([0, 0, 1, 1], [[0.8, 0.2], [0.8, 0.2], [0.3, 0.7], [0.8, 0.2]]);
 * [d.uncertainty, d.resolution, d.reliability, d.score]; // ≈ [0.5, 0.1666666667, 0.0716666667, 0.405]
 * Math.abs(d.uncertainty - d.resolution + d.reliability - d.score) < 1e-15; // => true
 * ```
 */
export function brierDecomposition(
  labels: Labels,
  scores: Scores,
  options: BrierDecompositionOptions = {},
): BrierDecomposition {
  return runMetric(BRIER_DECOMPOSITION, 'brierDecomposition', labels, scores, options);
}

/** The three terms from the store's sums (the one place the decomposition is computed). */
function decompose(
  fn: string,
  store: BrierDecompositionStore,
  cfg: BrierDecompositionConvention,
  score: number,
): BrierDecomposition {
  const n = store.total.value();
  if (!(n > 0)) fail('UM_EMPTY', fn, 'state', 'hold at least one row (call update first)');
  const c = store.numClasses;
  const counts = store.counts.map((s) => s.value());
  const cell = Array.from({ length: c }, (_, k) => counts.slice(k * c, k * c + c).reduce((a, b) => a + b, 0));
  const pbar = Array.from(
    { length: c },
    (_, j) => counts.filter((_, at) => at % c === j).reduce((a, b) => a + b, 0) / n,
  );
  const d = counts.map((v, at) => {
    const denom = (cell[Math.floor(at / c)] as number) + cfg.epsilon;
    return denom === 0 ? 0 : v / denom;
  });
  const sumSq = pbar.reduce((a, b) => a + b * b, 0);
  const uncertainty = cfg.form === 'standard' ? 1 - sumSq : -sumSq;
  let resolution = 0;
  let distance = 0;
  let recal = 0;
  let squares = 0;
  for (let k = 0; k < c; k++) {
    const nk = cell[k] as number;
    const q = (store.squares[k] as ExactSum).value();
    squares += q;
    let dd = 0;
    let sd = 0;
    let cd = 0;
    let s = 0;
    for (let j = 0; j < c; j++) {
      const dkj = d[k * c + j] as number;
      dd += dkj * dkj;
      sd += (store.sums[k * c + j] as ExactSum).value() * dkj;
      cd += (counts[k * c + j] as number) * dkj;
      const ref = cfg.resolution === 'correct' ? (pbar[j] as number) : (pbar[k] as number);
      s += (ref - dkj) ** 2;
    }
    if (nk > 0) resolution += (nk / n) * s;
    distance += q - 2 * sd + nk * dd;
    recal += nk * dd - 2 * cd + nk;
  }
  const bs = squares - 2 * store.own.value() + n;
  const reliability = (cfg.reliability === 'distance' ? distance : bs - recal) / n;
  // the score is the Brier score itself (its exact mean): score and brier() are the same bits
  return { uncertainty, resolution, reliability, score: cfg.form === 'standard' ? score : score - 1, config: cfg };
}

/** The definition of the Brier decomposition (internal; the function and the state derive from it). */
export const BRIER_DECOMPOSITION: MetricDefinition<BrierDecompositionConvention, BrierDecomposition> = {
  name: 'brierDecomposition',
  keys: ['preset', 'form', 'reliability', 'resolution', 'epsilon'],
  resolve: (fn, options) => resolveBrierDecomposition(fn, options as BrierDecompositionOptions),
  statsMode: () => 1,
  requests: () => [
    {
      kind: 'custom',
      key: 'brier-decomposition',
      make: (c) => new BrierDecompositionStore(c),
      load: (json, at, c) => BrierDecompositionStore.fromJSON(json, at, c),
    },
    ...BRIER.requests('brierDecomposition', { form: 'standard' }, 'exact'),
  ],
  finish: (cfg, [store, brier], ctx) =>
    decompose(ctx.fn, store as BrierDecompositionStore, cfg, meanOf(ctx.fn, brier as MeanStore)),
};
