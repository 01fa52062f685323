import { INPUT_KEYS, checkOptions } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import { probMatrix } from '../input/probMatrix.js';
import type { InputOptions, ProbMatrix, Scores } from '../input/types.js';
import { markValidated } from '../input/validated.js';
import { logOdds, type PlattParams } from './fitPlatt.js';
import { checkClasses, field, numberField, readHeader } from './params.js';

/** Validates Platt parameters (internal; shared with parseCalibrator). */
export function readPlatt(fn: string, params: unknown): PlattParams {
  const h = readHeader(fn, params, 'platt');
  const a = numberField(fn, params, 'params', 'a');
  const b = numberField(fn, params, 'params', 'b');
  const d = field(params, 'diagnostics');
  if (d === null || typeof d !== 'object') fail('UM_CALIBRATOR', fn, 'params.diagnostics', 'be an object', { value: d });
  return { ...h, a, b, diagnostics: d as PlattParams['diagnostics'] };
}

/**
 * Applies Platt scaling: calibrated P(y = 1) from the score's log-odds.
 *
 * **Formula.** P(y = 1 | f) = 1 / (1 + exp(a·f + b)), f = ln(p / (1 − p)) (the logit for logits).
 *
 * **Conventions.**
 * - Two classes only; the parameters are validated (`UM_CALIBRATOR`). Returns validated two-column probabilities
 *   [1 − P, P] with exact log-probabilities.
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
    const z = t.a * (f[i] as number) + t.b;
    // ln P = −softplus(z), ln(1 − P) = −softplus(−z)
    const sp = (x: number) => (x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x)));
    logData[2 * i + 1] = -sp(z);
    logData[2 * i] = -sp(-z);
    data[2 * i + 1] = Math.exp(-sp(z));
    data[2 * i] = Math.exp(-sp(-z));
  }
  return markValidated({ kind: 'probabilities', data, logData, n: p.n, numClasses: 2, input: 'logprobs', binary: p.binary });
}
