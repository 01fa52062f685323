import { checkOptions } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import type { Labels, Scores } from '../input/types.js';
import { expectedErrorsAt } from './riskCore.js';
import { SELECTIVE_KEYS, selectiveInput, sweepOf } from './selectiveInput.js';
import type { SelectiveOptions } from './types.js';

/** Options of {@link accuracyAtCoverage}. */
export interface AccuracyAtCoverageOptions extends SelectiveOptions {
  /** Share of predictions kept, in (0, 1] (required). */
  coverage: number;
}

/**
 * The number of predictions k = ⌈c·N⌉ that a coverage c keeps, robust to c·N rounding up (0.3·10 → 3), in units of
 * `unit` (the weights' scale). Beyond 2^53 predictions float64 no longer holds every whole number, and rounding to one
 * changes nothing the result can show: k = c·N.
 */
export function keptFor(coverage: number, n: number, unit = 1): number {
  if (unit !== 1 || n > 2 ** 53) return coverage * n;
  let k = Math.ceil(coverage * n);
  while (k > 1 && (k - 1) / n >= coverage) k--;
  return Math.min(Math.max(k, 1), n);
}

/**
 * Accuracy of the most confident predictions at a given coverage: what a selective classifier achieves when it
 * answers only that share of the inputs.
 *
 * **Formula.** k = ⌈c·N⌉ (the fewest predictions reaching coverage c); accuracy = 1 − err̄(k)/k, with err̄(k) the
 * wrong predictions among the k most confident.
 *
 * **Conventions.**
 * - When k cuts a block of tied confidences, the block contributes its accuracy times the share kept (the
 *   expectation over orders of the tie); row order never matters.
 * - 1 − this value is torch-uncertainty's `RiskAtxCov` (which breaks ties by sort order).
 * - Correctness by top label; ranking by `by` (default `'max-prob'`).
 *
 * **References.**
 * - Geifman & El-Yaniv, NeurIPS 2017, arXiv:1705.08500.
 *
 * @param labels N integer labels.
 * @param scores [N, C] scores of the declared kind (or predicted classes with `input: 'predicted'`).
 * @param options `coverage` (required, in (0, 1]), `by`, `decisionThreshold` and input options.
 * @returns the selective accuracy in [0, 1].
 * @throws {UMError} on invalid input; `UM_OPTION` when `coverage` is missing or outside (0, 1].
 * @example
 * ```js
 * import { accuracyAtCoverage } from 'uncertainty-metrics';
 * const probs = [[0.9, 0.1], [0.8, 0.2], [0.8, 0.2], [0.7, 0.3], [0.6, 0.4]];
 * accuracyAtCoverage([0, 0, 1, 1, 1], probs, { coverage: 0.5 }); // ≈ 0.6666666667
 * ```
 */
export function accuracyAtCoverage(labels: Labels, scores: Scores, options: AccuracyAtCoverageOptions): number {
  const fn = 'accuracyAtCoverage';
  checkOptions(fn, options, SELECTIVE_KEYS, ['coverage']);
  const { coverage, ...rest } = (options ?? {}) as Partial<AccuracyAtCoverageOptions>;
  if (typeof coverage !== 'number' || !(coverage > 0 && coverage <= 1))
    fail('UM_OPTION', fn, 'options.coverage', 'be a number in (0, 1]', { value: coverage });
  const s = sweepOf(selectiveInput(fn, labels, scores, rest, true));
  const k = keptFor(coverage, s.n, s.unit);
  return 1 - expectedErrorsAt(s, k) / k;
}
