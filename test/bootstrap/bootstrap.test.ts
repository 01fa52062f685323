import { describe, expect, it } from 'vitest';
import {
  UMError,
  auroc,
  bootstrap,
  brier,
  brierPerExample,
  evaluate,
  toProbabilities,
  type BootstrapInterval,
} from '../../src/index.js';
import { resample } from '../../src/bootstrap/bootstrap.js';
import { exampleCsv } from '../helpers/data.js';

const d = exampleCsv('logreg_test');
/**
 * d's probabilities validated once: the metric of the bootstraps below (any function of the weights) then reads them
 * without converting 2000 nested arrays on each of its calls — the same numbers at a third of the cost.
 */
const probs = toProbabilities(d.probs);

describe('bootstrap', () => {
  it('the standard error of a mean matches the analytic sd/√N (within 8 %)', () => {
    const rows = Array.from(brierPerExample(d.labels, d.probs));
    const n = rows.length;
    const mean = rows.reduce((a, b) => a + b, 0) / n;
    const sd = Math.sqrt(rows.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1));
    const r = bootstrap(n, (w) => brier(d.labels, probs, { weights: w }), { resamples: 1000, seed: 3 });
    const i = r.intervals as BootstrapInterval;
    expect(i.estimate).toBeCloseTo(mean, 12);
    expect(Math.abs((i.standardError as number) / (sd / Math.sqrt(n)) - 1)).toBeLessThan(0.08);
    // the normal interval ±1.96 SE and the percentile interval agree for a mean
    expect(Math.abs((i.lower as number) - (mean - 1.96 * (sd / Math.sqrt(n))))).toBeLessThan(0.3 * (sd / Math.sqrt(n)));
    expect(i.lower as number).toBeLessThan(mean);
    expect(i.upper as number).toBeGreaterThan(mean);
    expect([r.level, r.resamples, r.seed, r.method]).toEqual([0.95, 1000, 3, 'percentile']);
  });

  it('is deterministic for a seed and changes with it', () => {
    const f = (w: Float64Array) => brier(d.labels, probs, { weights: w });
    const a = bootstrap(d.labels.length, f, { resamples: 50, seed: 7 });
    expect(bootstrap(d.labels.length, f, { resamples: 50, seed: 7 })).toEqual(a);
    expect(bootstrap(d.labels.length, f, { resamples: 50, seed: 8 })).not.toEqual(a);
  });

  it('gives one interval per number of an object result, from the same resamples', () => {
    const r = bootstrap(
      d.labels.length,
      (w) => evaluate(d.labels, probs, { weights: w }) as unknown as Record<string, unknown>,
      { resamples: 30 },
    );
    const i = r.intervals as Record<string, BootstrapInterval>;
    expect(Object.keys(i)).toEqual(expect.arrayContaining(['ece', 'brier', 'auroc', 'aurc']));
    expect(i.brier?.estimate).toBe(evaluate(d.labels, d.probs).brier);
    expect(i.config).toBeUndefined();
  });

  it('multiplies given sample weights by the resample counts', () => {
    const w = d.labels.map((_, k) => 1 + (k % 2));
    const r = bootstrap(d.labels.length, (x) => brier(d.labels, d.probs, { weights: x }), {
      resamples: 20,
      weights: w,
    });
    expect((r.intervals as BootstrapInterval).estimate).toBe(brier(d.labels, d.probs, { weights: w }));
  });

  it('counts resamples where the metric is undefined and leaves them out', () => {
    const p = [
      [0.9, 0.1],
      [0.8, 0.2],
      [0.7, 0.3],
      [0.6, 0.4],
      [0.55, 0.45],
      [0.4, 0.6],
    ];
    // with one wrong prediction only, many resamples lose it and AUROC throws UM_SINGLE_CLASS
    const yy = [0, 0, 0, 0, 0, 0];
    const r = bootstrap(yy.length, (w) => auroc(yy, p, { weights: w }), { resamples: 200 });
    const i = r.intervals as BootstrapInterval;
    expect(i.failed).toBeGreaterThan(0);
    expect(i.failed).toBeLessThan(200);
  });

  it('a metric that gives NaN on the full data has an undefined (null) estimate, never NaN', () => {
    for (const metric of [() => NaN, () => ({ a: NaN, b: 1 })]) {
      const r = bootstrap(5, metric, { resamples: 10 });
      const i = (
        'estimate' in r.intervals ? r.intervals : (r.intervals as Record<string, BootstrapInterval>).a
      ) as BootstrapInterval;
      expect(i.estimate).toBeNull();
      expect([i.lower, i.upper]).toEqual([null, null]);
    }
  });
  it('rejects bad options with a typed error naming the option and its range — never a plain Error', () => {
    const f = () => 1;
    const cases: [() => unknown, string, RegExp][] = [
      [() => bootstrap(0, f), 'UM_EMPTY', /^bootstrap: n must be an integer ≥ 1/],
      [
        () => bootstrap(2 ** 31, f),
        'UM_OPTION',
        /^bootstrap: n must be at most 2²⁷ = 134217728 \(the number of rows\); got 2147483648/,
      ],
      // 1e9 passed the old bound 2³⁰ and allocated 8 GB arrays for 48 s before the metric ran
      [() => bootstrap(1e9, f), 'UM_OPTION', /^bootstrap: n must be at most 2²⁷/],
      [
        () => bootstrap(3, f, { weights: { length: 3 } as never }),
        'UM_SHAPE',
        /^bootstrap: options.weights must be an array of numbers, one per row/,
      ],
      [() => bootstrap(1e15, f), 'UM_OPTION', /^bootstrap: n must be at most 2²⁷/],
      [
        () => bootstrap(5, f, { resamples: 1 }),
        'UM_OPTION',
        /^bootstrap: options.resamples must be an integer in \[2, 100000\]; got 1/,
      ],
      [
        () => bootstrap(5, f, { resamples: 1e10 }),
        'UM_OPTION',
        /^bootstrap: options.resamples must be an integer in \[2, 100000\]; got 10000000000/,
      ],
      [
        () => bootstrap(5, f, { resamples: Infinity }),
        'UM_OPTION',
        /^bootstrap: options.resamples must be an integer in \[2, 100000\]; got Infinity/,
      ],
      [() => bootstrap(5, f, { resamples: 2.5 }), 'UM_OPTION', /^bootstrap: options.resamples must be an integer/],
      [
        () => bootstrap(5, f, { resamples: '100' as unknown as number }),
        'UM_OPTION',
        /^bootstrap: options.resamples must be an integer in \[2, 100000\]; got "100"/,
      ],
      [
        () => bootstrap(5, f, { level: 1 }),
        'UM_OPTION',
        /^bootstrap: options.level must be a number in \(0, 1\); got 1/,
      ],
      [
        () => bootstrap(5, f, { level: 0 }),
        'UM_OPTION',
        /^bootstrap: options.level must be a number in \(0, 1\); got 0/,
      ],
      [
        () => bootstrap(5, f, { level: NaN }),
        'UM_OPTION',
        /^bootstrap: options.level must be a number in \(0, 1\); got NaN/,
      ],
      [
        () => bootstrap(5, f, { level: '0.9' as unknown as number }),
        'UM_OPTION',
        /^bootstrap: options.level must be a number in \(0, 1\); got "0.9"/,
      ],
      [
        () => bootstrap(5, f, { seed: -1 }),
        'UM_OPTION',
        /^bootstrap: options.seed must be an integer in \[0, 2³² − 1\]; got -1/,
      ],
      [
        () => bootstrap(5, f, { seed: 2 ** 32 }),
        'UM_OPTION',
        /^bootstrap: options.seed must be an integer in \[0, 2³² − 1\]; got 4294967296/,
      ],
      [() => bootstrap(5, f, { seed: 0.5 }), 'UM_OPTION', /^bootstrap: options.seed must be an integer/],
      [
        () => bootstrap(5, f, { method: 'bc' as 'bca' }),
        'UM_OPTION',
        /^bootstrap: options.method must be one of 'bca', 'basic', 'percentile', 'union'; got "bc"/,
      ],
      [
        () => bootstrap(5, f, { resample: 10 } as never),
        'UM_OPTION',
        /^bootstrap: options.resample must not be given: bootstrap has no such option \(its options: resamples, level, seed, method, weights\)/,
      ],
      [() => bootstrap(5, f, 7 as never), 'UM_OPTION', /^bootstrap: options must be an object; got 7/],
      [
        () => bootstrap(5, 'brier' as never),
        'UM_OPTION',
        /^bootstrap: metric must be a function of the row weights; got "brier"/,
      ],
      [
        () => bootstrap(5, f, { weights: [1] }),
        'UM_SHAPE',
        /^bootstrap: options.weights must have one weight per row \(5\); got 1/,
      ],
      [
        () => bootstrap(3, f, { weights: 'abc' as never }),
        'UM_SHAPE',
        /^bootstrap: options.weights must be an array of numbers, one per row; got "abc"/,
      ],
      [
        () => bootstrap(2, f, { weights: [1, NaN] }),
        'UM_OPTION',
        /^bootstrap: options.weights\[1\] must be finite numbers ≥ 0; got NaN/,
      ],
    ];
    for (const [call, code, message] of cases) {
      let caught: unknown;
      try {
        call();
      } catch (e) {
        caught = e;
      }
      expect(caught, String(message)).toBeInstanceOf(UMError);
      expect((caught as UMError).code, String(message)).toBe(code);
      expect((caught as UMError).message).toMatch(message);
    }
  });
});

describe('resample with a cheaper jackknife metric', () => {
  const n = 300;
  const y = d.labels.slice(0, n);
  // validated once (see probs above)
  const p = toProbabilities(d.probs.slice(0, n));
  const full = (w: Float64Array) => evaluate(y, p, { weights: w }) as unknown as Record<string, unknown>;
  const settings = { resamples: 40, level: 0.95, seed: 5, method: 'bca' as const };
  const methodOf = (k: string) => (['sce', 'ace', 'tace', 'ece'].includes(k) ? ('union' as const) : ('bca' as const));
  const base = () => new Float64Array(n).fill(1);

  it('gives the intervals of the full metric when it computes every BCa number (class-wise errors left out)', () => {
    const cheap = (w: Float64Array) =>
      evaluate(y, p, { weights: w, classwise: false }) as unknown as Record<string, unknown>;
    const a = resample(n, full, base(), settings, methodOf);
    const b = resample(n, full, base(), settings, methodOf, cheap);
    expect(b).toEqual(a);
    // the jackknife ran: BCa intervals carry a non-zero acceleration
    expect((a.intervals as Record<string, BootstrapInterval>).brier?.acceleration).not.toBe(0);
  });

  it('throws when the jackknife metric lacks a BCa number (never a silent zero acceleration)', () => {
    const lacking = (w: Float64Array) => ({ accuracy: evaluate(y, p, { weights: w, classwise: false }).accuracy });
    expect(() => resample(n, full, base(), settings, methodOf, lacking)).toThrow(/no value for/);
  });
});
