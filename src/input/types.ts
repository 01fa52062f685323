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
