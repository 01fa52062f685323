import { samplesPerWeight, weightUnit } from '../input/weights.js';
import { rescaleExponent, stableMean, timesPow2 } from '../math/pow2.js';
import { presetOf } from '../options/binning.js';
import { fail } from '../errors/fail.js';
import type { PresetName } from '../presets/presets.js';

/** Options of {@link negativeWaic} and {@link iscv}. */
export interface InformationCriterionOptions {
  /** Frequency weights of the N instances (default 1 each). */
  weights?: ArrayLike<number>;
  /** Members M for a flat typed array. */
  numMembers?: number;
  /** ddof of the variance over members in WAIC1 (default: the preset's, 1 — the sample variance of Vehtari et al.). */
  varianceDdof?: 0 | 1;
  /**
   * Standard error: `'instances'` (default) √(s²/N) with the sample variance over instances; `'members'` √(σ²/M)
   * with the population variance, as uncertainty_metrics computes it.
   */
  sem?: 'instances' | 'members';
  /** Compatibility preset (`'uncertainty-metrics'`: ddof 0, standard error over members). */
  preset?: PresetName;
}

/** A value with its standard error (`null` when it is undefined: one instance with `sem: 'instances'`). */
export interface EstimateWithError {
  readonly value: number;
  readonly sem: number | null;
}

/** Validated log-likelihoods [N, M] as rows (internal). */
export function logLikelihoodMatrix(
  fn: string,
  logp: ReadonlyArray<ArrayLike<number>> | Float32Array | Float64Array,
  options: InformationCriterionOptions,
): { data: Float64Array; n: number; m: number } {
  let n: number;
  let m: number;
  let get: (i: number, j: number) => unknown;
  if (logp instanceof Float64Array || logp instanceof Float32Array) {
    const mm = options.numMembers;
    if (typeof mm !== 'number' || !Number.isInteger(mm) || mm < 1)
      fail('UM_OPTION', fn, 'options.numMembers', 'be an integer ≥ 1 for a flat array', { value: mm });
    if (logp.length % mm !== 0)
      fail('UM_SHAPE', fn, 'logLikelihood', `have a length that is a multiple of numMembers (${mm})`, {
        value: logp.length,
      });
    m = mm;
    n = logp.length / mm;
    get = (i, j) => logp[i * mm + j];
  } else if (Array.isArray(logp)) {
    n = logp.length;
    const first: unknown = logp[0];
    if (n > 0 && (first === null || typeof first !== 'object'))
      fail('UM_SHAPE', fn, 'logLikelihood', 'be a matrix [N instances, M members]', { index: [0], value: first });
    m = n > 0 ? (first as ArrayLike<unknown>).length : 0;
    for (let i = 0; i < n; i++) {
      const row: unknown = logp[i];
      if (row === null || typeof row !== 'object' || (row as ArrayLike<unknown>).length !== m)
        fail('UM_SHAPE', fn, 'logLikelihood', `be a row of ${m} log-likelihoods like row 0`, {
          index: [i],
          value: row,
        });
    }
    get = (i, j) => (logp[i] as ArrayLike<unknown>)[j];
  } else {
    fail('UM_SHAPE', fn, 'logLikelihood', 'be a matrix [N, M] (nested, or flat with numMembers)', { value: logp });
  }
  if (n === 0 || m === 0)
    fail('UM_EMPTY', fn, 'logLikelihood', 'hold at least one instance and one member', { value: n * m });
  const data = new Float64Array(n * m);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < m; j++) {
      const v = get(i, j);
      if (typeof v !== 'number' || !Number.isFinite(v))
        fail('UM_NOT_FINITE', fn, 'logLikelihood', 'be a finite log-likelihood', { index: [i, j], value: v });
      if (v > 0)
        fail('UM_PROB_RANGE', fn, 'logLikelihood', 'be ≤ 0 (the log of a probability)', { index: [i, j], value: v });
      data[i * m + j] = v;
    }
  }
  return { data, n, m };
}

/** Resolves the variance and standard-error conventions (internal). */
export function resolveIc(
  fn: string,
  options: InformationCriterionOptions,
): { varianceDdof: 0 | 1; sem: 'instances' | 'members' } {
  const base = presetOf(fn, options.preset).informationCriteria;
  const varianceDdof = options.varianceDdof ?? base.varianceDdof;
  const sem = options.sem ?? base.sem;
  if (varianceDdof !== 0 && varianceDdof !== 1)
    fail('UM_OPTION', fn, 'options.varianceDdof', 'be 0 or 1', { value: varianceDdof });
  if (sem !== 'instances' && sem !== 'members')
    fail('UM_OPTION', fn, 'options.sem', `be 'instances' or 'members'`, { value: sem });
  return { varianceDdof, sem };
}

/** Mean and standard error of per-instance terms (internal). */
export function meanWithError(
  terms: Float64Array,
  m: number,
  sem: 'instances' | 'members',
  w?: Float64Array,
): EstimateWithError {
  // with frequency weights, N is Σw and every sum is weighted (equal to repeating instances)
  const wi = (i: number) => (w === undefined ? 1 : (w[i] as number));
  let n = 0;
  for (let i = 0; i < terms.length; i++) n += wi(i);
  // terms down to −1.8e308: mean and spread on values scaled by a power of two (the same bits otherwise)
  const mean = stableMean(terms, w);
  const e = spreadExponent(terms, mean);
  let ss = 0;
  for (let i = 0; i < terms.length; i++) if (wi(i) > 0) ss += wi(i) * timesPow2((terms[i] as number) - mean, -e) ** 2;
  const root = (x: number) => timesPow2(Math.sqrt(x), e);
  if (sem === 'members') return { value: mean, sem: root(ss / n / m) };
  // the instances the weights stand for: Σw of whole weights, N rows of relative ones (see samplesPerWeight)
  const u = w === undefined ? 1 : samplesPerWeight(w, weightUnit(w));
  if (u === 1) return { value: mean, sem: n < 2 ? null : root(ss / (n - 1) / n) };
  const samples = n * u;
  return { value: mean, sem: samples < 2 ? null : root(ss / n / (samples - 1)) };
}

/** The exponent that brings the largest |x_i − mean| near 1 when it lies outside [2^-100, 2^100] (else 0). */
function spreadExponent(x: ArrayLike<number>, mean: number): number {
  let max = 0;
  for (let i = 0; i < x.length; i++) max = Math.max(max, Math.abs((x[i] as number) - mean));
  return Number.isFinite(max) ? rescaleExponent(max) : 0;
}

/** Σ (x_i − mean)², Infinity only where the true sum exceeds float64 (the squares are taken scaled) (internal). */
export function scaledSquares(x: ArrayLike<number>, mean: number): number {
  const e = spreadExponent(x, mean);
  let ss = 0;
  for (let i = 0; i < x.length; i++) ss += timesPow2((x[i] as number) - mean, -e) ** 2;
  return timesPow2(ss, 2 * e);
}

/** LSE of row i of a row-major [N, M] matrix, optionally negated entries (internal). */
export function rowLogSumExp(data: Float64Array, i: number, m: number, sign: 1 | -1): number {
  let max = -Infinity;
  for (let j = 0; j < m; j++) max = Math.max(max, sign * (data[i * m + j] as number));
  let s = 0;
  for (let j = 0; j < m; j++) s += Math.exp(sign * (data[i * m + j] as number) - max);
  return max + Math.log(s);
}
