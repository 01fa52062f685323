import { binnedErrorRaw } from '../binning/binnedError.js';
import { resolveBinning, type BinningConfig, type BinningOptions } from '../options/binning.js';
import type { Bin, BinningSpec, Precision } from '../binning/types.js';
import { fail } from '../errors/fail.js';
import { samplesPerWeight, type WeightOptions } from '../input/weights.js';
import { binInterval, type IntervalMethod } from './binInterval.js';
import type { InputOptions, Labels, Scores } from '../input/types.js';
import type { Store } from '../accumulate/store.js';
import type { MetricDefinition } from '../engine/definition.js';
import { runMetric } from '../engine/run.js';
import { binnedRequest, binsOfGroup, weightsOf } from './binnedStores.js';
import { BINNING_KEYS } from '../errors/checkOptions.js';
import { namedAlias, resolveScored, type Vocabulary } from '../select/vocabulary.js';

/** Options of {@link reliability}. */
export interface ReliabilityOptions extends InputOptions, BinningOptions, WeightOptions, IntervalOptions {
  /**
   * `'top-label'` (default): accuracy vs confidence per bin — the table behind the ECE. `'uncertainty'`: top-1 error
   * vs normalized entropy per bin — the table behind the UCE.
   */
  target?: 'top-label' | 'uncertainty';
  /** Alias of `target`: `'confidence'` = `'top-label'`, `'uncertainty'` = `'uncertainty'`. */
  measure?: 'confidence' | 'uncertainty';
}

/** Per-bin confidence intervals of a reliability table. */
export interface IntervalOptions {
  /** Add an interval for each bin's outcome rate: `'wilson'` (score interval) or `'clopper-pearson'` (exact). */
  interval?: IntervalMethod;
  /** Confidence level of the intervals (default 0.95). */
  level?: number;
}

/** A reliability table: the per-bin statistics behind a binned calibration error, ready to draw. */
export interface ReliabilityTable {
  /** What was binned: `'confidence'` (outcome = correct), `'uncertainty'` (outcome = error) or `'probability'` (binary positive class, outcome = y). */
  readonly measure: 'confidence' | 'uncertainty' | 'probability';
  /** Number of samples. */
  readonly n: number;
  /** Number of classes (2 for binary tables). */
  readonly numClasses: number;
  /** One plain object per bin, lowest scores first; empty bins included with `null` means. */
  readonly bins: Bin[];
  /** Σ_b fraction_b·|gap_b| over these bins: the ECE (confidence) or UCE (uncertainty) with the same options. */
  readonly calibrationError: number;
  /** max_b |gap_b| over non-empty bins (MCE or maximum UCE). */
  readonly maxCalibrationError: number;
  /** The binning the table used (plain JSON). */
  readonly config: BinningConfig;
  /**
   * With `interval`: per bin, the interval of its outcome rate (`null` for an empty bin); the method and level. With
   * weights the counts are weight sums.
   */
  readonly intervals: {
    readonly method: IntervalMethod;
    readonly level: number;
    readonly bounds: ([number, number] | null)[];
  } | null;
}

/**
 * Reliability table: per-bin count, mean score, mean outcome and gap — what a reliability diagram draws and what
 * the ECE (confidence) or the UCE (uncertainty) sums.
 *
 * **Formula.** For each bin B_m: conf(B_m) (or uncert(B_m)), acc(B_m) (or err(B_m)), gap = outcome − score,
 * fraction = |B_m|/N; `calibrationError` = Σ_m fraction_m·|gap_m|.
 *
 * **Conventions.**
 * - Built by the same binning core and the same pairs as {@link ece} / {@link uce}: `calibrationError` equals
 *   `ece(...)` (measure 'confidence') or `uce(...)` (measure 'uncertainty') for the same options.
 * - Default bins: 15 equal-width, b = min(⌊B·s⌋, B − 1) in float64; presets and `binning` as for `gce`.
 * - Empty bins are listed with count 0 and `null` means; they carry no weight.
 * - Confidence: top label, argmax ties → lowest index. Uncertainty: normalized entropy, 0 · ln 0 = 0.
 * - `interval`: per-bin Wilson score or Clopper–Pearson (exact) intervals of the outcome rate at `level` (default
 *   0.95), counts being weight sums with `weights` (rows of weight 0 are left out).
 *
 * **References.**
 * - DeGroot & Fienberg, The Statistician 1983, doi:10.2307/2987588; Niculescu-Mizil & Caruana, ICML 2005,
 *   doi:10.1145/1102351.1102430 (reliability diagrams).
 * - Laves et al., arXiv:1909.13550, Fig. 1 (uncertainty diagrams).
 *
 * @param labels N integer labels in [0, C).
 * @param scores [N, C] scores of the declared kind.
 * @param options `measure`, `interval` and `level`, `weights`, binning options and input options.
 * @returns a {@link ReliabilityTable}.
 * @throws {UMError} on invalid input or options.
 * @example
 * ```js
 * import { reliability } from 'uncertainty-metrics';
 * const t = reliability([0, 1, 1], [[0.9, 0.1], [0.2, 0.8], [0.6, 0.4]], { bins: 4 });
 * t.bins.map((b) => b.count); // => [0, 0, 1, 2]
 * t.bins[3].meanOutcome; // => 1
 * ```
 */
export function reliability(labels: Labels, scores: Scores, options: ReliabilityOptions = {}): ReliabilityTable {
  return runMetric(RELIABILITY, 'reliability', labels, scores, options);
}

/** What a reliability table resolved to (plain JSON). */
export interface ReliabilityConfig {
  readonly measure: 'confidence' | 'uncertainty';
  readonly spec: BinningSpec;
  readonly precision: Precision;
  readonly config: BinningConfig;
  readonly interval: { method: IntervalMethod; level: number } | null;
}

const RELIABILITY_SCORED: Vocabulary = {
  targets: ['top-label', 'uncertainty'],
  groupBys: ['none'],
  fallback: { target: 'top-label', groupBy: 'none' },
  aliases: {
    measure: namedAlias('measure', { confidence: { target: 'top-label' }, uncertainty: { target: 'uncertainty' } }),
  },
};

/** The definition of reliability tables (internal; the function and the state derive from it). */
export const RELIABILITY: MetricDefinition<ReliabilityConfig, ReliabilityTable> = {
  name: 'reliability',
  keys: [...BINNING_KEYS, 'target', 'measure', 'interval', 'level'],
  weightRules: () => ({ finiteTotal: 'the table reports the weight of each bin' }),
  resolve: (fn, options) => {
    // target 'top-label' (alias measure 'confidence') or 'uncertainty'
    const measure =
      resolveScored(fn, options, RELIABILITY_SCORED).target === 'uncertainty' ? 'uncertainty' : 'confidence';
    const { spec, config, precision } = resolveBinning(fn, options as BinningOptions, 'equal-width');
    return { measure, spec, precision, config, interval: resolveInterval(fn, options as IntervalOptions) };
  },
  statsMode: (cfg) => (cfg.measure === 'uncertainty' ? 2 : 0),
  requests: (fn, cfg, mode, cellBits) => [
    binnedRequest(
      fn,
      'reliability',
      {
        target: cfg.measure === 'confidence' ? 'top-label' : 'uncertainty',
        groupBy: 'none',
        threshold: null,
        precision: cfg.precision,
      },
      cfg.spec,
      'max',
      mode,
      cellBits,
    ),
  ],
  finish: (cfg, [store], ctx) => {
    const bins = binsOfGroup(ctx.fn, store as Store, cfg.spec, 0) as Bin[];
    const { unit, fractional } = weightsOf(store as Store);
    let rows = 0;
    let total = 0;
    for (const b of bins) {
      rows += b.count;
      total += b.weight;
    }
    // relative (fractional) weights stand for the rows of weight > 0: n per unit of true weight; counts otherwise
    const samplesPer = fractional ? rows / (total * unit) : 1;
    return table(cfg.measure, rows, ctx.numClasses, unscaled(bins, unit), cfg.config, cfg.interval, samplesPer);
  },
};

/** Reads `interval` and `level` (internal; shared with binaryReliability). */
export function resolveInterval(
  fn: string,
  options: IntervalOptions,
): { method: IntervalMethod; level: number } | null {
  const { interval, level = 0.95 } = options;
  if (interval === undefined) {
    if (options.level !== undefined)
      fail('UM_OPTION', fn, 'options.level', 'be given only with options.interval', { value: level });
    return null;
  }
  if (interval !== 'wilson' && interval !== 'clopper-pearson')
    fail('UM_OPTION', fn, 'options.interval', "be 'wilson' or 'clopper-pearson'", { value: interval });
  if (typeof level !== 'number' || !(level > 0 && level < 1))
    fail('UM_OPTION', fn, 'options.level', 'be a number in (0, 1)', { value: level });
  return { method: interval, level };
}

/** Samples per unit of the given (unscaled) weights, the n of a bin's interval (see `samplesPerWeight`) (internal). */
export function samplesPerTrueWeight(w: Float64Array | undefined, scale: number): number {
  return w === undefined ? 1 : samplesPerWeight(w, scale) / scale;
}

/** Bins of scaled weights with their true weights (`weight · scale`, exact: a power of two) (internal). */
export function unscaled(bins: Bin[], scale: number): Bin[] {
  return scale === 1 ? bins : bins.map((b) => ({ ...b, weight: b.weight * scale }));
}

/** Assembles a table from bins (shared with `binaryReliability`). */
export function table(
  measure: ReliabilityTable['measure'],
  n: number,
  numClasses: number,
  bins: Bin[],
  config: BinningConfig,
  interval: { method: IntervalMethod; level: number } | null = null,
  samplesPer = 1,
): ReliabilityTable {
  return {
    measure,
    n,
    numClasses,
    bins,
    calibrationError: binnedErrorRaw(bins, 'l1'),
    maxCalibrationError: binnedErrorRaw(bins, 'max'),
    config,
    intervals:
      interval === null
        ? null
        : {
            ...interval,
            // n: the samples a bin's weight stands for (its weight with whole-number weights)
            bounds: bins.map((b) =>
              b.meanOutcome === null
                ? null
                : binInterval(
                    interval.method,
                    b.weight * samplesPer * b.meanOutcome,
                    b.weight * samplesPer,
                    interval.level,
                  ),
            ),
          },
  };
}
