import type { Store } from '../accumulate/store.js';
import type { Bin, BinningSpec, Precision } from '../binning/types.js';
import type { MetricDefinition } from '../engine/definition.js';
import { runMetric } from '../engine/run.js';
import { checkCount } from '../errors/checkCount.js';
import { ExactSum } from '../math/exactSum.js';
import { BINNING_KEYS } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import type { InputOptions, Labels, Scores } from '../input/types.js';
import type { WeightOptions } from '../input/weights.js';
import { resolveBinning, type BinningConfig, type BinningOptions } from '../options/binning.js';
import { binnedRequest, binsOfGroup, weightsOf } from './binnedStores.js';
import { resolveInterval, table, unscaled, type IntervalOptions, type ReliabilityTable } from './reliability.js';
import type { IntervalMethod } from './binInterval.js';

/** Options of {@link classwiseReliability}. */
export interface ClasswiseReliabilityOptions extends InputOptions, BinningOptions, WeightOptions, IntervalOptions {
  /** The classes to return, by index, in this order (default: every class). */
  classes?: readonly number[];
}

/** One class of a {@link ClasswiseReliability}. */
export interface ClassReliability {
  /** Class index k. */
  readonly index: number;
  /** Rows labelled k (their weight with `weights`). */
  readonly support: number;
  /** The reliability table of P(class k) against 1[y = k] over every row (`measure: 'probability'`). */
  readonly table: ReliabilityTable;
}

/** Class-wise reliability: one table per class (netcal's per-class reliability diagrams). */
export interface ClasswiseReliability {
  /** Number of rows. */
  readonly n: number;
  /** Number of classes C. */
  readonly numClasses: number;
  /** The classes asked for (every class by default), each with its table. */
  readonly classes: ClassReliability[];
}

/** What a class-wise reliability resolved to (plain JSON). */
interface ClasswiseConfig {
  readonly spec: BinningSpec;
  readonly precision: Precision;
  readonly config: BinningConfig;
  readonly interval: { method: IntervalMethod; level: number } | null;
  readonly classes: number[] | null;
}

/**
 * Class-wise reliability tables: for each class k, the probabilities of class k binned over every row against how
 * often the label is k — the per-class reliability diagrams of netcal and the tables the SCE averages.
 *
 * **Formula.** For class k and bin B_mk of the column p_·k: mean p̄_k(B_mk), frequency ō_k(B_mk) = share of rows
 * labelled k, gap ō − p̄, fraction |B_mk|/N; `table.calibrationError` = Σ_m |B_mk|/N·|gap_mk|, and the mean of these
 * over all C classes is the SCE.
 *
 * **Conventions.**
 * - Built by the same binning core and the same pairs as {@link sce} (all classes, grouped by class, zeros kept):
 *   the mean of `calibrationError` over every class equals `sce(...)` with the same binning and `threshold: null`.
 * - Default bins: 15 equal-width, b = min(⌊B·p⌋, B − 1); every binning option of {@link reliability}.
 * - `interval`: per-bin Wilson or Clopper–Pearson intervals of each bin's frequency at `level` (default 0.95).
 * - `classes` picks and orders the classes returned (e.g. the most frequent ones of a task with many classes);
 *   `support` is each class's number of rows (weight sum with `weights`).
 *
 * **References.**
 * - Kull et al., "Beyond temperature scaling: Obtaining well-calibrated multiclass probabilities with Dirichlet
 *   calibration", NeurIPS 2019, arXiv:1910.12656 (class-wise calibration, class-wise reliability diagrams).
 * - Nixon et al., "Measuring Calibration in Deep Learning", CVPR Workshops 2019, arXiv:1904.01685 (SCE).
 * - Küppers et al., netcal (`ReliabilityDiagram`, per-class diagrams).
 *
 * @param labels N integer labels in [0, C).
 * @param scores [N, C] scores of the declared kind.
 * @param options `classes`, `interval` and `level`, `weights`, binning options and input options.
 * @returns a {@link ClasswiseReliability}.
 * @throws {UMError} on invalid input or options (`classes` not distinct class indices in [0, C); equal-width or edge
 *   bins × classes above 2^20).
 * @example
 * ```js
 * import { classwiseReliability } from 'uncertainty-metrics';
 * const r = classwiseReliability([0, 1, 1], [[0.9, 0.1], [0.2, 0.8], [0.6, 0.4]], { bins: 2 });
 * r.classes.map((c) => c.support); // => [1, 2]
 * r.classes[1].table.bins.map((b) => b.count); // => [2, 1]
 * ```
 */
export function classwiseReliability(
  labels: Labels,
  scores: Scores,
  options: ClasswiseReliabilityOptions = {},
): ClasswiseReliability {
  const r = runMetric(CLASSWISE, 'classwiseReliability', labels, scores, options);
  // each class's rows (or weight) counted from the labels, exactly: a bin's weight × mean frequency is off by an ulp
  const support = Array.from({ length: r.numClasses }, () => new ExactSum());
  const w = options.weights;
  for (let i = 0; i < labels.length; i++)
    (support[Number(labels[i])] as ExactSum).add(w === undefined ? 1 : Number(w[i]));
  return { ...r, classes: r.classes.map((c) => ({ ...c, support: (support[c.index] as ExactSum).value() })) };
}

/** The definition of class-wise reliability tables (internal; the function adds each class's support). */
const CLASSWISE: MetricDefinition<
  ClasswiseConfig,
  Omit<ClasswiseReliability, 'classes'> & { classes: Omit<ClassReliability, 'support'>[] }
> = {
  name: 'classwiseReliability',
  keys: [...BINNING_KEYS, 'interval', 'level', 'classes'],
  weightRules: () => ({ finiteTotal: 'the tables report the weight of each bin' }),
  resolve: (fn, options) => {
    const { spec, config, precision } = resolveBinning(fn, options as BinningOptions, 'equal-width');
    const classes = options.classes;
    if (classes !== undefined) {
      if (!Array.isArray(classes) || classes.length === 0)
        fail('UM_OPTION', fn, 'options.classes', 'be a non-empty array of class indices', { value: classes });
      Array.from(classes as unknown[], (k, i) => checkCount(fn, 'options.classes', k, { min: 0 }, [i]));
      if (new Set(classes).size !== classes.length)
        fail('UM_OPTION', fn, 'options.classes', 'hold each class at most once', { value: classes });
    }
    return {
      spec,
      precision,
      config,
      interval: resolveInterval(fn, options as IntervalOptions),
      classes: classes === undefined ? null : [...(classes as number[])],
    };
  },
  checkBatch: (fn, cfg, batch) => {
    const c = batch.p.numClasses;
    cfg.classes?.forEach((k, i) => {
      if (k >= c) fail('UM_OPTION', fn, 'options.classes', `be class indices in [0, ${c})`, { index: [i], value: k });
    });
  },
  requests: (fn, cfg, mode, cellBits) => [
    binnedRequest(
      fn,
      'classwiseReliability',
      { target: 'all-classes', groupBy: 'class', threshold: null, precision: cfg.precision },
      cfg.spec,
      'max',
      mode,
      cellBits,
    ),
  ],
  finish: (cfg, [store], ctx) => {
    const { unit, fractional } = weightsOf(store as Store);
    const all = Array.from({ length: ctx.numClasses }, (_, k) => k);
    const binsOf = (k: number) => unscaled(binsOfGroup(ctx.fn, store as Store, cfg.spec, k) ?? [], unit);
    // every row is in each class's bins once: the rows and weight of any class are those of the batch
    const first = binsOf(0);
    let rows = 0;
    let total = 0;
    for (const b of first) {
      rows += b.count;
      total += b.weight;
    }
    const samplesPer = fractional ? rows / total : 1;
    return {
      n: rows,
      numClasses: ctx.numClasses,
      classes: (cfg.classes ?? all).map((k) => {
        const bins: Bin[] = k === 0 ? first : binsOf(k);
        return {
          index: k,
          table: table('probability', rows, ctx.numClasses, bins, cfg.config, cfg.interval, samplesPer),
        };
      }),
    };
  },
};
