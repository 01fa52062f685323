import { fail } from '../errors/fail.js';
import type { ProbMatrix } from './types.js';
import { markValidated } from './validated.js';
import { gather, gatherInt } from '../math/gather.js';
import { exponentOf, rescaleExponent, timesPow2, WINDOW } from '../math/pow2.js';
import { rememberRowStats, rowStatsOf } from '../kernels/rowStats.js';
import type { RowStats, RowStatsMode } from '../kernels/rowStatsTypes.js';
import { keptLogRows, logRowsOf, rememberLogRows } from './logRows.js';

/** Options of every function that accepts sample weights. */
export interface WeightOptions {
  /**
   * One non-negative weight per row (frequency weights: a row of weight w counts as w copies of itself; weight 0
   * leaves it out). Default: every row weighs 1.
   *
   * - **Any finite weights**, from subnormal numbers to 1.8e308: when the largest lies outside [2^-100, 2^100], all
   *   are multiplied by one exact power of two that brings it into [1, 2) before any sum is taken (a weight below
   *   2^-1074 times the largest is below float64's resolution and counts as 0); otherwise they are used as given. A
   *   power of two scales every sum exactly, so a metric that is a ratio of weighted sums (ECE, SCE, UCE, Brier, NLL,
   *   AUROC, AUPR, the diversities, …) gives the same result, bit for bit, for the weights times any 2^k.
   * - **Whole numbers are counts, other weights are relative.** Estimators with a sample size inside — equal-mass
   *   cuts at whole samples (RMSCE, ACE, TACE), Ding's bin sizes (AECE, AMCE), the smooth ECE's density floor, the
   *   Bayesian ECE's Dirichlet counts, the standard errors of WAIC and ISCV, reliability intervals — read whole-number
   *   weights as that many samples (a weight-w row is w repeated rows), and weights that are not all whole numbers as
   *   relative weights standing for the rows of weight > 0 (equal weights give the unweighted result; a common
   *   factor changes nothing).
   * - **Metrics that count samples** (AURC's count-based estimators, E-AURC, accuracy at coverage,
   *   oracle-collaborative accuracy, the debiased ECE, the OoD curve) need whole numbers; a tied block of C samples
   *   is summed in closed form, so huge counts (1e300) cost no more time than small ones.
   * - **Results that report weight sums** (reliability tables' bin `weight`, `evaluate`'s `n`, risk–coverage and
   *   rejection points' `count`) need the weights' total to be finite (at most 1.8e308): `UM_OPTION` otherwise.
   * - **Mergeable states** keep exact sums across batches with no common scale: each weight must be 0 or within
   *   [2^-100, 2^100].
   */
  weights?: ArrayLike<number>;
}

/** Validated weights: `w[i] · scale` is row i's weight; `scale` is an exact power of two (1 for ordinary weights). */
export interface ScaledWeights {
  readonly w: Float64Array;
  readonly scale: number;
}

/** What `weightInput` requires and does beyond the common checks (finite, ≥ 0, not all 0). */
export interface WeightRules {
  /** Whole numbers only (metrics that count repeated samples). */
  integer?: boolean;
  /** A weight sum of 0 is allowed (one batch of a mergeable state). */
  allowZeroTotal?: boolean;
  /**
   * Use the weights as given, never scaled (mergeable states: batches must share one scale), and each 0 or within
   * [2^-100, 2^100], so that the exact sums across batches neither overflow nor lose products w·x to underflow.
   */
  exact?: boolean;
  /** The total must be finite (the result reports weight sums); the text says why, in the message. */
  finiteTotal?: string;
  /** Always bring the largest weight into [1, 2), not only outside the window (weights compared with others). */
  normalize?: boolean;
}

/**
 * Validates weights against `n` rows: finite, ≥ 0, not all 0 (and the `rules`). Returns them scaled (see
 * {@link WeightOptions}) with the scale, or `undefined` when none were given (internal).
 */
export function weightInput(
  fn: string,
  weights: unknown,
  n: number,
  rules: WeightRules = {},
): ScaledWeights | undefined {
  if (weights === undefined) return undefined;
  if (weights === null || typeof weights !== 'object' || typeof (weights as { length?: unknown }).length !== 'number') {
    fail('UM_SHAPE', fn, 'options.weights', 'be an array of numbers, one per row', { value: weights });
  }
  const w = weights as ArrayLike<unknown>;
  if (w.length !== n) fail('UM_SHAPE', fn, 'options.weights', `have one weight per row (${n})`, { value: w.length });
  const out = new Float64Array(n);
  let total = 0;
  let max = 0;
  // a Float64Array of valid weights (a bootstrap's resamples) in one monomorphic loop; any other input, or one that
  // fails a check, goes through the generic loop, which names the first bad weight
  const screened = w instanceof Float64Array && screenWeights(w, out, rules.integer === true);
  if (screened) {
    total = SCREENED[0] as number;
    max = SCREENED[1] as number;
  } else
    for (let i = 0; i < n; i++) {
      const v = w[i];
      if (typeof v !== 'number' || !Number.isFinite(v))
        fail('UM_NOT_FINITE', fn, 'options.weights', 'be a finite number', { index: [i], value: v });
      if (v < 0) fail('UM_OPTION', fn, 'options.weights', 'be ≥ 0', { index: [i], value: v });
      if (rules.integer === true && !Number.isInteger(v))
        fail(
          'UM_OPTION',
          fn,
          'options.weights',
          'be whole numbers here (frequency weights: this metric counts repeated samples)',
          { index: [i], value: v },
        );
      out[i] = v + 0; // -0 → 0
      total += v;
      if (v > max) max = v;
    }
  if (total === 0 && rules.allowZeroTotal !== true)
    fail('UM_EMPTY', fn, 'options.weights', 'not all be 0', { value: 0 });
  if (rules.finiteTotal !== undefined && total === Infinity) {
    fail('UM_OPTION', fn, 'options.weights', `have a finite sum (at most 1.8e308): ${rules.finiteTotal}`, {
      value: 'a sum above 1.8e308',
    });
  }
  if (rules.exact === true) {
    const i = Array.prototype.findIndex.call(out, (v: number) => v !== 0 && !(v >= 2 ** -WINDOW && v <= 2 ** WINDOW));
    if (i >= 0) {
      fail(
        'UM_OPTION',
        fn,
        'options.weights',
        'be 0 or within [2^-100, 2^100] (7.9e-31 … 1.27e30) in a mergeable state: its sums are kept exactly across batches, which share no common scale',
        { index: [i], value: w[i] },
      );
    }
    return { w: out, scale: 1 };
  }
  const e = rules.normalize === true && max > 0 ? exponentOf(max) : rescaleExponent(max);
  if (e === 0) return { w: out, scale: 1 };
  for (let i = 0; i < n; i++) out[i] = timesPow2(out[i] as number, -e);
  const scale = timesPow2(1, e);
  UNITS.set(out, scale);
  return { w: out, scale };
}

/** Total and largest weight of {@link screenWeights}. */
const SCREENED = new Float64Array(2);

/**
 * Copies `w` into `out` (−0 → 0) when every weight is finite, ≥ 0 and (with `integer`) whole — the checks of
 * `weightInput`'s loop — with their total and largest in {@link SCREENED}; false at the first weight that is not.
 */
function screenWeights(w: Float64Array, out: Float64Array, integer: boolean): boolean {
  let total = 0;
  let max = 0;
  for (let i = 0; i < w.length; i++) {
    const v = w[i] as number;
    // NaN and −∞ fail v ≥ 0
    if (!(v >= 0 && v < Infinity) || (integer && !Number.isInteger(v))) return false;
    out[i] = v + 0;
    total += v;
    if (v > max) max = v;
  }
  SCREENED[0] = total;
  SCREENED[1] = max;
  return true;
}

/**
 * The scale of scaled weights, kept with the array itself (and carried to the arrays `positiveRows` makes from it),
 * so that code far from the validation — the binnings that count samples — can read it without every metric passing
 * it along. Absent: 1.
 */
const UNITS = new WeakMap<ArrayLike<number>, number>();

/** The scale of weights from {@link weightInput} (1 for weights used as given) (internal). */
export function weightUnit(w: ArrayLike<number> | undefined): number {
  return w === undefined ? 1 : (UNITS.get(w) ?? 1);
}

/**
 * Samples per unit of (scaled) weight, for the estimators with a sample size inside (equal-mass cuts at whole
 * samples, Ding's bin sizes, smooth ECE's density floor, Dirichlet counts, the debiasing n − 1): `unit` when every
 * weight is a whole number of samples (frequency weights, so that a weight-w row is w repeated rows), otherwise
 * N/Σw — relative weights, standing for the N rows of weight > 0 (so equal weights give the unweighted result, and
 * multiplying every weight by a constant changes nothing) (internal).
 */
export function samplesPerWeight(w: ArrayLike<number>, unit: number): number {
  let sum = 0;
  let rows = 0;
  let whole = true;
  for (let i = 0; i < w.length; i++) {
    const v = w[i] as number;
    sum += v;
    if (v > 0) rows++;
    if (whole && !Number.isInteger(v * unit)) whole = false;
  }
  return whole ? unit : rows / sum;
}

/** Marks `w` as weights of scale `unit` (internal; for arrays derived from scaled weights). */
export function withUnit<T extends ArrayLike<number>>(w: T, unit: number): T {
  if (unit !== 1) UNITS.set(w, unit);
  return w;
}

/**
 * {@link weightInput} for the metrics that are ratios of weighted sums: the scaled weights alone (their scale
 * cancels). With `allowZeroTotal` (mergeable states) the weights are used as given (internal).
 */
export function weightArray(fn: string, weights: unknown, n: number, allowZeroTotal = false): Float64Array | undefined {
  return weightInput(fn, weights, n, allowZeroTotal ? { allowZeroTotal, exact: true } : {})?.w;
}

/**
 * The rows of weight > 0 of validated probabilities and labels (the same objects when none is 0) (internal). With
 * `statsMode`, the row statistics of those rows are gathered from the whole matrix's (computed once and kept with it,
 * so the resamples of a bootstrap never recompute them) instead of recomputed on the copy: each row's statistics are
 * its own (the row pass reduces every row alone), so they are the same numbers either way.
 */
export function positiveRows(
  p: ProbMatrix,
  y: Int32Array,
  w: Float64Array | undefined,
  statsMode?: RowStatsMode,
): PositiveRows {
  return keptRows(p, y, w, statsMode).batch;
}

/** The rows {@link positiveRows} gives. */
type PositiveRows = { p: ProbMatrix; y: Int32Array; w: Float64Array | undefined };

/**
 * {@link positiveRows} and which rows it kept: its row j is row `rows[j]` of `p` (`undefined`: every row, the batch
 * is the input itself) (internal). With `statsMode` (the engine's batches) the kept rows' probabilities are copied when
 * first read and each statistic gathered when first read: the same arrays, made only for the metrics that read them.
 */
export function keptRows(
  p: ProbMatrix,
  y: Int32Array,
  w: Float64Array | undefined,
  statsMode?: RowStatsMode,
): { batch: PositiveRows; rows: Int32Array | undefined } {
  if (w === undefined) return { batch: { p, y, w }, rows: undefined };
  const n = w.length;
  let kept = 0;
  for (let i = 0; i < n; i++) if ((w[i] as number) > 0) kept++;
  if (kept === n) return { batch: { p, y, w }, rows: undefined };
  const keep = new Int32Array(kept);
  for (let i = 0, j = 0; i < n; i++) if ((w[i] as number) > 0) keep[j++] = i;
  // the engine's batches (statsMode given) copy the rows' probabilities when first read: a weighting's metrics that
  // read only per-row values and statistics (every one but the class-wise errors) never copy them
  let q: ProbMatrix;
  if (statsMode !== undefined) {
    q = new KeptMatrix(p, keep);
    rememberRowStats(q, gatherRowStats(rowStatsOf(p, statsMode), keep));
  } else q = copiedRows(p, keep);
  // compact log-probabilities (the engine's batches from logits): the same scores, read through the kept rows
  const logRows = logRowsOf(p);
  if (logRows !== undefined) rememberLogRows(q, keptLogRows(logRows, keep));
  return {
    batch: { p: markValidated(q), y: gatherInt(y, keep), w: withUnit(gather(w, keep), weightUnit(w)) },
    rows: keep,
  };
}

/** Rows `keep` of `p`, copied. */
function copiedRows(p: ProbMatrix, keep: Int32Array): ProbMatrix {
  const c = p.numClasses;
  const kept = keep.length;
  const data = p.data instanceof Float32Array ? new Float32Array(kept * c) : new Float64Array(kept * c);
  copyRows(p.data, data, keep, c);
  let logData: Float64Array | undefined;
  if (p.logData !== undefined) copyRows(p.logData, (logData = new Float64Array(kept * c)), keep, c);
  return logData === undefined
    ? { kind: 'probabilities', data, n: kept, numClasses: c, input: p.input, binary: p.binary }
    : { kind: 'probabilities', data, logData, n: kept, numClasses: c, input: p.input, binary: p.binary };
}

/** Rows `keep` of validated probabilities, their arrays copied when first read (internal to the engine's batches). */
class KeptMatrix implements ProbMatrix {
  readonly kind = 'probabilities';
  readonly n: number;
  readonly numClasses: number;
  readonly input: ProbMatrix['input'];
  readonly binary: boolean;
  private copy: ProbMatrix | undefined;

  constructor(
    private readonly from: ProbMatrix,
    private readonly keep: Int32Array,
  ) {
    this.n = keep.length;
    this.numClasses = from.numClasses;
    this.input = from.input;
    this.binary = from.binary;
  }

  get data(): Float64Array | Float32Array {
    return (this.copy ??= copiedRows(this.from, this.keep)).data;
  }

  get logData(): Float64Array | undefined {
    return this.from.logData === undefined ? undefined : (this.copy ??= copiedRows(this.from, this.keep)).logData;
  }
}

/**
 * Copies rows `keep` of a row-major [·, c] array into consecutive rows of `to` — one loop per array type, so that each
 * stays monomorphic (a loop reading either type runs several times slower), and runs of consecutive kept rows (most of
 * a resample's) copied as one block.
 */
function copyRows<T extends Float32Array | Float64Array>(from: T, to: T, keep: Int32Array, c: number): void {
  if (from instanceof Float32Array) copyRuns32(from, to as Float32Array, keep, c);
  else copyRuns64(from as Float64Array, to as Float64Array, keep, c);
}

// two copies of one loop: each sees one array type (a loop over both is polymorphic, slower per element)
function copyRuns32(from: Float32Array, to: Float32Array, keep: Int32Array, c: number): void {
  for (let j = 0; j < keep.length;) {
    const first = keep[j] as number;
    let e = j + 1;
    while (e < keep.length && keep[e] === first + (e - j)) e++;
    for (let a = first * c, b = j * c, end = (first + e - j) * c; a < end; a++, b++) to[b] = from[a] as number;
    j = e;
  }
}

function copyRuns64(from: Float64Array, to: Float64Array, keep: Int32Array, c: number): void {
  for (let j = 0; j < keep.length;) {
    const first = keep[j] as number;
    let e = j + 1;
    while (e < keep.length && keep[e] === first + (e - j)) e++;
    for (let a = first * c, b = j * c, end = (first + e - j) * c; a < end; a++, b++) to[b] = from[a] as number;
    j = e;
  }
}

/**
 * The statistics of rows `keep` (in that order) from those of every row, each column gathered when first read: a
 * resample's metrics read only some of them (the top label's max and argmax; the per-row scores that need Σp² or
 * Σp·ln p read the prepared rows' own, see `RowOrigin.values`).
 */
function gatherRowStats(s: RowStats, keep: Int32Array): RowStats {
  let max: Float64Array | undefined;
  let arg: Int32Array | undefined;
  let min: Float64Array | undefined;
  let sum: Float64Array | undefined;
  let sumSq: Float64Array | undefined;
  let xlogx: Float64Array | undefined;
  // own enumerable accessors, in rowStatsResult's order: the object reads (and compares) as the gathered columns
  return {
    mode: s.mode,
    get max() {
      return (max ??= gather(s.max, keep));
    },
    get arg() {
      return (arg ??= gatherInt(s.arg, keep));
    },
    get min() {
      return (min ??= gather(s.min, keep));
    },
    get sum() {
      return (sum ??= gather(s.sum, keep));
    },
    sumSlack: s.sumSlack,
    get sumSq() {
      return s.sumSq === undefined ? undefined : (sumSq ??= gather(s.sumSq, keep));
    },
    get xlogx() {
      return s.xlogx === undefined ? undefined : (xlogx ??= gather(s.xlogx, keep));
    },
  };
}
