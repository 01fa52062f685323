import type { DingOptions, EqualMassMethod, EqualWidthRule, Precision } from '../binning/types.js';
import { gceCores, resolveCalibration, resolveUce, uceCore, type CalibrationConfig, type UceClassAverage } from '../calibration/core.js';
import { labelArray } from '../input/labelArray.js';
import { probMatrix } from '../input/probMatrix.js';
import type { InputOptions, Labels, ProbMatrix, ScoreKind, Scores } from '../input/types.js';
import { topLabel } from '../measures/topLabel.js';
import { rowEntropy } from '../measures/rowEntropy.js';
import type { RowStats } from '../kernels/rowStatsTypes.js';
import { fail } from '../errors/fail.js';
import type { BrierForm, PresetName } from '../presets/presets.js';
import { INPUT_KEYS, checkOptions } from '../errors/checkOptions.js';
import { brierRows, resolveBrierForm } from '../scores/brierPerExample.js';
import { mean } from '../scores/brier.js';
import { nllRows } from '../scores/nllPerExample.js';
import { emitWarning, type WarningOptions } from '../warnings/warnings.js';
import { resolveAuc, thresholdedSelectiveAuc } from '../selective/aucOptions.js';
import { averagePrecision, countOnes, rocArea } from '../selective/ranking.js';
import { aurcOf, excessAurcOf } from '../selective/riskCore.js';
import { correctness, type SelectiveData } from '../selective/selectiveInput.js';
import { sweep } from '../selective/sweep.js';
import { positiveRows, weightInput, type WeightOptions } from '../input/weights.js';

/** Options of {@link evaluate}. */
export interface EvaluateOptions extends InputOptions, WarningOptions, WeightOptions {
  /** Bins of the binned metrics (default: the preset's, 15). */
  bins?: number;
  /** Compatibility preset for every binned metric (default `'default'`). */
  preset?: PresetName;
  /**
   * Compute the class-wise metrics SCE, ACE and TACE (default true). They bin all N·C probabilities rather than one
   * value per row, so they dominate the time on many classes; `false` makes them `null`. The UCE is always the
   * global one (for a class-wise UCE, call {@link uce} with `classwise: true`).
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
  selective: { by: 'max-prob'; auprPositive: 'error'; aurcEstimator: 'mean-risk'; aucThresholds: number | null; aucPrecision: Precision | null };
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

/**
 * Every calibration metric of the library on one set of predictions, validating the input once — what
 * `um metrics` reports.
 *
 * **Formula.** accuracy = (1/N)·Σ_i 1[ŷ_i = y_i]; the others as in {@link ece}, {@link mce}, {@link rmsce},
 * {@link sce}, {@link ace}, {@link tace}, {@link uce}, {@link aece}, {@link amce}, {@link brier}, {@link nll},
 * {@link auroc}, {@link aupr} (errors as positives), {@link aurc} and {@link eAurc} (key `eaurc`);
 * meanEntropy = (1/N)·Σ_i H(p_i) with {@link entropy}.
 *
 * **Conventions.**
 * - Every metric uses the same `bins` and `preset`; TACE keeps its 0.01 threshold; AECE/AMCE size their own bins.
 * - The NLL is never clipped: an exact 0 for a label gives Infinity and a `UM_W_INFINITE` warning.
 * - Selective metrics rank by max probability; AUROC/AUPR are `null` with a `UM_W_DEGENERATE` warning when every
 *   prediction is correct (or every one wrong) instead of throwing, so the other numbers are still reported. The
 *   uncertainty_metrics presets use Keras' 200-threshold AUC.
 * - `config` records every option that changes a number, resolved (no implicit defaults left).
 * - One fused pass over the matrix validates it and computes every per-row statistic (max, argmax, Σp², Σp·ln p) that
 *   the metrics share (see {@link useKernels}); `classwise: false` skips SCE/ACE/TACE, the only metrics that need
 *   every entry again.
 *
 * **References.** See each metric.
 *
 * @param labels N integer labels in [0, C).
 * @param scores [N, C] scores of the declared kind.
 * @param options `bins`, `preset`, `classwise`, `weights`, `onWarning` and input options.
 * @returns an {@link Evaluation}.
 * @throws {UMError} on invalid input or options.
 * @example
 * ```js
 * import { evaluate } from 'uncertainty-metrics';
 * const r = evaluate([0, 1, 1], [[0.9, 0.1], [0.2, 0.8], [0.6, 0.4]], { bins: 10 });
 * [r.n, r.numClasses, r.ece, r.config.bins]; // => [3, 2, 0.3, 10]
 * ```
 */
export function evaluate(labels: Labels, scores: Scores, options: EvaluateOptions = {}): Evaluation {
  checkOptions('evaluate', options, INPUT_KEYS, ['bins', 'preset', 'onWarning', 'weights', 'classwise']);
  return evaluateWith('evaluate', labels, scores, options);
}

/** {@link evaluate} for `fn`, optionally with the row statistics of `scores` already computed (internal; the parallel pass). */
export function evaluateWith(fn: string, labels: Labels, scores: Scores, options: EvaluateOptions, stats?: RowStats): Evaluation {
  if (options.classwise !== undefined && typeof options.classwise !== 'boolean') {
    fail('UM_OPTION', fn, 'options.classwise', 'be true or false', { value: options.classwise });
  }
  const p = probMatrix(fn, scores, options, 2, stats);
  const y = labelArray(fn, labels, p.n, p.numClasses);
  const w = weightInput(fn, options.weights, p.n, { finiteTotal: `${fn} reports n, the total weight` });
  if (w === undefined) return evaluateCore(fn, p, y, options);
  const kept = positiveRows(p, y, w.w);
  return evaluateCore(fn, kept.p, kept.y, options, kept.w, w.scale);
}

/** The `um metrics` set on validated probabilities (internal; shared with `evaluateEnsemble`). */
export function evaluateCore(fn: string, p: ProbMatrix, y: Int32Array, options: { bins?: number; preset?: PresetName; classwise?: boolean } & WarningOptions, w?: Float64Array, scale = 1): Evaluation {
  const classwise = options.classwise ?? true;
  const base = { preset: options.preset, bins: options.bins };
  const cfg = {
    ece: resolveCalibration(fn, { ...base }, { binning: 'equal-width', norm: 'l1', topLabel: true, classConditional: false }),
    mce: resolveCalibration(fn, { ...base }, { binning: 'equal-width', norm: 'max', topLabel: true, classConditional: false }),
    rmsce: resolveCalibration(fn, { ...base }, { binning: 'equal-mass', norm: 'l2', topLabel: true, classConditional: false }),
    sce: resolveCalibration(fn, { ...base }, { binning: 'equal-width', norm: 'l1', topLabel: false, classConditional: true }),
    ace: resolveCalibration(fn, { ...base }, { binning: 'equal-mass', norm: 'l1', topLabel: false, classConditional: true }),
    tace: resolveCalibration(fn, { ...base }, { binning: 'equal-mass', norm: 'l1', topLabel: false, classConditional: true }, { threshold: 0.01 }),
    aece: resolveCalibration(fn, { preset: options.preset }, { binning: 'ding', norm: 'l1', topLabel: true, classConditional: false }),
    amce: resolveCalibration(fn, { preset: options.preset }, { binning: 'ding', norm: 'max', topLabel: true, classConditional: false }),
  };
  const uceCfg = resolveUce(fn, { ...base });
  const brierForm = resolveBrierForm(fn, { preset: options.preset });
  const top = topLabel(p);
  const isCorrect = correctness(top.predicted, y);
  const ranked = sweep(top.confidence, isCorrect, w, scale);
  const total = ranked.n;
  const correct = w === undefined ? countOnes(isCorrect) : ranked.totalPositive;
  const auc = resolveAuc(fn, { preset: options.preset });
  const selective: SelectiveData = w === undefined
    ? { n: p.n, correct: isCorrect, confidence: top.confidence, sign: 1, measure: 'max-prob' }
    : { n: p.n, correct: isCorrect, confidence: top.confidence, sign: 1, measure: 'max-prob', weights: w };
  const wholeWeights = w === undefined || w.every((v) => Number.isInteger(v * scale));
  if (!wholeWeights) {
    emitWarning(options, {
      code: 'UM_W_WEIGHTS',
      fn,
      message: `${fn}: AURC and E-AURC average the risk over whole numbers of kept predictions and need whole-number weights; they are null`,
    });
  }
  let auroc: number | null = null;
  let aupr: number | null = null;
  if (correct === 0 || correct === total) {
    emitWarning(options, {
      code: 'UM_W_DEGENERATE',
      fn,
      message: `${fn}: every prediction is ${correct === 0 ? 'wrong' : 'correct'}; AUROC and AUPR are undefined (null)`,
    });
  } else if (auc.thresholds === null) {
    const names = { argument: 'labels', positives: 'correct predictions', negatives: 'wrong predictions' };
    auroc = rocArea(fn, ranked, names);
    aupr = averagePrecision(fn, ranked, false, names);
  } else {
    auroc = thresholdedSelectiveAuc(fn, selective, 'correct', 'roc', auc.thresholds, auc.precision);
    aupr = thresholdedSelectiveAuc(fn, selective, 'error', 'pr', auc.thresholds, auc.precision);
  }

  const ew = cfg.ece.config as Extract<CalibrationConfig, { binning: 'equal-width' }>;
  const em = cfg.ace.config as Extract<CalibrationConfig, { binning: 'equal-mass' }>;
  const dg = cfg.aece.config as Extract<CalibrationConfig, { binning: 'ding' }>;
  // one selection and binning per distinct kind (ECE/MCE share bins, SCE/ACE entries, AECE/AMCE Ding bins)
  const binned = [cfg.ece, cfg.mce, cfg.rmsce, ...(classwise ? [cfg.sce, cfg.ace, cfg.tace] : []), cfg.aece, cfg.amce];
  const errors = gceCores(fn, p, y, binned, w);
  const at = (c: (typeof binned)[number]) => errors[binned.indexOf(c)] as number;
  return {
    n: total * scale,
    numClasses: p.numClasses,
    accuracy: correct / total,
    ece: at(cfg.ece),
    mce: at(cfg.mce),
    rmsce: at(cfg.rmsce),
    sce: classwise ? at(cfg.sce) : null,
    ace: classwise ? at(cfg.ace) : null,
    tace: classwise ? at(cfg.tace) : null,
    uce: uceCore(fn, p, y, uceCfg, w),
    aece: at(cfg.aece),
    amce: at(cfg.amce),
    brier: mean(brierRows(p, y, brierForm), w),
    nll: mean(nllRows(fn, p, y, { clip: null, renormalize: false, precision: 'float64' }, options), w),
    meanEntropy: mean(rowEntropy(p), w),
    auroc,
    aupr,
    aurc: wholeWeights ? aurcOf(fn, ranked, 'mean-risk') : null,
    eaurc: wholeWeights ? excessAurcOf(fn, ranked, 'mean-risk') : null,
    config: {
      input: p.input,
      binary: p.binary,
      preset: ew.preset,
      bins: ew.bins,
      precision: ew.precision,
      equalWidth: ew.equalWidth,
      equalMass: em.equalMass,
      threshold: cfg.ece.threshold,
      taceThreshold: cfg.tace.threshold,
      ding: dg.ding,
      uce: { classwise: uceCfg.classwise, classAverage: uceCfg.classAverage, norm: 'l1' },
      brierForm,
      nllClip: null,
      weighted: w !== undefined,
      classwise,
      selective: { by: 'max-prob', auprPositive: 'error', aurcEstimator: 'mean-risk', aucThresholds: auc.thresholds, aucPrecision: auc.thresholds === null ? null : auc.precision },
    },
  };
}
