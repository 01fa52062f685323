import type { EqualMassMethod, EqualWidthRule, Precision } from '../binning/types.js';

/** Names of the compatibility presets. `'default'` is this library's own convention. */
export type PresetName =
  | 'default'
  | 'uncertainty-metrics'
  | 'uncertainty-metrics-tf'
  | 'torchmetrics'
  | 'netcal'
  | 'sklearn'
  | 'verified-calibration'
  | 'relplot';

/**
 * Scale of the Brier score: `'standard'` Σ_k (p_k − y_k)² ∈ [0, 2]; `'half'` its half (scikit-learn's binary
 * score, verified_calibration's marginal mean); `'minus-one'` standard − 1 = Σ p_k² − 2 p_y ∈ [−1, 1]
 * (uncertainty_metrics); `'half-if-binary'` half when C = 2, else standard (scikit-learn ≥ 1.7 `scale_by_half='auto'`).
 */
export type BrierForm = 'standard' | 'half' | 'minus-one' | 'half-if-binary';

/** Conventions of the Brier decomposition. */
export interface BrierDecompositionConvention {
  /** `'standard'` (uncertainty = Σ p̄(1 − p̄), terms add up to the Brier score) or `'minus-one'` (uncertainty = −Σ p̄², terms add up to Brier − 1). */
  readonly form: 'standard' | 'minus-one';
  /**
   * `'exact'` (ours): reliability = BS − BS(recalibrated), so the three terms add up exactly; `'distance'`:
   * reliability = (1/N)·Σ_i ‖p_i − d_k(i)‖² (Bröcker's term; exact only when forecasts are constant within cells).
   */
  readonly reliability: 'exact' | 'distance';
  /** `'correct'`: Σ_k w_k ‖d_k − p̄‖²; `'transposed'`: uncertainty_metrics' Σ_k w_k Σ_j (p̄_k − d_kj)² (its broadcasting error). */
  readonly resolution: 'correct' | 'transposed';
  /** Added to each cell's count when dividing (uncertainty_metrics: 1e-7). */
  readonly epsilon: number;
}

/** Clipping of probabilities before their logarithm is taken. */
export interface NllConvention {
  /** Clip probabilities to [clip, 1 − clip]; `'machine-epsilon'` uses the input precision's epsilon; `null` (ours) never clips. */
  readonly clip: number | 'machine-epsilon' | null;
  /** Divide each clipped row by its sum (scikit-learn ≤ 1.4 did). */
  readonly renormalize: boolean;
}

/**
 * A compatibility preset: the conventions and defaults of one peer library, as a plain object a user can read.
 * Options given in a call override the preset's values. Each of our functions reproduces one function of the peer,
 * and where the peer's functions differ among themselves (torchmetrics' binary calibration error keeps the input's
 * precision while its multiclass one casts to float32), the preset has one field per function. Binned functions the
 * peer lacks use the preset's bins and rule; the other fields hold ours where the peer has no such metric.
 */
export interface Preset {
  readonly name: PresetName;
  /** Library, version and functions reproduced. */
  readonly description: string;
  /** The peer's default number of bins. */
  readonly bins: number;
  /**
   * The arithmetic of the peer's top-label (multiclass) calibration error: `'float32'` rounds scores to float32 and
   * evaluates bin rules in float32. Sums are float64 in every preset (see {@link presets} for what that means for the
   * agreement with float32 peers).
   */
  readonly precision: Precision;
  /** The peer's equal-width bin rule. */
  readonly equalWidth: EqualWidthRule;
  /** The peer's equal-mass construction (ours where the peer has none). */
  readonly equalMass: EqualMassMethod;
  /** Entries with p ≤ threshold are dropped by the general calibration error; `null` keeps every entry. */
  readonly threshold: number | null;
  /** Scale of `brier`. */
  readonly brier: BrierForm;
  /** Conventions of `brierDecomposition`. */
  readonly brierDecomposition: BrierDecompositionConvention;
  /** Clipping in `nll`. */
  readonly nll: NllConvention;
  /** Sample estimator of `crps`: `'fair'` (unbiased, ours), `'nrg'` (V-statistic, torchmetrics), `'cyclic'` (uncertainty_metrics' neighbour pairs). */
  readonly crps: 'fair' | 'nrg' | 'cyclic';
  /** WAIC and ISCV: ddof of the variance over members (WAIC1), and what the standard error divides by. */
  readonly informationCriteria: { readonly varianceDdof: 0 | 1; readonly sem: 'instances' | 'members' };
  /**
   * The peer's positive-class calibration error (a vector of P(y = 1), or of confidences, against 0/1 outcomes:
   * `binaryCalibrationError`, `binaryReliability`, `debiasedEce` with `mode: 'positive-class'`): its arithmetic.
   * `'input'` keeps the input's precision — float32 for a `Float32Array`, float64 otherwise — as torchmetrics'
   * `binary_calibration_error` does; bins and rule are the preset's.
   */
  readonly positiveClass: { readonly precision: Precision | 'input' };
  /**
   * Debiased ECE: bins with one sample are dropped (verified_calibration) or keep their plug-in error (torchmetrics);
   * the default binning (equal-mass, verified_calibration's; equal-width for torchmetrics, the only binning it has).
   */
  readonly debiasedEce: { readonly smallBins: 'drop' | 'plugin'; readonly binning: 'equal-width' | 'equal-mass' };
  /**
   * AUROC/AUPR: `thresholds: null` is exact (one point per distinct value); a number T approximates with T evenly
   * spaced thresholds and Keras' interpolation (uncertainty_metrics' `AUC`, 200), in `precision` (Keras: float32).
   */
  readonly auc: { readonly thresholds: number | null; readonly precision: Precision };
  /**
   * The equal-width bins of `oracleCollaborativeAccuracy` with `bins` (uncertainty_metrics' `OracleCollaborativeAccuracy`,
   * a Keras metric: ⌊B·p⌋ in float32, p = 1 in the last bin — for both uncertainty-metrics presets); the preset's rule
   * and precision for the others.
   */
  readonly oracleBins: { readonly equalWidth: EqualWidthRule; readonly precision: Precision };
}

/**
 * The precision a preset's positive-class functions use for `probs`: `positiveClass.precision`, with `'input'`
 * resolved to float32 for a `Float32Array` and float64 otherwise (internal).
 */
export function positiveClassPrecision(preset: Preset, probs: unknown): Precision {
  const p = preset.positiveClass.precision;
  if (p !== 'input') return p;
  return probs instanceof Float32Array ? 'float32' : 'float64';
}

const ours = {
  brier: 'standard',
  brierDecomposition: { form: 'standard', reliability: 'exact', resolution: 'correct', epsilon: 0 },
  nll: { clip: null, renormalize: false },
  crps: 'fair',
  informationCriteria: { varianceDdof: 1, sem: 'instances' },
  debiasedEce: { smallBins: 'drop', binning: 'equal-mass' },
  auc: { thresholds: null, precision: 'float64' },
} as const satisfies Pick<
  Preset,
  'brier' | 'brierDecomposition' | 'nll' | 'crps' | 'informationCriteria' | 'debiasedEce' | 'auc'
>;

const googleScores = {
  brier: 'minus-one',
  brierDecomposition: { form: 'minus-one', reliability: 'distance', resolution: 'transposed', epsilon: 1e-7 },
  nll: { clip: null, renormalize: false },
  crps: 'cyclic',
  informationCriteria: { varianceDdof: 0, sem: 'members' },
  debiasedEce: { smallBins: 'drop', binning: 'equal-mass' },
  // uncertainty_metrics' AUC is Keras' metric: 200 thresholds, float32 (both backends' presets: the NumPy backend has none)
  auc: { thresholds: 200, precision: 'float32' },
} as const satisfies Pick<
  Preset,
  'brier' | 'brierDecomposition' | 'nll' | 'crps' | 'informationCriteria' | 'debiasedEce' | 'auc'
>;

const floorLast: EqualWidthRule = { index: 'floor', edges: 'exact', closed: 'left', one: 'last-bin' };
/** uncertainty_metrics' OracleCollaborativeAccuracy subclasses its Keras ExpectedCalibrationError: ⌊B·p⌋ in float32. */
const kerasBins = { equalWidth: floorLast, precision: 'float32' } as const;
const numpyLeftOwn: EqualWidthRule = { index: 'edges', edges: 'numpy', closed: 'left', one: 'own-bin' };
const torchLeftOwn: EqualWidthRule = { index: 'edges', edges: 'torch', closed: 'left', one: 'own-bin' };
const numpyLeftLast: EqualWidthRule = { index: 'edges', edges: 'numpy', closed: 'left', one: 'last-bin' };
const numpyRightLast: EqualWidthRule = { index: 'edges', edges: 'numpy', closed: 'right', one: 'last-bin' };
const exactRightLast: EqualWidthRule = { index: 'edges', edges: 'exact', closed: 'right', one: 'last-bin' };
const divideOwn: EqualWidthRule = { index: 'divide', edges: 'exact', closed: 'left', one: 'own-bin' };

/** The library's default number of bins (the default preset's; every function without a preset reads this one). */
export const DEFAULT_BINS = 15;

/**
 * Every compatibility preset, keyed by name. Each reproduces its peer's bin placement exactly (see the conformance
 * tests and test/presets, which check every preset × function against CONVENTIONS.md).
 *
 * Sums are float64 in every preset, while the float32 peers (torchmetrics' multiclass functions, uncertainty_metrics'
 * Keras metrics) add each bin up in float32, one value after another. Their numbers differ from ours by that
 * summation error, which grows with the rows n_b of a bin: at most (n_b − 1)·2⁻²⁴ of the bin's mean (so at most
 * (N − 1)·2⁻²⁴ on an ECE), about √n_b·2⁻²⁴ when the rounding errors are independent, and towards the linear bound
 * when the scores crowd near one value (an overconfident model near 1). Measured on 10-class data, 15 bins, with both
 * peers emulated (bench/float32Peers.mjs): |Δ ECE| ≤ 1e-7 at N = 10³, 3e-7 at 10⁴, 2e-6 at 10⁵, 6e-5 at 10⁶ (3e-4
 * relative; 3e-3 relative for a well-calibrated model whose ECE is 0.001) and 3e-3 at 10⁷. Ours is the float64 value
 * for the peer's bins; the difference is the peer's float32 error.
 */
export const presets: Readonly<Record<PresetName, Preset>> = Object.freeze({
  default: {
    name: 'default',
    description:
      'uncertainty-metrics (this library): 15 bins, b = min(⌊B·p⌋, B − 1) in float64, tie-aware equal-mass bins, every entry kept',
    bins: DEFAULT_BINS,
    precision: 'float64',
    equalWidth: floorLast,
    equalMass: 'quantile',
    threshold: null,
    ...ours,
    positiveClass: { precision: 'float64' },
    oracleBins: { equalWidth: floorLast, precision: 'float64' },
  },
  'uncertainty-metrics': {
    name: 'uncertainty-metrics',
    description:
      'google/uncertainty-metrics 0.0.82, NumPy backend (gce, ece, rmsce, sce, ace, tace): 30 bins, numpy.linspace edges, [a, b), p = 1 in its own bin, get_adaptive_bins, entries with p ≤ 0 dropped; scores as its TF functions (Brier − 1, transposed resolution, cyclic CRPS, standard errors over members)',
    bins: 30,
    precision: 'float64',
    equalWidth: numpyLeftOwn,
    equalMass: 'uncertainty-metrics',
    threshold: 0,
    ...googleScores,
    positiveClass: { precision: 'float64' },
    oracleBins: kerasBins,
  },
  'uncertainty-metrics-tf': {
    name: 'uncertainty-metrics-tf',
    description:
      'google/uncertainty-metrics 0.0.82, TensorFlow backend (ExpectedCalibrationError, brier_score, brier_decomposition, crps_score, negative_waic; Keras float32 default): 15 bins, ⌊B·p⌋ in float32, p = 1 in the last bin',
    bins: 15,
    precision: 'float32',
    equalWidth: floorLast,
    equalMass: 'uncertainty-metrics',
    threshold: null,
    ...googleScores,
    positiveClass: { precision: 'float32' },
    oracleBins: kerasBins,
  },
  torchmetrics: {
    name: 'torchmetrics',
    description:
      'torchmetrics 1.9 multiclass_calibration_error (float32): 15 bins, float32 ATen linspace edges, torch.bucketize(right=True) − 1, p = 1 in its own bin; CRPS as the NRG V-statistic; debiased ECE keeps single-sample bins',
    bins: 15,
    precision: 'float32',
    equalWidth: torchLeftOwn,
    equalMass: 'quantile',
    threshold: null,
    ...ours,
    crps: 'nrg',
    // _ce_compute(debias=True) is reached through the multiclass update (float32) and bins by equal width only
    debiasedEce: { smallBins: 'plugin', binning: 'equal-width' },
    // binary_calibration_error keeps the input's dtype (CONVENTIONS.md §1, note 1; golden ece_pos@15 is float64)
    positiveClass: { precision: 'input' },
    oracleBins: { equalWidth: torchLeftOwn, precision: 'float32' },
  },
  netcal: {
    name: 'netcal',
    description:
      'netcal 1.3.6 ECE/MCE: 10 bins, numpy.linspace edges, numpy.histogramdd ([a, b), last bin closed), quantile bins from numpy.quantile',
    bins: 10,
    precision: 'float64',
    equalWidth: numpyLeftLast,
    equalMass: 'netcal',
    threshold: null,
    ...ours,
    positiveClass: { precision: 'float64' },
    oracleBins: { equalWidth: numpyLeftLast, precision: 'float64' },
  },
  sklearn: {
    name: 'sklearn',
    description:
      'scikit-learn 1.2–1.9 calibration_curve: 5 bins, numpy.linspace edges, (a, b] (searchsorted on the inner edges), quantile bins from numpy.percentile; log_loss clips to machine epsilon (1.9: no renormalisation); brier_score_loss halves for two classes',
    bins: 5,
    precision: 'float64',
    equalWidth: numpyRightLast,
    equalMass: 'sklearn',
    threshold: null,
    ...ours,
    brier: 'half-if-binary',
    nll: { clip: 'machine-epsilon', renormalize: false },
    positiveClass: { precision: 'float64' },
    oracleBins: { equalWidth: numpyRightLast, precision: 'float64' },
  },
  'verified-calibration': {
    name: 'verified-calibration',
    description:
      'verified_calibration 0.1.4 (p-lambda): 15 bins, edges i/B, (a, b] (bisect_left), get_equal_bins for equal mass; marginal Brier = Brier/2; debiased ECE drops single-sample bins',
    bins: 15,
    precision: 'float64',
    equalWidth: exactRightLast,
    equalMass: 'verified-calibration',
    threshold: null,
    ...ours,
    brier: 'half',
    positiveClass: { precision: 'float64' },
    oracleBins: { equalWidth: exactRightLast, precision: 'float64' },
  },
  relplot: {
    name: 'relplot',
    description: 'relplot 1.0.3 binnedECE: 10 bins, b = int(p / (1/B)), p = 1 in its own bin',
    bins: 10,
    precision: 'float64',
    equalWidth: divideOwn,
    equalMass: 'quantile',
    threshold: null,
    ...ours,
    positiveClass: { precision: 'float64' },
    oracleBins: { equalWidth: divideOwn, precision: 'float64' },
  },
});
