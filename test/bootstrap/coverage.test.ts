import { describe, expect, it } from 'vitest';
import { resample } from '../../src/bootstrap/bootstrap.js';
import { methodFor } from '../../src/bootstrap/comparePaired.js';
import { comparePaired, evaluate, type BootstrapInterval, type BootstrapMethod } from '../../src/index.js';
import { uniforms } from '../helpers/minstd.js';

/*
 * Coverage of comparePaired's intervals, by simulation against exactly known population differences.
 *
 * Population: a binary task over 8 equally likely atoms x_m with P(y = 1 | x_m) = η_m. Model A predicts pA_m (nearly
 * calibrated), model B pB_m (overconfident, deciding atom 4 the other way). Rows that share an atom and a label are
 * identical, so every metric of a (re)sample is a function of the 16 cell weights W_y[m] — computed below by brute
 * force — and the population value is the same function at W_y[m] = π_m·P(y | x_m): accuracy, Brier, NLL, AUROC
 * (correct vs confidence, ties ½), and ECE and SCE with the same 5 equal-width bins. The brute force equals the
 * library's `evaluate` on the rows (first test). The simulation runs comparePaired's own resampling and interval
 * code (`resample` with `methodFor(…, 'auto')`: BCa, and the union interval for the binned errors) on the paired
 * differences B − A; only `evaluate` is replaced by the brute force, whose fixed cost would make 200 repetitions
 * take minutes.
 *
 * What it covers: 200 samples of N = 200 rows, 400 resamples each (not the default 1000, for time: on this design
 * 1000 resamples changed each coverage by at most 3 points, the Monte Carlo error of two runs of 400 repetitions).
 * The nominal 95 % interval must contain the true difference in 90–98 % of the samples for accuracy, Brier, NLL,
 * AUROC and ECE. SCE cannot: its plug-in estimate is biased by about −0.03 here (true difference 0.051) and the
 * resamples under-measure that bias, so no standard interval covers it (this design, N = 200–300, 400 repetitions:
 * BCa 77–78 %, basic 77–78 %, percentile 50–68 %, union 82 %; this test measures 81.5 %). For every metric,
 * including SCE, the verdict must be wrong (the interval on the other side of 0 than the truth) in at most 2.5 %
 * of the samples, the one-sided error of a 95 % interval.
 */

const PI = [1, 1, 1, 1, 1, 1, 1, 1].map((v) => v / 8);
const ETA = [0.05, 0.15, 0.3, 0.45, 0.55, 0.7, 0.85, 0.95];
const PA = [0.08, 0.17, 0.28, 0.42, 0.58, 0.72, 0.83, 0.93];
const PB = [0.02, 0.06, 0.2, 0.56, 0.6, 0.8, 0.94, 0.98];
const BINS = 5;
const M = PI.length;
const SMOOTH = ['accuracy', 'brier', 'nll', 'auroc'] as const;
const BINNED = ['ece', 'sce'] as const;
type Key = (typeof SMOOTH)[number] | (typeof BINNED)[number];

const binOf = (v: number) => Math.min(Math.floor(BINS * v), BINS - 1);
const l1 = (a: Float64Array) => a.reduce((s, v) => s + Math.abs(v), 0);
const add = (a: Float64Array, i: number, v: number) => {
  a[i] = (a[i] as number) + v;
};

/** Every compared metric of the model predicting P(y = 1) = p[m] on atom m, from the cell weights w0 (y = 0), w1. */
function cellMetrics(p: readonly number[], w0: ArrayLike<number>, w1: ArrayLike<number>): Record<Key, number> {
  let total = 0;
  let acc = 0;
  let brier = 0;
  let nll = 0;
  const ece = new Float64Array(BINS);
  const sce0 = new Float64Array(BINS);
  const sce1 = new Float64Array(BINS);
  const right: number[] = [];
  const wrong: number[] = [];
  const conf: number[] = [];
  for (let m = 0; m < M; m++) {
    const q = p[m] as number;
    const n0 = w0[m] as number;
    const n1 = w1[m] as number;
    const c = q > 0.5 ? q : 1 - q;
    const correct = q > 0.5 ? n1 : n0;
    total += n0 + n1;
    acc += correct;
    brier += n1 * 2 * (1 - q) ** 2 + n0 * 2 * q ** 2;
    nll += -n1 * Math.log(q) - n0 * Math.log(1 - q);
    add(ece, binOf(c), (n0 + n1) * c - correct);
    add(sce1, binOf(q), (n0 + n1) * q - n1);
    add(sce0, binOf(1 - q), (n0 + n1) * (1 - q) - n0);
    right.push(correct);
    wrong.push(n0 + n1 - correct);
    conf.push(c);
  }
  let pairs = 0;
  for (let i = 0; i < M; i++) {
    for (let j = 0; j < M; j++)
      pairs +=
        (right[i] as number) *
        (wrong[j] as number) *
        ((conf[i] as number) > (conf[j] as number) ? 1 : conf[i] === conf[j] ? 0.5 : 0);
  }
  const positives = right.reduce((s, v) => s + v, 0);
  const auroc = pairs / (positives * (total - positives));
  return {
    accuracy: acc / total,
    brier: brier / total,
    nll: nll / total,
    auroc,
    ece: l1(ece) / total,
    sce: (l1(sce0) + l1(sce1)) / (2 * total),
  };
}

const truthA = cellMetrics(
  PA,
  PI.map((v, m) => v * (1 - (ETA[m] as number))),
  PI.map((v, m) => v * (ETA[m] as number)),
);
const truthB = cellMetrics(
  PB,
  PI.map((v, m) => v * (1 - (ETA[m] as number))),
  PI.map((v, m) => v * (ETA[m] as number)),
);

/** N rows drawn from the population: atom and label per row (seeded). */
function sample(seed: number, n: number): { atom: Int32Array; y: Int32Array } {
  const u = uniforms(seed, 2 * n);
  const atom = new Int32Array(n);
  const y = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    atom[i] = Math.min(M - 1, Math.floor((u[2 * i] as number) * M));
    y[i] = (u[2 * i + 1] as number) < (ETA[atom[i] as number] as number) ? 1 : 0;
  }
  return { atom, y };
}

/** B − A of the metrics in `keys` under row weights w. */
function differences(s: { atom: Int32Array; y: Int32Array }, keys: readonly Key[]) {
  const w0 = new Float64Array(M);
  const w1 = new Float64Array(M);
  return (w: Float64Array): Record<string, number> => {
    w0.fill(0);
    w1.fill(0);
    for (let i = 0; i < w.length; i++) add((s.y[i] as number) === 1 ? w1 : w0, s.atom[i] as number, w[i] as number);
    const a = cellMetrics(PA, w0, w1);
    const b = cellMetrics(PB, w0, w1);
    return Object.fromEntries(keys.map((k) => [k, b[k] - a[k]]));
  };
}

const rowsOf = (s: { atom: Int32Array }, p: readonly number[]) =>
  Array.from(s.atom, (m) => [1 - (p[m] as number), p[m] as number]);

describe('comparePaired: coverage of the nominal 95 % interval of B − A (simulation, known population difference)', () => {
  it('the brute-force cell metrics are the library’s, and comparePaired uses BCa / union for them', () => {
    const s = sample(11, 400);
    const r = comparePaired(s.y, rowsOf(s, PA), rowsOf(s, PB), { bins: BINS, resamples: 20 });
    const a = evaluate(s.y, rowsOf(s, PA), { bins: BINS }) as unknown as Record<string, number>;
    const d = differences(s, [...SMOOTH, ...BINNED])(new Float64Array(400).fill(1));
    for (const k of [...SMOOTH, ...BINNED]) {
      const m = r.metrics.find((x) => x.metric === k);
      expect(m?.difference, k).toBeCloseTo(d[k] as number, 12);
      expect(m?.method, k).toBe<BootstrapMethod>((BINNED as readonly string[]).includes(k) ? 'union' : 'bca');
    }
    const w0 = new Float64Array(M);
    const w1 = new Float64Array(M);
    s.atom.forEach((m, i) => add(s.y[i] === 1 ? w1 : w0, m, 1));
    const mine = cellMetrics(PA, w0, w1);
    for (const k of [...SMOOTH, ...BINNED]) expect(mine[k], k).toBeCloseTo(a[k] as number, 12);
  });

  it('covers the true difference in 90–98 % of 200 seeded repetitions (SCE: documented shortfall), never more than 2.5 % wrong verdicts', () => {
    const reps = 200;
    const n = 200;
    const keys = [...SMOOTH, ...BINNED];
    const hits: Record<string, number> = {};
    const wrong: Record<string, number> = {};
    for (let rep = 0; rep < reps; rep++) {
      const s = sample(1000 + rep, n);
      const settings = { resamples: 400, level: 0.95, seed: rep, method: 'bca' as const };
      const r = resample(n, differences(s, keys), new Float64Array(n).fill(1), settings, (k) => methodFor(k, 'auto'));
      for (const [k, i] of Object.entries(r.intervals as Record<string, BootstrapInterval>)) {
        const truth = truthB[k as Key] - truthA[k as Key];
        const [lower, upper] = [i.lower as number, i.upper as number];
        if (lower <= truth && truth <= upper) hits[k] = (hits[k] ?? 0) + 1;
        if ((lower > 0 && truth <= 0) || (upper < 0 && truth >= 0)) wrong[k] = (wrong[k] ?? 0) + 1;
      }
    }
    const coverage = Object.fromEntries(keys.map((k) => [k, (hits[k] ?? 0) / reps]));
    const report = JSON.stringify({ coverage, wrong });
    for (const k of keys) {
      expect((wrong[k] ?? 0) / reps, `${k}: ${report}`).toBeLessThanOrEqual(0.025);
      expect(coverage[k], `${k}: ${report}`).toBeLessThanOrEqual(0.98);
      expect(coverage[k], `${k}: ${report}`).toBeGreaterThanOrEqual(k === 'sce' ? 0.7 : 0.9);
    }
    // the shortfall of SCE is real (not a broken simulation): without it the test would not need its exception
    expect(coverage.sce, report).toBeLessThan(0.9);
  });
});
