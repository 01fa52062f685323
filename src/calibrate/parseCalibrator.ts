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
export type CalibratorParams =
  TemperatureParams | McTemperatureParams | PlattParams | HistogramBinningParams | IsotonicParams | TopBinningParams;

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
      if (value === null || typeof value !== 'object' || Array.isArray(value))
        fail('UM_CALIBRATOR', fn, 'params', 'be a calibrator object', { value });
      return fail('UM_CALIBRATOR', fn, 'params.kind', `be one of ${CALIBRATOR_KINDS.map((k) => `"${k}"`).join(', ')}`, {
        value: kind,
      });
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
 *   input) and every parameter of the kind against its range — the values a fit can produce, for which every
 *   `apply…` returns finite probabilities (rows summing to 1):
 *   - `temperature`, `mc-temperature`: T in [1e-6, 1e12] (below, 1/T turns the rounding of log-probabilities into
 *     noise; the search bounds must lie in the same range); `objective` 'predictive' or 'mean-nll'; diagnostics:
 *     NLLs ≥ 0 (null for Infinity), whole evaluations, `converged`, `atBound` 'lower' | 'upper' | null, bounds
 *     0 < T_min < 1 < T_max.
 *   - `platt`: a, b any finite numbers (a·f + b may overflow to ±Infinity, which gives exactly 0 or 1);
 *     diagnostics: whole iterations, `converged`, loss ≥ 0.
 *   - `histogram-binning`: edges increasing strictly from 0 to 1, values in [0, 1], whole counts ≥ 0 summing to n.
 *   - `isotonic`: breakpoints x in [0, 1], increasing strictly; y in [0, 1], non-decreasing; at least one.
 *   - `top-binning`: cuts increasing strictly; one more bin than cuts, in score order (bin j's score range [lo, hi]
 *     with cuts[j − 1] ≤ lo ≤ hi < cuts[j]); whole count ≥ 1 and hits in [0, count], counts summing to n;
 *     probability in [0, 1]; interval 0 ≤ lo ≤ hits/count ≤ hi ≤ 1; accuracy in [0, 1]; delta in (0, 1); top in
 *     [1, C); a named score with its own direction; EOR ≥ 1 or null.
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
