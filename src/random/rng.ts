import { fail } from '../errors/fail.js';

/** A seeded pseudo-random source (xoshiro128**). Same seed → same stream on every JavaScript engine for uniforms. */
export interface Rng {
  /** Uniform in [0, 1) with 53 random bits. */
  uniform(): number;
  /** Uniform integer in [0, n). */
  integer(n: number): number;
  /** Standard normal (polar Box–Muller). */
  normal(): number;
  /** Gamma(shape, 1) (Marsaglia–Tsang; shape < 1 by boosting). */
  gamma(shape: number): number;
}

function splitmix32(state: number): () => number {
  let s = state >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/**
 * Creates a seeded random source. Uniforms are pure 32-bit integer arithmetic (identical everywhere); normals and
 * gammas use `Math.log`/`Math.sqrt`/`Math.exp`, identical on a given engine.
 */
export function createRng(fn: string, seed: number): Rng {
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    fail('UM_OPTION', fn, 'options.seed', 'be an integer in [0, 2³² − 1]', { value: seed });
  }
  const init = splitmix32(seed);
  let a = init();
  let b = init();
  let c = init();
  let d = init();
  if ((a | b | c | d) === 0) a = 1;
  const next32 = (): number => {
    const r = Math.imul(((Math.imul(b, 5) << 7) | (Math.imul(b, 5) >>> 25)) >>> 0, 9) >>> 0;
    const t = (b << 9) >>> 0;
    c = (c ^ a) >>> 0;
    d = (d ^ b) >>> 0;
    b = (b ^ c) >>> 0;
    a = (a ^ d) >>> 0;
    c = (c ^ t) >>> 0;
    d = ((d << 11) | (d >>> 21)) >>> 0;
    return r;
  };
  let spare: number | null = null;
  const uniform = (): number => ((next32() >>> 5) * 67108864 + (next32() >>> 6)) / 9007199254740992;
  const normal = (): number => {
    if (spare !== null) {
      const v = spare;
      spare = null;
      return v;
    }
    let u: number;
    let v: number;
    let s: number;
    do {
      u = 2 * uniform() - 1;
      v = 2 * uniform() - 1;
      s = u * u + v * v;
    } while (s >= 1 || s === 0);
    const f = Math.sqrt((-2 * Math.log(s)) / s);
    spare = v * f;
    return u * f;
  };
  const gamma = (shape: number): number => {
    if (shape < 1) {
      // Gamma(a) = Gamma(a + 1)·U^{1/a}
      const g = gamma(shape + 1);
      return g * uniform() ** (1 / shape);
    }
    const dd = shape - 1 / 3;
    const cc = 1 / Math.sqrt(9 * dd);
    for (;;) {
      let x: number;
      let v: number;
      do {
        x = normal();
        v = 1 + cc * x;
      } while (v <= 0);
      v = v * v * v;
      const u = uniform();
      if (u < 1 - 0.0331 * x * x * x * x) return dd * v;
      if (Math.log(u) < 0.5 * x * x + dd * (1 - v + Math.log(v))) return dd * v;
    }
  };
  return {
    uniform,
    integer: (n) => Math.floor(uniform() * n),
    normal,
    gamma,
  };
}
