/**
 * Files fuzz: seeded broken files of every format (CSV, JSON Lines, JSON, Parquet, NumPy with labels, calibrator
 * JSON), made by mutating valid ones (test/fuzz/files.ts), through every reader (readPredictions,
 * streamPredictions, readCalibrator) and every `um` command (metrics — in memory, --stream, --json, --engine duckdb —,
 * report, calibrate fit, calibrate apply, compare), with generated flags. A reader returns or throws a located
 * UMError; a command exits 0, or 2 with exactly one stderr line `um …: …` — never "internal error", never over the
 * time limit. Commands run in-process through `main` (fast); a few also as real processes.
 *
 * UM_FUZZ_ITERATIONS multiplies the number of cases, UM_FUZZ_SEED changes the run's seed.
 */
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { presets } from '../../src/index.js';
import { main } from '../../src/cli/main.js';
import { readCalibrator, readPredictions, streamPredictions } from '../../src/io/index.js';
import { umProcess } from '../helpers/cli.js';
import { judge } from './check.js';
import {
  calibrator,
  encode,
  mutateBytes,
  mutateJson,
  mutateNpyHeader,
  mutateParquet,
  mutateText,
  predictions,
  type Format,
} from './files.js';
import { caseSeed, Rand, vocabulary } from './generate.js';

const ITERATIONS = Number(process.env.UM_FUZZ_ITERATIONS ?? 1);
const SEED = Number(process.env.UM_FUZZ_SEED ?? 15);
const FILES = Math.ceil(60 * ITERATIONS);
const COMMANDS = Math.ceil(40 * ITERATIONS);
const PROCESSES = 3;
/** Per run (ms): commands render charts, start DuckDB or bootstrap; on a loaded machine a slow run is retried once. */
const COMMAND_LIMIT_MS = Number(process.env.UM_FUZZ_COMMAND_LIMIT_MS ?? 10_000);

const dir = mkdtempSync(join(tmpdir(), 'um-fuzz-files-'));
let runs = 0;
afterAll(() => {
  // UM_FUZZ_KEEP keeps the generated files (to reproduce a case by hand)
  if (process.env.UM_FUZZ_KEEP === undefined) rmSync(dir, { recursive: true, force: true });
  else console.log(`files fuzz: the files are in ${dir}`);
  if (ITERATIONS > 1) console.log(`files fuzz: ${runs} reads and runs, seed ${SEED}`);
});
/** Failures also go to UM_FUZZ_REPORT (long local runs); each case to UM_FUZZ_TRACE before it runs. */
const report = (problems: string[]) => {
  if (process.env.UM_FUZZ_REPORT !== undefined && problems.length > 0)
    appendFileSync(process.env.UM_FUZZ_REPORT, `${problems.join('\n')}\n`);
};
const trace = (what: string) => {
  if (process.env.UM_FUZZ_TRACE !== undefined) appendFileSync(process.env.UM_FUZZ_TRACE, `${what}\n`);
};
const FORMATS: Format[] = ['csv', 'jsonl', 'json', 'parquet', 'npy'];
const words = vocabulary(
  [],
  [
    'label',
    'probs',
    'logits',
    'member_probs',
    'temperature',
    'isotonic',
    'platt',
    'histogram-binning',
    'top-binning',
    ...Object.keys(presets),
  ],
);

interface FileCase {
  name: string;
  file: string;
  format: Format;
  /** Labels of NumPy scores. */
  labels?: string;
  /** Read options beyond the file. */
  read: { labels?: string; weightColumn?: string; members?: boolean; input?: 'logits' };
  /** A calibrator fitted on the same (unbroken) predictions, possibly broken itself. */
  calibrator: string;
  /** The same predictions unbroken (and their labels), and an unbroken calibrator. */
  good: { file: string; labels?: string; calibrator: string };
  valid: boolean;
}

/** Case `i`: a file of a random format, unbroken (1 in 6) or mutated once or twice, and a calibrator. */
function fileCase(i: number): FileCase {
  const r = new Rand(caseSeed(SEED, 'file', i));
  const p = predictions(r);
  const format = FORMATS[i % FORMATS.length] as Format;
  const enc = encode(p, format, r);
  let bytes = enc.bytes;
  const valid = r.chance(1 / 6);
  for (let m = 0, count = valid ? 0 : 1 + r.int(2); m < count; m++) {
    // UM_FUZZ_PARQUET_PAGES=0 leaves Parquet data pages intact (footer edits only): hyparquet 1.31.5 decodes a run
    // length from corrupt page bytes without bounding it by the page's values, which can run for minutes (see below)
    if (format === 'parquet' && (r.chance(0.5) || process.env.UM_FUZZ_PARQUET_PAGES === '0'))
      bytes = mutateParquet(r, bytes);
    else if (format === 'npy' && r.chance(0.5)) bytes = mutateNpyHeader(r, bytes);
    else if ((format === 'csv' || format === 'jsonl') && r.chance(0.5)) bytes = mutateText(r, bytes, format);
    else if (format === 'json' && r.chance(0.5)) {
      try {
        bytes = Buffer.from(mutateJson(r, bytes.toString('utf8'), words));
      } catch {
        bytes = mutateBytes(r, bytes);
      }
    } else bytes = mutateBytes(r, bytes);
  }
  const name = `case-${i}`;
  const file = join(dir, `${name}.${format}`);
  writeFileSync(file, bytes);
  const good = {
    file: join(dir, `${name}-good.${format}`),
    calibrator: join(dir, `${name}-good-calibrator.json`),
    ...(enc.labels === undefined ? {} : { labels: join(dir, `${name}-good-labels.npy`) }),
  };
  writeFileSync(good.file, enc.bytes);
  if (good.labels !== undefined && enc.labels !== undefined) writeFileSync(good.labels, enc.labels);
  const read: FileCase['read'] = {};
  let labels: string | undefined;
  if (enc.labels !== undefined) {
    labels = join(dir, `${name}-labels.npy`);
    writeFileSync(labels, !valid && r.chance(0.3) ? mutateBytes(r, enc.labels) : enc.labels);
    read.labels = labels;
  }
  if ((format === 'csv' || format === 'jsonl' || format === 'parquet') && r.chance(0.3)) read.weightColumn = 'w';
  if (format === 'json' && bytes.includes('member_probs') && r.chance(0.5)) read.members = true;
  let cal = calibrator(p, r);
  writeFileSync(good.calibrator, cal);
  if (!valid && r.chance(0.6))
    cal = r.chance(0.5) ? mutateJson(r, cal, words) : mutateBytes(r, Buffer.from(cal)).toString('latin1');
  const calibratorFile = join(dir, `${name}-calibrator.json`);
  writeFileSync(calibratorFile, cal);
  return {
    name,
    file,
    format,
    ...(labels === undefined ? {} : { labels }),
    read,
    calibrator: calibratorFile,
    good,
    valid,
  };
}

/** UM_FUZZ_CASE=i runs only file case i (and the command runs on it). */
const ONLY = process.env.UM_FUZZ_CASE === undefined ? undefined : Number(process.env.UM_FUZZ_CASE);
const CASES = Array.from({ length: FILES }, (_, i) => fileCase(i)).filter(
  (c) => ONLY === undefined || c.name === `case-${ONLY}`,
);
const GOOD = CASES.find((c) => c.valid && c.format === 'csv')?.file ?? 'test/fixtures/files/good.csv';

/** Flags with hostile values (never an output or another input path: everything written stays in `dir`). */
const VALUES = [
  '0',
  '-1',
  '1.5',
  '1e9',
  '1e999',
  'NaN',
  'abc',
  '',
  '2',
  '15',
  '0.95',
  '1048577',
  '-',
  '--json',
  '0x10',
  ' 3',
  '0.5,2',
  '1e-320,1000',
];
const SWITCHES = new Set([
  '--binary',
  '--members',
  '--no-classwise',
  '--classwise',
  '--exact',
  '--stream',
  '--json',
  '--md',
  '--timestamp',
  '--regularize',
  '--no-regularize',
  '--bogus',
  '--',
  'extra.csv',
  '-x',
  '--bins=',
]);
const INPUT_FLAGS = [
  '--input',
  '--label-column',
  '--score-prefix',
  '--sum-tolerance',
  '--members',
  '--binary',
  '--weights',
];
/** Each command's own flags (most generated flags are the command's; the rest test unknown ones). */
const OWN: Record<string, string[]> = {
  metrics: [
    ...INPUT_FLAGS,
    '--bins',
    '--preset',
    '--no-classwise',
    '--json',
    '--ci',
    '--resamples',
    '--seed',
    '--stream',
    '--exact',
    '--threads',
    '--chunk-rows',
  ],
  report: [
    ...INPUT_FLAGS,
    '--json',
    '--title',
    '--bins',
    '--preset',
    '--timestamp',
    '--stream',
    '--threads',
    '--chunk-rows',
  ],
  compare: [...INPUT_FLAGS, '--bins', '--preset', '--ci', '--resamples', '--seed', '--json'],
  'calibrate fit': [
    ...INPUT_FLAGS,
    '--bounds',
    '--objective',
    '--bins',
    '--binning',
    '--score',
    '--top',
    '--delta',
    '--regularize',
    '--no-regularize',
  ],
  'calibrate apply': INPUT_FLAGS,
};
function flags(r: Rand, name: string): string[] {
  const own = OWN[name.startsWith('calibrate') ? name : (name.split(' ')[0] as string)] ?? [];
  const out: string[] = [];
  for (let j = 0, n = r.chance(0.6) ? 0 : 1 + r.int(3); j < n; j++) {
    const f = r.chance(0.75) ? r.pick(own) : r.pick([...SWITCHES, '--bins', '--ci', '--threads']);
    if (SWITCHES.has(f)) out.push(f);
    else
      out.push(
        f,
        r.chance(0.3)
          ? r.pick([
              'probs',
              'logits',
              'w',
              'label',
              'p_',
              'equal-mass',
              'entropy',
              'mean-nll',
              ...Object.keys(presets),
            ])
          : r.pick(VALUES),
      );
  }
  return out;
}

/** The argv of command case `i` on file case `c`; outputs go to `dir`. */
function command(i: number, broken: FileCase): { name: string; argv: string[] } {
  const r = new Rand(caseSeed(SEED, 'command', i));
  // half the runs on the unbroken predictions (and calibrator): the commands' own work is reached, not only their checks
  const whole = r.chance(0.5);
  const c = whole
    ? {
        ...broken,
        file: broken.good.file,
        calibrator: broken.good.calibrator,
        read: { ...broken.read, ...(broken.good.labels === undefined ? {} : { labels: broken.good.labels }) },
      }
    : broken;
  const read = [
    ...(c.read.labels === undefined ? [] : ['--labels', c.read.labels]),
    ...(c.read.weightColumn === undefined ? [] : ['--weights', 'w']),
    ...(c.read.members === true ? ['--members'] : []),
  ];
  const out = (ext: string) => ['-o', join(dir, `out-${i}.${ext}`)];
  const method = r.pick(['temperature', 'mc-temperature', 'platt', 'histogram', 'isotonic', 'top1']);
  const all: { name: string; argv: string[] }[] = [
    { name: 'metrics', argv: ['metrics', c.file, ...read] },
    { name: 'metrics --json', argv: ['metrics', c.file, ...read, '--json'] },
    { name: 'metrics --stream', argv: ['metrics', c.file, ...read, '--stream', '--threads', '1'] },
    { name: 'metrics --calibration', argv: ['metrics', c.file, ...read, '--calibration', c.calibrator, '--json'] },
    { name: 'calibrate fit', argv: ['calibrate', 'fit', '--method', method, c.file, ...read, ...out('json')] },
    {
      name: 'calibrate apply',
      argv: ['calibrate', 'apply', c.calibrator, c.file, ...read, ...out(c.format === 'jsonl' ? 'jsonl' : 'csv')],
    },
    {
      name: 'compare',
      argv: ['compare', c.file, r.chance(0.8) ? broken.good.file : GOOD, ...read, '--resamples', '20'],
    },
    {
      name: 'metrics --engine duckdb',
      argv: ['metrics', c.file, '--engine', 'duckdb', ...(c.read.weightColumn === undefined ? [] : ['--weights', 'w'])],
    },
    { name: 'report', argv: ['report', c.file, ...read, '--md', ...out('md')] },
  ];
  // the engine reads CSV and Parquet; a report renders eight charts (slow): one run in eight
  const usable = all.filter(
    (x) =>
      (x.name !== 'metrics --engine duckdb' || c.format === 'csv' || c.format === 'parquet') &&
      (x.name !== 'report' || r.chance(0.3)),
  );
  const pick = r.pick(usable);
  return { name: pick.name, argv: [...pick.argv, ...flags(r, pick.name)] };
}

/** Problems of a command's outcome: the exit code, stderr's shape, NaN in JSON output, time. */
function commandProblems(code: number, stdout: string, stderr: string, ms: number): string[] {
  const out: string[] = [];
  if (code !== 0 && code !== 2) out.push(`exit ${code}`);
  if (/internal error/.test(stderr)) out.push(`internal error: ${stderr.split('\n').slice(0, 3).join(' | ')}`);
  if (code === 2 && !/^um [a-z ]+: [^\n]+\n$/.test(stderr))
    out.push(`exit 2 without exactly one "um …:" line: ${JSON.stringify(stderr.slice(0, 300))}`);
  if (code === 0 && /"NaN"/.test(stdout)) out.push('a NaN in the JSON output');
  if (ms > COMMAND_LIMIT_MS) out.push(`took ${ms.toFixed(0)} ms (limit ${COMMAND_LIMIT_MS})`);
  return out;
}

async function inProcess(argv: string[]): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  let stdout = '';
  let stderr = '';
  const start = performance.now();
  const code = await main(argv, {
    stdout: (t) => void (stdout.length < 1e6 && (stdout += t)),
    stderr: (t) => void (stderr += t),
  });
  return { code, stdout, stderr, ms: performance.now() - start };
}

describe('files fuzz: broken files of every format through every reader and command', () => {
  it(`readers: ${FILES} files (${FORMATS.join(', ')}), each read whole and streamed, and its calibrator`, async () => {
    const problems: string[] = [];
    for (const c of CASES) {
      const r = new Rand(caseSeed(SEED, 'read', Number(c.name.slice(5))));
      const where = `${c.name}.${c.format} [seed ${SEED}]`;
      const checks: [string, () => Promise<unknown>][] = [
        ['readPredictions', () => readPredictions(c.file, c.read)],
        [
          'streamPredictions',
          async () => {
            const batches: unknown[] = [];
            for await (const b of streamPredictions(c.file, { ...c.read, batchRows: 1 + r.int(7) })) batches.push(b);
            return batches;
          },
        ],
        ['readCalibrator', () => readCalibrator(c.calibrator)],
      ];
      for (const [name, call] of checks) {
        trace(`${name} ${where}`);
        runs++;
        // the readers copy values as they are (documented: NaN and ±Infinity reach the metrics, which report them with
        // their file position); the commands, which validate, are judged on their output below
        const o = await judge(name, call, [], {
          passThrough: /^result(\[\d+\])?\.(scores|members|labels|weights)\[\d+\]$/,
        });
        if (o.problems.length > 0) problems.push(`${name} ${where}: ${o.problems.join('; ')}`);
        if (c.valid && name !== 'readCalibrator' && o.kind !== 'value')
          problems.push(`${name} ${where}: a valid file was not read (${o.code ?? o.kind})`);
      }
    }
    report(problems);
    expect(problems).toEqual([]);
  }, 600_000);

  it(`commands: ${COMMANDS} runs of um metrics, report, calibrate fit/apply and compare with generated flags, in-process`, async () => {
    const problems: string[] = [];
    const exits = new Map<string, number>();
    for (let i = 0; i < COMMANDS; i++) {
      const c = CASES[i % CASES.length] as FileCase;
      const { name, argv } = command(i, c);
      trace(`um ${argv.join(' ')}`);
      runs++;
      let r = await inProcess(argv);
      if (r.ms > COMMAND_LIMIT_MS) r = await inProcess(argv);
      const p = commandProblems(r.code, r.stdout, r.stderr, r.ms);
      if (p.length > 0)
        problems.push(`${name} [${c.name}.${c.format}, seed ${SEED}, run ${i}] um ${argv.join(' ')}: ${p.join('; ')}`);
      exits.set(`${name} → ${r.code}`, (exits.get(`${name} → ${r.code}`) ?? 0) + 1);
      if (process.env.UM_FUZZ_STATS === 'verbose' && r.code === 2) console.log(`${name}: ${r.stderr.trim()}`);
    }
    if (process.env.UM_FUZZ_STATS !== undefined)
      console.log(
        [...exits]
          .sort()
          .map(([k, v]) => `${k}: ${v}`)
          .join('\n'),
      );
    report(problems);
    // the runs must reach the commands' work, not only their argument checks
    expect([...exits].filter(([k]) => k.endsWith('→ 0')).reduce((a, [, v]) => a + v, 0)).toBeGreaterThan(COMMANDS / 10);
    expect(problems).toEqual([]);
  }, 600_000);

  it(`${PROCESSES} runs as real processes (the built um)`, () => {
    const problems: string[] = [];
    for (let i = 0; i < PROCESSES; i++) {
      const c = CASES[(i * 7) % CASES.length] as FileCase;
      const { argv } = command(1000 + i, c);
      const start = performance.now();
      const r = umProcess(argv, { cwd: dir });
      const p = commandProblems(r.code, r.stdout, r.stderr, performance.now() - start);
      if (p.length > 0) problems.push(`[${c.name}.${c.format}, seed ${SEED}] um ${argv.join(' ')}: ${p.join('; ')}`);
    }
    report(problems);
    expect(problems).toEqual([]);
  }, 120_000);
});
