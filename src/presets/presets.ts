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
 * A compatibility preset: the binning conventions and defaults of one peer library, as a plain object a user can
 * read. Options given in a call override the preset's values.
 */
export interface Preset {
  readonly name: PresetName;
  /** Library, version and functions reproduced. */
  readonly description: string;
  /** The peer's default number of bins. */
  readonly bins: number;
  /** The peer's arithmetic: `'float32'` rounds scores to float32 and evaluates bin rules in float32. */
  readonly precision: Precision;
  /** The peer's equal-width bin rule. */
  readonly equalWidth: EqualWidthRule;
  /** The peer's equal-mass construction (ours where the peer has none). */
  readonly equalMass: EqualMassMethod;
  /** Entries with p ≤ threshold are dropped by the general calibration error; `null` keeps every entry. */
  readonly threshold: number | null;
}

const floorLast: EqualWidthRule = { index: 'floor', edges: 'exact', closed: 'left', one: 'last-bin' };

/**
 * Every compatibility preset, keyed by name. Each reproduces its peer's bin placement exactly (see the
 * conformance tests); sums are accumulated in float64 in every preset, so float32 peers agree to ~1e-7.
 */
export const presets: Readonly<Record<PresetName, Preset>> = Object.freeze({
  default: {
    name: 'default',
    description:
      'uncertainty-metrics (this library): 15 bins, b = min(⌊B·p⌋, B − 1) in float64, tie-aware equal-mass bins, every entry kept',
    bins: 15,
    precision: 'float64',
    equalWidth: floorLast,
    equalMass: 'quantile',
    threshold: null,
  },
  'uncertainty-metrics': {
    name: 'uncertainty-metrics',
    description:
      'google/uncertainty-metrics 0.0.82, NumPy backend (gce, ece, rmsce, sce, ace, tace): 30 bins, numpy.linspace edges, [a, b), p = 1 in its own bin, get_adaptive_bins, entries with p ≤ 0 dropped',
    bins: 30,
    precision: 'float64',
    equalWidth: { index: 'edges', edges: 'numpy', closed: 'left', one: 'own-bin' },
    equalMass: 'uncertainty-metrics',
    threshold: 0,
  },
  'uncertainty-metrics-tf': {
    name: 'uncertainty-metrics-tf',
    description:
      'google/uncertainty-metrics 0.0.82, TensorFlow backend (ExpectedCalibrationError, Keras float32 default): 15 bins, ⌊B·p⌋ in float32, p = 1 in the last bin',
    bins: 15,
    precision: 'float32',
    equalWidth: floorLast,
    equalMass: 'uncertainty-metrics',
    threshold: null,
  },
  torchmetrics: {
    name: 'torchmetrics',
    description:
      'torchmetrics 1.9 multiclass_calibration_error (float32): 15 bins, float32 ATen linspace edges, torch.bucketize(right=True) − 1, p = 1 in its own bin',
    bins: 15,
    precision: 'float32',
    equalWidth: { index: 'edges', edges: 'torch', closed: 'left', one: 'own-bin' },
    equalMass: 'quantile',
    threshold: null,
  },
  netcal: {
    name: 'netcal',
    description:
      'netcal 1.3.6 ECE/MCE: 10 bins, numpy.linspace edges, numpy.histogramdd ([a, b), last bin closed), quantile bins from numpy.quantile',
    bins: 10,
    precision: 'float64',
    equalWidth: { index: 'edges', edges: 'numpy', closed: 'left', one: 'last-bin' },
    equalMass: 'netcal',
    threshold: null,
  },
  sklearn: {
    name: 'sklearn',
    description:
      'scikit-learn 1.2–1.9 calibration_curve: 5 bins, numpy.linspace edges, (a, b] (searchsorted on the inner edges), quantile bins from numpy.percentile',
    bins: 5,
    precision: 'float64',
    equalWidth: { index: 'edges', edges: 'numpy', closed: 'right', one: 'last-bin' },
    equalMass: 'sklearn',
    threshold: null,
  },
  'verified-calibration': {
    name: 'verified-calibration',
    description:
      'verified_calibration 0.1.4 (p-lambda): 15 bins, edges i/B, (a, b] (bisect_left), get_equal_bins for equal mass',
    bins: 15,
    precision: 'float64',
    equalWidth: { index: 'edges', edges: 'exact', closed: 'right', one: 'last-bin' },
    equalMass: 'verified-calibration',
    threshold: null,
  },
  relplot: {
    name: 'relplot',
    description: 'relplot 1.0.3 binnedECE: 10 bins, b = int(p / (1/B)), p = 1 in its own bin',
    bins: 10,
    precision: 'float64',
    equalWidth: { index: 'divide', edges: 'exact', closed: 'left', one: 'own-bin' },
    equalMass: 'quantile',
    threshold: null,
  },
});
