/**
 * Training-time calibration for TensorFlow.js (optional peer dependency `@tensorflow/tfjs`): differentiable UCE,
 * MMCE and confidence-penalty losses, a temperature-scaling layer, MC-dropout prediction.
 *
 * @module uncertainty-metrics/tfjs
 */
// uncertainty-metrics/tfjs — training-time losses for TensorFlow.js (optional peer dependency @tensorflow/tfjs).
export { confidencePenalty, mmceLoss, uceLoss } from './losses.js';
export type { MmceLossOptions, UceLossOptions } from './losses.js';
export { tensorScores } from './tensorScores.js';
export { mcPredict } from './mcPredict.js';
export { fitTemperatureTf, TemperatureScaling } from './temperature.js';
export type { FitTemperatureTfOptions } from './temperature.js';
