import { INPUT_KEYS, checkOptions } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import { probMatrix } from '../input/probMatrix.js';
import type { InputOptions, ProbMatrix, Scores } from '../input/types.js';
import type { IsotonicMap, IsotonicParams } from './fitIsotonic.js';
import { assemble, problemScores } from './oneVsRest.js';
import { checkClasses, field, numbersField, readHeader } from './params.js';
import { interpolate } from './pav.js';

/** Validates isotonic parameters (internal; shared with parseCalibrator). */
export function readIsotonic(fn: string, params: unknown): IsotonicParams {
  const h = readHeader(fn, params, 'isotonic');
  const list = field(params, 'maps');
  const expected = h.fittedOn.numClasses === 2 ? 1 : h.fittedOn.numClasses;
  if (!Array.isArray(list) || list.length !== expected)
    fail('UM_CALIBRATOR', fn, 'params.maps', `be an array of ${expected} maps`, { value: list });
  const maps: IsotonicMap[] = Array.from(list, (m: unknown, j) => {
    const path = `params.maps[${j}]`;
    const x = numbersField(fn, m, path, 'x');
    const y = numbersField(fn, m, path, 'y', x.length);
    if (x.length === 0) fail('UM_CALIBRATOR', fn, `${path}.x`, 'hold at least one breakpoint', { value: x });
    x.forEach((v, i) => {
      // breakpoints are scores, i.e. probabilities
      if (v < 0 || v > 1) fail('UM_CALIBRATOR', fn, `${path}.x`, 'be scores in [0, 1]', { index: [i], value: v });
      if (i > 0 && v <= (x[i - 1] as number))
        fail('UM_CALIBRATOR', fn, `${path}.x`, 'increase strictly', { index: [i], value: v });
      const w = y[i] as number;
      if (w < 0 || w > 1 || (i > 0 && w < (y[i - 1] as number)))
        fail('UM_CALIBRATOR', fn, `${path}.y`, 'be non-decreasing probabilities', { index: [i], value: w });
    });
    return { x, y };
  });
  return { ...h, maps };
}

/**
 * Applies isotonic regression: every score is mapped through the fitted non-decreasing map.
 *
 * **Formula.** p̂_k = m_k(p_k), linear between breakpoints, constant beyond; C > 2: the row divided by its sum.
 *
 * **Conventions.**
 * - As scikit-learn's `IsotonicRegression(out_of_bounds='clip').predict`. Two classes: [1 − m, m]; C > 2: a row of
 *   zeros becomes uniform. Parameters validated against their ranges (`UM_CALIBRATOR`, see {@link parseCalibrator}); returns validated probabilities.
 *
 * **References.**
 * - Zadrozny & Elkan, KDD 2002.
 *
 * @param params from {@link fitIsotonic} or {@link parseCalibrator}.
 * @param scores [N, C] scores of the declared kind (a vector with `binary: true`).
 * @param options input options.
 * @returns validated probabilities [N, C].
 * @throws {UMError} `UM_CALIBRATOR` for bad parameters or another number of classes; input errors as every metric.
 * @example
 * ```js
 * import { applyIsotonic, fitIsotonic } from 'uncertainty-metrics';
 * const m = fitIsotonic([0, 1, 0, 1], [0.1, 0.3, 0.5, 0.9], { binary: true });
 * Array.from(applyIsotonic(m, [0.2, 0.7], { binary: true }).data); // ≈ [0.75, 0.25, 0.25, 0.75]
 * ```
 */
export function applyIsotonic(params: IsotonicParams, scores: Scores, options: InputOptions = {}): ProbMatrix {
  return applyIsotonicAs('applyIsotonic', params, scores, options);
}

/** {@link applyIsotonic} naming `fn` in errors (internal; shared with applyCalibrator). */
export function applyIsotonicAs(fn: string, params: unknown, scores: Scores, options: InputOptions): ProbMatrix {
  const t = readIsotonic(fn, params);
  checkOptions(fn, options, INPUT_KEYS);
  const p = probMatrix(fn, scores, options);
  checkClasses(fn, t, p.numClasses);
  const values = t.maps.map((m, j) => Float64Array.from(problemScores(p, j), (v) => interpolate(m.x, m.y, v)));
  return assemble(p, values);
}
