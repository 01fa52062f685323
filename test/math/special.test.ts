import { describe, expect, it } from 'vitest';
import { digamma, erf, erfc, logSumExp, normalCdf, normalQuantile } from '../../src/math/special.js';

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
