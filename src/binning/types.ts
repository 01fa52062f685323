/** Arithmetic precision of a peer: scores are rounded to float32 and bin rules evaluated in float32 when `'float32'`. */
export type Precision = 'float64' | 'float32';

/** Which side of a bin interval is closed. */
export type Closed = 'left' | 'right';

/**
 * How an equal-width bin index is computed from a score p in [0, 1] with B bins. Every peer library uses one of
 * these; see `CONVENTIONS.md` §1 of the conformance data for the table.
 */
export interface EqualWidthRule {
  /**
   * - `'floor'`: b = ⌊B·p⌋ — the product decides, no edges are compared (TensorFlow `histogram_fixed_width_bins`).
   * - `'divide'`: b = trunc(p / (1/B)) (relplot).
   * - `'edges'`: p is compared with edge values e_0 … e_B (numpy `digitize`/`histogram`, `torch.bucketize`,
   *   `bisect`).
   */
  readonly index: 'floor' | 'divide' | 'edges';
  /**
   * Edge values when `index` is `'edges'`: `'exact'` — e_i = i/B correctly rounded; `'numpy'` — `numpy.linspace`,
   * e_i = i·(1/B) with e_B = 1 exactly (so 3·0.1 = 0.30000000000000004); `'torch'` — ATen `linspace` in the working
   * precision (first half start + i·step, second half end − (B − i)·step).
   */
  readonly edges: 'exact' | 'numpy' | 'torch';
  /** With `index: 'edges'`: `'left'` = [e_b, e_{b+1}) or `'right'` = (e_b, e_{b+1}]. */
  readonly closed: Closed;
  /**
   * Where p = 1 (a product or quotient ≥ B, or a value on the last edge) goes: `'last-bin'` (the last bin is closed
   * on both sides) or `'own-bin'` (an extra bin B that holds only p = 1, as numpy `digitize`, torchmetrics and relplot
   * do). Only left-closed rules can have an own bin.
   */
  readonly one: 'last-bin' | 'own-bin';
}

/**
 * Equal-mass ("adaptive", "quantile") bin construction. They differ in how they cut and what they do with ties:
 * - `'quantile'` (ours): cut the sorted scores at ranks round(k·N/B); a cut that would split a block of equal scores
 *   moves to the nearer end of the block (the upper end when equally near), so ties never straddle bins; cuts that
 *   coincide merge, so ties can give fewer than B bins (the result says how many).
 * - `'uncertainty-metrics'`: upper edges sort(p)[round_half_even(k·N/B)] for k = 1 … B−1, left-closed (numpy
 *   `digitize`); ties give empty bins.
 * - `'verified-calibration'`: `numpy.array_split` of the sorted scores into min(B, N) parts, edges at the midpoints
 *   between parts plus 1.0, de-duplicated, right-closed.
 * - `'netcal'`: edges `numpy.quantile(p, linspace(0, 1, B + 1))` with the first and last forced to 0 and 1,
 *   `numpy.histogramdd` membership ([a, b), last bin closed). Where netcal raises on repeated edges we keep going
 *   with empty bins.
 * - `'sklearn'`: edges `numpy.percentile(p, linspace(0, 100, B + 1))`, right-closed on the inner edges.
 */
export type EqualMassMethod = 'quantile' | 'uncertainty-metrics' | 'verified-calibration' | 'netcal' | 'sklearn';

/**
 * Ding et al.'s adaptive binning: bins are grown over scores sorted in descending order until they hold at least
 * n = ¼·(z/ε)² samples, ε being the bin's score range.
 */
export interface DingOptions {
  /** Normal quantile of the accuracy interval (default 1.645, as in the authors' code; the paper's text says 80 %). */
  readonly z: number;
  /** A new bin opens only while more than this many samples remain (default 40). */
  readonly minRemaining: number;
  /** A new bin opens only while the current bin's minimum exceeds the global minimum by more than this (0.05). */
  readonly minGap: number;
}

/** A fully resolved binning scheme. */
export type BinningSpec =
  | {
      readonly scheme: 'equal-width';
      readonly bins: number;
      readonly rule: EqualWidthRule;
      readonly precision: Precision;
    }
  | { readonly scheme: 'equal-mass'; readonly bins: number; readonly method: EqualMassMethod }
  | { readonly scheme: 'ding'; readonly ding: DingOptions }
  | { readonly scheme: 'distinct' }
  | { readonly scheme: 'edges'; readonly edges: readonly number[]; readonly closed: Closed };

/** The bin of every sample, and each bin's interval. Plain data; produced by {@link assignBins}. */
export interface BinAssignment {
  /** Number of bins (B, B + 1 with an own bin for p = 1, or fewer for tie-aware data-dependent schemes). */
  readonly numBins: number;
  /** Lower edge of each bin (for data-dependent schemes: the smallest score or the boundary between groups). */
  readonly lower: Float64Array;
  /** Upper edge of each bin. */
  readonly upper: Float64Array;
  /** Bin of each sample, in `[0, numBins)`. */
  readonly index: Int32Array;
}

/**
 * One bin of a reliability table: a plain object, the same one every diagram draws.
 * Empty bins keep their interval and have `null` means.
 */
export interface Bin {
  /** Position of the bin, 0 = lowest scores. */
  readonly index: number;
  readonly lower: number;
  readonly upper: number;
  /** Number of samples in the bin. */
  readonly count: number;
  /** Total sample weight in the bin (equals `count` without sample weights). */
  readonly weight: number;
  /** weight / total weight: the bin's share in a weighted calibration error. */
  readonly fraction: number;
  /** Mean score of the bin (mean confidence, or mean uncertainty for the UCE); `null` when empty. */
  readonly meanScore: number | null;
  /** Mean outcome (accuracy, or error rate for the UCE); `null` when empty. */
  readonly meanOutcome: number | null;
  /** meanOutcome − meanScore; `null` when empty. */
  readonly gap: number | null;
}
