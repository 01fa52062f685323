import { checkCount, MAX_COUNT } from '../errors/checkCount.js';
import { binaryPairs } from './binaryPairs.js';
import { fail } from '../errors/fail.js';
import { normalQuantile } from '../math/special.js';
import { createRng, type Rng } from '../random/rng.js';
import { checkOptions } from '../errors/checkOptions.js';

/** Options of {@link semiparametricCalibrationError}. */
export interface SemiparametricOptions {
  /** Cross-fitting folds (default 5). */
  folds?: number;
  /** Weight function w(q): `'constant'` (default), `'relative'` 1/max(min(q², (1 − q)²), 0.05), `'chi'` 1/max(q(1 − q), 0.05). */
  weights?: 'constant' | 'relative' | 'chi';
  /** Estimate by the influence function (`true`) or the plug-in statistic (default false, as uncertainty_metrics). */
  orthogonal?: boolean;
  /** Divide the weighted mean by the mean weight (default false). */
  normalize?: boolean;
  /** Candidate kernel precisions in (0, 1e300]; default (linspace(1, 0.1·N, 50)/(max q − min q))². */
  bandwidths?: readonly number[];
  /** Bootstrap resamples for the standard error (default 500). */
  bootstrap?: number;
  /** Two-sided level of the confidence interval (default 0.05 → 95 %). */
  alpha?: number;
  /** Seed for the fold assignment and the bootstrap (default 0). */
  seed?: number;
  /**
   * Frequency weights of the pairs, whole numbers (named apart from `weights`, the peer's weight function): a
   * weight-w pair is repeated w times before folds are drawn, so they may sum to at most 2^20 (the limit of every
   * count). Default 1 each.
   */
  sampleWeights?: ArrayLike<number>;
}

/** Estimate, interval and the choices behind them. */
export interface SemiparametricResult {
  /** RMS calibration error √max(θ̂, 0). */
  readonly value: number;
  /** θ̂, the estimate of the squared L2 calibration error E[(q − E[y | q])²] (can be slightly negative). */
  readonly squared: number;
  /** Bootstrap standard error of θ̂ (squared scale). */
  readonly standardError: number;
  /** [√max(θ̂ − z·se, 0), √max(θ̂ + z·se, 0)], z = Φ⁻¹(1 − α/2). */
  readonly interval: readonly [number, number];
  /** The undersmoothed kernel precision used (the cross-validated one × N^0.08). */
  readonly bandwidth: number;
}

/** Stratified folds: each class's indices shuffled with the seeded source and dealt round-robin. */
function stratifiedFolds(rng: Rng, o: Float64Array, k: number): Int32Array {
  const fold = new Int32Array(o.length);
  for (const cls of [0, 1]) {
    const idx: number[] = [];
    for (let i = 0; i < o.length; i++) if (o[i] === cls) idx.push(i);
    for (let j = idx.length - 1; j > 0; j--) {
      const r = rng.integer(j + 1);
      const t = idx[j] as number;
      idx[j] = idx[r] as number;
      idx[r] = t;
    }
    idx.forEach((i, j) => (fold[i] = j % k));
  }
  return fold;
}

/** One fold's training set: the other folds' probabilities in ascending order, and their residuals y − q. */
interface TrainingSet {
  tq: Float64Array;
  tr: Float64Array;
}

/**
 * The training set of each fold, sorted once: every candidate bandwidth's {@link crossFit} reads the same sorted
 * arrays (sorting them again per candidate was most of this estimator's time; the order, ties included, is the same
 * stable sort's, so every value is the same bit for bit).
 */
function trainingSets(q: Float64Array, y: Float64Array, fold: Int32Array, k: number): TrainingSet[] {
  const n = q.length;
  const sets: TrainingSet[] = [];
  for (let f = 0; f < k; f++) {
    const train: number[] = [];
    for (let i = 0; i < n; i++) if (fold[i] !== f) train.push(i);
    train.sort((a, b) => (q[a] as number) - (q[b] as number));
    sets.push({
      tq: Float64Array.from(train, (i) => q[i] as number),
      tr: Float64Array.from(train, (i) => (y[i] as number) - (q[i] as number)),
    });
  }
  return sets;
}

/**
 * Out-of-fold Nadaraya–Watson estimate of the calibration function: acc(q_i) = q_i + Σ_j K(q_i, q_j)(y_j − q_j)/Σ_j K,
 * K = exp(−σ(q_i − q_j)²), over the training folds. Points further than √(40/σ) contribute < e⁻⁴⁰ and are skipped.
 */
function crossFit(q: Float64Array, fold: Int32Array, sets: readonly TrainingSet[], sigma: number): Float64Array {
  const n = q.length;
  const acc = new Float64Array(n);
  const radius = Math.sqrt(40 / sigma);
  sets.forEach(({ tq, tr }, f) => {
    for (let i = 0; i < n; i++) {
      if (fold[i] !== f) continue;
      const x = q[i] as number;
      let lo = 0;
      let hi = tq.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if ((tq[mid] as number) < x - radius) lo = mid + 1;
        else hi = mid;
      }
      let num = 0;
      let den = 0;
      for (let j = lo; j < tq.length && (tq[j] as number) <= x + radius; j++) {
        const d = (tq[j] as number) - x;
        const w = Math.exp(-sigma * d * d);
        num += w * (tr[j] as number);
        den += w;
      }
      acc[i] = x + (den > 0 ? num / den : 0);
    }
  });
  return acc;
}

/**
 * Semiparametric calibration error (Yadlowsky et al., as in uncertainty_metrics): a debiased, cross-fitted estimate
 * of the L2 calibration error E[(q − E[y | q])²] of binary probabilities, with a confidence interval, and no bins.
 *
 * **Formula.** Fit the calibration function acc(q) = E[y | q] by a Gaussian-kernel smoother on held-out folds, choosing
 * the precision σ among candidates by cross-validated weighted squared error, then undersmoothing σ ← σ·N^0.08.
 * θ̂ = mean(w_i·(q_i − y_i)(q_i − acc_i)) (plug-in), or mean(w_i·(q_i − acc_i)(q_i + acc_i − 2y_i)) (orthogonal);
 * se = standard deviation of B bootstrap means of the latter; value = √max(θ̂, 0).
 *
 * **Conventions.**
 * - Binary pairs (outcome, probability): P(y = 1) against labels, or the top-label confidence against correctness.
 * - Follows uncertainty_metrics' defaults (5 folds, 50 candidates over (0, 0.1·N]/range, constant weights, plug-in
 *   statistic, 500 bootstrap resamples). Its folds come from scikit-learn's seeded StratifiedKFold and its
 *   bootstrap from numpy's global generator; ours are seeded stratified folds and a seeded bootstrap, so values
 *   agree in distribution, not digit for digit.
 * - The value is the RMS calibration error (square-root scale); `squared` holds θ̂ itself.
 *
 * **References.**
 * - Yadlowsky, Basu & Tian, "A calibration metric for risk scores with survival data", MLHC 2019.
 * - google/uncertainty-metrics `semiparametric_calibration_error`.
 *
 * @param outcomes N outcomes, each 0 or 1.
 * @param probs N probabilities of outcome 1.
 * @param options `folds`, `weights`, `orthogonal`, `normalize`, `bandwidths`, `bootstrap`, `alpha`, `seed`.
 * @returns `{ value, squared, standardError, interval, bandwidth }`.
 * @throws {UMError} on invalid input or options (also when a fold would lack a class).
 * @example
 * ```js
 * import { semiparametricCalibrationError } from 'uncertainty-metrics';
 * // q uniform on a grid; y = 1 exactly when u < q (perfectly calibrated): the estimate is near 0
 * const q = Array.from({ length: 400 }, (_, i) => (i + 0.5) / 400);
 * const y = q.map((p, i) => (((i * 7919) % 400) / 400 < p ? 1 : 0));
 * semiparametricCalibrationError(y, q, { seed: 3 }).value < 0.05; // => true
 * ```
 */
export function semiparametricCalibrationError(
  outcomes: ArrayLike<number>,
  probs: ArrayLike<number>,
  options: SemiparametricOptions = {},
): SemiparametricResult {
  checkOptions('semiparametricCalibrationError', options, [
    'folds',
    'weights',
    'orthogonal',
    'normalize',
    'bandwidths',
    'bootstrap',
    'alpha',
    'seed',
    'sampleWeights',
  ]);
  const fn = 'semiparametricCalibrationError';
  const k = options.folds ?? 5;
  checkCount(fn, 'options.folds', k, { min: 2 });
  const weightsKind = options.weights ?? 'constant';
  if (weightsKind !== 'constant' && weightsKind !== 'relative' && weightsKind !== 'chi')
    fail('UM_OPTION', fn, 'options.weights', `be 'constant', 'relative' or 'chi'`, { value: weightsKind });
  const boot = options.bootstrap ?? 500;
  checkCount(fn, 'options.bootstrap', boot, { min: 2 });
  const alpha = options.alpha ?? 0.05;
  if (typeof alpha !== 'number' || !(alpha > 0 && alpha < 1))
    fail('UM_OPTION', fn, 'options.alpha', 'be in (0, 1)', { value: alpha });
  const pairs = binaryPairs(fn, outcomes, probs, false);
  const { o: y, p: q } =
    options.sampleWeights === undefined ? pairs : repeatPairs(fn, pairs.o, pairs.p, options.sampleWeights);
  const n = q.length;
  let positives = 0;
  for (const v of y) positives += v;
  if (positives < k || n - positives < k) {
    fail('UM_SHAPE', fn, 'outcomes', `hold at least ${k} of each outcome for ${k}-fold cross-fitting`, {
      value: positives,
    });
  }
  let qmin = Infinity;
  let qmax = -Infinity;
  for (const v of q) {
    qmin = Math.min(qmin, v);
    qmax = Math.max(qmax, v);
  }
  if (!(qmax > qmin)) fail('UM_SHAPE', fn, 'probs', 'take at least two different values', { value: qmin });
  let candidates = options.bandwidths;
  if (candidates === undefined) {
    const lo = 1;
    const hi = 0.1 * n;
    candidates = Array.from({ length: 50 }, (_, j) => ((lo + ((hi - lo) * j) / 49) / (qmax - qmin)) ** 2);
  } else {
    if (!Array.isArray(candidates) || candidates.length === 0)
      fail('UM_OPTION', fn, 'options.bandwidths', 'be a non-empty array of positive numbers', { value: candidates });
    // at most 1e300: the chosen precision is undersmoothed by N^0.08, which must stay finite
    for (const [j, c] of candidates.entries())
      if (typeof c !== 'number' || !(c > 0 && c <= 1e300))
        fail('UM_OPTION', fn, 'options.bandwidths', 'be numbers in (0, 1e300]', { index: [j], value: c });
  }
  const w = Float64Array.from(q, (v) =>
    weightsKind === 'constant'
      ? 1
      : weightsKind === 'relative'
        ? 1 / Math.max(Math.min(v * v, (1 - v) ** 2), 0.05)
        : 1 / Math.max(v * (1 - v), 0.05),
  );
  let wMean = 0;
  for (const v of w) wMean += v;
  wMean /= n;
  const rng = createRng(fn, options.seed ?? 0);
  const fold = stratifiedFolds(rng, y, k);
  const sets = trainingSets(q, y, fold, k);

  let best = Infinity;
  let bestSigma = candidates[0] as number;
  for (const sigma of candidates) {
    const acc = crossFit(q, fold, sets, sigma);
    let err = 0;
    for (let i = 0; i < n; i++) err += ((w[i] as number) / wMean) * ((acc[i] as number) - (y[i] as number)) ** 2;
    err /= n;
    if (err < best) {
      best = err;
      bestSigma = sigma;
    }
  }
  const sigma = bestSigma * n ** 0.08;
  const acc = crossFit(q, fold, sets, sigma);
  const stat = new Float64Array(n);
  const infl = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const qi = q[i] as number;
    const ai = acc[i] as number;
    const yi = y[i] as number;
    stat[i] = (qi - yi) * (qi - ai);
    infl[i] = (qi - ai) * (qi + ai - 2 * yi);
  }
  const weightedMean = (v: Float64Array, idx?: Int32Array): number => {
    let s = 0;
    let ws = 0;
    for (let j = 0; j < n; j++) {
      const i = idx === undefined ? j : (idx[j] as number);
      s += (v[i] as number) * (w[i] as number);
      ws += w[i] as number;
    }
    return options.normalize === true ? s / ws : s / n;
  };
  const theta = weightedMean(options.orthogonal === true ? infl : stat);
  const reps = new Float64Array(boot);
  const idx = new Int32Array(n);
  for (let b = 0; b < boot; b++) {
    for (let j = 0; j < n; j++) idx[j] = rng.integer(n);
    reps[b] = weightedMean(infl, idx);
  }
  let rm = 0;
  for (const v of reps) rm += v;
  rm /= boot;
  let rv = 0;
  for (const v of reps) rv += (v - rm) ** 2;
  const se = Math.sqrt(rv / boot);
  const z = -normalQuantile(alpha / 2);
  return {
    value: Math.sqrt(Math.max(theta, 0)),
    squared: theta,
    standardError: se,
    interval: [Math.sqrt(Math.max(theta - z * se, 0)), Math.sqrt(Math.max(theta + z * se, 0))],
    bandwidth: sigma,
  };
}

/** Pairs repeated by whole-number frequency weights (internal). */
function repeatPairs(
  fn: string,
  o: ArrayLike<number>,
  p: ArrayLike<number>,
  weights: ArrayLike<number>,
): { o: Float64Array; p: Float64Array } {
  if (weights === null || typeof weights !== 'object' || weights.length !== p.length) {
    fail('UM_SHAPE', fn, 'options.sampleWeights', `have one weight per pair (${p.length})`, {
      value: weights === null || typeof weights !== 'object' ? weights : weights.length,
    });
  }
  let total = 0;
  for (let i = 0; i < p.length; i++) {
    const w = weights[i] as number;
    if (typeof w !== 'number' || !Number.isInteger(w) || w < 0)
      fail('UM_OPTION', fn, 'options.sampleWeights', 'be whole numbers ≥ 0 (a weight-w pair is w copies)', {
        index: [i],
        value: w,
      });
    total += w;
  }
  // the estimator folds and resamples single pairs, so it runs on the Σw pairs the weights stand for: bounded like
  // every count (a sum of 1e15 would otherwise never finish)
  if (total > MAX_COUNT)
    fail(
      'UM_OPTION',
      fn,
      'options.sampleWeights',
      `sum to at most ${MAX_COUNT} (the estimator runs on the pairs the weights stand for)`,
      { value: total },
    );
  const oo: number[] = [];
  const pp: number[] = [];
  for (let i = 0; i < p.length; i++) {
    const w = weights[i] as number;
    for (let j = 0; j < w; j++) {
      oo.push(o[i] as number);
      pp.push(p[i] as number);
    }
  }
  if (pp.length === 0) fail('UM_EMPTY', fn, 'options.sampleWeights', 'not all be 0', { value: 0 });
  return { o: Float64Array.from(oo), p: Float64Array.from(pp) };
}
