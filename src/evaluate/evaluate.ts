import { runSuite } from '../engine/suite.js';
import type { Labels, Scores } from '../input/types.js';
import { EVALUATE } from './suite.js';
import type { EvaluateOptions, Evaluation } from './types.js';

export type { EvaluateOptions, Evaluation, EvaluationConfig } from './types.js';

/**
 * Every calibration metric of the library on one set of predictions, validating the input once — what
 * `um metrics` reports.
 *
 * **Formula.** accuracy = (1/N)·Σ_i 1[ŷ_i = y_i]; the others as in {@link ece}, {@link mce}, {@link rmsce},
 * {@link sce}, {@link ace}, {@link tace}, {@link uce}, {@link aece}, {@link amce}, {@link brier}, {@link nll},
 * {@link auroc}, {@link aupr} (errors as positives), {@link aurc} and {@link eAurc} (key `eaurc`);
 * meanEntropy = (1/N)·Σ_i H(p_i) with {@link entropy}.
 *
 * **Conventions.**
 * - Every metric uses the same `bins` and `preset`; TACE keeps its 0.01 threshold; AECE/AMCE size their own bins.
 * - The NLL is never clipped: an exact 0 for a label gives Infinity and a `UM_W_INFINITE` warning.
 * - Selective metrics rank by max probability; AUROC/AUPR are `null` with a `UM_W_DEGENERATE` warning when every
 *   prediction is correct (or every one wrong) instead of throwing, so the other numbers are still reported. The
 *   uncertainty_metrics presets use Keras' 200-threshold AUC.
 * - `config` records every option that changes a number, resolved (no implicit defaults left).
 * - One fused pass over the matrix validates it and computes every per-row statistic (max, argmax, Σp², Σp·ln p) that
 *   the metrics share (see {@link useKernels}); `classwise: false` skips SCE/ACE/TACE, the only metrics that need
 *   every entry again.
 *
 * **References.** See each metric.
 *
 * @param labels N integer labels in [0, C).
 * @param scores [N, C] scores of the declared kind.
 * @param options `bins`, `preset`, `classwise`, `weights`, `onWarning` and input options.
 * @returns an {@link Evaluation}.
 * @throws {UMError} on invalid input or options (`UM_OPTION` when the class-wise SCE's bins × classes exceeds 2^20).
 * @example
 * ```js
 * import { evaluate } from 'uncertainty-metrics';
 * const r = evaluate([0, 1, 1], [[0.9, 0.1], [0.2, 0.8], [0.6, 0.4]], { bins: 10 });
 * [r.n, r.numClasses, r.ece, r.config.bins]; // => [3, 2, 0.3, 10]
 * ```
 */
export function evaluate(labels: Labels, scores: Scores, options: EvaluateOptions = {}): Evaluation {
  return runSuite(EVALUATE, 'evaluate', labels, scores, options);
}
