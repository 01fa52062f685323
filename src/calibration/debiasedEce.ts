import { labeledInput } from '../input/labeledInput.js';
import type { WeightOptions } from '../input/weights.js';
import { binStatisticsUnchecked } from '../binning/binStatistics.js';
import { assignBinsFor } from '../binning/assignBins.js';
import { presetOf, resolveBinning, type BinningOptions } from '../options/binning.js';
import type { BinningSpec } from '../binning/types.js';
import { fail } from '../errors/fail.js';
import type { InputOptions, Labels, Scores } from '../input/types.js';
import { topLabel } from '../measures/topLabel.js';
import { resolvePositiveBinning } from './binaryPairs.js';
import { atPrecision } from '../select/precision.js';
import { namedAlias, resolveScored, type Vocabulary } from '../select/vocabulary.js';
import { BINNING_KEYS, INPUT_KEYS, WEIGHT_KEYS, checkOptions } from '../errors/checkOptions.js';

/** Options of {@link debiasedEce}. */
export interface DebiasedEceOptions extends InputOptions, BinningOptions, WeightOptions {
  /**
   * `'top-label'` (default); `'marginal'`: the class-wise form, √(mean_k CE_k²) over one-vs-rest columns;
   * `'positive-class'`: P(y = 1) of two-class predictions against 1[y = 1].
   */
  mode?: 'top-label' | 'marginal' | 'positive-class';
  /** What is scored: `'top-label'` (default), `'all-classes'` (with groupBy `'class'`: the marginal form) or `'positive-class'`; `mode` is its alias. */
  target?: 'top-label' | 'all-classes' | 'positive-class';
  /** `'class'` with target `'all-classes'`; `'none'` otherwise. */
  groupBy?: 'none' | 'class';
  /**
   * Bins with a single sample: `'drop'` (verified_calibration: they contribute 0) or `'plugin'` (torchmetrics: they
   * keep their plug-in error, the 0/0 correction taken as 0). Default: the preset's, `'drop'`.
   */
  smallBins?: 'drop' | 'plugin';
}

const DEBIASED_SCORED: Vocabulary = {
  targets: ['top-label', 'all-classes', 'positive-class'],
  groupBys: ['none', 'class'],
  fallback: { target: 'top-label', groupBy: 'none' },
  aliases: {
    mode: namedAlias('mode', {
      'top-label': { target: 'top-label', groupBy: 'none' },
      marginal: { target: 'all-classes', groupBy: 'class' },
      'positive-class': { target: 'positive-class', groupBy: 'none' },
    }),
  },
};

/** θ̂ = Σ_b w_b [(ȳ_b − s̄_b)² − ȳ_b(1 − ȳ_b)/(n_b − 1)] for one slice (internal). */
function debiasedSquare(
  fn: string,
  s: ArrayLike<number>,
  o: ArrayLike<number>,
  spec: BinningSpec,
  smallBins: 'drop' | 'plugin',
  w?: Float64Array,
  scale = 1,
): number {
  const bins = binStatisticsUnchecked(assignBinsFor(fn, s, spec, w), s, o, w);
  let theta = 0;
  for (const b of bins) {
    if (b.gap === null || b.meanOutcome === null) continue;
    // n_b is the bin's weight: with whole-number (frequency) weights, the number of samples it stands for (the
    // weights may be scaled: n_b = weight · scale, Infinity beyond float64, where the correction is 0)
    const count = b.weight * scale;
    if (count < 2) {
      if (smallBins === 'plugin') theta += b.fraction * b.gap * b.gap;
      continue;
    }
    theta += b.fraction * (b.gap * b.gap - (b.meanOutcome * (1 - b.meanOutcome)) / (count - 1));
  }
  return theta;
}

/**
 * Debiased L2 calibration error (Kumar, Liang & Ma): the binned RMS calibration error with the bias from each bin's
 * finite sample removed.
 *
 * **Formula.** θ̂ = Σ_b (n_b/N)·[(ȳ_b − s̄_b)² − ȳ_b(1 − ȳ_b)/(n_b − 1)]; DCE = √max(θ̂, 0). Marginal mode:
 * √((1/C)·Σ_k max(θ̂_k, 0)) over one-vs-rest columns k (each column binned on its own).
 *
 * **Conventions.**
 * - Top label by default; equal-mass bins by default (B = 15, the estimator's recommended binning) — equal-width with
 *   `preset: 'torchmetrics'`, whose debiased estimator has no other; any binning option applies (`binning: 'distinct'`
 *   for discrete outputs).
 * - Arithmetic: the preset's (`'torchmetrics'`: float32, its multiclass path); `mode: 'positive-class'` uses the
 *   preset's positive-class arithmetic (`'torchmetrics'`: the input's precision, as its binary path).
 * - ȳ(1 − ȳ)/(n − 1) is the unbiased estimate of the variance of a bin's observed frequency, so θ̂ is unbiased for
 *   the squared binned calibration error; it can be negative, which is clipped at 0 (per class in marginal mode).
 * - Bins with one sample contribute 0 by default (verified_calibration); `smallBins: 'plugin'` (preset
 *   `'torchmetrics'`) keeps their plug-in (ȳ − s̄)².
 *
 * **References.**
 * - Kumar, Liang & Ma, "Verified Uncertainty Calibration", NeurIPS 2019, arXiv:1909.10155, §5.
 * - Bröcker, "Estimating reliability and resolution of probability forecasts through decomposition of the
 *   empirical score", Climate Dynamics 2012, doi:10.1007/s00382-011-1191-1.
 *
 * @param labels N integer labels.
 * @param scores [N, C] scores of the declared kind.
 * @param options `mode`, `smallBins`, binning options and input options.
 * @returns the debiased L2 calibration error, ≥ 0.
 * @throws {UMError} on invalid input or options.
 * @example
 * ```js
 * import { debiasedEce } from 'uncertainty-metrics';
 * // one bin of 4: confidences 0.8, accuracy 3/4: (0.75 − 0.8)² − 0.75·0.25/3 < 0 → 0
 * debiasedEce([0, 0, 0, 1], [[0.8, 0.2], [0.8, 0.2], [0.8, 0.2], [0.8, 0.2]], { bins: 1 }); // => 0
 * ```
 */
export function debiasedEce(labels: Labels, scores: Scores, options: DebiasedEceOptions = {}): number {
  checkOptions('debiasedEce', options, INPUT_KEYS, BINNING_KEYS, WEIGHT_KEYS, [
    'target',
    'groupBy',
    'mode',
    'smallBins',
  ]);
  const fn = 'debiasedEce';
  // target/groupBy, with `mode` as alias: 'marginal' = all classes grouped by class
  const given = resolveScored(fn, options as Readonly<Record<string, unknown>>, DEBIASED_SCORED);
  // all classes are grouped by class unless groupBy says otherwise (the marginal form)
  const scored =
    options.groupBy === undefined && options.mode === undefined && given.target === 'all-classes'
      ? { ...given, groupBy: 'class' }
      : given;
  const mode =
    scored.target === 'positive-class' ? 'positive-class' : scored.target === 'all-classes' ? 'marginal' : 'top-label';
  if ((scored.target === 'all-classes') !== (scored.groupBy === 'class'))
    fail(
      'UM_OPTION',
      fn,
      'options.groupBy',
      `be 'class' with target 'all-classes' and 'none' otherwise (the debiased ECE's forms)`,
      { value: scored.groupBy },
    );
  // the default binning is the peer's (torchmetrics' debiased estimator bins by equal width only)
  const scheme = presetOf(fn, options.preset).debiasedEce.binning;
  const { spec, preset, precision } = resolveBinning(fn, options, scheme);
  const smallBins = options.smallBins ?? preset.debiasedEce.smallBins;
  if (smallBins !== 'drop' && smallBins !== 'plugin')
    fail('UM_OPTION', fn, 'options.smallBins', `be 'drop' or 'plugin'`, { value: smallBins });
  // whole-number weights: the n_b − 1 correction counts samples
  const { p: p1, y, w, scale } = labeledInput(fn, labels, scores, options, true);
  if (mode === 'positive-class') {
    // the peer's positive-class arithmetic (torchmetrics: the input's precision), not its top-label one
    const pos = resolvePositiveBinning(fn, { ...options, binning: options.binning ?? scheme }, scores);
    const { n, numClasses: c, data } = atPrecision(p1, pos.precision);
    if (c !== 2)
      fail(
        'UM_OPTION',
        fn,
        'options.mode',
        `be 'top-label' or 'marginal' with ${c} classes ('positive-class' needs 2)`,
        { value: mode },
      );
    const s1 = Float64Array.from({ length: n }, (_, i) => data[2 * i + 1] as number);
    const o = Float64Array.from(y, (v) => (v === 1 ? 1 : 0));
    return Math.sqrt(Math.max(0, debiasedSquare(fn, s1, o, pos.spec, smallBins, w, scale)));
  }
  const p = atPrecision(p1, precision);
  const { n, numClasses: c, data } = p;
  if (mode === 'top-label') {
    const t = topLabel(p);
    const o = Float64Array.from(t.predicted, (k, i) => (k === y[i] ? 1 : 0));
    return Math.sqrt(Math.max(0, debiasedSquare(fn, t.confidence, o, spec, smallBins, w, scale)));
  }
  let sum = 0;
  const col = new Float64Array(n);
  const out = new Float64Array(n);
  for (let k = 0; k < c; k++) {
    for (let i = 0; i < n; i++) {
      col[i] = data[i * c + k] as number;
      out[i] = y[i] === k ? 1 : 0;
    }
    sum += Math.max(0, debiasedSquare(fn, col, out, spec, smallBins, w, scale));
  }
  return Math.sqrt(sum / c);
}
