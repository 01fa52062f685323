import type { InputOptions, ScoreKind } from '../input/types.js';
import type { WeightOptions } from '../input/weights.js';

import type { NamedMeasure } from '../select/confidence.js';

export type { NamedMeasure };

/**
 * The caller's own per-sample values (mutual information, a verbalized confidence, an OoD detector's score…),
 * one per row; the key states the direction: `confidence` (higher = more confident) or `uncertainty` (higher =
 * more uncertain).
 */
export type GivenMeasure = { readonly confidence: ArrayLike<number> } | { readonly uncertainty: ArrayLike<number> };

/** What ranks the predictions: a named measure of the scores, or values given by the caller. */
export type RankBy = NamedMeasure | GivenMeasure;

/** Options of the selective-prediction functions. */
export interface SelectiveOptions extends Omit<InputOptions, 'input'>, WeightOptions {
  /**
   * What the scores are: `'probs'` (default), `'logits'`, `'logprobs'` (see {@link InputOptions}), or
   * `'predicted'` — a vector of predicted class indices (e.g. an LLM judge's answers), which needs `by` to give
   * per-sample values.
   */
  input?: ScoreKind | 'predicted';
  /**
   * What ranks the predictions (default `'max-prob'`; `'threshold-distance'` when a `decisionThreshold` other
   * than 0.5 is given, as uncertainty_metrics' oracle-collaborative accuracy does).
   */
  by?: RankBy;
  /**
   * Two classes only: the prediction is class 1 when P(y = 1) > `decisionThreshold` (default 0.5, which equals
   * the argmax with ties to class 0); its confidence is the probability of the predicted class.
   */
  decisionThreshold?: number;
}

/** One point of a risk–coverage curve: the predictions at least as confident as `threshold` are kept. */
export interface RiskCoveragePoint {
  /** Threshold in the scale of the ranking measure (kept: measure ≥ threshold for confidences, ≤ for uncertainties). */
  readonly threshold: number;
  /** Number of kept predictions (their total weight with sample weights). */
  readonly count: number;
  /** Kept fraction count / N (of the total weight with sample weights). */
  readonly coverage: number;
  /** Top-1 error of the kept predictions (selective risk). */
  readonly risk: number;
}
