import type { RowStatsMode } from '../kernels/rowStatsTypes.js';
import { labelArray } from './labelArray.js';
import { probMatrix } from './probMatrix.js';
import type { InputOptions, Labels, ProbMatrix, Scores } from './types.js';
import { positiveRows, weightArray, type WeightOptions } from './weights.js';

/**
 * Validates labels, scores and weights of a metric in one step and drops rows of weight 0 (internal). `integer`
 * requires whole-number weights (metrics that count repeated samples one by one); `statsMode` asks the validating
 * pass for the row statistics the metric reads (Σp² for Brier, Σp·ln p for the entropies).
 */
export function labeledInput(
  fn: string,
  labels: Labels,
  scores: Scores,
  options: InputOptions & WeightOptions,
  integer = false,
  statsMode: RowStatsMode = 0,
): { p: ProbMatrix; y: Int32Array; w: Float64Array | undefined } {
  const p = probMatrix(fn, scores, options, statsMode);
  const y = labelArray(fn, labels, p.n, p.numClasses);
  return positiveRows(p, y, weightArray(fn, options.weights, p.n, integer));
}
