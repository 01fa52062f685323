import { assignBinsFor } from '../binning/assignBins.js';
import { binStatisticsUnchecked } from '../binning/binStatistics.js';
import { type Norm } from '../binning/binnedError.js';
import { resolveBinning, type BinningConfig, type BinningOptions, type BinningScheme } from '../options/binning.js';
import type { Bin, BinningSpec, Precision } from '../binning/types.js';
import { fail } from '../errors/fail.js';
import type { InputOptions } from '../input/types.js';
import { booleanAlias, resolveScored, type Vocabulary } from '../select/vocabulary.js';
import { weightUnit, type WeightOptions } from '../input/weights.js';

/** Options of the general calibration error and its named members. */
export interface CalibrationErrorOptions extends InputOptions, BinningOptions, WeightOptions {
  /** `'l1'` (expected), `'l2'` (root-mean-square) or `'max'` (maximum) over bins. Default `'l1'`. */
  norm?: Norm;
  /**
   * Which pairs are scored: `'top-label'` (default; each row's confidence and whether it is correct —
   * uncertainty_metrics' `max_prob=True`) or `'all-classes'` (every class probability against its one-hot label).
   */
  target?: 'top-label' | 'all-classes';
  /** `'class'`: bin each class separately and average the per-class errors (uncertainty_metrics' `class_conditional`); `'none'` (default). */
  groupBy?: 'none' | 'class';
  /** Alias of `target`: `true` = `'top-label'`, `false` = `'all-classes'`. */
  topLabel?: boolean;
  /** Alias of `groupBy`: `true` = `'class'`, `false` = `'none'`. */
  classConditional?: boolean;
  /** Keep only entries with p > threshold; `null` keeps all (default: the preset's, `null` for `'default'`). */
  threshold?: number | null;
}

/** The options a general calibration error resolved to. Plain JSON; recorded in results. */
export type CalibrationConfig = BinningConfig & {
  norm: Norm;
  target: 'top-label' | 'all-classes';
  groupBy: 'none' | 'class';
  topLabel: boolean;
  classConditional: boolean;
  threshold: number | null;
};

/** Resolved options (internal). */
export interface ResolvedCalibration {
  readonly spec: BinningSpec;
  readonly precision: Precision;
  readonly norm: Norm;
  readonly topLabel: boolean;
  readonly classConditional: boolean;
  readonly threshold: number | null;
  readonly config: CalibrationConfig;
}

/** What a named member fixes; giving a different value for a fixed option (or its alias) is an error. */
export interface FixedStructure {
  readonly binning?: BinningScheme;
  readonly norm?: Norm;
  readonly target?: 'top-label' | 'all-classes';
  readonly groupBy?: 'none' | 'class';
}

/** The calibration errors' vocabulary of what is scored, with `topLabel` and `classConditional` as aliases. */
const SCORED: Vocabulary = {
  targets: ['top-label', 'all-classes'],
  groupBys: ['none', 'class'],
  fallback: { target: 'top-label', groupBy: 'none' },
  aliases: {
    topLabel: booleanAlias('topLabel', 'target', 'top-label', 'all-classes'),
    classConditional: booleanAlias('classConditional', 'groupBy', 'class', 'none'),
  },
};

const NORMS: readonly Norm[] = ['l1', 'l2', 'max'];

/** Checks that `options` does not contradict what the named member `fn` fixes. */
export function checkFixed(fn: string, options: object, fixed: FixedStructure, generalFn = 'gce'): void {
  const o = options as Record<string, unknown>;
  for (const key of ['binning', 'norm'] as const) {
    const value = fixed[key];
    if (value !== undefined && o[key] !== undefined && o[key] !== value) {
      fail(
        'UM_OPTION',
        fn,
        `options.${key}`,
        `be ${JSON.stringify(value)} or omitted (${fn} fixes it; use ${generalFn} to change it)`,
        { value: o[key] },
      );
    }
  }
  // what is scored, given by its name or an alias
  const given = resolveScored(fn, o, SCORED);
  for (const key of ['target', 'groupBy'] as const) {
    const value = fixed[key];
    if (value === undefined || given[key] === value) continue;
    const from = [key, ...(key === 'target' ? ['topLabel'] : ['classConditional'])].find((k) => o[k] !== undefined);
    if (from === undefined) continue;
    fail(
      'UM_OPTION',
      fn,
      `options.${from}`,
      `imply ${key} ${JSON.stringify(value)} or be omitted (${fn} fixes it; use ${generalFn} to change it)`,
      { value: o[from] },
    );
  }
}

/** Resolves general-calibration-error options (named members pass what they fix and their defaults). */
export function resolveCalibration(
  fn: string,
  options: CalibrationErrorOptions,
  fixed: FixedStructure = {},
  defaults: { threshold?: number | null } = {},
): ResolvedCalibration {
  checkFixed(fn, options, fixed);
  const { target: _t, groupBy: _g, topLabel: _l, classConditional: _c, ...rest } = options;
  const merged = {
    ...rest,
    ...(fixed.binning === undefined ? {} : { binning: fixed.binning }),
    ...(fixed.norm === undefined ? {} : { norm: fixed.norm }),
  };
  const { spec, config, preset, precision } = resolveBinning(
    fn,
    merged,
    merged.binning === undefined ? 'equal-width' : (merged.binning as BinningScheme),
  );
  const norm = merged.norm ?? 'l1';
  if (!NORMS.includes(norm)) fail('UM_OPTION', fn, 'options.norm', `be one of 'l1', 'l2', 'max'`, { value: norm });
  const scored = resolveScored(
    fn,
    {
      ...(options as Record<string, unknown>),
      ...(fixed.target === undefined ? {} : { target: fixed.target, topLabel: undefined }),
      ...(fixed.groupBy === undefined ? {} : { groupBy: fixed.groupBy, classConditional: undefined }),
    },
    SCORED,
  );
  const top = scored.target === 'top-label';
  const cc = scored.groupBy === 'class';
  let threshold: number | null;
  if (options.threshold !== undefined) threshold = options.threshold;
  else if (defaults.threshold !== undefined) threshold = defaults.threshold;
  else threshold = preset.threshold;
  if (threshold !== null && (typeof threshold !== 'number' || !Number.isFinite(threshold))) {
    fail('UM_OPTION', fn, 'options.threshold', 'be a finite number or null', { value: threshold });
  }
  return {
    spec,
    precision,
    norm,
    topLabel: top,
    classConditional: cc,
    threshold,
    config: {
      ...config,
      norm,
      target: scored.target as 'top-label' | 'all-classes',
      groupBy: scored.groupBy as 'none' | 'class',
      topLabel: top,
      classConditional: cc,
      threshold,
    },
  };
}

/** Bins one slice of (score, outcome[, weight]) triples and returns its bins; `unit` is the weights' scale. */
export function sliceBins(
  fn: string,
  scores: ArrayLike<number>,
  outcomes: ArrayLike<number>,
  spec: BinningSpec,
  weights?: ArrayLike<number>,
  ascending?: Uint32Array,
  unit = weightUnit(weights),
): Bin[] {
  return binStatisticsUnchecked(assignBinsFor(fn, scores, spec, weights, ascending, unit), scores, outcomes, weights);
}

/**
 * How a class-wise UCE averages the per-class errors UCE(c) (each over the rows predicted as c):
 * - `'all-classes'`: (1/C)·Σ_{c=1..C} UCE(c), the formula of the UCE paper (§7.3); a class that no row
 *   predicts has no rows and no bins, and counts 0 (the paper leaves it undefined).
 * - `'predicted-classes'`: (1/|K|)·Σ_{c∈K} UCE(c) over the set K of classes that at least one row predicts (K is never
 *   empty: every row predicts a class).
 * The two differ only when some class is never predicted: then all-classes = (|K|/C)·predicted-classes (l1 norm).
 */
export type UceClassAverage = 'all-classes' | 'predicted-classes';

const CLASS_AVERAGES: readonly UceClassAverage[] = ['all-classes', 'predicted-classes'];

/** The UCE's vocabulary: its pairs are fixed (normalized entropy vs error), `groupBy` with `classwise` as alias. */
const UCE_SCORED: Vocabulary = {
  targets: ['uncertainty'],
  groupBys: ['none', 'class'],
  fallback: { target: 'uncertainty', groupBy: 'none' },
  aliases: { classwise: booleanAlias('classwise', 'groupBy', 'class', 'none') },
};

/** Options of the uncertainty calibration error. */
export interface UceOptions extends InputOptions, BinningOptions, WeightOptions {
  /** Norm over bins (default `'l1'`, the UCE; `'max'` gives the maximum uncertainty calibration error). */
  norm?: Norm;
  /**
   * Class-wise UCE (default false): bin the rows of each predicted class c separately, UCE(c), and average over classes
   * as `classAverage` says.
   */
  classwise?: boolean;
  /** `'class'`: one UCE per predicted class, averaged as `classAverage` says; `'none'` (default). */
  groupBy?: 'none' | 'class';
  /**
   * With `classwise: true` only: `'all-classes'` (default; the paper's (1/C)·Σ_c UCE(c), a class never predicted
   * counting 0) or `'predicted-classes'` (the mean over the classes some row predicts). See {@link UceClassAverage}.
   */
  classAverage?: UceClassAverage;
}

/** The options a UCE resolved to (`classAverage` is `null` unless class-wise). */
export type UceConfig = BinningConfig & { norm: Norm; classwise: boolean; classAverage: UceClassAverage | null };

/** Resolved UCE options (internal). */
export interface ResolvedUce {
  readonly spec: BinningSpec;
  readonly precision: Precision;
  readonly norm: Norm;
  readonly classwise: boolean;
  readonly classAverage: UceClassAverage | null;
  readonly config: UceConfig;
}

/** Resolves UCE options. */
export function resolveUce(fn: string, options: UceOptions): ResolvedUce {
  const { spec, config, precision } = resolveBinning(fn, options, 'equal-width');
  const norm = options.norm ?? 'l1';
  if (!NORMS.includes(norm)) fail('UM_OPTION', fn, 'options.norm', `be one of 'l1', 'l2', 'max'`, { value: norm });
  // groupBy 'class' (alias classwise: true): one UCE per predicted class, averaged
  const classwise = resolveScored(fn, options as Readonly<Record<string, unknown>>, UCE_SCORED).groupBy === 'class';
  let classAverage: UceClassAverage | null = null;
  if (options.classAverage !== undefined) {
    if (!classwise)
      fail(
        'UM_OPTION',
        fn,
        'options.classAverage',
        'be omitted unless classwise is true (it says how class-wise UCEs are averaged)',
        { value: options.classAverage },
      );
    if (!CLASS_AVERAGES.includes(options.classAverage))
      fail('UM_OPTION', fn, 'options.classAverage', `be one of ${CLASS_AVERAGES.map((a) => `'${a}'`).join(', ')}`, {
        value: options.classAverage,
      });
    classAverage = options.classAverage;
  } else if (classwise) classAverage = 'all-classes';
  return { spec, precision, norm, classwise, classAverage, config: { ...config, norm, classwise, classAverage } };
}
