import { DEFAULT_BINS } from '../presets/presets.js';
import { checkCount } from '../errors/checkCount.js';
import { equalMassBins } from '../binning/equalMass.js';
import { edgeBins } from '../binning/edgeBins.js';
import { presetOf } from '../options/binning.js';
import { INPUT_KEYS, checkOptions } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import { labelArray } from '../input/labelArray.js';
import { probMatrix } from '../input/probMatrix.js';
import type { InputOptions, Labels, Scores } from '../input/types.js';
import type { PresetName } from '../presets/presets.js';
import { cutsOf } from './binCuts.js';
import { problems } from './oneVsRest.js';
import { header, type CalibratorHeader } from './params.js';

/** One calibrated histogram: bin edges e_0 = 0 < … < e_B = 1 (bins [e_b, e_{b+1}), the last closed) and their values. */
export interface CalibrationHistogram {
  readonly edges: number[];
  /** Calibrated probability of each bin: its frequency of positives, or its midpoint when it was empty. */
  readonly values: number[];
  /** Calibration samples per bin. */
  readonly counts: number[];
}

/** Fitted histogram binning: plain JSON. */
export interface HistogramBinningParams extends CalibratorHeader<'histogram-binning'> {
  readonly binning: 'equal-width' | 'equal-mass';
  /** One histogram for two classes (of P(y = 1)); one per class otherwise. */
  readonly histograms: CalibrationHistogram[];
}

/** Options of {@link fitHistogramBinning}. */
export interface FitHistogramBinningOptions extends InputOptions {
  /** Number of bins (default 15). */
  bins?: number;
  /** `'equal-width'` (default) or `'equal-mass'` (edges between groups of the calibration scores, ties kept together). */
  binning?: 'equal-width' | 'equal-mass';
  /** Equal-mass construction of a preset (default `'default'`: ours). */
  preset?: PresetName;
}

/**
 * Histogram binning: each bin of the predicted probability is replaced by the frequency of the event in that bin on
 * calibration data (one-vs-rest for more than two classes, then renormalised).
 *
 * **Formula.** For bins B_b of p: v_b = (1/|B_b|)·Σ_{i∈B_b} 1[y_i = k]; a new score p in B_b becomes v_b. For C > 2
 * the C calibrated values of a row are divided by their sum.
 *
 * **Conventions.**
 * - Bins are [e_b, e_{b+1}) with the last closed; equal-width edges b/B, or equal-mass edges at the midpoints
 *   between groups of calibration scores (tied scores never split); fitting and applying use the same edges.
 * - The edges always increase strictly from 0 to 1 (what {@link parseCalibrator} accepts): equal-mass edges that
 *   coincide (a preset's quantile edges on tied scores) are merged, an edge that would be 1 becomes 1 − 2⁻⁵³ (scores
 *   of exactly 1 keep their own bin), and scores one ulp apart are cut at the upper one.
 * - An empty bin keeps its midpoint (e_b + e_{b+1})/2; a row whose C values are all 0 becomes uniform.
 * - Two classes: one histogram of P(y = 1); the result is [1 − v, v].
 *
 * **References.**
 * - Zadrozny & Elkan, "Obtaining calibrated probability estimates from decision trees and naive Bayesian
 *   classifiers", ICML 2001; "Transforming classifier scores into accurate multiclass probability estimates", KDD 2002.
 * - Guo et al., ICML 2017, arXiv:1706.04599, §4.1.
 *
 * @param labels N integer labels of a calibration split.
 * @param scores [N, C] scores of the declared kind (a vector with `binary: true`).
 * @param options `bins` (15), `binning`, `preset`, input options.
 * @returns {@link HistogramBinningParams}.
 * @throws {UMError} on invalid input or options.
 * @example
 * ```js
 * import { fitHistogramBinning } from 'uncertainty-metrics';
 * const h = fitHistogramBinning([0, 1, 1, 1], [0.1, 0.2, 0.8, 0.9], { binary: true, bins: 2 });
 * h.histograms[0].values; // => [0.5, 1]
 * ```
 */
export function fitHistogramBinning(
  labels: Labels,
  scores: Scores,
  options: FitHistogramBinningOptions = {},
): HistogramBinningParams {
  const fn = 'fitHistogramBinning';
  checkOptions(fn, options, INPUT_KEYS, ['bins', 'binning', 'preset']);
  const { bins = DEFAULT_BINS, binning = 'equal-width', preset, ...input } = options;
  checkCount(fn, 'options.bins', bins);
  if (binning !== 'equal-width' && binning !== 'equal-mass')
    fail('UM_OPTION', fn, 'options.binning', "be 'equal-width' or 'equal-mass'", { value: binning });
  const method = presetOf(fn, preset).equalMass;
  const p = probMatrix(fn, scores, input);
  const y = labelArray(fn, labels, p.n, p.numClasses);
  const histograms = problems(p, y).map(({ scores: s, outcomes }) => {
    let edges: number[];
    if (binning === 'equal-width') edges = Array.from({ length: bins + 1 }, (_, b) => b / bins);
    else {
      const a = equalMassBins(s, bins, method);
      // between the largest score of one bin and the smallest of the next, strictly increasing inside (0, 1)
      edges = [0, ...cutsOf(s, a, 0, 1), 1];
    }
    const index = edgeBins(fn, s, edges, 'left').index;
    const counts = new Array<number>(edges.length - 1).fill(0);
    const hits = new Array<number>(edges.length - 1).fill(0);
    for (let i = 0; i < s.length; i++) {
      const b = index[i] as number;
      counts[b] = (counts[b] as number) + 1;
      hits[b] = (hits[b] as number) + (outcomes[i] as number);
    }
    const values = counts.map((c, b) =>
      c === 0 ? ((edges[b] as number) + (edges[b + 1] as number)) / 2 : (hits[b] as number) / c,
    );
    return { edges, values, counts };
  });
  return {
    ...header('histogram-binning', { n: p.n, numClasses: p.numClasses, input: p.input, binary: p.binary }),
    binning,
    histograms,
  };
}
