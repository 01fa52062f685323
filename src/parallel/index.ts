/**
 * Node only: `evaluate` with the fused row pass split across worker threads.
 *
 * @module uncertainty-metrics/parallel
 */
// uncertainty-metrics/parallel — Node only: the fused row pass across worker threads.
export { evaluateParallel } from './evaluateParallel.js';
export type { EvaluateParallelOptions } from './evaluateParallel.js';
