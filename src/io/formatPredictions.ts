import type { TopBinningPrediction } from '../calibrate/applyTopBinning.js';
import { fail } from '../errors/fail.js';
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
 * @throws {UMError} when `result` is not probabilities or a Top-k binning prediction of a consistent shape with
 *   finite values, or `labels` are not one whole number ≥ 0 per row.
 * @example
 * ```js
 * import { formatPredictions } from 'uncertainty-metrics/io';
 * import { toProbabilities } from 'uncertainty-metrics';
 * formatPredictions(toProbabilities([[0.25, 0.75]]), [1]); // => 'label,p_0,p_1\n1,0.25,0.75\n'
 * ```
 */
export function formatPredictions(result: ProbMatrix | TopBinningPrediction, labels?: ArrayLike<number>): string {
  const fn = 'formatPredictions';
  const n = checkResult(fn, result);
  if (labels !== undefined) {
    if (
      !Array.isArray(labels) &&
      !(
        ArrayBuffer.isView(labels) &&
        !(labels instanceof DataView) &&
        !(labels instanceof BigInt64Array) &&
        !(labels instanceof BigUint64Array)
      )
    ) {
      fail('UM_SHAPE', fn, 'labels', 'be an array of labels', { value: labels });
    }
    if (labels.length !== 0 && labels.length !== n)
      fail('UM_SHAPE', fn, 'labels', `have one label per row (${n})`, { value: labels.length });
    for (let i = 0; i < labels.length; i++) {
      const y = labels[i];
      if (typeof y !== 'number' || !Number.isInteger(y) || y < 0)
        fail('UM_LABEL', fn, 'labels', 'be an integer ≥ 0', { index: [i], value: y });
    }
  }
  return calibratedTable(calibratedColumns(result, 'kind' in result ? result.numClasses : 0), labels);
}

/**
 * Checks a result to write — its shape from its own fields, which are not trusted (a hand-made `n` of 1e9 made
 * a table of a billion rows until memory ran out) — and returns its number of rows.
 */
function checkResult(fn: string, result: unknown): number {
  const r = result as Partial<ProbMatrix> & Partial<TopBinningPrediction>;
  if (r === null || typeof r !== 'object')
    fail('UM_SHAPE', fn, 'result', 'be probabilities (toProbabilities, apply…) or a Top-k binning prediction', {
      value: result,
    });
  const finite = (argument: string, x: ArrayLike<number>) => {
    for (let i = 0; i < x.length; i++)
      if (!Number.isFinite(x[i]))
        fail('UM_NOT_FINITE', fn, argument, 'be a finite number', { index: [i], value: x[i] });
  };
  if ('kind' in r) {
    if (r.kind !== 'probabilities' || !(r.data instanceof Float64Array || r.data instanceof Float32Array))
      fail(
        'UM_SHAPE',
        fn,
        'result',
        "be probabilities ({ kind: 'probabilities', data: Float64Array | Float32Array, n, numClasses })",
        { value: r.kind },
      );
    const { n, numClasses: c } = r;
    if (typeof c !== 'number' || !Number.isInteger(c) || c < 2)
      fail('UM_SHAPE', fn, 'result.numClasses', 'be an integer ≥ 2', { value: c });
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n * c !== r.data.length)
      fail('UM_SHAPE', fn, 'result.n', `be the number of rows of data (${r.data.length} values / ${c} classes)`, {
        value: n,
      });
    finite('result.data', r.data);
    return n;
  }
  const { predicted, probability, bin } = r;
  if (
    !(predicted instanceof Int32Array) ||
    !(probability instanceof Float64Array) ||
    !(bin instanceof Int32Array) ||
    predicted.length !== probability.length ||
    bin.length !== probability.length
  ) {
    fail(
      'UM_SHAPE',
      fn,
      'result',
      'be probabilities or a Top-k binning prediction ({ predicted: Int32Array, probability: Float64Array, bin: Int32Array } of one length)',
      { value: result },
    );
  }
  finite('result.probability', probability);
  return probability.length;
}
