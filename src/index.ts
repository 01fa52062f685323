// uncertainty-metrics — core entry. Zero runtime dependencies, no Node APIs: runs in browsers.
// This file only re-exports; every export lives in a file named after it.

export { UMError } from './errors/UMError.js';
export type { UMErrorCode, UMErrorDetails } from './errors/UMError.js';

export { toProbabilities } from './input/toProbabilities.js';
export type { InputOptions, Labels, ProbMatrix, ScoreKind, ScoreMatrix, Scores } from './input/types.js';

export { confidence } from './measures/confidence.js';
export { predictedClass } from './measures/predictedClass.js';
export { entropy } from './measures/entropy.js';
export type { EntropyOptions } from './measures/entropy.js';
export { normalizedEntropy } from './measures/normalizedEntropy.js';

export { assignBins } from './binning/assignBins.js';
export { binStatistics } from './binning/binStatistics.js';
export type { BinningConfig, BinningOptions, BinningScheme, EdgeBinning } from './binning/options.js';
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
export type { Preset, PresetName } from './presets/presets.js';

export { gce } from './calibration/gce.js';
export type { CalibrationConfig, CalibrationErrorOptions, UceConfig, UceOptions } from './calibration/core.js';
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

export { evaluate } from './evaluate/evaluate.js';
export type { EvaluateOptions, Evaluation, EvaluationConfig } from './evaluate/evaluate.js';
