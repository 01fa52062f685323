import { checkOptions } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import type { Labels, Scores } from '../input/types.js';
import { AURC_ESTIMATORS, type AurcEstimator } from './riskCore.js';
import { SELECTIVE_KEYS, selectiveInput, sweepOf, type SelectiveData } from './selectiveInput.js';
import type { Sweep } from './sweep.js';
import type { SelectiveOptions } from './types.js';
import { rankingDefinition, rankingFunction } from './rankingDefinition.js';

/** The one definition of this metric (its state and `evaluate` entry derive from it too). */
export const DEFINITION = rankingDefinition('aurc');

/** Options of {@link aurc}, {@link eAurc} and {@link riskCoverageCurve}. */
export interface AurcOptions extends SelectiveOptions {
  /** Integration rule (default `'mean-risk'`); the others reproduce peer libraries (see {@link AurcEstimator}). */
  estimator?: AurcEstimator;
}

/** Validates the options and input of the AURC family; returns the data, its sweep and the estimator (internal). */
export function aurcInput(
  fn: string,
  labels: Labels,
  scores: Scores,
  options: AurcOptions,
  finiteTotal?: string,
): { d: SelectiveData; s: Sweep; estimator: AurcEstimator } {
  checkOptions(fn, options, SELECTIVE_KEYS, ['estimator']);
  const { estimator = 'mean-risk', ...rest } = options;
  if (typeof estimator !== 'string' || !AURC_ESTIMATORS.includes(estimator)) {
    fail('UM_OPTION', fn, 'options.estimator', `be one of ${AURC_ESTIMATORS.map((x) => `'${x}'`).join(', ')}`, {
      value: estimator,
    });
  }
  // the count-based estimators sum over k = 1 … N predictions: whole-number (frequency) weights only
  const d = selectiveInput(fn, labels, scores, rest, {
    integer: estimator !== 'fd-shifts',
    ...(finiteTotal === undefined ? {} : { finiteTotal }),
  });
  return { d, s: sweepOf(d), estimator };
}

/**
 * Area under the risk–coverage curve: the selective risk (top-1 error of the kept predictions) averaged over all
 * coverages, keeping the most confident predictions first. Lower is better; unlike AUROC/AUPR it rewards a model
 * for making fewer errors, not only for ranking them last.
 *
 * **Formula.** AURC = (1/N)·Σ_{k=1..N} r̄_k, r̄_k = err̄(k)/k, where err̄(k) is the number of wrong predictions among
 * the k most confident; within a block of tied confidences err̄ grows linearly (the expectation over the orders of
 * the tie).
 *
 * **Conventions.**
 * - Correct = the top-label prediction (argmax, ties → lowest index) equals the label; ranking by `by` (default
 *   `'max-prob'`).
 * - Ties: the expected risk over random orders of the tied predictions, so the value does not depend on row order.
 * - Integration `estimator`: `'mean-risk'` (default, above), `'geifman'` (Geifman et al.'s `RC_curve` with its
 *   N − i denominator), `'fd-shifts'` (trapezoid over one point per distinct confidence, extended to coverage 0 with
 *   the first risk), `'torch-uncertainty'` (trapezoid over k/N divided by 1 − 1/N). Without ties 'mean-risk' equals
 *   1 − verified_calibration's `get_selective_stats` accuracy.
 * - All correct gives 0 and all wrong 1 (no error: the curve is defined).
 *
 * **References.**
 * - Geifman & El-Yaniv, "Selective Classification for Deep Neural Networks", NeurIPS 2017, arXiv:1705.08500.
 * - Geifman, Uziel & El-Yaniv, "Bias-Reduced Uncertainty Estimation for Deep Neural Classifiers", ICLR 2019,
 *   arXiv:1805.08206 (AURC, E-AURC).
 * - Ding, Liu, Xiong & Shi, 2020, arXiv:1903.02050, eqs. 4–5 and Table 1.
 *
 * @param labels N integer labels.
 * @param scores [N, C] scores of the declared kind (or predicted classes with `input: 'predicted'`).
 * @param options `estimator`, `by`, `decisionThreshold` and input options.
 * @returns the AURC in [0, 1].
 * @throws {UMError} on invalid input or options.
 * @example
 * ```js
 * import { aurc } from 'uncertainty-metrics';
 * // confidences 0.9, 0.8, 0.8, 0.7, 0.6; the last two wrong: risks 0, 0, 0, 1/4, 2/5
 * const probs = [[0.9, 0.1], [0.8, 0.2], [0.8, 0.2], [0.7, 0.3], [0.6, 0.4]];
 * aurc([0, 0, 0, 1, 1], probs); // ≈ 0.13
 * aurc([0, 0, 0, 1, 1], probs, { estimator: 'fd-shifts' }); // ≈ 0.09
 * ```
 */
export function aurc(labels: Labels, scores: Scores, options: AurcOptions = {}): number {
  return rankingFunction(DEFINITION, 'aurc', labels, scores, options);
}
