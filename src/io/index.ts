/**
 * Node only: reading prediction files (CSV, JSON, JSON Lines, NumPy, Parquet) whole or in batches, reading saved
 * calibrators, and writing predictions back.
 *
 * @module uncertainty-metrics/io
 */
// uncertainty-metrics/io — reading and writing prediction and calibrator files in Node. Re-exports only.
export { readPredictions } from './readPredictions.js';
export type { PredictionData, PredictionFormat, ReadOptions } from './types.js';
export { readCalibrator } from './readCalibrator.js';
export { formatPredictions } from './formatPredictions.js';
export { streamPredictions } from './readPredictions.js';
export type { PredictionBatch } from './batches.js';
export { readLlmResponses } from './readLlmResponses.js';
export type { GoldValue, LlmRecords } from './readLlmResponses.js';
