import { mean } from './brier.js';
import { crpsRows, type CrpsForecast, type CrpsOptions } from './crpsPerExample.js';
import { WEIGHT_KEYS, checkOptions } from '../errors/checkOptions.js';
import { weightArray, type WeightOptions } from '../input/weights.js';

/**
 * Continuous ranked probability score: the mean over observations of the distance between the predictive
 * distribution and the observation.
 *
 * **Formula.** CRPS = (1/N)·Σ_i CRPS(F_i, y_i), CRPS(F, y) = E|X − y| − ½·E|X − X′| (see {@link crpsPerExample}
 * for the Normal closed form and the three sample estimators).
 *
 * **Conventions.**
 * - Same units as y; lower is better; a point mass scores the absolute error.
 * - Samples use the fair estimator by default; `preset: 'torchmetrics'` (nrg) and `'uncertainty-metrics'` (cyclic)
 *   reproduce those libraries.
 *
 * **References.**
 * - Gneiting & Raftery, JASA 2007, doi:10.1198/016214506000001437.
 * - Ferro, Q. J. R. Meteorol. Soc. 2014, doi:10.1002/qj.2270.
 *
 * @param observations N observed values.
 * @param forecast `{ mean, std }` or `{ samples }`.
 * @param options `estimator`, `preset`.
 * @returns the mean CRPS.
 * @throws {UMError} on invalid input or options (as {@link crpsPerExample}: both forecast forms, a CRPS beyond
 *   float64); the mean of CRPS values up to 1.8e308 is taken without overflow.
 * @example
 * ```js
 * import { crps } from 'uncertainty-metrics';
 * // row 1: E|X − y| = 1.5 and the fair pair term 6/(2·2·1) = 1.5; row 2 is a point mass at y
 * crps([1.5, 0], { samples: [[0, 3], [0, 0]] }); // => 0
 * crps([1.5, 0], { samples: [[0, 3], [0, 0]] }, { estimator: 'nrg' }); // => 0.375
 * ```
 */
export function crps(
  observations: ArrayLike<number>,
  forecast: CrpsForecast,
  options: CrpsOptions & WeightOptions = {},
): number {
  checkOptions('crps', options, WEIGHT_KEYS, ['estimator', 'preset']);
  const rows = crpsRows('crps', observations, forecast, options);
  return mean(rows, weightArray('crps', options.weights, rows.length));
}
