/**
 * A function that calls other public functions names itself in their errors: `binSweep: probs[2] must …`, not
 * `toProbabilities: …` — for every function that composes others (plot data, reports, SQL, states), on a table of
 * bad inputs that fail inside the inner function. Found by the API fuzz (test/fuzz/).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createState, stateFromJSON, UMError } from '../../src/index.js';
import { binSweep, temperatureSweep } from '../../src/plot/index.js';
import { createReport } from '../../src/report/index.js';
import { duckdbEngine, duckdbSource, sqlMetrics } from '../../src/sql/index.js';

const Y = [0, 1, 1, 0];
const P = [
  [0.9, 0.1],
  [0.2, 0.8],
  [0.6, 0.4],
  [0.7, 0.3],
];
/** Inputs that every function below rejects in an inner function: broken rows, labels, kinds. */
const BAD_SCORES: unknown[] = [
  [
    [0.9, 0.1],
    [0.2, 0.8],
    [0.6, 0.6],
    [0.7, 0.3],
  ],
  [[0.9, 0.1], [0.2], [0.6, 0.4], [0.7, 0.3]],
  [
    [0.9, NaN],
    [0.2, 0.8],
    [0.6, 0.4],
    [0.7, 0.3],
  ],
  'abc',
  {},
  [],
];
const BAD_LABELS: unknown[] = [[0, 1, 2, 0], [0, 1, 0.5, 0], [0, 1], null];
const engine = await duckdbEngine();
afterAll(() => engine.close());

const crpsState = (forecast: unknown) => createState('crps').update([0.5, 1], forecast as never);
const brierJson = JSON.stringify(createState('brier').update(Y, P));

const CASES: [string, (bad: unknown) => unknown, unknown[]][] = [
  ['binSweep', (s) => binSweep(Y, s as never, { bins: [2, 5] }), BAD_SCORES],
  ['binSweep', (y) => binSweep(y as never, P, { bins: [2, 5] }), BAD_LABELS],
  ['temperatureSweep', (s) => temperatureSweep(Y, s as never, { temperatures: [1, 2] }), BAD_SCORES],
  ['temperatureSweep', (y) => temperatureSweep(y as never, P), BAD_LABELS],
  [
    'temperatureSweep',
    (t) => temperatureSweep(Y, P, { temperatures: [t, 1] as never }),
    [1e-300, 1e-7, 1e13, Number.MAX_VALUE],
  ],
  [
    'createReport',
    (s) =>
      createReport([
        { name: 'a', labels: Y, scores: P },
        { name: 'b', labels: Y, scores: s as never },
      ]),
    BAD_SCORES,
  ],
  ['createReport', (y) => createReport([{ name: 'a', labels: y as never, scores: P }]), BAD_LABELS],
  [
    'createReport',
    (m) => createReport([{ name: 'a', labels: Y, members: m as never }]),
    [[P, [[0.5]]], [[[2, -1]]], 'abc'],
  ],
  [
    'sqlMetrics',
    (o) => sqlMetrics(engine, "read_csv('examples/data/logreg_test.csv')", o as never),
    [{}, { numClasses: 1 }, { numClasses: 10, bins: 0 }, { numClasses: 10, labelColumn: '' }],
  ],
  [
    'sqlMetrics',
    (e) => sqlMetrics(e as never, 'preds', { numClasses: 2 }),
    [null, {}, 'duckdb', Promise.resolve(engine)],
  ],
  [
    'duckdbSource',
    (e) => duckdbSource(e as never, { file: 'examples/data/logreg_test.csv' }),
    [null, {}, { dialect: 'postgres', query: async () => [] }],
  ],
  ['stateFromJSON', (o) => stateFromJSON(brierJson, o as never), [{ bins: 10 }, { tpr: 0 }, [1]]],
  [
    'stateFromJSON',
    (j) => stateFromJSON(j as never),
    [
      { format: 'uncertainty-metrics/state', version: 1, metric: 'ecee', options: {}, numClasses: 2, data: {} },
      {
        format: 'uncertainty-metrics/state',
        version: 1,
        metric: 'ece',
        options: { bins: -1 },
        numClasses: 2,
        data: {},
      },
    ],
  ],
  [
    'crps.update',
    crpsState,
    [
      undefined,
      null,
      { samples: [[0, 1]] },
      {
        samples: [
          [0, 1n],
          [1, 2],
        ],
      },
      { mean: [0, 1] },
    ],
  ],
];

describe('errors of inner functions name the function that was called', () => {
  for (const [fn, call, inputs] of CASES) {
    it(`${fn}: ${inputs.length} bad inputs`, async () => {
      for (const bad of inputs) {
        let caught: unknown;
        try {
          await call(bad);
        } catch (e) {
          caught = e;
        }
        expect(caught, `${fn} with ${String(bad)}`).toBeInstanceOf(UMError);
        const e = caught as UMError;
        expect(e.message.startsWith(`${fn}: `), e.message).toBe(true);
        expect(e.details.fn).toBe(fn);
      }
    });
  }
  it('a report names the model whose data is bad', async () => {
    await expect(
      createReport([
        { name: 'a', labels: Y, scores: P },
        { name: 'b', labels: [0, 1, 2, 0], scores: P },
      ]),
    ).rejects.toThrow(/^createReport: model "b": labels\[2\] must be an integer in \[0, 2\); got 2$/);
  });
});

describe('states refuse what they cannot keep when it is given, not at toJSON or result', () => {
  it('a metric that is not a string, options or rows that JSON cannot hold, weights as options, missing scores', () => {
    const bad: [() => unknown, RegExp][] = [
      [() => createState([Symbol('x')] as never), /^createState: metric must be one of 'gce'/],
      [() => createState(Object.create(null) as never), /^createState: metric must be one of 'gce'/],
      [
        () => createState('semiparametricCalibrationError', { bootstrap: 10n } as never),
        /^createState: options must hold only numbers, strings, arrays and plain objects/,
      ],
      [
        () => createState('binaryBrier').update([1, 0], undefined as never),
        /^binaryBrier\.update: scores must be an array with one entry per row; got undefined/,
      ],
      // options of row-keeping states reach the function at result(): weights there were kept (Infinity included)
      [
        () => createState('cosineDistance', { weights: [Infinity, 1] } as never),
        /^createState: options.weights must not be given: a state takes weights with each batch/,
      ],
      [
        () => createState('semiparametricCalibrationError', { sampleWeights: [1] } as never),
        /^createState: options.sampleWeights must not be given/,
      ],
      [() => createState('ece', { weights: [1] } as never), /^createState: options.weights must not be given/],
      [
        () => createState('disagreement').update(null, null as never),
        /^disagreement\.update: scores must be nested members \[S\]\[n\]\[C\]; got null/,
      ],
      // rows are kept as numbers, read entry by entry: a BigInt is located
      [
        () =>
          createState('negativeWaic').update(null, [
            [0n, -0.3],
            [-1, -2],
          ] as never),
        /^negativeWaic\.update: scores\[0\]\[0\] must be a number; got 0n/,
      ],
      [
        () => createState('oodAuroc').update({ uncertainty: [0.1] } as never, { uncertainty: [0.5, 0n] } as never),
        /^oodAuroc\.update: outOfDistribution\[1\] must be a number; got 0n/,
      ],
    ];
    for (const [call, message] of bad) {
      let caught: unknown;
      try {
        call();
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(UMError);
      expect((caught as UMError).message).toMatch(message);
    }
  });
});
