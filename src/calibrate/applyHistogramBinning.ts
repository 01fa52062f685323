import { edgeBins } from '../binning/edgeBins.js';
import { INPUT_KEYS, checkOptions } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import { probMatrix } from '../input/probMatrix.js';
import type { InputOptions, ProbMatrix, Scores } from '../input/types.js';
import type { CalibrationHistogram, HistogramBinningParams } from './fitHistogramBinning.js';
import { assemble, problemScores } from './oneVsRest.js';
import { checkClasses, field, numbersField, readHeader } from './params.js';

/** Validates histogram-binning parameters (internal; shared with parseCalibrator). */
export function readHistogramBinning(fn: string, params: unknown): HistogramBinningParams {
  const h = readHeader(fn, params, 'histogram-binning');
  const binning = field(params, 'binning');
  if (binning !== 'equal-width' && binning !== 'equal-mass')
    fail('UM_CALIBRATOR', fn, 'params.binning', "be 'equal-width' or 'equal-mass'", { value: binning });
  const list = field(params, 'histograms');
  const expected = h.fittedOn.numClasses === 2 ? 1 : h.fittedOn.numClasses;
  if (!Array.isArray(list) || list.length !== expected)
    fail('UM_CALIBRATOR', fn, 'params.histograms', `be an array of ${expected} histograms`, { value: list });
  const histograms: CalibrationHistogram[] = Array.from(list, (x: unknown, j) => {
    const path = `params.histograms[${j}]`;
    const edges = numbersField(fn, x, path, 'edges');
    if (
      edges.length < 2 ||
      edges[0] !== 0 ||
      edges[edges.length - 1] !== 1 ||
      edges.some((e, i) => i > 0 && e <= (edges[i - 1] as number))
    ) {
      fail('UM_CALIBRATOR', fn, `${path}.edges`, 'increase strictly from 0 to 1', { value: edges });
    }
    const values = numbersField(fn, x, path, 'values', edges.length - 1);
    values.forEach((v, i) => {
      if (v < 0 || v > 1)
        fail('UM_CALIBRATOR', fn, `${path}.values`, 'be probabilities in [0, 1]', { index: [i], value: v });
    });
    const counts = numbersField(fn, x, path, 'counts', edges.length - 1);
    let total = 0;
    counts.forEach((c, i) => {
      if (!Number.isInteger(c) || c < 0)
        fail('UM_CALIBRATOR', fn, `${path}.counts`, 'be whole numbers ≥ 0', { index: [i], value: c });
      total += c;
    });
    // every calibration example falls in one bin of every histogram
    if (total !== h.fittedOn.n)
      fail('UM_CALIBRATOR', fn, `${path}.counts`, `sum to fittedOn.n = ${h.fittedOn.n}`, { value: total });
    return { edges, values, counts };
  });
  return { ...h, binning, histograms };
}

/**
 * Applies histogram binning: every score is replaced by the calibrated frequency of its bin.
 *
 * **Formula.** p̂_k = v_{b(p_k)} for each class problem; for C > 2 the row is divided by its sum.
 *
 * **Conventions.**
 * - Bins [e_b, e_{b+1}) with the last closed, the edges stored at fitting (the shared edge binning of the core).
 * - Two classes: [1 − v, v]; C > 2: a row whose values are all 0 becomes uniform.
 * - Parameters validated against their ranges (`UM_CALIBRATOR`, see {@link parseCalibrator}); returns validated probabilities.
 *
 * **References.**
 * - Zadrozny & Elkan, ICML 2001 and KDD 2002.
 *
 * @param params from {@link fitHistogramBinning} or {@link parseCalibrator}.
 * @param scores [N, C] scores of the declared kind (a vector with `binary: true`).
 * @param options input options.
 * @returns validated probabilities [N, C].
 * @throws {UMError} `UM_CALIBRATOR` for bad parameters or another number of classes; input errors as every metric.
 * @example
 * ```js
 * import { applyHistogramBinning, fitHistogramBinning } from 'uncertainty-metrics';
 * const h = fitHistogramBinning([0, 1, 1, 1], [0.1, 0.2, 0.8, 0.9], { binary: true, bins: 2 });
 * Array.from(applyHistogramBinning(h, [0.3, 0.6], { binary: true }).data); // => [0.5, 0.5, 0, 1]
 * ```
 */
export function applyHistogramBinning(
  params: HistogramBinningParams,
  scores: Scores,
  options: InputOptions = {},
): ProbMatrix {
  return applyHistogramBinningAs('applyHistogramBinning', params, scores, options);
}

/** {@link applyHistogramBinning} naming `fn` in errors (internal; shared with applyCalibrator). */
export function applyHistogramBinningAs(
  fn: string,
  params: unknown,
  scores: Scores,
  options: InputOptions,
): ProbMatrix {
  const h = readHistogramBinning(fn, params);
  checkOptions(fn, options, INPUT_KEYS);
  const p = probMatrix(fn, scores, options);
  checkClasses(fn, h, p.numClasses);
  const values = h.histograms.map((hist, j) => {
    const index = edgeBins(fn, problemScores(p, j), hist.edges, 'left').index;
    return Float64Array.from(index, (b) => hist.values[b] as number);
  });
  return assemble(p, values);
}
