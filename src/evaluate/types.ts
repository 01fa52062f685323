import type { DingOptions, EqualMassMethod, EqualWidthRule, Precision } from '../binning/types.js';
import type { InputOptions, ScoreKind } from '../input/types.js';
import type { WeightOptions } from '../input/weights.js';
import type { BrierForm, PresetName } from '../presets/presets.js';
import type { UceClassAverage } from '../calibration/options.js';
import type { WarningOptions } from '../warnings/warnings.js';

/** Options of {@link evaluate}. */
export interface EvaluateOptions extends InputOptions, WarningOptions, WeightOptions {
  /** Bins of the binned metrics (default: the preset's, 15). */
  bins?: number;
  /** Compatibility preset for every binned metric (default `'default'`). */
  preset?: PresetName;
  /**
   * Compute the class-wise metrics SCE, ACE and TACE (default true). They bin all N·C probabilities rather than one
   * value per row, so they dominate the time on many classes; `false` makes them `null`. The UCE is always the
   * global one (for a class-wise UCE, call {@link uncertainty-metrics!uce} with `classwise: true`).
   */
  classwise?: boolean;
}

/** Every option that changes a number of {@link evaluate}, as plain JSON. */
export interface EvaluationConfig {
  input: ScoreKind;
  binary: boolean;
  preset: PresetName;
  bins: number;
  precision: Precision;
  equalWidth: EqualWidthRule;
  equalMass: EqualMassMethod;
  /** Threshold of ece, mce, rmsce, sce and ace (`null`: every entry kept). */
  threshold: number | null;
  /** Threshold of tace (0.01). */
  taceThreshold: number | null;
  ding: DingOptions;
  /** The UCE: the global one (`classwise: false`, so `classAverage: null`); see {@link uce} for the class-wise forms. */
  uce: { classwise: boolean; classAverage: UceClassAverage | null; norm: 'l1' };
  /** Form of the Brier score (the preset's). */
  brierForm: BrierForm;
  /** NLL clipping: never (an exact 0 gives Infinity and a warning). */
  nllClip: null;
  /** Whether sample weights were given (`n` is then their sum). */
  weighted: boolean;
  /** Whether SCE, ACE and TACE were computed (`classwise` option). */
  classwise: boolean;
  /**
   * Selective prediction: ranking by max probability; AUPR with errors as positives; AURC estimator; AUROC/AUPR exact
   * (`aucThresholds: null`) or Keras' approximation with its arithmetic (`aucPrecision`, `null` when exact).
   */
  selective: {
    by: 'max-prob';
    auprPositive: 'error';
    aurcEstimator: 'mean-risk';
    aucThresholds: number | null;
    aucPrecision: Precision | null;
  };
}

/** The calibration summary of one model, as `um metrics --json` prints it. */
export interface Evaluation {
  n: number;
  numClasses: number;
  accuracy: number;
  ece: number;
  mce: number;
  rmsce: number;
  /** SCE; `null` when `classwise: false`. */
  sce: number | null;
  /** ACE; `null` when `classwise: false`. */
  ace: number | null;
  /** TACE; `null` when `classwise: false`. */
  tace: number | null;
  uce: number;
  aece: number;
  amce: number;
  brier: number;
  nll: number;
  /** Mean Shannon entropy of the predicted distributions, nats (0·ln 0 = 0). */
  meanEntropy: number;
  /** AUROC of correctness vs confidence; `null` (with a warning) when every prediction is correct or every one wrong. */
  auroc: number | null;
  /** AUPR of errors vs uncertainty; `null` like `auroc`. */
  aupr: number | null;
  /** AURC; `null` (with a `UM_W_WEIGHTS` warning) when sample weights are not whole numbers. */
  aurc: number | null;
  /** Excess AURC; `null` like `aurc`. */
  eaurc: number | null;
  config: EvaluationConfig;
  /**
   * Only from a bounded-memory state (`createState('evaluate', { mode: 'bounded' })`): per metric, the bound on
   * |value − exact value| (0 for the exact ones; null where no bound is proven).
   */
  bounds?: Record<string, number | null>;
}
