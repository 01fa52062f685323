import { fail } from '../errors/fail.js';
import type { ProbMatrix } from '../input/types.js';
import { brentMinimize } from '../math/minimize.js';
import { emitWarning, type WarningOptions } from '../warnings/warnings.js';

/** Default search interval of T. */
export const DEFAULT_TEMPERATURE_BOUNDS: readonly [number, number] = [1e-3, 1e3];

/** Options of the temperature search. */
export interface TemperatureSearchOptions extends WarningOptions {
  /** Interval [T_min, T_max] searched (default [0.001, 1000]); 0 < T_min < 1 < T_max. */
  bounds?: readonly [number, number];
  /** Absolute tolerance on ln T (default 1e-10). */
  tolerance?: number;
  /** Largest number of objective evaluations (default 200). */
  maxEvaluations?: number;
}

/** What the search did — plain JSON stored with the fitted temperature. */
export interface TemperatureDiagnostics {
  /** Objective (NLL, nats) at T = 1. */
  readonly nllBefore: number;
  /** Objective at the fitted T (never larger than nllBefore). */
  readonly nllAfter: number;
  /** Objective evaluations. */
  readonly evaluations: number;
  /** Whether Brent's bracket shrank below the tolerance. */
  readonly converged: boolean;
  /** `'lower'`/`'upper'` when the fitted T sits at that bound of the search interval (a warning is emitted), else null. */
  readonly atBound: 'lower' | 'upper' | null;
  /** The search interval. */
  readonly bounds: readonly [number, number];
}

/** Natural-log probabilities of a validated matrix: exact from logits, ln p from probabilities (internal). */
export function logProbabilities(p: ProbMatrix): Float64Array {
  if (p.logData !== undefined) return p.logData;
  const out = new Float64Array(p.data.length);
  for (let i = 0; i < out.length; i++) out[i] = Math.log(p.data[i] as number);
  return out;
}

/** ℓ_y(T) = log softmax(ℓ/T)_y of row `o` (offset) with label column `y` (internal). */
export function scaledLogProbability(l: Float64Array, o: number, c: number, y: number, invT: number): number {
  let max = -Infinity;
  for (let k = 0; k < c; k++) {
    const v = (l[o + k] as number) * invT;
    if (v > max) max = v;
  }
  let sum = 0;
  for (let k = 0; k < c; k++) sum += Math.exp((l[o + k] as number) * invT - max);
  return (l[o + y] as number) * invT - max - Math.log(sum);
}

/** Reads and checks the search options (internal). */
export function searchOptions(fn: string, o: TemperatureSearchOptions): { lo: number; hi: number; tolerance: number; maxEvaluations: number } {
  const bounds = o.bounds ?? DEFAULT_TEMPERATURE_BOUNDS;
  if (!Array.isArray(bounds) || bounds.length !== 2 || !(bounds[0] > 0 && bounds[0] < 1 && bounds[1] > 1 && Number.isFinite(bounds[1]))) {
    fail('UM_OPTION', fn, 'options.bounds', 'be [T_min, T_max] with 0 < T_min < 1 < T_max < Infinity', { value: bounds });
  }
  const tolerance = o.tolerance ?? 1e-10;
  if (typeof tolerance !== 'number' || !(tolerance > 0 && tolerance < 1)) fail('UM_OPTION', fn, 'options.tolerance', 'be a number in (0, 1)', { value: tolerance });
  const maxEvaluations = o.maxEvaluations ?? 200;
  if (typeof maxEvaluations !== 'number' || !Number.isInteger(maxEvaluations) || maxEvaluations < 3) {
    fail('UM_OPTION', fn, 'options.maxEvaluations', 'be an integer ≥ 3', { value: maxEvaluations });
  }
  return { lo: bounds[0], hi: bounds[1], tolerance, maxEvaluations };
}

/**
 * Minimises `nll(T)` over ln T ∈ [ln T_min, ln T_max] with Brent's method, then keeps the best of the Brent
 * iterate, both bounds and T = 1 — so the result is never worse than T = 1. Warns when T sits at a bound
 * (internal).
 */
export function searchTemperature(fn: string, nll: (t: number) => number, options: TemperatureSearchOptions): { temperature: number; diagnostics: TemperatureDiagnostics } {
  const { lo, hi, tolerance, maxEvaluations } = searchOptions(fn, options);
  const before = nll(1);
  if (!Number.isFinite(before)) {
    emitWarning(options, {
      code: 'UM_W_INFINITE',
      fn,
      message: `${fn}: the NLL is Infinity at every temperature (a label has probability exactly 0); T = 1 is kept`,
    });
    return { temperature: 1, diagnostics: { nllBefore: before, nllAfter: before, evaluations: 1, converged: false, atBound: null, bounds: [lo, hi] } };
  }
  const a = Math.log(lo);
  const b = Math.log(hi);
  const r = brentMinimize((u) => nll(Math.exp(u)), a, b, tolerance, maxEvaluations);
  const candidates: [number, number][] = [
    [Math.exp(r.x), r.fx],
    [lo, nll(lo)],
    [hi, nll(hi)],
    [1, before],
  ];
  let [temperature, after] = candidates[0] as [number, number];
  for (const [t, v] of candidates) if (v < after || (v === after && t === 1)) [temperature, after] = [t, v];
  const u = Math.log(temperature);
  const atBound = u - a <= 1e-6 ? 'lower' : b - u <= 1e-6 ? 'upper' : null;
  if (atBound !== null) {
    emitWarning(options, {
      code: 'UM_W_BOUND',
      fn,
      message: `${fn}: the fitted temperature ${temperature} is at the ${atBound} bound of [${lo}, ${hi}]; the NLL keeps falling beyond it (widen options.bounds if that is plausible)`,
      details: { temperature, bounds: [lo, hi] },
    });
  }
  return { temperature, diagnostics: { nllBefore: before, nllAfter: after, evaluations: r.evaluations + 3, converged: r.converged, atBound, bounds: [lo, hi] } };
}
