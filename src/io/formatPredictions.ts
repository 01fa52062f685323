import type { TopBinningPrediction } from '../calibrate/applyTopBinning.js';
import type { ProbMatrix } from '../input/types.js';
import { calibratedColumns, calibratedTable } from './writeCalibrated.js';

/**
 * CSV text of calibrated predictions: an optional `label` column, then `p_0 … p_{C−1}` (probabilities) or
 * `predicted, p_top, bin` (a Top-k binning calibrator). Numbers are written in their shortest round-trip form, so
 * reading the file back gives the same doubles.
 *
 * **Formula.** Not applicable (output).
 *
 * **Conventions.**
 * - RFC 4180 text via csv-stringify, a header line, one row per example, "\n" line ends.
 *
 * **References.** RFC 4180.
 *
 * @param result calibrated probabilities, or a Top-k binning prediction.
 * @param labels labels to write in a first `label` column (omit for unlabeled data).
 * @returns the CSV text.
 * @throws never.
 * @example
 * ```js
 * import { formatPredictions } from 'uncertainty-metrics/io';
 * import { toProbabilities } from 'uncertainty-metrics';
 * formatPredictions(toProbabilities([[0.25, 0.75]]), [1]); // => 'label,p_0,p_1\n1,0.25,0.75\n'
 * ```
 */
export function formatPredictions(result: ProbMatrix | TopBinningPrediction, labels?: ArrayLike<number>): string {
  return calibratedTable(calibratedColumns(result, 'kind' in result ? result.numClasses : 0), labels);
}
