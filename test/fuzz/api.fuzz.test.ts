/**
 * API fuzz: every public function of every entry point (core, io, plot, report, sql, parallel, llm; the CLI's `main` is
 * fuzzed with generated files in files.fuzz.test.ts, tfjs in tfjs.fuzz.test.ts) is called with seeded mutations of
 * the valid calls in the documentation examples — wrong types, broken arrays, special numbers, hostile options,
 * extreme counts and weights, presets. Each call must return a result without NaN or undefined (±Infinity only with
 * a UM_W_INFINITE warning) or throw a UMError with a known code and a message starting with the function's name,
 * within the time limit. The states' methods (update, merge, toJSON → stateFromJSON, result) are fuzzed too.
 *
 * UM_FUZZ_ITERATIONS multiplies the number of cases (default 1: a few seconds), UM_FUZZ_SEED changes the run's
 * seed, UM_FUZZ_ONLY=name restricts the run to one function. A failure names its seed and case number.
 */
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as core from '../../src/index.js';
import * as io from '../../src/io/index.js';
import * as plot from '../../src/plot/index.js';
import * as report from '../../src/report/index.js';
import * as sql from '../../src/sql/index.js';
import * as llm from '../../src/llm/index.js';
// workers start from the built JavaScript (dist/parallel/rowStatsWorker.js), so this entry runs from dist
import * as parallel from '../../packages/core/dist/parallel/index.js';
import { judge } from './check.js';
import { recordSeeds, type Seed } from './corpus.js';
import { caseSeed, describe as show, mutateCall, Rand, vocabulary, type Vocabulary } from './generate.js';

const ITERATIONS = Number(process.env.UM_FUZZ_ITERATIONS ?? 1);
const SEED = Number(process.env.UM_FUZZ_SEED ?? 15);
const ONLY = process.env.UM_FUZZ_ONLY;
const SKIP = new Set((process.env.UM_FUZZ_SKIP ?? '').split(','));
/** A file that gets each case before it runs (to find a case that crashes the process). */
const TRACE = process.env.UM_FUZZ_TRACE;

const MODULES: Record<string, Record<string, unknown>> = {
  'uncertainty-metrics': core,
  'uncertainty-metrics/io': io,
  'uncertainty-metrics/plot': plot,
  'uncertainty-metrics/report': report,
  'uncertainty-metrics/sql': sql,
  'uncertainty-metrics/parallel': parallel as unknown as Record<string, unknown>,
  'uncertainty-metrics/llm': llm,
};

/**
 * The modules the seeds are recorded from: MODULES, but three of the report examples (createReport's, reportJson's and
 * reportMarkdown's) build the same report from the same rows — about half a second each, rendering its charts — so
 * the seed run builds it once and hands the same report to each (the reporters only read it; each call is still
 * recorded as a seed). Calls whose arguments are not plain data (a function such as onProgress, a typed array, a class
 * instance) are not shared. The fuzzed calls below call the module's own createReport.
 */
const seedModules = (): Record<string, Record<string, unknown>> => ({
  ...MODULES,
  'uncertainty-metrics/report': { ...report, createReport: shared(report.createReport) },
});

function shared<A extends unknown[], R>(f: (...a: A) => R): (...a: A) => R {
  const made = new Map<string, R>();
  return (...args) => {
    const key = plainKey(args);
    if (key === undefined) return f(...args);
    if (!made.has(key)) made.set(key, f(...args));
    return made.get(key) as R;
  };
}

/**
 * The arguments' text, for plain data only (arrays, plain objects, strings, numbers, booleans, null), else undefined:
 * a function, a typed array or a class instance has no text; numbers JSON cannot write (NaN, ±Infinity, −0) are
 * kept apart as `{"number":"NaN"}`. The text JSON.stringify with a replacer wrote (calling toJSON as it does), with
 * arrays of finite numbers written by one native call: the replacer, called back for every number, took ~0.6 s of the
 * run, this ~0.35 (the same texts: checked on every call of a run).
 */
function plainKey(args: unknown[]): string | undefined {
  let text = '';
  const write = (key: string, value: unknown): boolean => {
    let v = value;
    if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function')
      v = (v as { toJSON(key: string): unknown }).toJSON(key);
    if (typeof v === 'number') {
      text += Number.isFinite(v) && !Object.is(v, -0) ? String(v) : `{"number":"${String(v)}"}`;
      return true;
    }
    if (typeof v === 'string') {
      text += JSON.stringify(v);
      return true;
    }
    if (typeof v === 'boolean' || v === null) {
      text += String(v);
      return true;
    }
    if (typeof v !== 'object') return false;
    if (Array.isArray(v)) {
      // an array of finite numbers (most arguments' bulk) in one native call
      let numbers = true;
      for (let i = 0; i < v.length && numbers; i++) {
        const x: unknown = v[i];
        numbers = typeof x === 'number' && Number.isFinite(x) && !Object.is(x, -0);
      }
      if (numbers) {
        text += JSON.stringify(v);
        return true;
      }
      text += '[';
      for (let i = 0; i < v.length; i++) {
        if (i > 0) text += ',';
        if (!write(String(i), v[i])) return false;
      }
      text += ']';
      return true;
    }
    if (Object.getPrototypeOf(v) !== Object.prototype) return false;
    text += '{';
    let first = true;
    for (const k of Object.keys(v)) {
      text += `${first ? '' : ','}${JSON.stringify(k)}:`;
      first = false;
      if (!write(k, (v as Record<string, unknown>)[k])) return false;
    }
    text += '}';
    return true;
  };
  return write('', args) ? text : undefined;
}

/** Cases per function in one default run; functions that start engines, workers or renderers get fewer. */
const CASES = 36;
const SLOW: Record<string, number> = {
  renderSvg: 6,
  createReport: 6,
  evaluateParallel: 6,
  sqlMetrics: 8,
  duckdbSource: 8,
  duckdbEngine: 4,
  bootstrap: 12,
  comparePaired: 8,
  readPredictions: 16,
  streamPredictions: 16,
  evaluate: 16,
  evaluateEnsemble: 16,
  semiparametricCalibrationError: 12,
  bayesianEce: 12,
  reliabilityDiagram: 12,
  binSweep: 12,
  temperatureSweep: 12,
};

/**
 * Message prefixes other than the function's own name. bootstrap calls the caller's metric: an error the metric
 * throws (the corpus' metrics call brier, which names itself) is the caller's own and passes through unchanged.
 */
const PREFIX: Record<string, RegExp> = { bootstrap: /^\w+: / };

/** Functions whose arguments are first passed through a fixed step (see each entry's reason). */
const dir = mkdtempSync(join(tmpdir(), 'um-fuzz-'));
let engine: sql.DuckdbEngine | undefined;
const isEngine = (x: unknown) =>
  x !== null &&
  typeof x === 'object' &&
  typeof (x as { query?: unknown }).query === 'function' &&
  typeof (x as { close?: unknown }).close === 'function';

function prepare(name: string, args: unknown[]): unknown[] {
  // the examples close their engines: calls get the suite's open in-memory engine instead
  const out = args.map((a) => (isEngine(a) ? engine : a));
  // duckdbEngine creates the database file it is given: generated names become files in a temporary directory
  if (name === 'duckdbEngine' && typeof out[0] === 'string' && out[0] !== ':memory:')
    out[0] = join(dir, `db-${out[0].replace(/[^a-z0-9]/gi, '_').slice(0, 40)}`);
  return out;
}

/** Cleanup after each call: engines opened are closed, the global backend is restored. */
async function cleanup(name: string, result: unknown): Promise<void> {
  if (name === 'duckdbEngine' && isEngine(result)) (result as { close(): void }).close();
  if (name === 'useKernels') core.useKernels('wasm');
}

/** How a state is fed from a call of its metric's function: ensembles and log-likelihoods have no labels. */
const NO_LABELS = new Set([
  'modelUncertainty',
  'disagreement',
  'pairwiseKl',
  'cosineDistance',
  'lpDistance',
  'averagePairwiseDiversity',
  'negativeWaic',
  'iscv',
]);

let seeds = new Map<string, Seed[]>();
let words: Vocabulary;
const presetNames = Object.keys(core.presets);
const failures: string[] = [];
let total = 0;
/** Each function's calls judged so far (its name and the arguments' plainKey). */
const judged = new Set<string>();

beforeAll(async () => {
  engine = await sql.duckdbEngine();
  const quiet = core.setWarningHandler(() => {});
  // (the shared report goes with the seed run's modules: nothing keeps it afterwards)
  const r = await recordSeeds(seedModules());
  core.setWarningHandler(quiet);
  expect(r.failed).toEqual([]);
  seeds = r.seeds;
  words = vocabulary(
    [...seeds.values()].flat().map((s) => s.args),
    [...presetNames, ...core.STATE_METRICS],
  );
}, 60_000);

afterAll(() => {
  engine?.close();
  if (process.env.UM_FUZZ_REPORT !== undefined) writeFileSync(process.env.UM_FUZZ_REPORT, `${failures.join('\n')}\n`);
  rmSync(dir, { recursive: true, force: true });
  if (ITERATIONS > 1) console.log(`api fuzz: ${total} cases, seed ${SEED}, ${failures.length} failures`);
});

const FUNCTIONS = Object.entries(MODULES).flatMap(([entry, mod]) =>
  Object.entries(mod)
    .filter(([n, v]) => typeof v === 'function' && !/^[A-Z]/.test(n))
    .map(([n, v]) => ({ entry, name: n, f: v as (...a: unknown[]) => unknown })),
);

async function fuzzOne(name: string, f: (...a: unknown[]) => unknown, count: number): Promise<string[]> {
  const list = seeds.get(name) ?? [];
  const problems: string[] = [];
  const voidResult = false;
  for (let i = 0; i < count; i++) {
    const r = new Rand(caseSeed(SEED, name, i));
    const seed = r.pick(list);
    const args = prepare(name, mutateCall(r, seed.args, words, presetNames));
    // a mutation that left the call as an earlier case made it (plain data only) is not judged again: the same
    // input checks nothing new (about one case in ten, among them a second unmutated report example; 7.7 → 7.4 s CPU)
    const key = plainKey(args);
    if (key !== undefined) {
      if (judged.has(`${name} ${key}`)) continue;
      judged.add(`${name} ${key}`);
    }
    const shown = args.map((a) => show(a)).join(', ');
    if (TRACE !== undefined) appendFileSync(TRACE, `${name} case ${i}: ${shown.slice(0, 300)}\n`);
    let result: unknown;
    const prefix = PREFIX[name];
    let outcome = await judge(name, f, args, {
      voidResult,
      after: (x) => (result = x),
      ...(prefix === undefined ? {} : { prefix }),
    });
    // a slow call on a loaded machine is measured once more before it counts
    if (outcome.problems.length === 1 && outcome.problems[0]?.startsWith('took'))
      outcome = await judge(
        name,
        f,
        prepare(name, mutateCall(new Rand(caseSeed(SEED, name, i)), seed.args, words, presetNames)),
        { voidResult, ...(prefix === undefined ? {} : { prefix }) },
      );
    await cleanup(name, result);
    total++;
    if (outcome.problems.length > 0)
      problems.push(`${name}(${shown}) [seed ${SEED}, case ${i}]: ${outcome.problems.join('; ')}`);
  }
  return problems;
}

describe('API fuzz: every public function on mutated valid calls', () => {
  it('has a valid seed call for every public function', () => {
    expect(FUNCTIONS.length).toBeGreaterThan(100);
    expect(FUNCTIONS.filter((x) => (seeds.get(x.name) ?? []).length === 0).map((x) => x.name)).toEqual([]);
  });
  for (const entry of Object.keys(MODULES)) {
    const fns = FUNCTIONS.filter(
      (x) => x.entry === entry && (ONLY === undefined || x.name === ONLY) && !SKIP.has(x.name),
    );
    if (fns.length === 0) continue;
    it(`${entry} (${fns.length} functions)`, async () => {
      const problems: string[] = [];
      for (const { name, f } of fns)
        problems.push(...(await fuzzOne(name, f, Math.ceil((SLOW[name] ?? CASES) * ITERATIONS))));
      failures.push(...problems);
      expect(problems).toEqual([]);
    }, 600_000);
  }
  it('states: update, merge, JSON round trip and result on mutated batches', async () => {
    const problems: string[] = [];
    const metrics = core.STATE_METRICS.filter((m) => seeds.has(m) && (ONLY === undefined || ONLY === 'createState'));
    for (const metric of metrics) {
      const count = Math.ceil(12 * ITERATIONS);
      for (let i = 0; i < count; i++) {
        const r = new Rand(caseSeed(SEED, `state:${metric}`, i));
        const seed = r.pick(seeds.get(metric) ?? []);
        const args = mutateCall(r, seed.args, words, presetNames);
        const options = NO_LABELS.has(metric) ? args[1] : args[2];
        // warnings go to the global handler, which judge records (a per-call handler inside the closure would not be)
        if (
          options !== null &&
          typeof options === 'object' &&
          typeof (options as { onWarning?: unknown }).onWarning === 'function'
        )
          delete (options as { onWarning?: unknown }).onWarning;
        const batch = NO_LABELS.has(metric) ? [null, args[0]] : [args[0], args[1]];
        const split = r.chance(0.5);
        const run = () => {
          const s = core.createState(metric, (options ?? {}) as never);
          const a = s.update(...(batch as [never, never]));
          const merged = split
            ? a.merge(core.createState(metric, (options ?? {}) as never).update(...(batch as [never, never])))
            : a;
          return core.stateFromJSON(JSON.stringify(merged)).result();
        };
        const outcome = await judge(metric, run, [], {
          prefix: new RegExp(`^(${metric}(\\.update|\\.merge)?|createState|stateFromJSON): `),
        });
        total++;
        if (outcome.problems.length > 0)
          problems.push(
            `state ${metric}: createState(${show(options)}).update(${batch.map((b) => show(b)).join(', ')}) [seed ${SEED}, case ${i}]: ${outcome.problems.join('; ')}`,
          );
      }
    }
    failures.push(...problems);
    expect(problems).toEqual([]);
  }, 600_000);
});
