/**
 * LLM classifiers and judges: label probabilities from raw API responses (token log-probabilities, verbalized
 * confidences, sampled answers), judges as classification problems with a position-bias check, and calibrators that
 * store how responses were read. No runtime dependency and no Node API: runs in browsers too.
 *
 * @module uncertainty-metrics/llm
 */
// uncertainty-metrics/llm — label probabilities of LLM classifiers and judges, and their calibration. Re-exports only.
export { verbalizer } from './verbalizer.js';
export type { Verbalizer, VerbalizerOptions } from './verbalizer.js';
export { labelProbabilities } from './labelProbabilities.js';
export type { ExcludedRow, LabelProbabilities, LabelProbabilityOptions, LabelReading } from './labelProbabilities.js';
export type { InvalidReason, MissingPolicy, Provenance } from './rows.js';
export type { ResponseFormat } from './responses.js';
export { parseConfidence } from './verbal.js';
export type { ConfidenceConfig, ConfidenceOptions } from './verbal.js';
export { goldLabels } from './gold.js';
export { judgeVerbalizer, positionBias } from './judges.js';
export type { JudgeOptions, PositionBias } from './judges.js';
export { applyLlmCalibrator, fitLlmCalibrator, parseLlmCalibrator } from './calibrator.js';
export type { FitLlmCalibratorOptions, LlmCalibrationMethod, LlmCalibratorParams } from './calibrator.js';
