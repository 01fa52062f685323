import { describe, expect, it } from 'vitest';
import {
  betaQuantile,
  betaRegularized,
  digamma,
  erf,
  erfc,
  logGamma,
  logSumExp,
  normalCdf,
  normalQuantile,
} from '../../src/math/special.js';

// Python 3.11 math.erf / math.erfc (correctly rounded to ~1 ulp) and scipy.special values.
const ERF: [number, number, number][] = [
  [0.1, 0.1124629160182849, 0.8875370839817152],
  [0.5, 0.5204998778130465, 0.4795001221869535],
  [1, 0.8427007929497149, 0.15729920705028513],
  [2, 0.9953222650189527, 0.004677734981047265],
  [2.9, 0.9999589021219005, 4.109787809945886e-5],
  [3, 0.9999779095030014, 2.2090496998585438e-5],
  [3.5, 0.9999992569016276, 7.430983723414128e-7],
  [5, 0.9999999999984626, 1.5374597944280351e-12],
  [10, 1.0, 2.088487583762545e-45],
  [26, 1.0, 5.663192408856143e-296],
];

describe('error function', () => {
  for (const [x, e, c] of ERF) {
    it(`x = ${x}`, () => {
      expect(Math.abs(erf(x) - e)).toBeLessThanOrEqual(4.5e-16); // ≤ 4 ulps near 1
      expect(erf(-x)).toBe(-erf(x));
      expect(Math.abs(erfc(x) - c) / c).toBeLessThan(x < 2 ? 1e-14 : 2e-15);
      expect(Math.abs(erfc(-x) - (2 - c))).toBeLessThanOrEqual(4.5e-16);
    });
  }
  it('normal distribution function and quantile', () => {
    expect(normalCdf(0)).toBe(0.5);
    expect(normalCdf(1.6448536269514722)).toBeCloseTo(0.95, 15);
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 13);
    expect(normalQuantile(1e-10)).toBeCloseTo(-6.361340902404056, 11);
    for (const p of [0.001, 0.1, 0.3, 0.5, 0.77, 0.999]) expect(normalCdf(normalQuantile(p))).toBeCloseTo(p, 15);
  });
});

describe('digamma', () => {
  // scipy.special.digamma
  const D: [number, number][] = [
    [1, -0.5772156649015329],
    [0.5, -1.9635100260214235],
    [2, 0.42278433509846713],
    [3.5, 1.103156640645243],
    [10, 2.251752589066721],
    [1e-3, -1000.5755719318103],
    [123.4, 4.8113737751162775],
  ];
  for (const [x, v] of D) it(`ψ(${x})`, () => expect(digamma(x)).toBeCloseTo(v, Math.abs(v) > 100 ? 11 : 14));
  it('ψ(x + 1) = ψ(x) + 1/x', () => expect(digamma(3) - digamma(2)).toBeCloseTo(0.5, 15));
});

describe('log-sum-exp', () => {
  it('is stable for large and -Infinity entries', () => {
    expect(logSumExp([1000, 1000])).toBeCloseTo(1000 + Math.LN2, 12);
    expect(logSumExp([-Infinity, 0])).toBe(0);
    expect(logSumExp([-Infinity, -Infinity])).toBe(-Infinity);
  });
});

// scipy.special.gammaln / betainc and scipy.stats.beta.ppf (scipy 1.x).
describe('log-gamma, incomplete beta and beta quantile', () => {
  const G: [number, number][] = [
    [0.3, 1.0957979948180756],
    [7.5, 7.534364236758734],
    [0.5, 0.5723649429247],
    [1e-5, 11.512919692895826],
    [100.5, 361.43554046777757],
  ];
  for (const [x, v] of G) it(`ln Γ(${x})`, () => expect(Math.abs(logGamma(x) - v) / Math.abs(v)).toBeLessThan(1e-13));
  it('ln Γ(1) = ln Γ(2) = 0 and ln Γ(n) = ln (n − 1)!', () => {
    expect(Math.abs(logGamma(1))).toBeLessThan(1e-14);
    expect(Math.abs(logGamma(2))).toBeLessThan(1e-14);
    expect(logGamma(6)).toBeCloseTo(Math.log(120), 13);
  });
  const I: [number, number, number, number][] = [
    [0.3, 2.5, 3.5, 0.29675298929566646],
    [0.9, 0.5, 0.5, 0.7951672353008665],
    [0.45, 30, 40, 0.6447480085585666],
  ];
  for (const [x, a, b, v] of I) it(`I_${x}(${a}, ${b})`, () => expect(betaRegularized(x, a, b)).toBeCloseTo(v, 13));
  it('I_x(a, b) = 1 − I_{1−x}(b, a) and the ends', () => {
    expect(betaRegularized(0.2, 3, 5) + betaRegularized(0.8, 5, 3)).toBeCloseTo(1, 14);
    expect(betaRegularized(0, 2, 2)).toBe(0);
    expect(betaRegularized(1, 2, 2)).toBe(1);
  });
  const Q: [number, number, number, number][] = [
    [0.025, 3, 8, 0.06673951117773447],
    [0.975, 4, 7, 0.6524528500599973],
    [0.025, 8, 3, 0.4439045376923585],
    [0.975, 9, 2, 0.9747892736731666],
    [0.005, 1, 20, 0.0002505956868314462],
    [0.995, 1.5, 0.5, 0.9999845786638507],
  ];
  for (const [q, a, b, v] of Q)
    it(`Beta(${a}, ${b}) quantile ${q}`, () => expect(Math.abs(betaQuantile(q, a, b) - v)).toBeLessThan(1e-13));
});
