/**
 * The report's bootstraps in one pass over the resamples give what separate bootstraps give: each model's table equals
 * bootstrap() of evaluate (BCa for the smooth metrics, union for the binned errors, clipped at 0), each comparison
 * equals comparePaired — with fewer or more table resamples than comparison resamples, three models, and a model on
 * rows of another length (its own resamples); progress is reported as each bootstrap completes.
 */
import { describe, expect, it } from 'vitest';
import { bootstrap, comparePaired, evaluate, toProbabilities } from '../../src/index.js';
import { methodFor } from '../../src/bootstrap/comparePaired.js';
import type { BootstrapInterval } from '../../src/bootstrap/intervals.js';
import { METRICS } from '../../src/evaluate/metricInfo.js';
import { createRng } from '../../src/random/rng.js';
import { reportResampling, type ResampledModel } from '../../src/report/resampling.js';

const quiet = () => undefined;

/** A seeded model of n rows and 3 classes whose sharpness sets its (mis)calibration; labels drawn at `seed`. */
function model(name: string, seed: number, n: number, sharpness: number) {
  const r = createRng('report-resampling', seed);
  const probs = Array.from({ length: n }, () => {
    const z = [r.normal(), r.normal(), r.normal()].map((v) => Math.exp(sharpness * v));
    const s = z.reduce((a, b) => a + b, 0);
    return z.map((v) => v / s);
  });
  const labels = probs.map((row) => {
    let u = r.uniform();
    for (const [k, q] of row.entries()) if ((u -= q) < 0) return k;
    return 2;
  });
  return { name, labels, p: toProbabilities(probs) };
}

/**
 * evaluate of each model by weight vector: the reference bootstraps of a model draw the same resamples for both
 * methods (same seed) and the same jackknife groups for both settings (the jackknife does not depend on the seed), so
 * each distinct weighting is evaluated once — evaluate is a function of the weights (half the calls).
 */
const evaluations = new Map<ResampledModel, Map<string, Record<string, unknown>>>();

/** The table as separate bootstraps compute it. */
function table(m: ResampledModel, resamples: number, seed: number) {
  let known = evaluations.get(m);
  if (known === undefined) evaluations.set(m, (known = new Map()));
  const seen = known;
  const run = (w: Float64Array) => {
    const key = w.join();
    let e = seen.get(key);
    if (e === undefined)
      seen.set(
        key,
        (e = evaluate(m.labels, m.p, { weights: w, onWarning: quiet }) as unknown as Record<string, unknown>),
      );
    return e;
  };
  const by = (method: 'bca' | 'union') =>
    bootstrap(m.p.n, run, { resamples, seed, method }).intervals as Record<string, BootstrapInterval>;
  const bca = by('bca');
  const union = by('union');
  return Object.fromEntries(
    Object.keys(bca)
      .filter((k) => k in METRICS)
      .map((k) => {
        const method = methodFor(k, 'auto');
        const i = (method === 'bca' ? bca[k] : union[k]) as BootstrapInterval;
        return [
          k,
          i.lower === null || i.upper === null
            ? null
            : { lower: Math.max(0, i.lower), upper: i.upper, method: i.method ?? method },
        ];
      }),
  );
}

describe('reportResampling', () => {
  it('equals bootstrap() per table and comparePaired per comparison, in one pass', () => {
    // 80 and 60 rows: the jackknife has a group per row below 100, so fewer rows cost fewer evaluations
    const base = model('a', 1, 80, 1);
    const b = { ...model('b', 1, 80, 2.5), labels: base.labels };
    const c = { ...model('c', 1, 80, 0.5), labels: base.labels };
    const other = model('d', 2, 60, 1.5);
    for (const [tableResamples, compareResamples, seed] of [
      [12, 20, 3],
      [16, 10, 4],
    ] as const) {
      const done: string[] = [];
      const r = reportResampling({
        models: [base, b, c, other],
        baseline: base,
        compared: [b, c],
        binning: {},
        tableResamples,
        compareResamples,
        seed,
        done: (what, m) => done.push(`${what} ${m.name}`),
        at: (_m, call) => call(),
      });
      for (const m of [base, b, c, other]) expect(r.tables.get(m), m.name).toEqual(table(m, tableResamples, seed));
      for (const m of [b, c]) {
        const lib = comparePaired(base.labels, base.p, m.p, {
          classwise: false,
          resamples: compareResamples,
          seed,
          onWarning: quiet,
        });
        expect(r.comparisons.get(m), m.name).toEqual(lib);
      }
      expect([...r.comparisons.keys()]).toEqual([b, c]);
      // each bootstrap reports when its last resample is in; the shorter bootstraps first
      const tables = ['table a', 'table b', 'table c'];
      const comparisons = ['comparison b', 'comparison c'];
      expect(done).toEqual(
        tableResamples < compareResamples
          ? [...tables, ...comparisons, 'table d']
          : [...comparisons, ...tables, 'table d'],
      );
    }
  }, 120_000);
});
