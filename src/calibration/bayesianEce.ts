import { DEFAULT_BINS } from '../presets/presets.js';
import { checkCount } from '../errors/checkCount.js';
import { samplesPerWeight, weightInput, type WeightOptions } from '../input/weights.js';
import { presetOf } from '../options/binning.js';
import { fail } from '../errors/fail.js';
import type { Labels, Scores } from '../input/types.js';
import { normalCdf, normalQuantile } from '../math/special.js';
import type { PresetName } from '../presets/presets.js';
import { createRng, type Rng } from '../random/rng.js';
import { calibrationPairs, type TargetOptions } from './pairs.js';
import { INPUT_KEYS, checkOptions } from '../errors/checkOptions.js';

/** Options of {@link bayesianEce}. */
export interface BayesianEceOptions extends TargetOptions, WeightOptions {
  /** Equal-width bins of the confidence (default 15). */
  bins?: number;
  /** Number of posterior samples (default 500, as uncertainty_metrics); samples × bins ≤ 2^22. */
  samples?: number;
  /** Seed of the random source (default 0): the same seed gives the same samples. */
  seed?: number;
  /** Quantiles to report (default [0.1, 0.5, 0.9]). */
  quantiles?: readonly number[];
  /** `'uncertainty-metrics'` reproduces its two quirks (prior variance width/12; bins weighted by correct mass). */
  preset?: PresetName;
}

/** Posterior summary of the ECE. */
export interface BayesianEceResult {
  /** The posterior samples of the ECE. */
  readonly samples: Float64Array;
  readonly mean: number;
  /** Requested quantiles of the samples (linear interpolation, as numpy), keyed by the quantile. */
  readonly quantiles: Readonly<Record<string, number>>;
}

/** Truncated normal N(μ, σ²) on [lo, hi] by inversion, stable in either tail. */
function truncatedNormal(rng: Rng, mu: number, sigma: number, lo: number, hi: number): number {
  const a = (lo - mu) / sigma;
  const b = (hi - mu) / sigma;
  if (sigma === 0) return Math.min(Math.max(mu, lo), hi); // a posterior of astronomically many samples
  const flip = a > 0; // work in the lower tail, where Φ keeps its precision
  const pa = flip ? normalCdf(-b) : normalCdf(a);
  const pb = flip ? normalCdf(-a) : normalCdf(b);
  if (!(pb > pa)) return Math.min(Math.max(mu, lo), hi);
  const z = normalQuantile(pa + rng.uniform() * (pb - pa));
  const x = mu + sigma * (flip ? -z : z);
  return Math.min(Math.max(x, lo), hi);
}

/**
 * Gamma(count·unit + prior) / unit for counts given in units of `unit` (scaled weights; the shape may exceed
 * float64): drawn directly while the shape is below 2^60, else by its normal approximation shape + √shape·Z, whose
 * error (skewness 2/√shape < 2^-29 of a standard deviation that is itself < 2^-30 of the mean) float64 cannot show.
 */
function scaledGamma(rng: Rng, count: number, prior: number, unit: number): number {
  const shape = count * unit + prior;
  if (shape <= 2 ** 60) return rng.gamma(shape) / unit;
  const mean = count + prior / unit;
  return mean + Math.sqrt(mean / unit) * rng.normal();
}

/** Linear-interpolation quantile of sorted values (numpy's default). */
function quantileOf(sorted: Float64Array, q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return (sorted[lo] as number) + ((sorted[hi] as number) - (sorted[lo] as number)) * (pos - lo);
}

/**
 * Bayesian ECE: posterior samples of the expected calibration error, so that its sampling uncertainty is visible.
 *
 * **Formula.** Bins b of the confidence (equal width, B bins), correctness z. Joint cell probabilities
 * π ∼ Dirichlet(m_zb + 1/B) over the 2B cells (z, b); per-bin mean confidence p̃_b ∼ TruncatedNormal(μ_n, σ_n²) on the
 * bin, with prior N(c_b, σ₀²), c_b the bin centre, likelihood N(p̄_b, σ²/n_b), σ₀² = σ² = w²/12 (w = 1/B):
 * σ_n² = 1/(n_b/σ² + 1/σ₀²), μ_n = σ_n²(c_b/σ₀² + n_b p̄_b/σ²). Each sample: ECE = Σ_b (π_0b + π_1b)·|π_1b/(π_0b + π_1b) − p̃_b|.
 *
 * **Conventions.**
 * - Seeded: the same `seed` gives the same samples on the same JavaScript engine.
 * - Bins: b = min(⌊B·c⌋, B − 1) in float64. Top label by default.
 * - Corrected by default; `preset: 'uncertainty-metrics'` reproduces uncertainty_metrics' σ₀² = σ² = w/12 (not w²/12)
 *   and its weighting of bins by their share of the correct mass π_1b/Σ_b′ π_1b′ instead of π_0b + π_1b. Its random
 *   streams (TensorFlow's) cannot be reproduced, so compare distributions, not samples.
 *
 * **References.**
 * - google/uncertainty-metrics `bayesian_expected_calibration_error` and its README.
 * - Vaicenavicius et al., "Evaluating model calibration in classification", AISTATS 2019, arXiv:1902.06977 (why the
 *   ECE needs its sampling distribution).
 *
 * @param labels N integer labels.
 * @param scores [N, C] scores of the declared kind.
 * @param options `bins`, `samples`, `seed`, `quantiles`, `preset`, `target` and input options.
 * @returns `{ samples, mean, quantiles }`.
 * @throws {UMError} on invalid input or options.
 * @example
 * ```js
 * import { bayesianEce } from 'uncertainty-metrics';
 * // confidence 0.6 everywhere, accuracy 0.75: the plug-in ECE is 0.15
 * const labels = Array.from({ length: 400 }, (_, i) => (i < 100 ? 1 : 0));
 * const r = bayesianEce(labels, labels.map(() => [0.6, 0.4]), { seed: 1 });
 * r.samples.length; // => 500
 * Math.abs(r.quantiles['0.5'] - 0.15) < 0.03; // => true
 * ```
 */
export function bayesianEce(labels: Labels, scores: Scores, options: BayesianEceOptions = {}): BayesianEceResult {
  checkOptions('bayesianEce', options, INPUT_KEYS, [
    'target',
    'bins',
    'samples',
    'seed',
    'quantiles',
    'preset',
    'weights',
  ]);
  const fn = 'bayesianEce';
  const bins = options.bins ?? DEFAULT_BINS;
  checkCount(fn, 'options.bins', bins);
  const count = options.samples ?? 500;
  checkCount(fn, 'options.samples', count);
  // every posterior sample draws every bin (~1 µs each): 2^20 bins × 2^20 samples would run for days
  if (count * bins > 2 ** 22) {
    fail(
      'UM_OPTION',
      fn,
      'options.samples',
      `be at most ${Math.floor(2 ** 22 / bins)} with ${bins} bins (samples × bins ≤ 2^22: each sample draws every bin)`,
      { value: count },
    );
  }
  const qs = options.quantiles ?? [0.1, 0.5, 0.9];
  if (!Array.isArray(qs)) fail('UM_OPTION', fn, 'options.quantiles', 'be an array of numbers in [0, 1]', { value: qs });
  for (const [j, q] of qs.entries())
    if (typeof q !== 'number' || !(q >= 0 && q <= 1))
      fail('UM_OPTION', fn, 'options.quantiles', 'be numbers in [0, 1]', { index: [j], value: q });
  const quirks = presetOf(fn, options.preset).name.startsWith('uncertainty-metrics');
  const rng = createRng(fn, options.seed ?? 0);
  const { weights: _w, ...rest } = options;
  const { s, o } = calibrationPairs(fn, labels, scores, rest);
  const n = s.length;
  // frequency weights add to the Dirichlet counts and the confidence sums (as repeated pairs)
  const given = weightInput(fn, options.weights, n);
  const w = given?.w;
  // samples per unit of the weights below (1 without weights; see samplesPerWeight)
  const unit = given === undefined ? 1 : samplesPerWeight(given.w, given.scale);
  const m = [new Float64Array(bins), new Float64Array(bins)] as const;
  const confSum = new Float64Array(bins);
  for (let i = 0; i < n; i++) {
    const b = Math.min(Math.floor(bins * (s[i] as number)), bins - 1);
    const z = o[i] as number;
    const wi = w === undefined ? 1 : (w[i] as number);
    m[z === 1 ? 1 : 0][b] = (m[z === 1 ? 1 : 0][b] as number) + wi;
    confSum[b] = (confSum[b] as number) + wi * (s[i] as number);
  }
  const width = 1 / bins;
  const variance = quirks ? width / 12 : (width * width) / 12;
  const out = new Float64Array(count);
  const pi0 = new Float64Array(bins);
  const pi1 = new Float64Array(bins);
  const ptilde = new Float64Array(bins);
  for (let t = 0; t < count; t++) {
    let total = 0;
    for (let b = 0; b < bins; b++) {
      pi0[b] =
        unit === 1 ? rng.gamma((m[0][b] as number) + 1 / bins) : scaledGamma(rng, m[0][b] as number, 1 / bins, unit);
      pi1[b] =
        unit === 1 ? rng.gamma((m[1][b] as number) + 1 / bins) : scaledGamma(rng, m[1][b] as number, 1 / bins, unit);
      total += (pi0[b] as number) + (pi1[b] as number);
    }
    let correctMass = 0;
    for (let b = 0; b < bins; b++) {
      pi0[b] = (pi0[b] as number) / total;
      pi1[b] = (pi1[b] as number) / total;
      correctMass += pi1[b] as number;
      const nb = (m[0][b] as number) + (m[1][b] as number);
      const centre = b * width + 0.5 * width;
      const mean = nb === 0 ? centre : (confSum[b] as number) / nb;
      // nb·unit samples (Infinity beyond float64: the posterior is then a point)
      const postVar = unit === 1 ? 1 / (nb / variance + 1 / variance) : variance / (nb * unit + 1);
      const postMean =
        unit === 1
          ? postVar * (centre / variance + (nb * mean) / variance)
          : (centre / unit + nb * mean) / (nb + 1 / unit);
      ptilde[b] = truncatedNormal(rng, postMean, Math.sqrt(postVar), centre - 0.5 * width, centre + 0.5 * width);
    }
    let ece = 0;
    for (let b = 0; b < bins; b++) {
      const mass = (pi0[b] as number) + (pi1[b] as number);
      if (mass === 0) continue;
      const acc = (pi1[b] as number) / mass;
      const weight = quirks ? (pi1[b] as number) / correctMass : mass;
      ece += weight * Math.abs(acc - (ptilde[b] as number));
    }
    out[t] = ece;
  }
  const sorted = Float64Array.from(out).sort();
  let mean = 0;
  for (const v of out) mean += v;
  mean /= count;
  return { samples: out, mean, quantiles: Object.fromEntries(qs.map((q) => [String(q), quantileOf(sorted, q)])) };
}
