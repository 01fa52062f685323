/**
 * Vectors and rows are arrays or typed arrays: an object that only states a length (`{ length: 2 ** 32 }`) is a
 * typed error at once — such objects sized buffers of 34 GB from the length they state and threw a RangeError
 * (binary scores, a row of scores, OoD values, binary pairs, expectedOddsRatio; found by the API fuzz), and a
 * bootstrap of 1e9 rows spent 48 s allocating before its metric ran.
 */
import { describe, expect, it } from 'vitest';
import * as um from '../../src/index.js';
import { UMError } from '../../src/index.js';

const HUGE = { length: 2 ** 32 };
const CASES: [string, (x: unknown) => unknown][] = [
  ['ece binary', (x) => um.ece([0], x as never, { binary: true })],
  ['toProbabilities binary', (x) => um.toProbabilities(x as never, { binary: true })],
  ['ece row', (x) => um.ece([0], [x] as never)],
  ['ece scores', (x) => um.ece([0], x as never)],
  ['ece labels', (x) => um.ece(x as never, [[0.5, 0.5]])],
  ['ece weights', (x) => um.ece([0], [[0.5, 0.5]], { weights: x as never })],
  ['oodAuroc values', (x) => um.oodAuroc({ uncertainty: x as never }, { uncertainty: [1] })],
  [
    'auroc by',
    (x) =>
      um.auroc(
        [0, 1],
        [
          [0.5, 0.5],
          [0.2, 0.8],
        ],
        { by: { confidence: x as never } },
      ),
  ],
  ['binaryCalibrationError outcomes', (x) => um.binaryCalibrationError(x as never, [0.5])],
  ['binaryCalibrationError probs', (x) => um.binaryCalibrationError([1], x as never)],
  ['semiparametricCalibrationError', (x) => um.semiparametricCalibrationError(x as never, x as never)],
  ['expectedOddsRatio', (x) => um.expectedOddsRatio(x as never)],
  ['expectedOddsRatio weights', (x) => um.expectedOddsRatio([0.5, 0.25], x as never)],
  ['bootstrap weights', (x) => um.bootstrap(2, () => 1, { weights: x as never })],
  ['toEnsemble', (x) => um.toEnsemble([x] as never)],
  ['negativeWaic', (x) => um.negativeWaic(x as never)],
  ['knowledgeUncertainty', (x) => um.knowledgeUncertainty(x as never)],
  ['assignBins', (x) => um.assignBins(x as never, { scheme: 'equal-mass', bins: 2, method: 'quantile' })],
  ['crps', (x) => um.crps(x as never, { mean: [0], std: [1] })],
];

describe('objects that only state a length are refused promptly', () => {
  for (const [what, call] of CASES) {
    it(what, () => {
      for (const x of [HUGE, { length: 2 ** 31 - 1 }]) {
        const start = performance.now();
        let caught: unknown;
        try {
          call(x);
        } catch (e) {
          caught = e;
        }
        expect(caught, `${what} with ${JSON.stringify(x)}`).toBeInstanceOf(UMError);
        expect(performance.now() - start).toBeLessThan(1000);
      }
    });
  }
  it('bootstrap: n beyond the rows three Float64Arrays can hold', () => {
    expect(() => um.bootstrap(1e9, () => 1)).toThrow(/^bootstrap: n must be at most 2²⁷ = 134217728/);
  });
});
