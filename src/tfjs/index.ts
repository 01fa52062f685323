// uncertainty-metrics/tfjs — training-time losses for TensorFlow.js (optional peer dependency @tensorflow/tfjs).
export { confidencePenalty, mmceLoss, uceLoss } from './losses.js';
export type { MmceLossOptions, UceLossOptions } from './losses.js';
export { tensorScores } from './tensorScores.js';
export { mcPredict } from './mcPredict.js';
export { fitTemperatureTf, TemperatureScaling } from './temperature.js';
export type { FitTemperatureTfOptions } from './temperature.js';
