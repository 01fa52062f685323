/**
 * Bit-exact emulations of the numpy routines that peer libraries use to place bin edges. Each follows numpy 1.24's
 * source arithmetic operation by operation, so that the same IEEE-754 doubles come out.
 */
import { argsort } from '../kernels/argsort.js';

/** `numpy.linspace(0, 1, bins + 1)`: i·(1/B) for i < B, and exactly 1 at the end. */
export function numpyLinspaceUnit(bins: number): Float64Array {
  const out = new Float64Array(bins + 1);
  const step = 1 / bins;
  for (let i = 0; i < bins; i++) out[i] = i * step;
  out[bins] = 1;
  return out;
}

/** `numpy.round` on a scalar: round half to even. */
export function roundHalfEven(x: number): number {
  const f = Math.floor(x);
  const d = x - f;
  if (d < 0.5) return f;
  if (d > 0.5) return f + 1;
  return f % 2 === 0 ? f : f + 1;
}

/**
 * numpy's `_lerp(a, b, t)`: a + (b − a)·t, evaluated from the upper end as b − (b − a)·(1 − t) when t ≥ 0.5.
 */
export function numpyLerp(a: number, b: number, t: number): number {
  const diff = b - a;
  return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}

/**
 * `numpy.quantile(values, q)` with the default `'linear'` method, for ascending `sorted` values.
 * virtual index (n − 1)·q, neighbours ⌊·⌋ and ⌊·⌋ + 1, gamma = index − ⌊index⌋.
 */
export function numpyQuantileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  const vi = (n - 1) * q;
  if (vi >= n - 1) return sorted[n - 1] as number;
  if (vi < 0) return sorted[0] as number;
  const prev = Math.floor(vi);
  const gamma = vi - prev;
  return numpyLerp(sorted[prev] as number, sorted[prev + 1] as number, gamma);
}

/** Ascending copy of the scores as a `Float64Array` (numeric sort). */
export function sortedCopy(scores: ArrayLike<number>): Float64Array {
  const out = Float64Array.from(scores);
  out.sort();
  return out;
}

/**
 * Indices that sort `scores` ascending; equal scores keep their input order (a stable sort). The result is the
 * permutation only; callers that must not depend on the order of ties only look at values.
 */
export function argsortAscending(scores: ArrayLike<number>): Uint32Array {
  return argsort(scores);
}
