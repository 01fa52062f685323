/** The input side of the engine: one validated batch, the combined weight rules, an outcome's value (internal). */
import { labelArray } from '../input/labelArray.js';
import { probMatrix } from '../input/probMatrix.js';
import type { InputOptions, Labels, ProbMatrix, Scores } from '../input/types.js';
import { keptRows, weightInput, type WeightOptions, type WeightRules } from '../input/weights.js';
import type { RowStats, RowStatsMode } from '../kernels/rowStatsTypes.js';
import type { WarningOptions } from '../warnings/warnings.js';
import type { Member, Outcome } from './computation.js';
import type { Batch } from './definition.js';

/** Options every derived public function takes besides its metric's own. */
export type RunOptions = InputOptions & WeightOptions & WarningOptions & object;

/**
 * Validates labelled probabilities and weights into one batch (rows of weight 0 dropped), as every function and
 * state does (internal). Logits and log-probabilities keep ln p at each row's label only (input/logRows.ts), not an
 * N × C array — no metric reads another (test/input/logRows.test.ts); scores lent to the conversion (input/lent.ts,
 * the CLI's) are converted in place.
 */
export function labeledBatch(
  fn: string,
  labels: Labels,
  scores: Scores,
  options: InputOptions & WeightOptions,
  statsMode: RowStatsMode,
  rules: WeightRules,
  stats?: RowStats,
): Batch {
  const p = probMatrix(fn, scores, options, statsMode, stats, { labels });
  const y = labelArray(fn, labels, p.n, p.numClasses);
  return weightedRows(fn, p, y, options.weights, statsMode, rules).batch;
}

/**
 * The batch of validated rows under `weights` (validated here; rows of weight 0 dropped, their row statistics gathered
 * from the whole matrix's) and which rows it kept: batch row j is row `rows[j]` of `p` (`undefined`: every row, the batch
 * is `p` itself) — for the orders carried over between weightings (accumulate/orderHints.ts) (internal).
 */
export function weightedRows(
  fn: string,
  p: ProbMatrix,
  y: Int32Array,
  weights: unknown,
  statsMode: RowStatsMode,
  rules: WeightRules,
): { batch: Batch; rows: Int32Array | undefined } {
  return keptRows(p, y, weightInput(fn, weights, p.n, rules)?.w, statsMode);
}

/** Combines the weight rules of several metrics (the strictest of each). */
export function weightRulesOf(members: readonly Member[]): WeightRules {
  const rules = members.map((m) => m.def.weightRules?.(m.config) ?? {});
  const out: WeightRules = {};
  if (rules.some((r) => r.integer === true)) out.integer = true;
  const total = rules.find((r) => r.finiteTotal !== undefined)?.finiteTotal;
  if (total !== undefined) out.finiteTotal = total;
  return out;
}

/** The value of an outcome, or its error thrown. */
export function valueOf(outcome: Outcome | undefined): unknown {
  if (outcome === undefined) throw new Error('no such member');
  if ('error' in outcome) throw outcome.error;
  return outcome.value;
}
