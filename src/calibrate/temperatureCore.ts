import { checkCount } from '../errors/checkCount.js';
import { fail } from '../errors/fail.js';
import type { ProbMatrix } from '../input/types.js';
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
  /** Whether the search stopped on its own criterion (a Newton step in ln T below the tolerance, a closed bracket, a minimum
   * beyond a bound) rather than on the evaluation budget. */
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

/** Reads and checks the search options (internal). */
export function searchOptions(
  fn: string,
  o: TemperatureSearchOptions,
): { lo: number; hi: number; tolerance: number; maxEvaluations: number } {
  const bounds = o.bounds ?? DEFAULT_TEMPERATURE_BOUNDS;
  if (
    !Array.isArray(bounds) ||
    bounds.length !== 2 ||
    !(bounds[0] > 0 && bounds[0] < 1 && bounds[1] > 1 && Number.isFinite(bounds[1]))
  ) {
    fail('UM_OPTION', fn, 'options.bounds', 'be [T_min, T_max] with 0 < T_min < 1 < T_max < Infinity', {
      value: bounds,
    });
  }
  const [min, max] = TEMPERATURE_RANGE;
  if (!(bounds[0] >= min))
    fail('UM_OPTION', fn, 'options.bounds', `be ≥ 1e-6 (temperatures lie in ${TEMPERATURE_RANGE_TEXT})`, {
      index: [0],
      value: bounds[0],
    });
  if (!(bounds[1] <= max))
    fail('UM_OPTION', fn, 'options.bounds', `be ≤ 1e12 (temperatures lie in ${TEMPERATURE_RANGE_TEXT})`, {
      index: [1],
      value: bounds[1],
    });
  const tolerance = o.tolerance ?? 1e-10;
  if (typeof tolerance !== 'number' || !(tolerance > 0 && tolerance < 1))
    fail('UM_OPTION', fn, 'options.tolerance', 'be a number in (0, 1)', { value: tolerance });
  const maxEvaluations = o.maxEvaluations ?? 200;
  checkCount(fn, 'options.maxEvaluations', maxEvaluations, { min: 3 });
  return { lo: bounds[0], hi: bounds[1], tolerance, maxEvaluations };
}

/** The objective at β = 1/T with its first two derivatives in β, from one pass over the data (internal). */
export interface TemperaturePass {
  /** Mean NLL. */
  readonly f: number;
  /** d f / d β. */
  readonly g: number;
  /** d² f / d β² (≥ 0 for the NLL of softmax(β·z), which is convex in β; of either sign for an ensemble's average). */
  readonly h: number;
  /** d³ f / d β³ when the objective provides it (then the steps are Halley's, converging cubically). */
  readonly t?: number;
}

/**
 * Minimises NLL(β), β = 1/T ∈ [1/T_max, 1/T_min], by finding the zero of its derivative in u = ln β with safeguarded
 * Newton steps (Numerical Recipes' rtsafe idea) — Halley steps when the pass also gives f‴ and the correction is
 * moderate (cubic convergence: from T = 1, typically 4–5 passes where Newton takes 6). f′ changes sign once (the NLL of softmax(β·z) is convex in β), so
 * every pass (f, f′, f″) shrinks a bracket around the minimiser; a Newton step that leaves the bracket (or a
 * non-positive curvature) is replaced by a step of at most 1 in u (a factor e in T) towards the bracket's far end,
 * halfway at most. When the steps keep one direction without converging — a third step in a row in the same direction
 * that is not below half the one before, as when the optimum lies beyond a bound (separable data) and Newton creeps
 * towards it — the bound itself is evaluated once; if the minimum is not beyond it, the search goes on from the point
 * it left (so a probe costs one pass, and quadratically converging steps never trigger one). Stops when the Newton
 * step in ln T is below the tolerance and returns that point (or T = 1 if strictly better); otherwise the best point
 * seen, so never worse than T = 1. For an objective that is not `convex` (an ensemble's averaged prediction), a probed
 * bound never ends the search, and both bounds are compared at the end: the result is a local minimum found from
 * T = 1, never worse than T = 1 or either bound. Internal.
 */
export function newtonTemperature(
  fn: string,
  pass: (beta: number) => TemperaturePass,
  options: TemperatureSearchOptions,
  convex = true,
): { temperature: number; diagnostics: TemperatureDiagnostics } {
  const { lo, hi, tolerance, maxEvaluations } = searchOptions(fn, options);
  let a = -Math.log(hi); // bracket of u = ln β = −ln T
  let b = -Math.log(lo);
  let u = 0;
  let cur = pass(1);
  let evaluations = 1;
  const before = cur.f;
  if (!Number.isFinite(before)) return infiniteEverywhere(fn, options, before, evaluations, lo, hi);
  let best = { u, f: cur.f };
  // ties go to the later point (except T = 1): the NLL is then flat to rounding and the search keeps moving on
  const keep = (at: number, v: TemperaturePass) => {
    if (v.f < best.f || (v.f === best.f && best.u !== 0)) best = { u: at, f: v.f };
  };
  let converged = false;
  const uLo = a;
  const uHi = b;
  let sameWay = 0;
  let lastDir = 0;
  let lastStep = Infinity;
  const probed = new Set<number>();
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
    let next = Number.NaN;
    if (d2 > 0) {
      next = u - d1 / d2;
      if (cur.t !== undefined) {
        // Halley: the Newton step divided by 1 − L/2, L = f′·f‴/f″² in u, when that factor lies in (2/3, 2)
        const d3 = beta * beta * beta * cur.t + 3 * beta * beta * cur.h + d1; // d³f/du³
        const l = (d1 * d3) / (d2 * d2);
        if (Math.abs(l) < 1) next = u - d1 / d2 / (1 - l / 2);
      }
    } else if (cur.h > 0 && convex) {
      // f is not convex in u here (far below the optimum) but is in β: the step in β instead (Halley's when given)
      let step = -cur.g / cur.h;
      if (cur.t !== undefined) {
        const l = (cur.g * cur.t) / (cur.h * cur.h);
        if (Math.abs(l) < 1) step /= 1 - l / 2;
      }
      if (beta + step > 0) next = Math.log(beta + step);
    }
    if (Math.abs(next - u) < tolerance) {
      // the step itself is below the tolerance (it may round to no step at all): u is the zero of f′ to within it, so
      // it is the answer — the NLL is flat there to rounding, and the lowest f among the points near it is noise (it
      // would move T by up to ~√(ε/f″)) — unless T = 1 is strictly better
      converged = true;
      if (convex) best = cur.f <= before ? { u, f: cur.f } : { u: 0, f: before };
      else if (Math.abs(best.u - u) <= 1e-6 || cur.f <= best.f) best = { u, f: cur.f }; // a point elsewhere (another local minimum, a bound) only if lower
      break;
    }
    const end = cur.g < 0 ? b : a; // the bracket's end in the descent direction
    // towards the far end when the Newton step leaves the bracket: at most 1 in u and at most halfway
    if (!(next > a && next < b)) next = u + Math.sign(end - u) * Math.min(1, Math.abs(end - u) / 2);
    const step = Math.abs(next - u);
    const dir = Math.sign(next - u);
    sameWay = dir === lastDir ? sameWay + 1 : 1;
    const creeping = sameWay >= 3 && step > lastStep / 2;
    lastDir = dir;
    lastStep = step;
    if (step < tolerance) {
      converged = true;
      break;
    }
    // creeping towards a bound not yet evaluated: try the bound itself (an optimum beyond it, as for separable data, is
    // otherwise approached only arithmetically in β)
    if (creeping && (end === uLo || end === uHi) && !probed.has(end) && evaluations + 1 < maxEvaluations) {
      probed.add(end);
      const at = pass(Math.exp(end));
      evaluations++;
      keep(end, at);
      if (convex && (at.g === 0 || (end === uLo && at.g > 0) || (end === uHi && at.g < 0))) {
        // the minimum lies beyond the bound, or the NLL is flat out there (exponentials underflowed); without
        // convexity the bound is only a candidate, compared at the end, and the search goes on
        cur = at;
        converged = true;
        break;
      }
      // the minimum lies inside: go on from u with the step already chosen
    } else if (creeping && probed.has(end) && Math.abs(end - u) / 2 > step) {
      // still creeping towards a bound already probed (an objective that is not convex, or a minimum just inside the
      // bound): halfway there instead, so the bound or the minimum is reached in a number of passes logarithmic in
      // the distance (f′ changes sign on the way, or the NLL turns flat)
      next = u + (end - u) / 2;
    }
    u = next;
    cur = pass(Math.exp(u));
    evaluations++;
    keep(u, cur);
    if (b - a < tolerance || (u === uLo && cur.g > 0) || (u === uHi && cur.g < 0)) {
      converged = true; // the bracket closed, or the minimum lies beyond a bound
      break;
    }
  }
  // converging onto a bound: the bound itself is the answer when it is not worse
  for (const [end, t] of [
    [uLo, hi],
    [uHi, lo],
  ] as const) {
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
  // an objective that need not be convex: never worse than either bound (a tie goes to the bound, as above)
  if (!convex) {
    for (const end of [uLo, uHi]) {
      if (best.u === end || probed.has(end)) continue;
      const at = pass(Math.exp(end));
      evaluations++;
      keep(end, at);
    }
  }
  const temperature = best.u === uLo ? hi : best.u === uHi ? lo : Math.exp(-best.u);
  const atBound = best.u - uLo <= 1e-6 ? 'upper' : uHi - best.u <= 1e-6 ? 'lower' : null;
  if (atBound !== null) warnAtBound(fn, options, temperature, atBound, lo, hi);
  return {
    temperature,
    diagnostics: { nllBefore: before, nllAfter: best.f, evaluations, converged, atBound, bounds: [lo, hi] },
  };
}

/** T = 1 kept, with a `UM_W_INFINITE` warning, when a label has probability exactly 0 (internal). */
function infiniteEverywhere(
  fn: string,
  options: WarningOptions,
  before: number,
  evaluations: number,
  lo: number,
  hi: number,
): { temperature: number; diagnostics: TemperatureDiagnostics } {
  emitWarning(options, {
    code: 'UM_W_INFINITE',
    fn,
    message: `${fn}: the NLL is Infinity at every temperature (a label has probability exactly 0); T = 1 is kept`,
  });
  return {
    temperature: 1,
    diagnostics: {
      nllBefore: before,
      nllAfter: before,
      evaluations,
      converged: false,
      atBound: null,
      bounds: [lo, hi],
    },
  };
}

/** The `UM_W_BOUND` warning of a temperature at a bound of its search interval (internal). */
function warnAtBound(
  fn: string,
  options: WarningOptions,
  temperature: number,
  atBound: 'lower' | 'upper',
  lo: number,
  hi: number,
): void {
  emitWarning(options, {
    code: 'UM_W_BOUND',
    fn,
    message: `${fn}: the fitted temperature ${temperature} is at the ${atBound} bound of [${lo}, ${hi}]; the NLL keeps falling beyond it (widen options.bounds if that is plausible)`,
    details: { temperature, bounds: [lo, hi] },
  });
}
