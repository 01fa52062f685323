/**
 * Every count-like option (bins, samples, repeats, thresholds, …) of every public function goes through the one
 * bound `checkCount`: an integer in [min, max] (max 2^20 unless the option says otherwise), `UM_OPTION` naming the
 * function, the option and the value — promptly, without allocating for the count first. The option list is read
 * from the declared types, so a new count-like option without a row here fails the last test.
 */
import { describe, expect, it } from 'vitest';
import * as um from '../../src/index.js';
import { UMError } from '../../src/index.js';
import { MAX_COUNT } from '../../src/errors/checkCount.js';
import { formatValue } from '../../src/errors/formatValue.js';
import { binSweep } from '../../src/plot/index.js';
import { createReport } from '../../src/report/index.js';
import { metricsSql, finishSqlMetrics } from '../../src/sql/index.js';
import { evaluateParallel } from '../../src/parallel/index.js';
import { um as umCli } from '../helpers/cli.js';
import { publicOptions } from '../helpers/publicOptions.js';

/** Option names that count something (the last segment of the option's path). */
const COUNT_NAMES = [
  'bins',
  'samples',
  'repeats',
  'batchSize',
  'folds',
  'bootstrap',
  'resamples',
  'thresholds',
  'maxEvaluations',
  'maxSteps',
  'threads',
  'top',
  'cellBits',
  'numMembers',
  'numClasses',
  'numSamples',
  'batchRows',
];

const ENTRIES = {
  core: 'src/index.ts',
  plot: 'src/plot/index.ts',
  report: 'src/report/index.ts',
  sql: 'src/sql/index.ts',
  parallel: 'src/parallel/index.ts',
};

/** Options of a count-like name that are not a free count, and why. */
const EXEMPT: Record<string, string> = {
  'rejectionCurve options.thresholds': 'a list of threshold values, not a count',
  'fitTopBinning options.top': 'bounded by the number of classes (top < C; badInputs covers it)',
};
/** Shape counts are checked against the data they describe: the array must hold that many values. */
const SHAPE = /(^|\.)(numClasses|numMembers|numSamples)$/;

const Y = [0, 1, 1, 0, 1, 0];
const P = [
  [0.8, 0.2],
  [0.3, 0.7],
  [0.4, 0.6],
  [0.6, 0.4],
  [0.2, 0.8],
  [0.55, 0.45],
];
const B = P.map((r) => r[1] as number);
const E: number[][][] = [P, P.map((r) => [r[1] as number, r[0] as number])];
const rule = { index: 'floor', edges: 'exact', closed: 'left', one: 'last-bin' } as const;

interface Row {
  call: (v: number) => unknown;
  /** The argument the error names (default `options.<name>`). */
  argument?: string;
  /** The function the error names, where another than the row's. */
  fn?: string;
  min?: number;
  max?: number;
}

const bins = (f: (y: number[], p: number[][], o: object) => unknown): Row => ({ call: (v) => f(Y, P, { bins: v }) });
const ROWS: Record<string, Row> = {
  'assignBins spec.bins': {
    call: (v) => um.assignBins(B, { scheme: 'equal-width', bins: v, rule, precision: 'float64' }),
    argument: 'spec.bins',
  },
  'gce options.bins': bins(um.gce),
  'ece options.bins': bins(um.ece),
  'mce options.bins': bins(um.mce),
  'rmsce options.bins': bins(um.rmsce),
  'sce options.bins': bins(um.sce),
  'ace options.bins': bins(um.ace),
  'tace options.bins': bins(um.tace),
  'uce options.bins': bins(um.uce),
  'reliability options.bins': bins(um.reliability),
  'classwiseReliability options.bins': bins(um.classwiseReliability),
  'smoothReliability options.resamples': {
    call: (v) => um.smoothReliability(Y, P, { resamples: v }),
    min: 0,
    max: 10_000,
  },
  'debiasedEce options.bins': bins(um.debiasedEce),
  'bayesianEce options.bins': bins(um.bayesianEce),
  'oracleCollaborativeAccuracy options.bins': bins(um.oracleCollaborativeAccuracy),
  'evaluate options.bins': bins(um.evaluate),
  'comparePaired options.bins': { call: (v) => um.comparePaired(Y, P, P, { bins: v, resamples: 2 }) },
  'comparePaired options.resamples': { call: (v) => um.comparePaired(Y, P, P, { resamples: v }), min: 2, max: 100_000 },
  'bootstrap options.resamples': { call: (v) => um.bootstrap(6, () => 0, { resamples: v }), min: 2, max: 100_000 },
  'createReport options.resamples': {
    call: (v) => createReport([{ name: 'm', labels: Y, scores: P }], { resamples: v }),
    min: 2,
    max: 100_000,
  },
  'fitHistogramBinning options.bins': bins(um.fitHistogramBinning),
  'fitTopBinning options.bins': bins(um.fitTopBinning),
  'binaryCalibrationError options.bins': { call: (v) => um.binaryCalibrationError(Y, B, { bins: v }) },
  'binaryReliability options.bins': { call: (v) => um.binaryReliability(Y, B, { bins: v }) },
  'evaluateEnsemble options.bins': { call: (v) => um.evaluateEnsemble(Y, E, { bins: v }) },
  'bayesianEce options.samples': { call: (v) => um.bayesianEce(Y, P, { samples: v }) },
  'semiparametricCalibrationError options.folds': {
    call: (v) => um.semiparametricCalibrationError(Y, B, { folds: v }),
    min: 2,
  },
  'semiparametricCalibrationError options.bootstrap': {
    call: (v) => um.semiparametricCalibrationError(Y, B, { bootstrap: v }),
    min: 2,
  },
  'auroc options.thresholds': { call: (v) => um.auroc(Y, P, { thresholds: v }), min: 3 },
  'aupr options.thresholds': { call: (v) => um.aupr(Y, P, { thresholds: v }), min: 3 },
  'oodCurve options.repeats': {
    call: (v) => um.oodCurve({ uncertainty: [0.1, 0.2] }, { uncertainty: [0.7, 0.9] }, { batchSize: 1, repeats: v }),
  },
  'oodCurve options.batchSize': {
    call: (v) => um.oodCurve({ uncertainty: [0.1, 0.2, 0.3] }, { uncertainty: [0.7, 0.9, 0.8] }, { batchSize: v }),
    max: 3,
  },
  'fitTemperature options.maxEvaluations': { call: (v) => um.fitTemperature(Y, P, { maxEvaluations: v }), min: 3 },
  'fitMcTemperature options.maxEvaluations': { call: (v) => um.fitMcTemperature(Y, E, { maxEvaluations: v }), min: 3 },
  'createState options.cellBits': { call: (v) => um.createState('ece', { mode: 'bounded', cellBits: v }), max: 12 },
  'binSweep options.bins': { call: (v) => binSweep(Y, P, { bins: [v] }), argument: 'options.bins[0]' },
  'createReport options.bins': { call: (v) => createReport([{ name: 'm', labels: Y, scores: P }], { bins: v }) },
  'metricsSql options.bins': { call: (v) => metricsSql('t', { numClasses: 2, bins: v }) },
  'sqlMetrics options.bins': { call: (v) => metricsSql('t', { numClasses: 2, bins: v }), fn: 'metricsSql' },
  'finishSqlMetrics options.bins': { call: (v) => finishSqlMetrics({} as never, { numClasses: 2, bins: v }) },
  'evaluateParallel options.bins': {
    call: (v) => evaluateParallel(Y, Float64Array.from(P.flat()), { numClasses: 2, bins: v, threads: 1 }),
  },
  'evaluateParallel options.threads': {
    call: (v) => evaluateParallel(Y, Float64Array.from(P.flat()), { numClasses: 2, threads: v }),
    max: 1024,
  },
};

/** The UMError a call throws or rejects with. */
async function failureOf(call: () => unknown): Promise<UMError> {
  try {
    await call();
  } catch (e) {
    if (e instanceof UMError) return e;
    throw e;
  }
  throw new Error('expected a UMError, but the call returned');
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('count-like options: one bound, one message', () => {
  for (const [key, row] of Object.entries(ROWS)) {
    const [fn, path] = key.split(' ') as [string, string];
    const max = row.max ?? MAX_COUNT;
    const min = row.min ?? 1;
    const values = [max + 1, 1e9, 1e15, 1.5, min - 1, -1, Number.NaN, Infinity];
    it(`${key}: ${values.map(formatValue).join(', ')} → UM_OPTION naming ${fn}, the option and the value`, async () => {
      for (const v of values) {
        const start = performance.now();
        const e = await failureOf(() => row.call(v));
        expect(performance.now() - start, `${key} = ${v}: rejected before any work`).toBeLessThan(1000);
        expect(e.code, `${key} = ${v}`).toBe('UM_OPTION');
        const argument = row.argument ?? path;
        expect(e.message).toMatch(
          new RegExp(
            `^${escape(row.fn ?? fn)}: ${escape(argument)} must be .*an integer in \\[${min}, ${max}\\]; got ${escape(formatValue(v))}`,
          ),
        );
      }
    });
  }

  it('the bound itself and the smallest value are accepted', () => {
    expect(um.ece(Y, P, { bins: MAX_COUNT })).toBeGreaterThanOrEqual(0);
    expect(um.ece(Y, P, { bins: 1 })).toBeGreaterThanOrEqual(0);
  });

  it('bayesianEce bounds its work: samples × bins ≤ 2^22', () => {
    expect(() => um.bayesianEce(Y, P, { bins: 2 ** 20, samples: 5 })).toThrow(
      /^bayesianEce: options.samples must be at most 4 with 1048576 bins \(samples × bins ≤ 2\^22: each sample draws every bin\); got 5$/,
    );
    // at the bound (samples × bins = 2^22) the check passes and the next one, of the quantiles, fails: the bound is
    // accepted without drawing its 2^22 variates (~5 s); a bound off by one would name options.samples instead
    for (const [bins, samples] of [
      [2 ** 12, 2 ** 10],
      [2 ** 20, 4],
    ])
      expect(() => um.bayesianEce(Y, P, { bins, samples, quantiles: [2] })).toThrow(
        /^bayesianEce: options.quantiles\[0\] must be numbers in \[0, 1\]; got 2$/,
      );
    expect(um.bayesianEce(Y, P, { bins: 2 ** 6, samples: 2 ** 4 }).samples.length).toBe(16);
  });

  it('class-wise equal-width bins bound their work: bins × classes ≤ 2^20, in the library and the CLI', async () => {
    // ten classes: 2^20 bins each took 4.7 GB and 72 s on 2 000 rows (more classes ran out of memory)
    const p10 = Array.from({ length: 10 }, (_, i) => Array.from({ length: 10 }, (_, k) => (k === i ? 0.55 : 0.05)));
    const y10 = Array.from({ length: 10 }, (_, i) => i);
    const message = (most: number, got: number) =>
      `options.bins must be at most ${most} with 10 classes binned one by one (bins × classes ≤ 2^20: each class keeps every bin); got ${got}`;
    expect(() => um.sce(y10, p10, { bins: 104858 })).toThrow(`sce: ${message(104857, 104858)}`);
    expect(() => um.evaluate(y10, p10, { bins: MAX_COUNT })).toThrow(`evaluate: ${message(104857, MAX_COUNT)}`);
    // user edges: the same bound, naming them
    const edges = Array.from({ length: 104859 }, (_, i) => i / 104858);
    const classwise = { target: 'all-classes', groupBy: 'class' } as const;
    expect(() => um.gce(y10, p10, { ...classwise, binning: { edges } })).toThrow(
      'gce: options.binning.edges must give at most 104857 bins with 10 classes binned one by one (bins × classes ≤ 2^20: each class keeps every bin); got 104858',
    );
    // at the bound (~1 s: 2^20 bins in all)
    expect(um.gce(y10, p10, { ...classwise, binning: { edges: edges.slice(1) } })).toBeGreaterThanOrEqual(0);
    // one group (top-label) keeps the plain bound
    expect(um.evaluate(y10, p10, { bins: 2 ** 16, classwise: false }).ece).toBeGreaterThanOrEqual(0);
    const r = await umCli(['metrics', 'examples/data/mlp_overfit_test.csv', '--bins', String(MAX_COUNT)]);
    expect([r.code, r.stderr]).toEqual([
      2,
      `um metrics: --bins must be at most 104857 with 10 classes binned one by one (bins × classes ≤ 2^20: each class keeps every bin); got ${MAX_COUNT}\n`,
    ]);
  });

  it('a value above the bound says why', () => {
    expect(() => um.ece(Y, P, { bins: 1e9 })).toThrow(
      /^ece: options.bins must be an integer in \[1, 1048576\]; got 1000000000 \(1048576 = 2\^20 is the library's limit on count-like options\)$/,
    );
  });

  it('covers every count-like option of every public function (read from the declared types)', () => {
    // options are the properties of an `options` (or `spec`) parameter; others (`series.bins`, `params.bins`) are data
    const found = publicOptions(ENTRIES)
      .filter(
        (o) => (o.param === 'options' || o.param === 'spec') && COUNT_NAMES.includes(o.path.split('.').pop() as string),
      )
      .map((o) => `${o.fn} ${o.param}.${o.path}`);
    const keys = new Set(found.filter((k) => !SHAPE.test(k)));
    const missing = [...keys].filter((k) => ROWS[k] === undefined && EXEMPT[k] === undefined);
    expect(missing).toEqual([]);
  });
});
