import { checkCount } from '../errors/checkCount.js';
import { fail } from '../errors/fail.js';
import type { ProbMatrix } from '../input/types.js';
import { brentMinimize } from '../math/minimize.js';
import { emitWarning, type WarningOptions } from '../warnings/warnings.js';
import { TEMPERATURE_RANGE, TEMPERATURE_RANGE_TEXT } from './params.js';

/** Default search interval of T. */
export const DEFAULT_TEMPERATURE_BOUNDS: readonly [number, number] = [1e-3, 1e3];

/** Options of the temperature search. */
export interface TemperatureSearchOptions extends WarningOptions {
  /** Interval [T_min, T_max] searched (default [0.001, 1000]); 1e-6 ≤ T_min < 1 < T_max ≤ 1e12. */
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
  const [min, max] = TEMPERATURE_RANGE;
  if (!(bounds[0] >= min)) fail('UM_OPTION', fn, 'options.bounds', `be ≥ 1e-6 (temperatures lie in ${TEMPERATURE_RANGE_TEXT})`, { index: [0], value: bounds[0] });
  if (!(bounds[1] <= max)) fail('UM_OPTION', fn, 'options.bounds', `be ≤ 1e12 (temperatures lie in ${TEMPERATURE_RANGE_TEXT})`, { index: [1], value: bounds[1] });
  const tolerance = o.tolerance ?? 1e-10;
  if (typeof tolerance !== 'number' || !(tolerance > 0 && tolerance < 1)) fail('UM_OPTION', fn, 'options.tolerance', 'be a number in (0, 1)', { value: tolerance });
  const maxEvaluations = o.maxEvaluations ?? 200;
  checkCount(fn, 'options.maxEvaluations', maxEvaluations, { min: 3 });
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
  if (!Number.isFinite(before)) return infiniteEverywhere(fn, options, before, 1, lo, hi);
  const a = Math.log(lo);
  const b = Math.log(hi);
  const r = brentMinimize((u) => nll(Math.exp(u)), a, b, tolerance, maxEvaluations);
  // the first strict minimum in this order: T = 1 when nothing beats it; a bound before the Brent iterate when they
  // tie, since equal values mean the NLL is flat out to that bound (exponentials underflowed) and it has to be said
  const candidates: [number, number][] = [
    [1, before],
    [lo, nll(lo)],
    [hi, nll(hi)],
    [Math.exp(r.x), r.fx],
  ];
  let [temperature, after] = candidates[0] as [number, number];
  for (const [t, v] of candidates) if (v < after) [temperature, after] = [t, v];
  const u = Math.log(temperature);
  const atBound = u - a <= 1e-6 ? 'lower' : b - u <= 1e-6 ? 'upper' : null;
  if (atBound !== null) warnAtBound(fn, options, temperature, atBound, lo, hi);
  return { temperature, diagnostics: { nllBefore: before, nllAfter: after, evaluations: r.evaluations + 3, converged: r.converged, atBound, bounds: [lo, hi] } };
}

/** The objective at β = 1/T with its first two derivatives in β, from one pass over the data (internal). */
export interface TemperaturePass {
  /** Mean NLL. */
  readonly f: number;
  /** d f / d β. */
  readonly g: number;
  /** d² f / d β² ≥ 0 (the NLL of softmax(β·z) is convex in β). */
  readonly h: number;
}

/**
 * One pass for the temperature's Newton step: f(β) = (1/N)·Σ_i [LSE(β·ℓ_i) − β·ℓ_{i,y_i}], f′ = (1/N)·Σ_i
 * (E_{p_i}[ℓ] − ℓ_{i,y_i}), f″ = (1/N)·Σ_i Var_{p_i}[ℓ] with p_i = softmax(β·ℓ_i); entries ℓ = −∞ have p = 0
 * and are skipped. `rowMax` holds max_k ℓ_ik (β > 0, so it is also the argmax of β·ℓ). Internal.
 */
export function temperaturePass(l: Float64Array, rowMax: Float64Array, n: number, c: number, y: Int32Array, beta: number): TemperaturePass {
  let f = 0;
  let g = 0;
  let h = 0;
  for (let i = 0, o = 0; i < n; i++, o += c) {
    const m = rowMax[i] as number;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    for (let k = 0; k < c; k++) {
      const d = (l[o + k] as number) - m; // ≤ 0, −∞ for an exact zero probability
      if (d === -Infinity) continue;
      const e = Math.exp(beta * d);
      s0 += e;
      s1 += e * d;
      s2 += e * d * d;
    }
    const mean = s1 / s0; // E[ℓ − m]
    const dy = (l[o + (y[i] as number)] as number) - m;
    f += Math.log(s0) - beta * dy;
    g += mean - dy;
    h += Math.max(0, s2 / s0 - mean * mean);
  }
  return { f: f / n, g: g / n, h: h / n };
}

/**
 * Minimises the convex NLL(β), β = 1/T ∈ [1/T_max, 1/T_min], by finding the zero of its derivative in u = ln β with
 * safeguarded Newton steps (Numerical Recipes' rtsafe idea): f′ is increasing, so every pass (f, f′, f″ from
 * {@link temperaturePass}) shrinks a bracket around the minimiser; a Newton step in u that leaves the bracket is
 * replaced by a step of at most 1 in u (a factor e in T) towards the bracket's far end, halfway at most. Stops when the
 * step in ln T is below the tolerance; returns the best point seen, so never worse than T = 1. Internal.
 */
export function newtonTemperature(fn: string, pass: (beta: number) => TemperaturePass, options: TemperatureSearchOptions): { temperature: number; diagnostics: TemperatureDiagnostics } {
  const { lo, hi, tolerance, maxEvaluations } = searchOptions(fn, options);
  let a = -Math.log(hi); // bracket of u = ln β = −ln T
  let b = -Math.log(lo);
  let u = 0;
  let cur = pass(1);
  let evaluations = 1;
  const before = cur.f;
  if (!Number.isFinite(before)) return infiniteEverywhere(fn, options, before, evaluations, lo, hi);
  let best = { u, f: cur.f };
  let converged = false;
  const uLo = a;
  const uHi = b;
  let sameWay = 0;
  let lastDir = 0;
  const triedBound = new Set<number>();
  while (evaluations < maxEvaluations) {
    if (cur.g === 0) {
      converged = true;
      break;
    }
    if (cur.g < 0) a = u;
    else b = u;
    const beta = Math.exp(u);
    const d1 = beta * cur.g; // df/du
    const d2 = beta * beta * cur.h + d1; // d²f/du²
    let next = d2 > 0 ? u - d1 / d2 : Number.NaN;
    if (Math.abs(next - u) < tolerance) {
      converged = true; // the Newton step itself is below the tolerance (it may round to no step at all)
      break;
    }
    const end = cur.g < 0 ? b : a; // the bracket's end in the descent direction
    // towards the far end when the Newton step leaves the bracket: at most 1 in u and at most halfway
    if (!(next > a && next < b)) next = u + Math.sign(end - u) * Math.min(1, Math.abs(end - u) / 2);
    // three steps the same way while that end is still an unevaluated bound of the interval: try the bound itself
    // (an optimum beyond it, as for separable data, is otherwise approached only geometrically)
    const dir = Math.sign(next - u);
    sameWay = dir === lastDir ? sameWay + 1 : 1;
    lastDir = dir;
    if (sameWay >= 3 && (end === uLo || end === uHi) && !triedBound.has(end)) {
      next = end;
      triedBound.add(end);
    }
    if (Math.abs(next - u) < tolerance) {
      converged = true;
      break;
    }
    u = next;
    cur = pass(Math.exp(u));
    evaluations++;
    // ties go to the later point (except T = 1): the NLL is then flat to rounding and the search keeps moving on
    if (cur.f < best.f || (cur.f === best.f && best.u !== 0)) best = { u, f: cur.f };
    if (b - a < tolerance || ((u === uLo && cur.g > 0) || (u === uHi && cur.g < 0))) {
      converged = true; // the bracket closed, or the minimum lies beyond a bound
      break;
    }
  }
  // converging onto a bound: the bound itself is the answer when it is not worse
  for (const [end, t] of [[uLo, hi], [uHi, lo]] as const) {
    if (Math.abs(best.u - end) <= 1e-6 && best.u !== end && evaluations < maxEvaluations) {
      const at = pass(1 / t);
      evaluations++;
      if (at.f <= best.f) best = { u: end, f: at.f };
    }
  }
  // stopped on f′ = 0 exactly after moving: the exponentials underflowed, so the NLL may be flat from here out to the
  // bound in the direction travelled; by convexity the bound is then as good, and it is reported with the warning
  // (the data do not determine T inside the interval)
  if (cur.g === 0 && best.u !== 0 && lastDir !== 0 && evaluations < maxEvaluations) {
    const end = lastDir > 0 ? uHi : uLo;
    if (best.u !== end) {
      const at = pass(Math.exp(end));
      evaluations++;
      if (at.f <= best.f) best = { u: end, f: at.f };
    }
  }
  const temperature = best.u === uLo ? hi : best.u === uHi ? lo : Math.exp(-best.u);
  const atBound = best.u - uLo <= 1e-6 ? 'upper' : uHi - best.u <= 1e-6 ? 'lower' : null;
  if (atBound !== null) warnAtBound(fn, options, temperature, atBound, lo, hi);
  return { temperature, diagnostics: { nllBefore: before, nllAfter: best.f, evaluations, converged, atBound, bounds: [lo, hi] } };
}

/** T = 1 kept, with a `UM_W_INFINITE` warning, when a label has probability exactly 0 (internal). */
function infiniteEverywhere(fn: string, options: WarningOptions, before: number, evaluations: number, lo: number, hi: number): { temperature: number; diagnostics: TemperatureDiagnostics } {
  emitWarning(options, {
    code: 'UM_W_INFINITE',
    fn,
    message: `${fn}: the NLL is Infinity at every temperature (a label has probability exactly 0); T = 1 is kept`,
  });
  return { temperature: 1, diagnostics: { nllBefore: before, nllAfter: before, evaluations, converged: false, atBound: null, bounds: [lo, hi] } };
}

/** The `UM_W_BOUND` warning of a temperature at a bound of its search interval (internal). */
function warnAtBound(fn: string, options: WarningOptions, temperature: number, atBound: 'lower' | 'upper', lo: number, hi: number): void {
  emitWarning(options, {
    code: 'UM_W_BOUND',
    fn,
    message: `${fn}: the fitted temperature ${temperature} is at the ${atBound} bound of [${lo}, ${hi}]; the NLL keeps falling beyond it (widen options.bounds if that is plausible)`,
    details: { temperature, bounds: [lo, hi] },
  });
}
