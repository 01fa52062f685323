/**
 * One definition per metric: for every metric of the `evaluate` suite, its function, `evaluate`, a state fed in
 * random batches and merged in random groupings (through JSON too), `evaluateParallel` (its one-thread path at these
 * sizes) and `um metrics --stream` with 1 and 2 threads give the same value bit for bit — and the same warnings and nulls — on
 * seeded data with ties, near-ties, exact 0 and 1, whole and fractional weights, presets, class-wise on and off, two
 * classes and many. In bounded mode every metric is within its reported bound of the exact value, or null. DuckDB
 * push-down (`um metrics --engine duckdb`, default conventions) gives the keys SQL computes within the database's
 * float tolerance (its sums are float64 in its own order: max(1e-9 relative, 1e-12 absolute)) and only warnings
 * `evaluate` gives too.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// the CLI and the threads run the built dist/ (its workers are dist files)
import { main } from '../../packages/core/dist/cli/main.js';
import * as um from '../../src/index.js';
import { evaluateParallel } from '../../packages/core/dist/parallel/index.js';
import { stableMean } from '../../src/math/pow2.js';
import { createRng } from '../../src/random/rng.js';
import { npy } from '../helpers/hostile.js';
import type { PresetName } from '../../src/presets/presets.js';

type Case = {
  name: string;
  labels: number[];
  probs: number[][];
  weights?: number[];
  preset?: PresetName;
  classwise?: boolean;
  /** Streamed on one thread only (see the case). */
  oneThread?: true;
};

/** Probabilities with ties (a grid of 1/q), near-ties (one ulp apart), exact 0 and 1, and one-hot rows. */
function data(seed: number, n: number, c: number, q: number): { labels: number[]; probs: number[][] } {
  const r = createRng('forms', seed);
  const labels: number[] = [];
  const probs: number[][] = [];
  for (let i = 0; i < n; i++) {
    const kind = r.integer(10);
    let row: number[];
    if (kind === 0) {
      const hot = r.integer(c);
      row = Array.from({ length: c }, (_, k) => (k === hot ? 1 : 0));
    } else {
      const raw = Array.from({ length: c }, () => (kind < 5 ? Math.floor(r.uniform() * q) : r.uniform() ** 3));
      const s = raw.reduce((a, b) => a + b, 0);
      row = s === 0 ? Array.from({ length: c }, () => 1 / c) : raw.map((v) => v / s);
      if (kind === 9) row = row.map((v) => (v > 0 && v < 1 ? v * (1 + Number.EPSILON) : v)); // near-ties
    }
    if (row.every((v) => v === 0)) row = Array.from({ length: c }, (_, k) => (k === 0 ? 1 : 0));
    probs.push(row);
    labels.push(r.uniform() < 0.6 ? row.indexOf(Math.max(...row)) : r.integer(c));
  }
  return { labels, probs };
}

const cases: Case[] = [
  // streamed on one thread only: two threads differ from one only in what crosses between them — the task (the flags'
  // options) and each chunk's states and warnings (plain data, cloned whatever their values) — and this case's have
  // the form of the default-options files streamed on two threads by the float32 test below (NumPy, 10 classes) and
  // test/cli/stream.test.ts (CSV, 10 classes); its two workers cost ~0.45 s of CPU to start
  { name: '4 classes, ties', ...data(1, 240, 4, 8), oneThread: true },
  {
    // streamed on one thread only (as the ties above): what crosses between two threads — the task and each chunk's
    // states and warnings — has the form of the fractional weights' below (the same flags, the same stores; whole
    // weights change values only); its two workers cost ~0.5 s of CPU
    name: '4 classes, whole weights',
    ...data(2, 200, 4, 10),
    weights: Array.from({ length: 200 }, (_, i) => (i * 7) % 4),
    oneThread: true,
  },
  {
    name: '4 classes, fractional weights',
    ...data(3, 200, 4, 10),
    weights: Array.from({ length: 200 }, (_, i) => 0.25 + ((i * 13) % 7) / 3),
  },
  { name: '2 classes, torchmetrics (float32)', ...data(4, 220, 2, 6), preset: 'torchmetrics' },
  { name: '3 classes, uncertainty-metrics (thresholded AUC)', ...data(5, 200, 3, 12), preset: 'uncertainty-metrics' },
  { name: '5 classes, netcal, class-wise off', ...data(6, 200, 5, 10), preset: 'netcal', classwise: false },
  { name: '10 classes, sklearn', ...data(7, 150, 10, 5), preset: 'sklearn' },
];

/** Evaluate's key → the metric's own function with the options evaluate gives it. */
const FUNCTIONS: Record<string, (c: Case) => unknown> = {
  accuracy: (c) => um.accuracy(c.labels, c.probs, w(c)),
  ece: (c) => um.ece(c.labels, c.probs, { ...w(c), ...p(c) }),
  mce: (c) => um.mce(c.labels, c.probs, { ...w(c), ...p(c) }),
  rmsce: (c) => um.rmsce(c.labels, c.probs, { ...w(c), ...p(c) }),
  sce: (c) => um.sce(c.labels, c.probs, { ...w(c), ...p(c) }),
  ace: (c) => um.ace(c.labels, c.probs, { ...w(c), ...p(c) }),
  tace: (c) => um.tace(c.labels, c.probs, { ...w(c), ...p(c) }),
  uce: (c) => um.uce(c.labels, c.probs, { ...w(c), ...p(c) }),
  aece: (c) => um.aece(c.labels, c.probs, { ...w(c), ...p(c) }),
  amce: (c) => um.amce(c.labels, c.probs, { ...w(c), ...p(c) }),
  brier: (c) => um.brier(c.labels, c.probs, { ...w(c), ...p(c) }),
  nll: (c) =>
    um.nll(c.labels, c.probs, { ...w(c), clip: null, renormalize: false, precision: 'float64', onWarning: () => {} }),
  meanEntropy: (c) =>
    stableMean(um.entropy(c.probs), c.weights === undefined ? undefined : Float64Array.from(c.weights).map((x) => x)),
  auroc: (c) => um.auroc(c.labels, c.probs, { ...w(c), ...p(c) }),
  aupr: (c) => um.aupr(c.labels, c.probs, { ...w(c), ...p(c), positive: 'error' }),
  aurc: (c) => um.aurc(c.labels, c.probs, { ...w(c), estimator: 'mean-risk' }),
  eaurc: (c) => um.eAurc(c.labels, c.probs, { ...w(c), estimator: 'mean-risk' }),
};
const w = (c: Case) => (c.weights === undefined ? {} : { weights: c.weights });
const p = (c: Case) => (c.preset === undefined ? {} : { preset: c.preset });
const options = (c: Case) => ({ ...p(c), ...(c.classwise === undefined ? {} : { classwise: c.classwise }) });

/** The result and warnings of a call. */
function run<T>(f: (onWarning: (w: um.UMWarning) => void) => T): { value: T; warnings: string[] } {
  const warnings: string[] = [];
  const value = f((x) => warnings.push(`${x.code} ${x.message.replace(/^[^:]*: /, '')}`));
  return { value, warnings };
}

/** Rows split at random into batches, states merged in a random binary tree, one of them through its JSON. */
function stateOf(
  c: Case,
  mode: 'exact' | 'bounded',
  seed: number,
  onWarning: (w: um.UMWarning) => void,
): um.MetricState<um.Evaluation> {
  const r = createRng('forms', seed);
  const n = c.labels.length;
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = r.integer(i + 1);
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  let states: um.MetricState<um.Evaluation>[] = [];
  for (let at = 0; at < n;) {
    const size = 1 + r.integer(60);
    const rows = order.slice(at, at + size);
    at += size;
    const s = um.createState('evaluate', {
      ...options(c),
      mode,
      numClasses: (c.probs[0] as number[]).length,
      onWarning,
    });
    s.update(
      rows.map((i) => c.labels[i] as number),
      rows.map((i) => c.probs[i] as number[]),
      c.weights === undefined ? {} : { weights: rows.map((i) => c.weights?.[i] as number) },
    );
    states.push(
      r.uniform() < 0.3
        ? (um.stateFromJSON(JSON.stringify(s.toJSON()), { onWarning }) as um.MetricState<um.Evaluation>)
        : s,
    );
  }
  while (states.length > 1) {
    const i = r.integer(states.length - 1);
    const merged = (states[i] as um.MetricState<um.Evaluation>).merge(states[i + 1] as um.MetricState<um.Evaluation>);
    states = [...states.slice(0, i), merged, ...states.slice(i + 2)];
  }
  return states[0] as um.MetricState<um.Evaluation>;
}

const dir = mkdtempSync(join(tmpdir(), 'um-forms-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The case as a CSV file (label, p_0 …, and w with weights). */
function csvOf(c: Case): string {
  const file = join(dir, `${c.name.replace(/\W+/g, '_')}.csv`);
  const k = (c.probs[0] as number[]).length;
  const header = ['label', ...Array.from({ length: k }, (_, j) => `p_${j}`), ...(c.weights === undefined ? [] : ['w'])];
  const lines = c.labels.map((y, i) =>
    [y, ...(c.probs[i] as number[]).map(String), ...(c.weights === undefined ? [] : [String(c.weights[i])])].join(','),
  );
  writeFileSync(file, `${header.join(',')}\n${lines.join('\n')}\n`);
  return file;
}

/** `um metrics --json` in this process with `flags`, on a CSV of the case. */
async function cli(c: Case, flags: string[]): Promise<Record<string, unknown>> {
  let out = '';
  const args = ['metrics', csvOf(c), '--json', ...flags, '--sum-tolerance', '1e-6'];
  if (c.weights !== undefined) args.push('--weights', 'w');
  let err = '';
  const code = await main(args, { stdout: (t) => (out += t), stderr: (t) => (err += t) });
  expect(code, err).toBe(0);
  return JSON.parse(out) as Record<string, unknown>;
}

/** `um metrics --stream --json` in this process, on a CSV of the case. */
async function streamed(c: Case, threads: number): Promise<Record<string, unknown>> {
  const file = csvOf(c);
  let out = '';
  const args = [
    'metrics',
    file,
    '--json',
    '--stream',
    '--chunk-rows',
    '70',
    '--threads',
    String(threads),
    '--sum-tolerance',
    '1e-6',
  ];
  if (c.preset !== undefined) args.push('--preset', c.preset);
  if (c.classwise === false) args.push('--no-classwise');
  if (c.weights !== undefined) args.push('--weights', 'w');
  let err = '';
  const code = await main(args, { stdout: (t) => (out += t), stderr: (t) => (err += t) });
  expect(code, err).toBe(0);
  return JSON.parse(out) as Record<string, unknown>;
}

const KEYS = Object.keys(FUNCTIONS);

describe('float32 NumPy files: streamed and read whole give the same bits as evaluate on the Float32Array', () => {
  it('10 classes, 600 rows (the stream read the scores as float64, so its entropies differed in the last bits)', async () => {
    const d = data(8, 600, 10, 7);
    const f32 = Float32Array.from(d.probs.flat());
    const scores = join(dir, 'f32.npy');
    const labels = join(dir, 'f32-labels.npy');
    writeFileSync(scores, npy([600, 10], Array.from(f32), '<f4'));
    writeFileSync(labels, npy([600], d.labels, '<i8'));
    const e = um.evaluate(d.labels, f32, { numClasses: 10, sumTolerance: 1e-6, onWarning: () => {} });
    for (const flags of [
      ['--no-stream'],
      ['--stream', '--chunk-rows', '170', '--threads', '1'],
      ['--stream', '--chunk-rows', '170', '--threads', '2'],
    ]) {
      let out = '';
      let err = '';
      const code = await main(['metrics', scores, '--labels', labels, '--json', '--sum-tolerance', '1e-6', ...flags], {
        stdout: (t) => (out += t),
        stderr: (t) => (err += t),
      });
      expect(code, err).toBe(0);
      const r = JSON.parse(out) as Record<string, unknown>;
      for (const key of KEYS)
        expect(typeof r[key] === 'string' ? Number(r[key]) : r[key], `${flags.join(' ')}: ${key}`).toBe(
          e[key as keyof um.Evaluation] ?? null,
        );
    }
  });
});

describe('every form of every metric of evaluate gives the same bits', () => {
  for (const c of cases) {
    it(c.name, async () => {
      const e = run((onWarning) =>
        um.evaluate(c.labels, c.probs, { ...w(c), ...options(c), sumTolerance: 1e-6, onWarning }),
      );
      for (const key of KEYS) {
        const got = e.value[key as keyof um.Evaluation];
        if (got === null) {
          // null in the suite: the function throws (or the key is left out with classwise: false)
          if (c.classwise === false && ['sce', 'ace', 'tace'].includes(key)) continue;
          expect(() => FUNCTIONS[key]?.(c), key).toThrow(um.UMError);
        } else expect(got, key).toBe(FUNCTIONS[key]?.(c));
      }
      const s = run((onWarning) => stateOf(c, 'exact', 11, onWarning).result());
      expect(s.value).toEqual(e.value);
      expect(s.warnings).toEqual(e.warnings);
      // evaluateParallel splits rows over threads only from 1024 rows a thread: on these cases it runs the one-thread
      // path whatever `threads` says (the split is test/parallel/evaluateParallel.test.ts's, on 2 000 rows a thread)
      const par = run((onWarning) =>
        evaluateParallel(c.labels, Float64Array.from(c.probs.flat()), {
          ...w(c),
          ...options(c),
          numClasses: (c.probs[0] as number[]).length,
          sumTolerance: 1e-6,
          threads: 2,
          onWarning,
        }),
      );
      expect(await par.value, 'evaluateParallel').toEqual(e.value);
      for (const threads of c.oneThread === true ? [1] : [1, 2]) {
        const cli = await streamed(c, threads);
        // (the JSON writes non-finite numbers as strings)
        for (const key of KEYS)
          expect(
            typeof cli[key] === 'string' ? Number(cli[key]) : cli[key],
            `--stream --threads ${threads}: ${key}`,
          ).toBe(e.value[key as keyof um.Evaluation] ?? null);
        expect(
          (cli.warnings as { code: string; message: string }[])
            .map((x) => `${x.code} ${x.message.replace(/^[^:]*: /, '')}`)
            .sort(),
          'stream warnings',
        ).toEqual([...e.warnings].sort());
      }
      if (c.preset === undefined && c.classwise === undefined) {
        const db = await cli(c, ['--engine', 'duckdb']);
        const keys = Object.keys(db).filter((k) => KEYS.includes(k));
        expect(keys.sort()).toEqual(['accuracy', 'auroc', 'brier', 'ece', 'mce', 'meanEntropy', 'nll', 'sce', 'uce']);
        for (const key of ['n', ...keys]) {
          const want = e.value[key as keyof um.Evaluation] as number | null;
          const got = typeof db[key] === 'string' ? Number(db[key]) : (db[key] as number | null);
          if (want === null || !Number.isFinite(want)) expect(got, `duckdb ${key}`).toBe(want);
          else
            expect(Math.abs((got as number) - want), `duckdb ${key}: ${got} vs ${want}`).toBeLessThanOrEqual(
              Math.max(1e-9 * Math.abs(want), 1e-12),
            );
        }
        for (const x of db.warnings as { code: string; message: string }[])
          expect(e.warnings, 'duckdb warning').toContain(`${x.code} ${x.message.replace(/^[^:]*: /, '')}`);
      }
    });
    it(`${c.name}: bounded within its bounds, or null`, () => {
      if (c.preset === 'uncertainty-metrics' || c.preset === 'torchmetrics' || c.weights !== undefined) return; // (exactly covered above; the grid keeps rows of whole weight)
      const exact = um.evaluate(c.labels, c.probs, { ...options(c), sumTolerance: 1e-6, onWarning: () => {} });
      const b = stateOf(c, 'bounded', 12, () => {}).result();
      for (const key of KEYS) {
        const v = b[key as keyof um.Evaluation] as number | null;
        const bound = b.bounds?.[key];
        if (bound === undefined) {
          expect(v, key).toBeNull();
          continue;
        }
        if (v === null || v === exact[key as keyof um.Evaluation]) continue;
        expect(Math.abs(v - (exact[key as keyof um.Evaluation] as number)), `${key} ± ${bound}`).toBeLessThanOrEqual(
          bound as number,
        );
      }
    });
  }
});
