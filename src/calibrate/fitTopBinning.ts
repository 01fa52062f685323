import { DEFAULT_BINS } from '../presets/presets.js';
import { checkCount } from '../errors/checkCount.js';
import { equalMassBins } from '../binning/equalMass.js';
import { INPUT_KEYS, checkOptions } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import type { Labels, Scores } from '../input/types.js';
import { cutsOf } from './binCuts.js';
import { oddsRatioOf } from './oddsRatio.js';
import { header, type CalibratorHeader } from './params.js';
import { binsByCuts, topData, type TopScoreName, type TopScoreOptions } from './topScore.js';

/** One bin of a fitted Top-k calibrator. */
export interface TopBin {
  /** Calibration samples in the bin. */
  readonly count: number;
  /** Of them, how many had the Top-k event (label among the k most probable classes). */
  readonly hits: number;
  /** The calibrated probability of the event: (count·p̂ + p_A)/(count + 1) when regularised, else hits/count. */
  readonly probability: number;
  /** Hoeffding interval [p̂ − ε, p̂ + ε] ∩ [0, 1], ε = √(ln(2/δ)/(2·count)), around the bin's frequency. */
  readonly interval: readonly [number, number];
  /** Smallest and largest calibration score in the bin. */
  readonly range: readonly [number, number];
}

/** A fitted Top-k binning calibrator: plain JSON. */
export interface TopBinningParams extends CalibratorHeader<'top-binning'> {
  readonly score: TopScoreName;
  readonly direction: 'confidence' | 'uncertainty';
  /** k of the Top-k event. */
  readonly top: number;
  /** Bin boundaries on the score (ascending); bin b holds scores in [cuts[b − 1], cuts[b]), open at both ends. */
  readonly cuts: number[];
  readonly bins: TopBin[];
  /** p_A: the rate of the event on the calibration data (the model's Top-k accuracy). */
  readonly accuracy: number;
  /** Whether bin probabilities were regularised towards p_A. */
  readonly regularized: boolean;
  /** δ of the Hoeffding intervals. */
  readonly delta: number;
  /** EOR of the calibrated bins on the calibration data (`null` when a bin probability is 0 or 1, or the EOR exceeds float64). */
  readonly eor: number | null;
}

/** Options of {@link fitTopBinning}. */
export interface FitTopBinningOptions extends TopScoreOptions {
  /** Number of equal-mass bins (default 15; fewer when ties force it). */
  bins?: number;
  /** δ of the per-bin Hoeffding interval (default 0.05: 95 %). */
  delta?: number;
  /** Regularise each bin towards the overall accuracy, as one extra sample of value p_A (default true). */
  regularize?: boolean;
}

/** Hoeffding half-width √(ln(2/δ)/(2n)) (internal). */
export function hoeffding(delta: number, n: number): number {
  return Math.sqrt(Math.log(2 / delta) / (2 * n));
}

/**
 * Top-k binning calibrator: equal-mass bins of an uncertainty score on calibration data, each predicting the
 * probability that the label is among the model's k most probable classes (Top-1: that the prediction is right).
 *
 * **Formula.** Bins B_b at quantiles of the calibration scores; p̂_b = (1/|B_b|)·Σ_{i∈B_b} TOP_k(x_i); regularised
 * p̂ˢ_b = (|B_b|·p̂_b + p_A)/(|B_b| + 1) with p_A the overall rate (Oberman et al. §6.1); Hoeffding interval
 * |p_b − p̂_b| ≤ √(ln(2/δ)/(2|B_b|)) with probability ≥ 1 − δ (eq. 4); EOR = Σ_b w_b·OR(p̂ˢ_b, p_A).
 *
 * **Conventions.**
 * - Bins are equal-mass on the score (this library's tie-aware construction: tied scores never split, so there may
 *   be fewer bins than asked); boundaries sit midway between neighbouring bins' scores (at the upper one when they
 *   are one ulp apart, so no bin is empty), and new scores beyond the calibration range go to the first or last bin.
 * - Scores: `'max-prob'` (default), `'margin'`, `'entropy'`, `'normalized-entropy'`, `'neg-log-max-prob'`,
 *   `'neg-log-top-k'` (−ln of the top-k mass), or your values `{ confidence }` / `{ uncertainty }` (e.g.
 *   {@link ensembleVariance}), which must be given again when applying.
 * - The Top-k event ranks classes by probability, ties to the lower index (so Top-1 is the argmax convention).
 *
 * **References.**
 * - Oberman, Finlay, Iannantuono & Salvador, "Calibrated Top-1 Uncertainty estimates for classification by score
 *   based models", §3, §4, §6.1.
 * - Zadrozny & Elkan, ICML 2001 (histogram binning); Hoeffding, JASA 58 (1963), doi:10.1080/01621459.1963.10500830.
 *
 * @param labels N integer labels of a calibration split.
 * @param scores [N, C] scores of the declared kind.
 * @param options `score`, `top` (1), `bins` (15), `delta` (0.05), `regularize` (true), input options.
 * @returns {@link TopBinningParams}.
 * @throws {UMError} on invalid input or options.
 * @example
 * ```js
 * import { fitTopBinning } from 'uncertainty-metrics';
 * const probs = [[0.9, 0.1], [0.8, 0.2], [0.7, 0.3], [0.6, 0.4]];
 * const t = fitTopBinning([0, 0, 1, 0], probs, { bins: 2 });
 * t.bins.map((b) => [b.count, b.hits]); // => [[2, 1], [2, 2]]
 * ```
 */
export function fitTopBinning(labels: Labels, scores: Scores, options: FitTopBinningOptions = {}): TopBinningParams {
  const fn = 'fitTopBinning';
  checkOptions(fn, options, INPUT_KEYS, ['score', 'top', 'bins', 'delta', 'regularize']);
  const { bins = DEFAULT_BINS, delta = 0.05, regularize = true, ...rest } = options;
  checkCount(fn, 'options.bins', bins);
  if (typeof delta !== 'number' || !(delta > 0 && delta < 1))
    fail('UM_OPTION', fn, 'options.delta', 'be a number in (0, 1)', { value: delta });
  if (typeof regularize !== 'boolean')
    fail('UM_OPTION', fn, 'options.regularize', 'be true or false', { value: regularize });
  // topData takes missing labels (applying needs none); a fit does
  if (labels === undefined)
    fail('UM_SHAPE', fn, 'labels', 'be an array of integer class labels (a fit needs them)', { value: labels });
  const d = topData(fn, labels, scores, rest);
  const event = d.event as Uint8Array;
  const a = equalMassBins(d.score, bins, 'quantile');
  // strictly between neighbouring bins' scores, so every bin keeps its scores (none empty)
  const cuts = cutsOf(d.score, a);
  const numBins = cuts.length + 1;
  const index = binsByCuts(cuts, d.score);
  const count = new Array<number>(numBins).fill(0);
  const hits = new Array<number>(numBins).fill(0);
  const lo = new Array<number>(numBins).fill(Infinity);
  const hi = new Array<number>(numBins).fill(-Infinity);
  let total = 0;
  for (let i = 0; i < d.n; i++) {
    const b = index[i] as number;
    const v = d.score[i] as number;
    count[b] = (count[b] as number) + 1;
    hits[b] = (hits[b] as number) + (event[i] as number);
    lo[b] = Math.min(lo[b] as number, v);
    hi[b] = Math.max(hi[b] as number, v);
    total += event[i] as number;
  }
  const accuracy = total / d.n;
  const out: TopBin[] = count.map((c, b) => {
    const freq = (hits[b] as number) / c;
    const eps = hoeffding(delta, c);
    return {
      count: c,
      hits: hits[b] as number,
      probability: regularize ? (c * freq + accuracy) / (c + 1) : freq,
      interval: [Math.max(0, freq - eps), Math.min(1, freq + eps)] as const,
      range: [lo[b] as number, hi[b] as number] as const,
    };
  });
  const eor = eorOf(
    out.map((b) => b.probability),
    count,
    accuracy,
  );
  return {
    ...header('top-binning', { n: d.n, numClasses: d.numClasses, input: d.p.input, binary: d.p.binary }),
    score: d.name,
    direction: d.direction,
    top: readTopOf(options.top),
    cuts,
    bins: out,
    accuracy,
    regularized: regularize,
    delta,
    eor,
  };
}

/** Σ_b w_b·OR(p_b, p̄) with weights ∝ counts; `null` when a probability (or p̄) is 0 or 1 (internal). */
export function eorOf(probabilities: readonly number[], counts: readonly number[], mean: number): number | null {
  if (!(mean > 0 && mean < 1) || probabilities.some((q, b) => (counts[b] as number) > 0 && !(q > 0 && q < 1)))
    return null;
  const total = counts.reduce((x, y) => x + y, 0);
  let eor = 0;
  probabilities.forEach((q, b) => {
    if ((counts[b] as number) > 0) eor += ((counts[b] as number) / total) * oddsRatioOf(q, mean);
  });
  // an odds ratio beyond float64 (a bin probability within ~1e-308 of 0 or 1) has no EOR, as a probability of 0 or 1
  return Number.isFinite(eor) ? eor : null;
}

function readTopOf(top: unknown): number {
  return typeof top === 'number' ? top : 1;
}
