import type { EnsembleOptions, EnsembleScores, InputOptions, ProbMatrix, Scores } from '../input/types.js';
import { applyHistogramBinningAs } from './applyHistogramBinning.js';
import { applyIsotonicAs } from './applyIsotonic.js';
import { applyMcTemperatureAs } from './applyMcTemperature.js';
import { applyPlattAs } from './applyPlatt.js';
import { applyTemperatureAs } from './applyTemperature.js';
import { applyTopBinningAs, type TopBinningPrediction } from './applyTopBinning.js';
import { readCalibrator, type CalibratorParams } from './parseCalibrator.js';
import type { TopScoreOptions } from './topScore.js';

/**
 * Applies a calibrator of any kind — what `um calibrate apply` and `um metrics --calibration` call.
 *
 * **Formula.** That of the calibrator's kind: {@link applyTemperature}, {@link applyMcTemperature},
 * {@link applyPlatt}, {@link applyHistogramBinning}, {@link applyIsotonic} or {@link applyTopBinning}.
 *
 * **Conventions.**
 * - `'mc-temperature'` takes stacked members [S, N, C]; every other kind a matrix [N, C] (or a binary vector).
 * - Returns validated probabilities, except `'top-binning'`, which returns its {@link TopBinningPrediction}
 *   (calibrated probabilities of the Top-k event only).
 *
 * **References.** See each calibrator.
 *
 * @param params any fitted calibrator (validated here).
 * @param scores scores of the declared kind (members for `'mc-temperature'`).
 * @param options input options of the kind.
 * @returns validated probabilities, or a {@link TopBinningPrediction}.
 * @throws {UMError} `UM_CALIBRATOR` for bad parameters or mismatched data; input errors as every metric.
 * @example
 * ```js
 * import { applyCalibrator, fitIsotonic } from 'uncertainty-metrics';
 * const m = fitIsotonic([0, 1, 0, 1], [0.1, 0.3, 0.5, 0.9], { binary: true });
 * Array.from(applyCalibrator(m, [0.9], { binary: true }).data); // => [0, 1]
 * ```
 */
export function applyCalibrator(
  params: CalibratorParams,
  scores: Scores | EnsembleScores,
  options: InputOptions & EnsembleOptions & Omit<TopScoreOptions, 'top'> = {},
): ProbMatrix | TopBinningPrediction {
  const fn = 'applyCalibrator';
  const p = readCalibrator(fn, params);
  switch (p.kind) {
    case 'temperature':
      return applyTemperatureAs(fn, p, scores as Scores, options);
    case 'mc-temperature':
      return applyMcTemperatureAs(fn, p, scores as EnsembleScores, options);
    case 'platt':
      return applyPlattAs(fn, p, scores as Scores, options);
    case 'histogram-binning':
      return applyHistogramBinningAs(fn, p, scores as Scores, options);
    case 'isotonic':
      return applyIsotonicAs(fn, p, scores as Scores, options);
    case 'top-binning':
      return applyTopBinningAs(fn, p, scores as Scores, options);
  }
}
