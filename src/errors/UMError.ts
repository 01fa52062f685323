/**
 * Stable error codes. A code never changes meaning once released; messages may be reworded.
 *
 * | code | thrown when |
 * |---|---|
 * | `UM_SHAPE` | an array has the wrong length or shape (ragged rows, labels and scores of different lengths, a flat array whose length is not a multiple of `numClasses`) |
 * | `UM_NOT_FINITE` | a score is NaN or ±Infinity where a finite number is required |
 * | `UM_PROB_RANGE` | a probability lies outside [0, 1] |
 * | `UM_ROW_SUM` | a row of probabilities does not sum to 1 within the tolerance |
 * | `UM_LABEL` | a label is not an integer in [0, numClasses) |
 * | `UM_EMPTY` | there is nothing to compute on (no rows, or every row filtered out) |
 * | `UM_OPTION` | an option has an invalid value (bins < 1, unknown norm or preset, conflicting options) |
 * | `UM_OUT_OF_BINS` | a score lies outside user-given bin edges |
 * | `UM_CALIBRATOR` | a calibrator (fitted parameters or a calibrator file) is malformed, of another kind, or does not fit the data (number of classes, members) |
 * | `UM_SINGLE_CLASS` | a two-class ranking metric (AUROC, AUPR, FPR at TPR) sees only one class: every prediction correct, every one wrong, or no in- or out-of-distribution sample |
 * | `UM_FILE_NOT_FOUND`, `UM_FILE_READ`, `UM_FILE_FORMAT` | file input (`uncertainty-metrics/io`) cannot be found, read or parsed |
 * | `UM_FILE_WRITE` | an output file (`um … -o`) cannot be written: its directory is missing or not writable, it is a directory, or the write failed (the previous file is left as it was) |
 * | `UM_DEPENDENCY` | an optional package a function needs is not installed (`vega` and `vega-lite` for `renderSvg`, `@duckdb/node-api` for `duckdbEngine`); the message names the package to install |
 * | `UM_MEMORY` | a streamed file's chunk did not fit a worker thread's memory (the command names the chunk and what to change) |
 * | `UM_RESPONSE` | a language-model response (`uncertainty-metrics/llm`) is malformed (a field missing or of the wrong type, a log-probability above 0, top-k probabilities summing past 1), or gives no label probabilities where the policy requires them (a refusal, no label token, a label missing under `missing: 'reject'`, no stated confidence) with `onInvalid: 'error'`; the message names the row and the field |
 * | `UM_STATE` | mergeable states that cannot be merged (different metric, options, classes or mode), a malformed state JSON, or a state configuration that cannot be merged exactly (float32 presets) |
 */
export type UMErrorCode =
  | 'UM_SHAPE'
  | 'UM_NOT_FINITE'
  | 'UM_PROB_RANGE'
  | 'UM_ROW_SUM'
  | 'UM_LABEL'
  | 'UM_EMPTY'
  | 'UM_OPTION'
  | 'UM_OUT_OF_BINS'
  | 'UM_SINGLE_CLASS'
  | 'UM_CALIBRATOR'
  | 'UM_FILE_NOT_FOUND'
  | 'UM_FILE_READ'
  | 'UM_FILE_FORMAT'
  | 'UM_FILE_WRITE'
  | 'UM_DEPENDENCY'
  | 'UM_MEMORY'
  | 'UM_RESPONSE'
  | 'UM_STATE';

/** Where an error happened: the public function, the argument, the index into it and the offending value. */
export interface UMErrorDetails {
  /** Name of the public function that was called, e.g. `"ece"`. */
  readonly fn: string;
  /** Name of the argument or option, e.g. `"probs"`, `"labels"`, `"options.bins"`. */
  readonly argument?: string;
  /** Index into the argument: `[row]` or `[row, column]`. */
  readonly index?: readonly number[];
  /** The offending value, as given. */
  readonly value?: unknown;
  /** File the data came from (file input only). */
  readonly file?: string;
  /** 0-based byte offset in that file (binary formats: where the data ends or breaks). */
  readonly byte?: number;
  /** 1-based line in that file, where it has lines. */
  readonly line?: number;
  /** 1-based column (CSV field) in that file. */
  readonly column?: number;
}

/**
 * The one error type thrown by the library. `code` is stable and machine-readable; `message` names the
 * function, the argument, the index and the value, e.g. `ece: probs[17][3] must be in [0, 1]; got 1.2`.
 *
 * **Formula.** Not applicable (an error type).
 *
 * **Conventions.**
 * - Every failure of validated input raises a `UMError`; no public function returns a silent `0` or `NaN`
 *   for bad input.
 * - `details.index` is zero-based: `[row]` for labels and vectors, `[row, column]` for matrices.
 *
 * **References.** None.
 *
 * @example
 * ```js
 * import { ece, UMError } from 'uncertainty-metrics';
 * let code;
 * try { ece([0], [[1.2, -0.2]]); } catch (e) { code = e instanceof UMError ? e.code : 'other'; }
 * code; // => 'UM_PROB_RANGE'
 * ```
 */
export class UMError extends Error {
  /** Stable error code. */
  readonly code: UMErrorCode;
  /** Structured location of the error. */
  readonly details: UMErrorDetails;

  /**
   * @param code stable error code
   * @param message full human-readable message (already prefixed with the function name)
   * @param details structured location
   */
  constructor(code: UMErrorCode, message: string, details: UMErrorDetails) {
    super(message);
    this.name = 'UMError';
    this.code = code;
    this.details = details;
  }
}
