import { INPUT_KEYS, checkOptions } from '../errors/checkOptions.js';
import { probMatrix } from '../input/probMatrix.js';
import type { InputOptions, ProbMatrix, Scores } from '../input/types.js';
import { markValidated } from '../input/validated.js';
import { logOdds, type PlattParams } from './fitPlatt.js';
import { booleanField, checkClasses, diagnosticsField, numberField, readHeader, wholeField } from './params.js';

/** Validates Platt parameters (internal; shared with parseCalibrator). */
export function readPlatt(fn: string, params: unknown): PlattParams {
  const h = readHeader(fn, params, 'platt');
  // any finite a, b: a·f + b may overflow to ±Infinity, which the softplus form below maps to exactly 0 or 1
  const a = numberField(fn, params, 'params', 'a');
  const b = numberField(fn, params, 'params', 'b');
  const d = diagnosticsField(fn, params);
  wholeField(fn, d, 'params.diagnostics', 'iterations', 0);
  booleanField(fn, d, 'params.diagnostics', 'converged');
  numberField(fn, d, 'params.diagnostics', 'loss', (v) => v >= 0, 'be a finite number ≥ 0');
  return { ...h, a, b, diagnostics: d as PlattParams['diagnostics'] };
}

/** softplus(x) = ln(1 + eˣ), never overflowing: Infinity only for x = Infinity, 0 for x = −Infinity (internal). */
function softplus(x: number): number {
  return x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x));
}

/**
 * Applies Platt scaling: calibrated P(y = 1) from the score's log-odds.
 *
 * **Formula.** P(y = 1 | f) = 1 / (1 + exp(a·f + b)), f = ln(p / (1 − p)) (the logit for logits).
 *
 * **Conventions.**
 * - Two classes only; the parameters are validated (`UM_CALIBRATOR`; a and b any finite numbers). Returns validated
 *   two-column probabilities [1 − P, P] with exact log-probabilities, computed as exp(−softplus(±z)), z = a·f + b:
 *   finite for every z, an overflow of a·f to ±Infinity giving exactly 0 and 1.
 *
 * **References.**
 * - Platt 1999; Lin, Lin & Weng 2007, doi:10.1007/s10994-007-5018-6.
 *
 * @param params from {@link fitPlatt} or {@link parseCalibrator}.
 * @param scores N scores (`binary: true`) or [N, 2] of the declared kind.
 * @param options input options.
 * @returns validated probabilities [N, 2].
 * @throws {UMError} `UM_CALIBRATOR` for bad parameters or another number of classes; input errors as every metric.
 * @example
 * ```js
 * import { applyPlatt, fitPlatt } from 'uncertainty-metrics';
 * const p = fitPlatt([0, 1], [-1, 1], { binary: true, input: 'logits' });
 * applyPlatt({ ...p, a: -1, b: 0 }, [0], { binary: true, input: 'logits' }).data[1]; // => 0.5
 * ```
 */
export function applyPlatt(params: PlattParams, scores: Scores, options: InputOptions = {}): ProbMatrix {
  return applyPlattAs('applyPlatt', params, scores, options);
}

/** {@link applyPlatt} naming `fn` in errors (internal; shared with applyCalibrator). */
export function applyPlattAs(fn: string, params: unknown, scores: Scores, options: InputOptions): ProbMatrix {
  const t = readPlatt(fn, params);
  checkOptions(fn, options, INPUT_KEYS);
  const p = probMatrix(fn, scores, options);
  checkClasses(fn, t, p.numClasses);
  const f = logOdds(fn, p);
  const data = new Float64Array(2 * p.n);
  const logData = new Float64Array(2 * p.n);
  for (let i = 0; i < p.n; i++) {
    // z ∈ [−Infinity, Infinity], never NaN (f and b finite); ln P = −softplus(z), ln(1 − P) = −softplus(−z)
    const z = t.a * (f[i] as number) + t.b;
    logData[2 * i + 1] = -softplus(z);
    logData[2 * i] = -softplus(-z);
    data[2 * i + 1] = Math.exp(-softplus(z));
    data[2 * i] = Math.exp(-softplus(-z));
  }
  return markValidated({
    kind: 'probabilities',
    data,
    logData,
    n: p.n,
    numClasses: 2,
    input: 'logprobs',
    binary: p.binary,
  });
}
