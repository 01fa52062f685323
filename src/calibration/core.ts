import { assignBinsFor } from '../binning/assignBins.js';
import { argsortAscending } from '../binning/numpy.js';
import { binStatisticsUnchecked } from '../binning/binStatistics.js';
import { binnedErrorRaw, finishNorm, type Norm } from '../binning/binnedError.js';
import { resolveBinning, type BinningConfig, type BinningOptions, type BinningScheme } from '../binning/options.js';
import type { Bin, BinningSpec, Precision } from '../binning/types.js';
import { fail } from '../errors/fail.js';
import type { InputOptions, ProbMatrix } from '../input/types.js';
import { weightUnit, type WeightOptions } from '../input/weights.js';
import { topLabel } from '../measures/topLabel.js';
import { rowNormalizedEntropy } from '../measures/normalizedEntropy.js';

/** Options of the general calibration error and its named members. */
export interface CalibrationErrorOptions extends InputOptions, BinningOptions, WeightOptions {
  /** `'l1'` (expected), `'l2'` (root-mean-square) or `'max'` (maximum) over bins. Default `'l1'`. */
  norm?: Norm;
  /**
   * `true` (default): only the top label of each row (its confidence and whether it is correct) — uncertainty_metrics'
   * `max_prob=True`. `false`: every class probability of every row against its one-hot label.
   */
  topLabel?: boolean;
  /** Bin each class separately and average the per-class errors (uncertainty_metrics' `class_conditional`). */
  classConditional?: boolean;
  /** Keep only entries with p > threshold; `null` keeps all (default: the preset's, `null` for `'default'`). */
  threshold?: number | null;
}

/** The options a general calibration error resolved to. Plain JSON; recorded in results. */
export type CalibrationConfig = BinningConfig & {
  norm: Norm;
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

/** What a named member fixes; giving a different value for a fixed option is an error. */
export interface FixedStructure {
  readonly binning?: BinningScheme;
  readonly norm?: Norm;
  readonly topLabel?: boolean;
  readonly classConditional?: boolean;
}

const NORMS: readonly Norm[] = ['l1', 'l2', 'max'];

/** Checks that `options` does not contradict what the named member `fn` fixes. */
export function checkFixed(fn: string, options: object, fixed: FixedStructure, generalFn = 'gce'): void {
  for (const [key, value] of Object.entries(fixed)) {
    const given = (options as Record<string, unknown>)[key];
    if (given !== undefined && given !== value) {
      fail('UM_OPTION', fn, `options.${key}`, `be ${JSON.stringify(value)} or omitted (${fn} fixes it; use ${generalFn} to change it)`, {
        value: given,
      });
    }
  }
}

function bool(fn: string, argument: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') fail('UM_OPTION', fn, argument, 'be true or false', { value });
  return value;
}

/** Resolves general-calibration-error options (named members pass what they fix and their defaults). */
export function resolveCalibration(
  fn: string,
  options: CalibrationErrorOptions,
  fixed: FixedStructure = {},
  defaults: { threshold?: number | null } = {},
): ResolvedCalibration {
  checkFixed(fn, options, fixed);
  const merged = { ...options, ...fixed };
  const { spec, config, preset, precision } = resolveBinning(fn, merged, merged.binning === undefined ? 'equal-width' : (merged.binning as BinningScheme));
  const norm = merged.norm ?? 'l1';
  if (!NORMS.includes(norm)) fail('UM_OPTION', fn, 'options.norm', `be one of 'l1', 'l2', 'max'`, { value: norm });
  const top = bool(fn, 'options.topLabel', merged.topLabel, true);
  const cc = bool(fn, 'options.classConditional', merged.classConditional, false);
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
    config: { ...config, norm, topLabel: top, classConditional: cc, threshold },
  };
}

/** Probabilities in the working precision: rounded to float32 when the preset computes in float32. */
export function atPrecision(p: ProbMatrix, precision: Precision): ProbMatrix {
  if (precision === 'float64' || (p.data instanceof Float32Array && p.logData === undefined)) return p;
  // float32 peers compute from float32 probabilities: log-probabilities are recomputed from them
  const { logData: _dropped, ...rest } = p;
  return { ...rest, data: Float32Array.from(p.data) };
}

/** Bins one slice of (score, outcome[, weight]) triples and returns its bins; `unit` is the weights' scale. */
export function sliceBins(fn: string, scores: ArrayLike<number>, outcomes: ArrayLike<number>, spec: BinningSpec, weights?: ArrayLike<number>, ascending?: Uint32Array, unit = weightUnit(weights)): Bin[] {
  return binStatisticsUnchecked(assignBinsFor(fn, scores, spec, weights, ascending, unit), scores, outcomes, weights);
}

/** The (score, outcome[, weight]) entries of one binned slice: one class, or all entries together (internal). */
export interface Slice {
  scores: ArrayLike<number>;
  outcomes: ArrayLike<number>;
  weights: ArrayLike<number> | undefined;
  /** The stable ascending order of `scores`, once some binning has sorted them (shared by later binnings). */
  ascending?: Uint32Array;
  /** The weights' scale (see `WeightOptions`; absent = 1): the binnings that count samples read it. */
  unit?: number;
}

/** Slices of (score, outcome[, weight]) triples grouped by class `group[i]`; `weight(i)` undefined means unweighted. */
function groupSlices(
  numGroups: number,
  n: number,
  group: (i: number) => number,
  score: (i: number) => number,
  outcome: (i: number) => number,
  keep: (s: number) => boolean,
  weight?: (i: number) => number,
): Slice[] {
  if (numGroups === 1) {
    // one slice: fill arrays of n and keep the kept prefix
    const scores = new Float64Array(n);
    const outcomes = new Float64Array(n);
    const weights = weight === undefined ? undefined : new Float64Array(n);
    let m = 0;
    for (let i = 0; i < n; i++) {
      const s = score(i);
      if (!keep(s)) continue;
      scores[m] = s;
      outcomes[m] = outcome(i);
      if (weights !== undefined && weight !== undefined) weights[m] = weight(i);
      m++;
    }
    return [{ scores: scores.subarray(0, m), outcomes: outcomes.subarray(0, m), weights: weights?.subarray(0, m) }];
  }
  // two passes: count each group's kept entries, then fill arrays of exactly that size
  const sizes = new Float64Array(numGroups);
  const groupOf = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const g = keep(score(i)) ? group(i) : -1;
    groupOf[i] = g;
    if (g >= 0) sizes[g] = (sizes[g] as number) + 1;
  }
  const filled = Array.from(sizes, (m) => ({
    scores: new Float64Array(m),
    outcomes: new Float64Array(m),
    weights: weight === undefined ? undefined : new Float64Array(m),
  }));
  const slices: Slice[] = filled;
  const at = new Int32Array(numGroups);
  for (let i = 0; i < n; i++) {
    const g = groupOf[i] as number;
    if (g < 0) continue;
    const slice = filled[g] as (typeof filled)[number];
    const j = at[g] as number;
    at[g] = j + 1;
    slice.scores[j] = score(i);
    slice.outcomes[j] = outcome(i);
    if (slice.weights !== undefined && weight !== undefined) slice.weights[j] = weight(i);
  }
  return slices;
}

/**
 * Averages raw per-class errors or takes their maximum. `over: 'all'` divides by the number of classes (an empty class
 * counts 0); `'non-empty'` averages over the classes that hold at least one entry. The maximum is over non-empty
 * classes either way (an empty class has no bin, so no gap).
 */
export function combineClasses(fn: string, arg: string, raws: (number | null)[], norm: Norm, what: string, over: 'all' | 'non-empty' = 'all'): number {
  const nonEmpty = raws.reduce<number>((k, raw) => (raw === null ? k : k + 1), 0);
  if (nonEmpty === 0) fail('UM_EMPTY', fn, arg, `leave at least one entry to bin (${what})`);
  const divisor = over === 'all' ? raws.length : nonEmpty;
  let acc = 0;
  for (const raw of raws) {
    if (raw === null) continue;
    if (norm === 'max') acc = Math.max(acc, raw);
    else acc += raw / divisor;
  }
  return finishNorm(acc, norm);
}

/**
 * The general calibration error on validated probabilities (uncertainty_metrics' GeneralCalibrationError):
 * choose the entries (top label or all classes, above the threshold), bin them per class or together, and take the
 * norm of the bin gaps.
 */
export function gceCore(fn: string, p0: ProbMatrix, labels: Int32Array, cfg: ResolvedCalibration, w?: Float64Array): number {
  return gceCores(fn, p0, labels, [cfg], w)[0] as number;
}

/**
 * {@link gceCore} for several configurations of the same data, in order: the entries are selected once per distinct
 * selection (top label / class-conditional / threshold / precision) and binned once per distinct binning, then each
 * configuration takes its own norm — so ECE and MCE share their bins, SCE and ACE their entries, AECE and AMCE their
 * Ding bins. The results equal separate {@link gceCore} calls (internal; used by `evaluate`).
 */
export function gceCores(fn: string, p0: ProbMatrix, labels: Int32Array, cfgs: readonly ResolvedCalibration[], w?: Float64Array): number[] {
  const selections = new Map<string, { slices: Slice[]; what: string }>();
  const binned = new Map<string, (Bin[] | null)[]>();
  const key = (cfg: ResolvedCalibration, threshold: number | null) => JSON.stringify([cfg.topLabel, cfg.classConditional, threshold, cfg.precision]);
  return cfgs.map((cfg) => {
    const selection = key(cfg, cfg.threshold);
    let chosen = selections.get(selection);
    if (chosen === undefined) {
      // a thresholded selection is the unthresholded one filtered (with its sort, if one was made)
      const all = cfg.threshold === null ? undefined : selections.get(key(cfg, null));
      chosen = all === undefined ? calibrationSlices(p0, labels, cfg, w) : { slices: all.slices.map((sl) => aboveThreshold(sl, cfg.threshold as number)), what: selectionWhat(cfg.threshold) };
      selections.set(selection, chosen);
    }
    const binning = `${selection}${JSON.stringify(cfg.spec)}`;
    let bins = binned.get(binning);
    if (bins === undefined) {
      const sorts = cfg.spec.scheme === 'equal-mass' && cfg.spec.method === 'quantile';
      bins = chosen.slices.map((sl) => {
        if (sl.scores.length === 0) return null;
        if (sorts) sl.ascending ??= argsortAscending(sl.scores);
        return sliceBins(fn, sl.scores, sl.outcomes, cfg.spec, sl.weights, sorts ? sl.ascending : undefined, sl.unit ?? 1);
      });
      binned.set(binning, bins);
    }
    return errorOfSlices(fn, bins.map((b) => (b === null ? null : binnedErrorRaw(b, cfg.norm))), cfg, chosen.what);
  });
}

/** What a selection keeps, for the empty-selection error. */
function selectionWhat(threshold: number | null): string {
  return threshold === null ? 'no entries' : `entries with p > ${threshold}`;
}

/**
 * The entries of a slice with score > threshold, in the same order; a known ascending order carries over: the kept
 * entries are its last m, renumbered (stable, since renumbering keeps their relative order).
 */
function aboveThreshold(sl: Slice, threshold: number): Slice {
  const { scores, outcomes, weights } = sl;
  const n = scores.length;
  let m = 0;
  for (let j = 0; j < n; j++) if ((scores[j] as number) > threshold) m++;
  const kept: Slice = { scores: new Float64Array(m), outcomes: new Float64Array(m), weights: weights === undefined ? undefined : new Float64Array(m), ...(sl.unit === undefined ? {} : { unit: sl.unit }) };
  const s = kept.scores as Float64Array;
  const o = kept.outcomes as Float64Array;
  const wk = kept.weights as Float64Array | undefined;
  const rank = new Uint32Array(n);
  let k = 0;
  for (let j = 0; j < n; j++) {
    const v = scores[j] as number;
    if (!(v > threshold)) continue;
    rank[j] = k;
    s[k] = v;
    o[k] = outcomes[j] as number;
    if (wk !== undefined && weights !== undefined) wk[k] = weights[j] as number;
    k++;
  }
  if (sl.ascending !== undefined) {
    const asc = new Uint32Array(m);
    for (let i = 0; i < m; i++) asc[i] = rank[sl.ascending[n - m + i] as number] as number;
    kept.ascending = asc;
  }
  return kept;
}

/**
 * The entries a general calibration error bins, grouped into its slices: one slice (unconditional) or one per class
 * (class-conditional), top label or every class, above the threshold — shared by {@link gceCore} and the mergeable
 * states so both bin exactly the same entries (internal).
 */
export function calibrationSlices(p0: ProbMatrix, labels: Int32Array, cfg: Omit<ResolvedCalibration, 'config' | 'spec' | 'norm'>, w?: Float64Array): { slices: Slice[]; what: string } {
  const p = atPrecision(p0, cfg.precision);
  const rowWeight = w === undefined ? undefined : (i: number) => w[i] as number;
  const { n, numClasses: c, data } = p;
  const thr = cfg.threshold;
  const keep = thr === null ? () => true : (s: number) => s > thr;
  const what = selectionWhat(thr);
  if (cfg.topLabel) {
    const { predicted, confidence } = topLabel(p);
    const outcome = (i: number) => (predicted[i] === labels[i] ? 1 : 0);
    const score = (i: number) => confidence[i] as number;
    if (!cfg.classConditional) return { slices: withSliceUnit(groupSlices(1, n, () => 0, score, outcome, keep, rowWeight), w), what };
    return { slices: withSliceUnit(groupSlices(c, n, (i) => predicted[i] as number, score, outcome, keep, rowWeight), w), what };
  }
  return { slices: withSliceUnit(entrySlices(data, labels, n, c, cfg.classConditional, thr, w), w), what };
}

/** Slices of the rows weighted by `w`, with its scale. */
function withSliceUnit(slices: Slice[], w: Float64Array | undefined): Slice[] {
  const unit = weightUnit(w);
  if (unit !== 1) for (const s of slices) s.unit = unit;
  return slices;
}

/**
 * {@link calibrationSlices} for every class of every row (N·C entries), in row-major order, grouped by class or all in
 * one slice, kept when p > threshold — plain loops, no per-entry callbacks. By class, rows are read in blocks of
 * about 64k entries and each class's entries of a block are copied together, so every slice is written sequentially
 * while the block stays in cache (internal).
 */
function entrySlices(data: ArrayLike<number>, labels: Int32Array, n: number, c: number, byClass: boolean, thr: number | null, w?: Float64Array): Slice[] {
  const sizes = new Int32Array(byClass ? c : 1);
  if (thr === null) sizes.fill(byClass ? n : n * c);
  else {
    for (let e = 0; e < n * c; e++) {
      if (!((data[e] as number) > thr)) continue;
      const g = byClass ? e % c : 0;
      sizes[g] = (sizes[g] as number) + 1;
    }
  }
  const filled = Array.from(sizes, (m) => ({ scores: new Float64Array(m), outcomes: new Float64Array(m), weights: w === undefined ? undefined : new Float64Array(m) }));
  const at = new Int32Array(sizes.length);
  const block = byClass ? Math.max(1, Math.floor(65536 / c)) : n;
  for (let i0 = 0; i0 < n; i0 += block) {
    const i1 = Math.min(n, i0 + block);
    for (let g = 0; g < sizes.length; g++) {
      const { scores, outcomes, weights } = filled[g] as (typeof filled)[number];
      let j = at[g] as number;
      // by class: column g of the block; together: every entry of the block, row by row
      const k0 = byClass ? g : 0;
      const k1 = byClass ? g + 1 : c;
      for (let i = i0; i < i1; i++) {
        const y = labels[i] as number;
        for (let k = k0; k < k1; k++) {
          const s = data[i * c + k] as number;
          if (thr !== null && !(s > thr)) continue;
          scores[j] = s;
          outcomes[j] = y === k ? 1 : 0;
          if (weights !== undefined && w !== undefined) weights[j] = w[i] as number;
          j++;
        }
      }
      at[g] = j;
    }
  }
  return filled;
}

/**
 * The error from the raw errors of the slices: the one slice's, or the class combination — over all classes, or over
 * the non-empty ones with `classAverage: 'predicted-classes'` (internal).
 */
export function errorOfSlices(fn: string, raws: (number | null)[], cfg: { norm: Norm; classConditional: boolean; classAverage?: UceClassAverage | null }, what: string): number {
  if (!cfg.classConditional) {
    const raw = raws[0] ?? null;
    if (raw === null) fail('UM_EMPTY', fn, 'probs', `leave at least one entry to bin (${what})`);
    return finishNorm(raw, cfg.norm);
  }
  return combineClasses(fn, 'probs', raws, cfg.norm, what, cfg.classAverage === 'predicted-classes' ? 'non-empty' : 'all');
}

/** The raw binned error of one slice, `null` when it is empty (internal). */
export function rawOf(fn: string, s: Slice, cfg: { spec: BinningSpec; norm: Norm }): number | null {
  return s.scores.length === 0 ? null : binnedErrorRaw(sliceBins(fn, s.scores, s.outcomes, cfg.spec, s.weights, undefined, s.unit ?? 1), cfg.norm);
}

/**
 * How a class-wise UCE averages the per-class errors UCE(c) (each over the rows predicted as c):
 * - `'all-classes'`: (1/C)·Σ_{c=1..C} UCE(c), the formula of the UCE paper (seed 000, §7.3); a class that no row
 *   predicts has no rows and no bins, and counts 0 (the paper leaves it undefined).
 * - `'predicted-classes'`: (1/|K|)·Σ_{c∈K} UCE(c) over the set K of classes that at least one row predicts (K is never
 *   empty: every row predicts a class).
 * The two differ only when some class is never predicted: then all-classes = (|K|/C)·predicted-classes (l1 norm).
 */
export type UceClassAverage = 'all-classes' | 'predicted-classes';

const CLASS_AVERAGES: readonly UceClassAverage[] = ['all-classes', 'predicted-classes'];

/** Options of the uncertainty calibration error. */
export interface UceOptions extends InputOptions, BinningOptions, WeightOptions {
  /** Norm over bins (default `'l1'`, the UCE; `'max'` gives the maximum uncertainty calibration error). */
  norm?: Norm;
  /**
   * Class-wise UCE (default false): bin the rows of each predicted class c separately, UCE(c), and average over classes
   * as `classAverage` says.
   */
  classwise?: boolean;
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
  const classwise = bool(fn, 'options.classwise', options.classwise, false);
  let classAverage: UceClassAverage | null = null;
  if (options.classAverage !== undefined) {
    if (!classwise) fail('UM_OPTION', fn, 'options.classAverage', 'be omitted unless classwise is true (it says how class-wise UCEs are averaged)', { value: options.classAverage });
    if (!CLASS_AVERAGES.includes(options.classAverage)) fail('UM_OPTION', fn, 'options.classAverage', `be one of ${CLASS_AVERAGES.map((a) => `'${a}'`).join(', ')}`, { value: options.classAverage });
    classAverage = options.classAverage;
  } else if (classwise) classAverage = 'all-classes';
  return { spec, precision, norm, classwise, classAverage, config: { ...config, norm, classwise, classAverage } };
}

/** Normalized entropy and top-1 error of every row, the pairs the UCE bins. */
export function uncertaintyPairs(p: ProbMatrix, labels: Int32Array): { uncertainty: Float64Array; error: Float64Array; predicted: Int32Array } {
  const uncertainty = rowNormalizedEntropy(p);
  const { predicted } = topLabel(p);
  const error = new Float64Array(p.n);
  for (let i = 0; i < p.n; i++) error[i] = predicted[i] === labels[i] ? 0 : 1;
  return { uncertainty, error, predicted };
}

/** The UCE on validated probabilities. */
export function uceCore(fn: string, p0: ProbMatrix, labels: Int32Array, cfg: ResolvedUce, w?: Float64Array): number {
  const slices = uceSlices(p0, labels, cfg, w);
  return errorOfSlices(fn, slices.map((sl) => rawOf(fn, sl, cfg)), { norm: cfg.norm, classConditional: cfg.classwise, classAverage: cfg.classAverage }, 'no rows');
}

/** The (normalized entropy, error) entries of the UCE: one slice, or one per predicted class when class-wise (internal). */
export function uceSlices(p0: ProbMatrix, labels: Int32Array, cfg: { precision: Precision; classwise: boolean }, w?: Float64Array): Slice[] {
  const p = atPrecision(p0, cfg.precision);
  const { uncertainty, error, predicted } = uncertaintyPairs(p, labels);
  const rowWeight = w === undefined ? undefined : (i: number) => w[i] as number;
  const groups = cfg.classwise ? p.numClasses : 1;
  const group = cfg.classwise ? (i: number) => predicted[i] as number : () => 0;
  return withSliceUnit(groupSlices(groups, p.n, group, (i) => uncertainty[i] as number, (i) => error[i] as number, () => true, rowWeight), w);
}
