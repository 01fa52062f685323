import { disagreementOf } from '../ensemble/disagreement.js';
import { gibbsNllOf } from '../ensemble/gibbsNll.js';
import { meanPrediction } from '../ensemble/mcIntegrate.js';
import { decomposeUncertainty } from '../ensemble/modelUncertainty.js';
import { positiveRows, weightInput, type WeightOptions } from '../input/weights.js';
import { ENSEMBLE_KEYS, checkOptions } from '../errors/checkOptions.js';
import { ensembleMatrix } from '../input/ensembleMatrix.js';
import { labelArray } from '../input/labelArray.js';
import type { EnsembleOptions, EnsembleScores, Labels } from '../input/types.js';
import type { PresetName } from '../presets/presets.js';
import { mean } from '../scores/brier.js';
import type { WarningOptions } from '../warnings/warnings.js';
import type { Evaluation } from './evaluate.js';
import { runSuiteOnBatch } from '../engine/suite.js';
import { EVALUATE } from './suite.js';

/** The calibration summary of an ensemble's predictive distribution plus its model-uncertainty summaries. */
export interface EnsembleEvaluation extends Evaluation {
  /** Number of members S. */
  numMembers: number;
  /** Mean over examples of H(p̄), nats. */
  totalUncertainty: number;
  /** Mean over examples of (1/S)·Σ_s H(p_s), nats. */
  expectedDataUncertainty: number;
  /** Mean over examples of the mutual information between label and member, nats. */
  mutualInformation: number;
  /** Mean pairwise disagreement of the members' predicted classes (0 with one member). */
  disagreement: number;
  /** Mean NLL of the members (Gibbs); `nll` is the NLL of the averaged prediction. */
  gibbsNll: number;
}

/**
 * Every metric of {@link evaluate} on an ensemble's (or MC-dropout passes') averaged prediction, plus the
 * model-uncertainty summaries — what `um metrics` reports for a file of stacked member outputs.
 *
 * **Formula.** Calibration metrics, Brier and NLL of p̄ = (1/S)·Σ_s p_s (see {@link mcIntegrate}); means over examples
 * of H(p̄), (1/S)·Σ_s H(p_s) and their difference (see {@link modelUncertainty}); pairwise disagreement; the members'
 * mean NLL.
 *
 * **Conventions.**
 * - Members are stacked [S, N, C] (see {@link toEnsemble}); probabilities are averaged, not logits.
 * - Natural logs; the NLL of p̄ is exact from logits (log-sum-exp over members).
 *
 * **References.**
 * - Lakshminarayanan, Pritzel & Blundell, NeurIPS 2017, arXiv:1612.01474.
 * - Depeweg et al., ICML 2018, arXiv:1710.07283.
 *
 * @param labels N integer labels.
 * @param members [S, N, C] scores of the declared kind.
 * @param options `bins`, `preset`, `classwise` (see {@link evaluate}), `weights`, `onWarning` and ensemble input options.
 * @returns an {@link EnsembleEvaluation}.
 * @throws {UMError} on invalid input or options.
 * @example
 * ```js
 * import { evaluateEnsemble } from 'uncertainty-metrics';
 * const r = evaluateEnsemble([0, 1], [[[0.9, 0.1], [0.2, 0.8]], [[0.7, 0.3], [0.6, 0.4]]]);
 * [r.numMembers, r.accuracy, r.disagreement]; // => [2, 1, 0.5]
 * ```
 */
export function evaluateEnsemble(
  labels: Labels,
  members: EnsembleScores,
  options: EnsembleOptions &
    WarningOptions &
    WeightOptions & { bins?: number; preset?: PresetName; classwise?: boolean } = {},
): EnsembleEvaluation {
  const fn = 'evaluateEnsemble';
  checkOptions(fn, options, ENSEMBLE_KEYS, ['bins', 'preset', 'onWarning', 'weights', 'classwise']);
  const e = ensembleMatrix(fn, members, options);
  const y = labelArray(fn, labels, e.n, e.numClasses);
  const given = weightInput(fn, options.weights, e.n, { finiteTotal: `${fn} reports n, the total weight` });
  const w = given?.w;
  const p = meanPrediction(e);
  // the evaluate suite on the mean prediction: the same metrics, keys, warnings and nulls as evaluate
  const base = runSuiteOnBatch(
    EVALUATE,
    fn,
    positiveRows(p, y, given?.w),
    options as Readonly<Record<string, unknown>>,
  );
  const u = decomposeUncertainty(e);
  const total = w === undefined ? e.n : w.reduce((a, b) => a + b, 0);
  return {
    ...base,
    numMembers: e.numMembers,
    totalUncertainty: mean(u.total, w),
    expectedDataUncertainty: mean(u.expectedData, w),
    mutualInformation: mean(u.mutualInformation, w),
    disagreement: e.numMembers < 2 ? 0 : disagreementOf(fn, e, w, total),
    gibbsNll: gibbsNllOf(fn, e, y, options, w),
  };
}
