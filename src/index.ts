/**
 * The core: calibration errors, proper scores, selective prediction, out-of-distribution and ensemble measures,
 * recalibration, mergeable states and bootstrap intervals. Zero runtime dependencies, no Node APIs: runs in browsers.
 *
 * @module uncertainty-metrics
 */
// uncertainty-metrics — core entry. Zero runtime dependencies, no Node APIs: runs in browsers.
// This file only re-exports; every export lives in a file named after it.

export { UMError } from './errors/UMError.js';
export type { UMErrorCode, UMErrorDetails } from './errors/UMError.js';

export { setWarningHandler } from './warnings/warnings.js';
export type { UMWarning, UMWarningCode, WarningHandler, WarningOptions } from './warnings/warnings.js';

export { toProbabilities } from './input/toProbabilities.js';
export { useKernels } from './kernels/rowStats.js';
export type { KernelBackend } from './kernels/rowStatsTypes.js';
export type {
  EnsembleMatrix,
  EnsembleOptions,
  EnsembleScores,
  InputOptions,
  Labels,
  ProbMatrix,
  ScoreKind,
  ScoreMatrix,
  Scores,
} from './input/types.js';

export { confidence } from './measures/confidence.js';
export { predictedClass } from './measures/predictedClass.js';
export { entropy } from './measures/entropy.js';
export type { EntropyOptions } from './measures/entropy.js';
export { normalizedEntropy } from './measures/normalizedEntropy.js';
export { margin } from './measures/margin.js';

export { assignBins } from './binning/assignBins.js';
export { binStatistics } from './binning/binStatistics.js';
export type { BinningConfig, BinningOptions, BinningScheme, EdgeBinning } from './options/binning.js';
export type { Norm } from './binning/binnedError.js';
export type {
  Bin,
  BinAssignment,
  BinningSpec,
  Closed,
  DingOptions,
  EqualMassMethod,
  EqualWidthRule,
  Precision,
} from './binning/types.js';

export { presets } from './presets/presets.js';
export type { BrierDecompositionConvention, BrierForm, NllConvention, Preset, PresetName } from './presets/presets.js';

export { gce } from './calibration/gce.js';
export type {
  CalibrationConfig,
  CalibrationErrorOptions,
  UceClassAverage,
  UceConfig,
  UceOptions,
} from './calibration/options.js';
export { ece } from './calibration/ece.js';
export type { NamedCalibrationOptions } from './calibration/ece.js';
export { mce } from './calibration/mce.js';
export { rmsce } from './calibration/rmsce.js';
export { sce } from './calibration/sce.js';
export { ace } from './calibration/ace.js';
export { tace } from './calibration/tace.js';
export { uce } from './calibration/uce.js';
export { aece } from './calibration/aece.js';
export type { AdaptiveCalibrationOptions } from './calibration/aece.js';
export { amce } from './calibration/amce.js';
export { reliability } from './calibration/reliability.js';
export type { ReliabilityOptions, ReliabilityTable } from './calibration/reliability.js';
export { binaryCalibrationError } from './calibration/binaryCalibrationError.js';
export type { BinaryCalibrationOptions } from './calibration/binaryCalibrationError.js';
export { binaryReliability } from './calibration/binaryReliability.js';

export { mmce } from './calibration/mmce.js';
export type { MmceOptions } from './calibration/mmce.js';
export type { TargetOptions } from './calibration/pairs.js';
export { debiasedEce } from './calibration/debiasedEce.js';
export type { DebiasedEceOptions } from './calibration/debiasedEce.js';
export { smoothEce } from './calibration/smoothEce.js';
export type { SmoothEceOptions } from './calibration/smoothEce.js';
export { classwiseReliability } from './calibration/classwiseReliability.js';
export type {
  ClassReliability,
  ClasswiseReliability,
  ClasswiseReliabilityOptions,
} from './calibration/classwiseReliability.js';
export { smoothReliability } from './calibration/smoothReliability.js';
export type {
  SmoothReliability,
  SmoothReliabilityOptions,
  SmoothReliabilityPoint,
} from './calibration/smoothReliability.js';
export { bayesianEce } from './calibration/bayesianEce.js';
export type { BayesianEceOptions, BayesianEceResult } from './calibration/bayesianEce.js';
export { semiparametricCalibrationError } from './calibration/semiparametricCalibrationError.js';
export type { SemiparametricOptions, SemiparametricResult } from './calibration/semiparametricCalibrationError.js';

export { accuracy } from './scores/accuracy.js';
export { brier } from './scores/brier.js';
export { brierPerExample } from './scores/brierPerExample.js';
export type { BrierOptions } from './scores/brierPerExample.js';
export { binaryBrier } from './scores/binaryBrier.js';
export { brierDecomposition } from './scores/brierDecomposition.js';
export type { BrierDecomposition, BrierDecompositionOptions } from './scores/brierDecomposition.js';
export { nll } from './scores/nll.js';
export { nllPerExample } from './scores/nllPerExample.js';
export type { NllOptions } from './scores/nllPerExample.js';
export { crps } from './scores/crps.js';
export { crpsPerExample } from './scores/crpsPerExample.js';
export type { CrpsForecast, CrpsOptions } from './scores/crpsPerExample.js';

export { toEnsemble } from './ensemble/toEnsemble.js';
export { mcIntegrate } from './ensemble/mcIntegrate.js';
export { modelUncertainty } from './ensemble/modelUncertainty.js';
export type { UncertaintyDecomposition } from './ensemble/modelUncertainty.js';
export { knowledgeUncertainty } from './ensemble/knowledgeUncertainty.js';
export { disagreement } from './ensemble/disagreement.js';
export { doubleFault } from './ensemble/doubleFault.js';
export { pairwiseKl } from './ensemble/pairwiseKl.js';
export type { PairwiseKlOptions } from './ensemble/pairwiseKl.js';
export { cosineDistance } from './ensemble/cosineDistance.js';
export { lpDistance } from './ensemble/lpDistance.js';
export { averagePairwiseDiversity } from './ensemble/averagePairwiseDiversity.js';
export { varianceBound } from './ensemble/varianceBound.js';
export { ensembleVariance } from './ensemble/ensembleVariance.js';
export { ensembleNll } from './ensemble/ensembleNll.js';
export { gibbsNll } from './ensemble/gibbsNll.js';

export { negativeWaic } from './information/negativeWaic.js';
export { iscv } from './information/iscv.js';
export type { EstimateWithError, InformationCriterionOptions } from './information/logLikelihoodMatrix.js';

export { auroc } from './selective/auroc.js';
export { aupr } from './selective/aupr.js';
export type { AuprOptions } from './selective/aupr.js';
export { rocCurve } from './selective/rocCurve.js';
export type { RocCurve, RocPoint } from './selective/rocCurve.js';
export { precisionRecallCurve } from './selective/precisionRecallCurve.js';
export type { PrecisionRecallCurve, PrecisionRecallPoint } from './selective/precisionRecallCurve.js';
export { riskCoverageCurve } from './selective/riskCoverageCurve.js';
export type { RiskCoverageCurve } from './selective/riskCoverageCurve.js';
export { aurc } from './selective/aurc.js';
export type { AurcOptions } from './selective/aurc.js';
export type { AurcEstimator } from './selective/riskCore.js';
export { eAurc } from './selective/eAurc.js';
export { accuracyAtCoverage } from './selective/accuracyAtCoverage.js';
export type { AccuracyAtCoverageOptions } from './selective/accuracyAtCoverage.js';
export { coverageAtRisk } from './selective/coverageAtRisk.js';
export type { CoverageAtRiskOptions } from './selective/coverageAtRisk.js';
export { rejectionCurve } from './selective/rejectionCurve.js';
export type { RejectionCurve, RejectionCurveOptions, RejectionPoint } from './selective/rejectionCurve.js';
export { oracleCollaborativeAccuracy } from './selective/oracleCollaborativeAccuracy.js';
export type { OracleCollaborativeOptions } from './selective/oracleCollaborativeAccuracy.js';
export type { GivenMeasure, NamedMeasure, RankBy, RiskCoveragePoint, SelectiveOptions } from './selective/types.js';

export { oodAuroc } from './ood/oodAuroc.js';
export { fprAtTpr } from './ood/fprAtTpr.js';
export type { FprAtTprOptions } from './ood/fprAtTpr.js';
export { oodCurve } from './ood/oodCurve.js';
export type { OodCurve, OodCurveOptions, OodCurvePoint } from './ood/oodCurve.js';
export type { OodInput, OodOptions } from './ood/oodInput.js';

export { fitTemperature } from './calibrate/fitTemperature.js';
export type { FitTemperatureOptions, TemperatureParams } from './calibrate/fitTemperature.js';
export { applyTemperature } from './calibrate/applyTemperature.js';
export type { TemperatureDiagnostics, TemperatureSearchOptions } from './calibrate/temperatureCore.js';
export { fitMcTemperature } from './calibrate/fitMcTemperature.js';
export type {
  FitMcTemperatureOptions,
  McTemperatureObjective,
  McTemperatureParams,
} from './calibrate/fitMcTemperature.js';
export { applyMcTemperature } from './calibrate/applyMcTemperature.js';
export { fitPlatt } from './calibrate/fitPlatt.js';
export type { PlattParams } from './calibrate/fitPlatt.js';
export { applyPlatt } from './calibrate/applyPlatt.js';
export { fitHistogramBinning } from './calibrate/fitHistogramBinning.js';
export type {
  CalibrationHistogram,
  FitHistogramBinningOptions,
  HistogramBinningParams,
} from './calibrate/fitHistogramBinning.js';
export { applyHistogramBinning } from './calibrate/applyHistogramBinning.js';
export { fitIsotonic } from './calibrate/fitIsotonic.js';
export type { IsotonicMap, IsotonicParams } from './calibrate/fitIsotonic.js';
export { applyIsotonic } from './calibrate/applyIsotonic.js';
export { fitTopBinning } from './calibrate/fitTopBinning.js';
export type { FitTopBinningOptions, TopBin, TopBinningParams } from './calibrate/fitTopBinning.js';
export { applyTopBinning } from './calibrate/applyTopBinning.js';
export type { TopBinningPrediction } from './calibrate/applyTopBinning.js';
export { topBinningReport } from './calibrate/topBinningReport.js';
export type { TopBinningReport, TopDecomposition, TopReportBin } from './calibrate/topBinningReport.js';
export type { TopScore, TopScoreOptions } from './calibrate/topScore.js';
export { oddsRatio } from './calibrate/oddsRatio.js';
export { expectedOddsRatio } from './calibrate/expectedOddsRatio.js';
export { parseCalibrator } from './calibrate/parseCalibrator.js';
export type { CalibratorParams } from './calibrate/parseCalibrator.js';
export { applyCalibrator } from './calibrate/applyCalibrator.js';
export type { CalibratorHeader, CalibratorKind, FittedOn } from './calibrate/params.js';

export { evaluate } from './evaluate/evaluate.js';
export { evaluateEnsemble } from './evaluate/evaluateEnsemble.js';
export type { EnsembleEvaluation } from './evaluate/evaluateEnsemble.js';
export type { EvaluateOptions, Evaluation, EvaluationConfig } from './evaluate/evaluate.js';

export { createState, stateFromJSON, STATE_METRICS } from './state/createState.js';
export type { MetricState, StateJSON, StateMetric, StateMode, StateOptions, StateResult } from './state/createState.js';

export { bootstrap } from './bootstrap/bootstrap.js';
export type {
  BootstrapInterval,
  BootstrapMethod,
  BootstrapOptions,
  BootstrapResult,
  WeightedMetric,
} from './bootstrap/bootstrap.js';
export { comparePaired } from './bootstrap/comparePaired.js';
export type { ComparePairedOptions, PairedComparison, PairedMetric, PairedVerdict } from './bootstrap/comparePaired.js';
