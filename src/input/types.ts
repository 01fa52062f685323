/**
 * A matrix of scores, one row per example and one column per class: nested arrays (`number[][]`), or a flat
 * row-major `Float32Array`/`Float64Array` together with an explicit `numClasses`.
 */
export type ScoreMatrix = ReadonlyArray<ArrayLike<number>> | Float32Array | Float64Array;

/** The declared kind of the scores. It is never guessed from the values' range. */
export type ScoreKind = 'probs' | 'logits' | 'logprobs';

/** Labels: integers in `[0, numClasses)`, one per row. */
export type Labels = ArrayLike<number>;

/** Options that declare what the scores are. Every metric accepts them. */
export interface InputOptions {
  /**
   * What the scores are: `'probs'` (default) — probabilities in [0, 1] whose rows sum to 1;
   * `'logits'` — unnormalized log-scores, turned into probabilities by a float64 softmax via log-sum-exp;
   * `'logprobs'` — natural-log probabilities (≤ 0, rows log-sum-exp to 0).
   */
  input?: ScoreKind;
  /** Number of classes C. Required for a flat typed array; checked against the row length of nested arrays. */
  numClasses?: number;
  /**
   * Binary task: `scores` is a vector of P(y = 1) (or one logit per row with `input: 'logits'`), expanded to
   * the two-column matrix [1 − p, p] (sigmoid for logits). Labels must be 0 or 1.
   */
  binary?: boolean;
  /** Largest accepted |Σ_k p_k − 1| for a row of probabilities (default 1e-3). `Infinity` disables the check. */
  sumTolerance?: number;
}

/**
 * Validated probabilities: a flat row-major array of `n × numClasses` values in [0, 1] whose rows sum to 1
 * within the tolerance. Built by {@link toProbabilities}; every metric accepts it in place of raw scores and then
 * skips validation. A typed-array input of kind `'probs'` is referenced, not copied: do not mutate it afterwards.
 */
export interface ProbMatrix {
  readonly kind: 'probabilities';
  /** Row-major probabilities, `data[i * numClasses + k]` = P(y = k | x_i). */
  readonly data: Float64Array | Float32Array;
  /**
   * Natural-log probabilities in the same layout, kept when the input was logits or log-probabilities so that
   * log-scores (NLL) do not lose the precision that exponentiation discards (ln p_ik = z_ik − LSE_i).
   */
  readonly logData?: Float64Array;
  /** Number of rows (examples). */
  readonly n: number;
  /** Number of classes C ≥ 2. */
  readonly numClasses: number;
  /** The declared kind of the scores the probabilities were computed from. */
  readonly input: ScoreKind;
  /** True when built from a binary vector of P(y = 1) (or of one logit / log-probability per row). */
  readonly binary: boolean;
}

/** Scores as accepted by every metric: a raw matrix (or binary vector) of the declared kind, or validated probabilities. */
export type Scores = ScoreMatrix | ArrayLike<number> | ProbMatrix;

/**
 * Stacked member (or MC-dropout pass) outputs of an ensemble, layout [S, N, C]: an array of S member matrices (each
 * nested [N][C] or a flat row-major typed array with `numClasses`), or one flat typed array of S·N·C values with
 * `numMembers` and `numClasses` (member-major: value (s, i, k) at (s·N + i)·C + k).
 */
export type EnsembleScores = ReadonlyArray<ScoreMatrix> | Float32Array | Float64Array | EnsembleMatrix;

/** Options that declare what ensemble scores are. */
export interface EnsembleOptions {
  /** `'probs'` (default), `'logits'` or `'logprobs'`, as for single predictions. */
  input?: ScoreKind;
  /** Number of members S; required for one flat typed array. */
  numMembers?: number;
  /** Number of classes C; required for flat typed arrays. */
  numClasses?: number;
  /** Largest accepted |Σ_k p_k − 1| per member row (default 1e-3). */
  sumTolerance?: number;
}

/**
 * Validated ensemble probabilities, member-major [S, N, C] (built by `toEnsemble`); every ensemble function accepts
 * it without validating again.
 */
export interface EnsembleMatrix {
  readonly kind: 'ensemble';
  /** Probabilities, value (s, i, k) at `(s * n + i) * numClasses + k`. */
  readonly data: Float64Array | Float32Array;
  /** Natural-log probabilities in the same layout when the input was logits or log-probabilities. */
  readonly logData?: Float64Array;
  readonly numMembers: number;
  readonly n: number;
  readonly numClasses: number;
  readonly input: ScoreKind;
}

/** One validated batch of labelled predictions: probabilities, labels and weights (all > 0; scaled, see `WeightOptions`). */
export interface LabeledBatch {
  readonly p: ProbMatrix;
  readonly y: Int32Array;
  readonly w: Float64Array | undefined;
}
