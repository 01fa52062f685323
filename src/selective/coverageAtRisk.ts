import { checkOptions } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import type { Labels, Scores } from '../input/types.js';
import { riskCoveragePoints } from './riskCore.js';
import { SELECTIVE_KEYS, selectiveInput, sweepOf } from './selectiveInput.js';
import type { RiskCoveragePoint, SelectiveOptions } from './types.js';

/** Options of {@link coverageAtRisk}. */
export interface CoverageAtRiskOptions extends SelectiveOptions {
  /** Largest acceptable selective risk (top-1 error of the kept predictions), in [0, 1] (required). */
  risk: number;
}

/**
 * The largest coverage whose selective risk stays within a target, and the threshold that achieves it — the
 * operating point of a selective classifier with an error budget.
 *
 * **Formula.** Among the points of the risk–coverage curve (one per distinct value of the measure), the one with
 * the largest coverage such that risk ≤ target.
 *
 * **Conventions.**
 * - Only thresholds are considered: a block of tied confidences is kept or rejected whole.
 * - `null` when no threshold reaches the target (even the most confident block has a larger risk): the
 *   classifier must abstain on everything.
 * - Correctness by top label; ranking by `by` (default `'max-prob'`). The coverage equals torch-uncertainty's
 *   `CovAtxRisk` where it has no ties.
 *
 * **References.**
 * - Geifman & El-Yaniv, NeurIPS 2017, arXiv:1705.08500 (selection with guaranteed risk).
 *
 * @param labels N integer labels.
 * @param scores [N, C] scores of the declared kind (or predicted classes with `input: 'predicted'`).
 * @param options `risk` (required, in [0, 1]), `by`, `decisionThreshold` and input options.
 * @returns the {@link RiskCoveragePoint} (threshold, count, coverage, risk), or `null` when no threshold reaches
 *   the target.
 * @throws {UMError} on invalid input; `UM_OPTION` when `risk` is missing or outside [0, 1].
 * @example
 * ```js
 * import { coverageAtRisk } from 'uncertainty-metrics';
 * const probs = [[0.9, 0.1], [0.8, 0.2], [0.8, 0.2], [0.7, 0.3], [0.6, 0.4]];
 * coverageAtRisk([0, 0, 1, 1, 1], probs, { risk: 0.5 }); // => { threshold: 0.7, count: 4, coverage: 0.8, risk: 0.5 }
 * ```
 */
export function coverageAtRisk(
  labels: Labels,
  scores: Scores,
  options: CoverageAtRiskOptions,
): RiskCoveragePoint | null {
  const fn = 'coverageAtRisk';
  checkOptions(fn, options, SELECTIVE_KEYS, ['risk']);
  const { risk, ...rest } = (options ?? {}) as Partial<CoverageAtRiskOptions>;
  if (typeof risk !== 'number' || !(risk >= 0 && risk <= 1))
    fail('UM_OPTION', fn, 'options.risk', 'be a number in [0, 1]', { value: risk });
  const d = selectiveInput(fn, labels, scores, rest, { finiteTotal: 'the point reports the weight kept' });
  let best: RiskCoveragePoint | null = null;
  for (const p of riskCoveragePoints(sweepOf(d), d.sign)) if (p.risk <= risk) best = p;
  return best;
}
