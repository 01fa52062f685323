import { binnedErrorRaw } from '../binning/binnedError.js';
import { resolveBinning, type BinningConfig, type BinningOptions } from '../binning/options.js';
import type { Bin } from '../binning/types.js';
import { fail } from '../errors/fail.js';
import { labelArray } from '../input/labelArray.js';
import { probMatrix } from '../input/probMatrix.js';
import type { InputOptions, Labels, Scores } from '../input/types.js';
import { topLabel } from '../measures/topLabel.js';
import { atPrecision, sliceBins, uncertaintyPairs } from './core.js';
import { BINNING_KEYS, INPUT_KEYS, checkOptions } from '../errors/checkOptions.js';

/** Options of {@link reliability}. */
export interface ReliabilityOptions extends InputOptions, BinningOptions {
  /**
   * `'confidence'` (default): accuracy vs confidence per bin — the table behind the ECE.
   * `'uncertainty'`: top-1 error vs normalized entropy per bin — the table behind the UCE.
   */
  measure?: 'confidence' | 'uncertainty';
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
 *
 * **References.**
 * - DeGroot & Fienberg, The Statistician 1983, doi:10.2307/2987588; Niculescu-Mizil & Caruana, ICML 2005,
 *   doi:10.1145/1102351.1102430 (reliability diagrams).
 * - Laves et al., arXiv:1909.13550, Fig. 1 (uncertainty diagrams).
 *
 * @param labels N integer labels in [0, C).
 * @param scores [N, C] scores of the declared kind.
 * @param options `measure`, binning options and input options.
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
  checkOptions('reliability', options, INPUT_KEYS, BINNING_KEYS, ['measure']);
  const fn = 'reliability';
  const measure = options.measure ?? 'confidence';
  if (measure !== 'confidence' && measure !== 'uncertainty') {
    fail('UM_OPTION', fn, 'options.measure', `be 'confidence' or 'uncertainty'`, { value: measure });
  }
  const { spec, config, precision } = resolveBinning(fn, options, 'equal-width');
  const p0 = probMatrix(fn, scores, options);
  const y = labelArray(fn, labels, p0.n, p0.numClasses);
  const p = atPrecision(p0, precision);
  let s: Float64Array;
  let o: Float64Array;
  if (measure === 'confidence') {
    const t = topLabel(p);
    s = t.confidence;
    o = Float64Array.from(t.predicted, (k, i) => (k === y[i] ? 1 : 0));
  } else {
    const u = uncertaintyPairs(p, y);
    s = u.uncertainty;
    o = u.error;
  }
  return table(measure, p.n, p.numClasses, sliceBins(fn, s, o, spec), config);
}

/** Assembles a table from bins (shared with `binaryReliability`). */
export function table(
  measure: ReliabilityTable['measure'],
  n: number,
  numClasses: number,
  bins: Bin[],
  config: BinningConfig,
): ReliabilityTable {
  return {
    measure,
    n,
    numClasses,
    bins,
    calibrationError: binnedErrorRaw(bins, 'l1'),
    maxCalibrationError: binnedErrorRaw(bins, 'max'),
    config,
  };
}
