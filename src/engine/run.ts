import type { Labels, Scores } from '../input/types.js';
import type { MetricDefinition } from './definition.js';
import type { RunOptions } from './inputs.js';
import { runSuite, single } from './suite.js';

export type { RunOptions } from './inputs.js';

/**
 * A metric's public function, derived from its definition: options checked against the definition's keys and
 * resolved, the input validated once into a batch, the batch run through the same stores a mergeable state keeps,
 * and the metric finished from them (internal).
 */
export function runMetric<C, R>(
  def: MetricDefinition<C, R>,
  fn: string,
  labels: Labels,
  scores: Scores,
  options: RunOptions = {},
): R {
  return runSuite(single(def), fn, labels, scores, options);
}
