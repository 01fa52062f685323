import { fail } from '../errors/fail.js';
import { readHistogramBinning } from './applyHistogramBinning.js';
import { readIsotonic } from './applyIsotonic.js';
import { readMcTemperature } from './applyMcTemperature.js';
import { readPlatt } from './applyPlatt.js';
import { readTemperature } from './applyTemperature.js';
import { readTopBinning } from './applyTopBinning.js';
import type { HistogramBinningParams } from './fitHistogramBinning.js';
import type { IsotonicParams } from './fitIsotonic.js';
import type { McTemperatureParams } from './fitMcTemperature.js';
import type { PlattParams } from './fitPlatt.js';
import type { TemperatureParams } from './fitTemperature.js';
import type { TopBinningParams } from './fitTopBinning.js';
import { CALIBRATOR_KINDS, field } from './params.js';

/** Any fitted calibrator. */
export type CalibratorParams = TemperatureParams | McTemperatureParams | PlattParams | HistogramBinningParams | IsotonicParams | TopBinningParams;

/** Validates calibrator parameters of any kind (internal; shared with applyCalibrator). */
export function readCalibrator(fn: string, value: unknown): CalibratorParams {
  const kind = field(value, 'kind');
  switch (kind) {
    case 'temperature':
      return readTemperature(fn, value);
    case 'mc-temperature':
      return readMcTemperature(fn, value);
    case 'platt':
      return readPlatt(fn, value);
    case 'histogram-binning':
      return readHistogramBinning(fn, value);
    case 'isotonic':
      return readIsotonic(fn, value);
    case 'top-binning':
      return readTopBinning(fn, value);
    default:
      if (value === null || typeof value !== 'object' || Array.isArray(value)) fail('UM_CALIBRATOR', fn, 'params', 'be a calibrator object', { value });
      return fail('UM_CALIBRATOR', fn, 'params.kind', `be one of ${CALIBRATOR_KINDS.map((k) => `"${k}"`).join(', ')}`, { value: kind });
  }
}

/**
 * Reads a saved calibrator: parses JSON text (or takes a parsed object) and validates every field, so a corrupted,
 * truncated or foreign file is rejected here instead of producing numbers later.
 *
 * **Formula.** Not applicable (validation).
 *
 * **Conventions.**
 * - Checks `format` ("uncertainty-metrics/calibrator"), `version` (1), `kind`, what it was fitted on (n, classes,
 *   input) and the kind's parameters (finite numbers, increasing edges, probabilities in [0, 1], matching lengths).
 * - The result is the same plain object, typed; `JSON.stringify` of a fitted calibrator round-trips exactly.
 *
 * **References.** None.
 *
 * @param json JSON text or an already parsed object.
 * @returns the validated {@link CalibratorParams}.
 * @throws {UMError} `UM_CALIBRATOR` naming the first bad field (or the JSON syntax error).
 * @example
 * ```js
 * import { fitTemperature, parseCalibrator } from 'uncertainty-metrics';
 * const text = JSON.stringify(fitTemperature([0, 1], [[2, 0], [0, 1]], { input: 'logits' }));
 * parseCalibrator(text).kind; // => 'temperature'
 * ```
 */
export function parseCalibrator(json: string | object): CalibratorParams {
  const fn = 'parseCalibrator';
  let value: unknown = json;
  if (typeof json === 'string') {
    try {
      value = JSON.parse(json);
    } catch (error) {
      fail('UM_CALIBRATOR', fn, 'json', `be valid JSON (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  return readCalibrator(fn, value);
}
