import type { ScoreKind } from '../input/types.js';

/** File formats `readPredictions` understands. */
export type PredictionFormat = 'csv' | 'json' | 'jsonl' | 'parquet' | 'npy';

/** Options of `readPredictions`. */
export interface ReadOptions {
  /**
   * Declared kind of the scores. JSON: selects the key (`probs`, `logits` or `logprobs`; without it the file must
   * hold exactly one of them, or `probs`). CSV and NumPy: recorded with the data.
   */
  input?: ScoreKind;
  /** Format; by default from the extension (.csv, .json, .jsonl/.ndjson, .parquet, .npy). */
  format?: PredictionFormat;
  /** NumPy: path of the labels `.npy` (1-D integers). Required for `.npy` scores. */
  labels?: string;
  /** CSV and Parquet: name of the label column (default `"label"`). */
  labelColumn?: string;
  /** CSV and Parquet: prefix of the score columns, numbered from 0 (default `"p_"`: p_0 … p_{C−1}). */
  scorePrefix?: string;
  /**
   * CSV and Parquet: name of a column of sample weights (non-negative numbers); JSON Lines: a key of each line.
   * Default: none (every row weighs 1).
   */
  weightColumn?: string;
  /** JSON holding both a single prediction and member outputs: read the members (default: the single prediction). */
  members?: boolean;
  /**
   * Whether the file must hold labels (default true). With false, a CSV without the label column, a JSON without
   * `labels` and a NumPy file without `labels` are read with `hasLabels: false` (applying a calibrator to new data).
   */
  requireLabels?: boolean;
  /**
   * CSV, JSON, JSON Lines and Parquet: the class names, class 0 first (at least 2, distinct). Labels are then these
   * names (a string equal to one; a number matches the name that is its decimal text, `7` → `"7"`), any other label
   * is a `UM_LABEL` error naming its place and value; CSV and Parquet score columns may be named after the classes
   * (`<scorePrefix><name>`, no prefix by default: `cat`, `dog`) or numbered as without names (`p_0` is the first
   * name's). The names are kept in the result's `classes`. Default: none (labels are class indices).
   */
  classes?: readonly string[];
}

/** Predictions read from a file: flat row-major scores with an explicit number of classes, and raw labels. */
export interface PredictionData {
  /** The file read. */
  readonly path: string;
  readonly format: PredictionFormat;
  /** Declared kind of `scores`. */
  readonly input: ScoreKind;
  readonly n: number;
  readonly numClasses: number;
  /** Labels as read (validated as integers in [0, C) by the metrics, which report their position); empty without labels. */
  readonly labels: Float64Array;
  /** Whether the file held labels (always true unless `requireLabels: false`). */
  readonly hasLabels: boolean;
  /** Scores of a single model, row-major n × numClasses (`Float32Array` for float32 NumPy files); absent for ensembles. */
  readonly scores?: Float64Array | Float32Array;
  /** Sample weights read from `weightColumn`, one per row (checked by the metrics). */
  readonly weights?: Float64Array;
  /** Ensemble member outputs, member-major numMembers × n × numClasses; present instead of `scores`. */
  readonly members?: Float64Array | Float32Array;
  /** Number of members S of `members`. */
  readonly numMembers?: number;
  /** The class names of `options.classes`, class 0 first (absent without them). */
  readonly classes?: readonly string[];
  /** CSV: the score columns, in class order. */
  readonly columns?: readonly string[];
  /** CSV and Parquet: columns present but not used; JSON: keys present but not used. */
  readonly ignoredColumns?: readonly string[];
  /**
   * Describes where row `row` (0-based; and score column `column`, 0-based class index; of member `member` for
   * ensembles) is in the file.
   */
  locate(row: number, column?: number, argument?: 'labels' | 'scores', member?: number): string;
}
