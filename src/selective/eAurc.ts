import type { Labels, Scores } from '../input/types.js';
import { type AurcOptions } from './aurc.js';
import { rankingDefinition, rankingFunction } from './rankingDefinition.js';

/** The one definition of this metric (its state and `evaluate` entry derive from it too). */
export const DEFINITION = rankingDefinition('eAurc');

/**
 * Excess AURC: the AURC minus that of an oracle ranking of the same predictions (every correct one more confident
 * than every wrong one) — the part of the AURC due to the ranking, not to the number of errors.
 *
 * **Formula.** E-AURC = AURC − AURC*, AURC* = (1/N)·Σ_{k=1..N} max(0, k − N₊)/k for the default estimator (the
 * exact oracle); for `'geifman'` and `'fd-shifts'` the peers' closed form AURC* ≈ κ* = r + (1 − r)·ln(1 − r),
 * r = error rate (FD-Shifts adds machine ε inside the log).
 *
 * **Conventions.**
 * - As {@link aurc}: correctness by top label, ranking by `by`, ties by expectation, `estimator` rule.
 * - The oracle is integrated with the same estimator, so E-AURC ≥ 0 and = 0 exactly for a perfect ranking
 *   (`'mean-risk'`, `'torch-uncertainty'`); κ* is only an approximation of the discrete oracle (the peers' E-AURC
 *   can be slightly negative).
 *
 * **References.**
 * - Geifman, Uziel & El-Yaniv, ICLR 2019, arXiv:1805.08206, §4 (E-AURC, κ*).
 * - Jaeger et al., "A Call to Reflect on Evaluation Practices for Failure Detection in Image Classification",
 *   ICLR 2023, arXiv:2211.15259 (FD-Shifts).
 *
 * @param labels N integer labels.
 * @param scores [N, C] scores of the declared kind (or predicted classes with `input: 'predicted'`).
 * @param options `estimator`, `by`, `decisionThreshold` and input options.
 * @returns the excess AURC.
 * @throws {UMError} on invalid input or options.
 * @example
 * ```js
 * import { eAurc } from 'uncertainty-metrics';
 * const probs = [[0.9, 0.1], [0.8, 0.2], [0.8, 0.2], [0.7, 0.3], [0.6, 0.4]];
 * eAurc([0, 0, 0, 1, 1], probs); // => 0
 * eAurc([1, 0, 0, 0, 1], probs); // ≈ 0.3666666667
 * ```
 */
export function eAurc(labels: Labels, scores: Scores, options: AurcOptions = {}): number {
  return rankingFunction(DEFINITION, 'eAurc', labels, scores, options);
}
