// uncertainty-metrics/io — reading prediction files in Node (CSV, JSON, NumPy). Re-exports only.
export { readPredictions } from './readPredictions.js';
export type { PredictionData, PredictionFormat, ReadOptions } from './types.js';
