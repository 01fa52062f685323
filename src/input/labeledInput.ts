import type { RowStatsMode } from '../kernels/rowStatsTypes.js';
import { labelArray } from './labelArray.js';
import { probMatrix } from './probMatrix.js';
import type { InputOptions, Labels, ProbMatrix, Scores } from './types.js';
import { positiveRows, weightInput, type WeightOptions, type WeightRules } from './weights.js';

/**
 * Validates labels, scores and weights of a metric in one step and drops rows of weight 0 (internal). `rules`
 * (or `true`: whole-number weights, for metrics that count repeated samples one by one) are the weights'
 * requirements; `statsMode` asks the validating pass for the row statistics the metric reads (Σp² for Brier,
 * Σp·ln p for the entropies). `w` is scaled (see `WeightOptions`): row i weighs `w[i] · scale`.
 */
export function labeledInput(
  fn: string,
  labels: Labels,
  scores: Scores,
  options: InputOptions & WeightOptions,
  rules: boolean | WeightRules = false,
  statsMode: RowStatsMode = 0,
): { p: ProbMatrix; y: Int32Array; w: Float64Array | undefined; scale: number } {
  const p = probMatrix(fn, scores, options, statsMode);
  const y = labelArray(fn, labels, p.n, p.numClasses);
  const weights = weightInput(fn, options.weights, p.n, typeof rules === 'boolean' ? { integer: rules } : rules);
  return { ...positiveRows(p, y, weights?.w), scale: weights?.scale ?? 1 };
}
