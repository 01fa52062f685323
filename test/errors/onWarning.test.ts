/**
 * `onWarning` is checked when it is given, by every function that takes it (found from the declared types, so a new
 * one cannot be missed): a handler that is not a function was accepted and failed with a TypeError only when a
 * warning came (evaluateEnsemble, fitMcTemperature …; found by the API fuzz). A function handler receives the
 * warnings.
 */
import { describe, expect, it } from 'vitest';
import * as um from '../../src/index.js';
import type { UMError } from '../../src/index.js';
import { evaluateParallel } from '../../packages/core/dist/parallel/index.js';
import { finishSqlMetrics, sqlMetrics } from '../../src/sql/index.js';
import { temperatureSweep } from '../../src/plot/index.js';
import { fitLlmCalibrator, labelProbabilities } from '../../src/llm/index.js';
import { publicOptions } from '../helpers/publicOptions.js';
import { ENTRIES } from '../docs/entries.js';

const Y = [0, 1, 1];
const P = [
  [1, 0],
  [0.2, 0.8],
  [0.6, 0.4],
]; // row 0 has probability 0 for nothing; row 2 is wrong
const ZERO = [
  [0, 1],
  [0.2, 0.8],
  [0.6, 0.4],
]; // label 0 of row 0 has probability 0: an infinite NLL warns
const E = [ZERO, P];
const rows = {
  topLabel: [{ bin: 9, n: 1, weight: 1, score: 0.9, outcome: 1 }],
  classwise: [],
  uncertainty: [{ bin: 4, n: 1, weight: 1, score: 0.5, outcome: 0 }],
  scores: [
    {
      n: 1,
      weighted_rows: 1,
      weight: 1,
      correct: 1,
      brier: 0.1,
      nll: 0.1,
      entropy: 0.3,
      bad_probability_rows: 0,
      bad_sum_rows: 0,
      bad_label_rows: 0,
      bad_weight_rows: 0,
      zero_label_rows: 0,
    },
  ],
  auroc: [{ area: 0, pos: 1, neg: 0 }],
};

/** An engine answering each generated query with the rows above (which of the five it is, by its text). */
const fakeEngine = {
  dialect: 'duckdb' as const,
  query: async (sql: string) =>
    sql.includes('AS area')
      ? rows.auroc
      : sql.includes('zero_label_rows')
        ? rows.scores
        : sql.includes('entries AS')
          ? rows.classwise
          : sql.includes('unc AS')
            ? rows.uncertainty
            : rows.topLabel,
};

/** A call of each function with `onWarning` set to `h`. */
const CALLS: Record<string, (h: unknown) => unknown> = {
  nll: (h) => um.nll(Y, ZERO, { onWarning: h } as never),
  nllPerExample: (h) => um.nllPerExample(Y, ZERO, { onWarning: h } as never),
  pairwiseKl: (h) => um.pairwiseKl(E, { onWarning: h } as never),
  averagePairwiseDiversity: (h) => um.averagePairwiseDiversity([P, ZERO], { onWarning: h } as never),
  ensembleNll: (h) => um.ensembleNll(Y, [ZERO, ZERO], { onWarning: h } as never),
  gibbsNll: (h) => um.gibbsNll(Y, E, { onWarning: h } as never),
  fitTemperature: (h) =>
    um.fitTemperature(
      [0, 1],
      [
        [0.9, 0.1],
        [0.1, 0.9],
      ],
      { bounds: [0.5, 2], onWarning: h } as never,
    ),
  fitMcTemperature: (h) =>
    um.fitMcTemperature(
      [0, 1],
      [
        [
          [0.9, 0.1],
          [0.1, 0.9],
        ],
      ],
      { bounds: [0.5, 2], onWarning: h } as never,
    ),
  evaluate: (h) => um.evaluate(Y, ZERO, { onWarning: h } as never),
  evaluateEnsemble: (h) => um.evaluateEnsemble(Y, E, { onWarning: h } as never),
  createState: (h) =>
    um
      .createState('nll', { onWarning: h } as never)
      .update(Y, ZERO)
      .result(),
  stateFromJSON: (h) =>
    um.stateFromJSON(JSON.stringify(um.createState('nll').update(Y, ZERO)), { onWarning: h } as never).result(),
  comparePaired: (h) => um.comparePaired(Y, ZERO, P, { resamples: 20, onWarning: h } as never),
  finishSqlMetrics: (h) =>
    finishSqlMetrics(
      { ...rows, scores: [{ ...rows.scores[0], nll: Infinity, zero_label_rows: 1 }] } as never,
      { numClasses: 2, onWarning: h } as never,
    ),
  sqlMetrics: (h) => sqlMetrics(fakeEngine, 'preds', { numClasses: 2, onWarning: h } as never),
  topBinningReport: (h) => {
    const probs = [
      [0.9, 0.1],
      [0.8, 0.2],
      [0.7, 0.3],
      [0.6, 0.4],
    ];
    // unregularised bins of frequency 0 and 1; the test labels contradict them: an infinite NLL warns
    return um.topBinningReport(
      um.fitTopBinning([0, 0, 1, 1], probs, { bins: 2, regularize: false }),
      [1, 1, 0, 0],
      probs,
      { onWarning: h } as never,
    );
  },
  temperatureSweep: (h) => temperatureSweep(Y, ZERO, { temperatures: [1, 2], onWarning: h } as never),
  // renormalize gives "no" probability 0 in the first row, whose gold is "no": the infinite NLL warns
  fitLlmCalibrator: (h) =>
    fitLlmCalibrator(
      ['no', 'yes'],
      labelProbabilities(
        [0.9, 0.6].map((p) => [{ label: 'yes', score: p }]),
        ['yes', 'no'],
        { missing: 'renormalize', format: 'text-classification' },
      ),
      { onWarning: h } as never,
    ),
  evaluateParallel: (h) =>
    evaluateParallel(Y, Float64Array.from(ZERO.flat()), { numClasses: 2, threads: 1, onWarning: h } as never),
};

describe('onWarning: a function, or a typed error when it is given', () => {
  const takers = [
    ...new Set(
      publicOptions(ENTRIES)
        .filter((o) => o.path === 'onWarning')
        .map((o) => o.fn),
    ),
  ];
  it('every function that takes onWarning has a call here', () => {
    expect(takers.filter((fn) => CALLS[fn] === undefined)).toEqual([]);
  });
  for (const [fn, call] of Object.entries(CALLS)) {
    it(fn, async () => {
      for (const bad of [5, 'log', {}, null, [], true, Symbol('h')]) {
        let caught: unknown;
        try {
          await call(bad);
        } catch (e) {
          caught = e;
        }
        // evaluateParallel runs from dist (its workers do), whose UMError is the built class
        expect((caught as Error | undefined)?.name, `${fn} with onWarning ${String(bad)}`).toBe('UMError');
        expect((caught as UMError).message).toMatch(new RegExp(`^${fn}: options.onWarning must be a function`));
      }
      await call(() => {});
    });
  }
  it('a handler receives the warnings (infinite NLL and KL: evaluate, evaluateEnsemble, nll, pairwiseKl, averagePairwiseDiversity, topBinningReport, temperatureSweep, fitLlmCalibrator)', () => {
    for (const fn of [
      'evaluate',
      'evaluateEnsemble',
      'nll',
      'pairwiseKl',
      'averagePairwiseDiversity',
      'topBinningReport',
      'temperatureSweep',
      'fitLlmCalibrator',
    ]) {
      const seen: string[] = [];
      (CALLS[fn] as (h: unknown) => unknown)((w: um.UMWarning) => seen.push(w.code));
      expect(seen, fn).toContain('UM_W_INFINITE');
    }
  });
});
