// npm run bench — the path users run: `um` as a real process (node packages/cli/bin/um.js, the bundled command, default flags unless the row
// says otherwise) against the numpy scripts of bench/e2e/ on the same files, interleaved, median of BENCH_REPEATS;
// wall time and peak RSS of the whole process. Every um value is checked against the numpy value (1e-9 relative).
// Writes bench/results.json (a full run) and prints a Markdown table for docs/benchmarks.md. Not a test.
// Env: BENCH_ROWS     comma-separated substrings of row ids (default: every row), e.g. "100000x100,temperature"
//      BENCH_REPEATS  runs of each command per row (default 3)
//      BENCH_SCALE    multiplies every row count (e.g. 0.01 for a smoke run; data sets are made per size)
//      BENCH_DIR      data directory (default bench/.data)
//      BENCH_OUT      results file (default bench/results.json for a full run, else bench/.data/results-partial.json)
//      BENCH_PYTHON   python with numpy and scipy (default python3)
// `node bench/e2e/run.mjs --render` prints the table of an existing results file without running anything.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fileData, npyData, python } from './data.mjs';
import { agreement, markdown, readmeTable } from './report.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const here = join(root, 'bench', 'e2e');
const dir = process.env.BENCH_DIR ?? join(root, 'bench', '.data');
const repeats = Number(process.env.BENCH_REPEATS ?? 3);
const scale = Number(process.env.BENCH_SCALE ?? 1);
const filter = process.env.BENCH_ROWS?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const full = filter === undefined && scale === 1;
const outPath =
  process.env.BENCH_OUT ?? (full ? join(root, 'bench', 'results.json') : join(dir, 'results-partial.json'));
mkdirSync(join(dir, 'e2e'), { recursive: true });
const um = join(root, 'packages', 'cli', 'bin', 'um.js'); // the CLI package's bundled command, as users run it
const rows = (n) => Math.max(100, Math.round(n * scale));

// ---------------------------------------------------------------------------------------------------------- rows
const umMetrics = (file, labels, ...flags) => [
  'metrics',
  file,
  ...(labels ? ['--labels', labels] : []),
  '--json',
  ...flags,
];
const npScript = (name, ...args) => ({ name, command: python, args: ['-B', join(here, name), ...args] });

/** Every row of the issue's table: id, what it measures, the um command, the numpy competitors or reference. */
async function plan() {
  const list = [];
  for (const [n0, c] of [
    [50_000, 1000],
    [100_000, 100],
    [1_000_000, 10],
  ]) {
    const n = rows(n0);
    const id = `${n}x${c}`;
    const lazy = () => npyData(dir, n, c);
    const big = n0 === 50_000;
    list.push({
      id: `${id}/default`,
      what: `um metrics, default flags, float32 probabilities .npy vs numpy_full.py (same 17 metrics)`,
      lazy,
      um: (d) => umMetrics(d.probs, d.labels),
      numpy: (d) => [npScript('numpy_full.py', d.probs, d.labels)],
      file: (d) => d.probs,
    });
    if (big) {
      list.push({
        id: `${id}/no-stream`,
        what: 'the same in memory (--no-stream)',
        lazy,
        um: (d) => umMetrics(d.probs, d.labels, '--no-stream'),
        numpy: (d) => [npScript('numpy_full.py', d.probs, d.labels)],
        file: (d) => d.probs,
      });
    }
    list.push({
      id: `${id}/no-classwise`,
      what: '--no-classwise (default streaming choice) vs numpy_core.py (the 14 metrics um prints) and numpy_core.py --set eight',
      lazy,
      um: (d) => umMetrics(d.probs, d.labels, '--no-classwise'),
      numpy: (d) => [
        npScript('numpy_core.py', d.probs, d.labels),
        { ...npScript('numpy_core.py', d.probs, d.labels, '--set', 'eight'), name: 'numpy_core.py --set eight' },
      ],
      file: (d) => d.probs,
    });
    if (big) {
      list.push({
        id: `${id}/no-stream-no-classwise`,
        what: '--no-stream --no-classwise vs numpy_core.py (14 metrics) and --set eight',
        lazy,
        um: (d) => umMetrics(d.probs, d.labels, '--no-stream', '--no-classwise'),
        numpy: (d) => [
          npScript('numpy_core.py', d.probs, d.labels),
          { ...npScript('numpy_core.py', d.probs, d.labels, '--set', 'eight'), name: 'numpy_core.py --set eight' },
        ],
        file: (d) => d.probs,
      });
    }
    list.push({
      id: `${id}/logits`,
      what: 'float32 logits .npy (--input logits), default flags, vs numpy_full.py --logits',
      lazy,
      um: (d) => umMetrics(d.logits, d.labels, '--input', 'logits'),
      numpy: (d) => [npScript('numpy_full.py', d.logits, d.labels, '--logits')],
      file: (d) => d.logits,
    });
  }
  const nt = rows(50_000);
  list.push({
    id: `temperature/${nt}x1000`,
    what: 'um calibrate fit --method temperature on float32 logits vs numpy_temperature.py (Newton on ln β)',
    lazy: () => npyData(dir, nt, 1000),
    um: (d) => [
      'calibrate',
      'fit',
      '--method',
      'temperature',
      '--input',
      'logits',
      d.logits,
      '--labels',
      d.labels,
      '-o',
      join(dir, 'e2e', 'temperature.json'),
    ],
    numpy: (d) => [npScript('numpy_temperature.py', d.logits, d.labels)],
    file: (d) => d.logits,
    output: join(dir, 'e2e', 'temperature.json'),
  });
  const big = rows(10_000_000);
  const small = rows(1_000_000);
  list.push({
    id: `csv/${big}x10`,
    what: 'CSV throughput, default flags (streamed above 64 MiB); values checked against numpy_full.py on the parsed .npy',
    lazy: () => fileData(dir, big),
    um: (d) => umMetrics(d.csv),
    reference: (d) => npScript('numpy_full.py', d.refProbs, d.refLabels),
    file: (d) => d.csv,
  });
  for (const format of ['csv', 'parquet', 'jsonl']) {
    for (const mode of ['default', 'no-stream']) {
      list.push({
        id: `${format}/${small}x10${mode === 'default' ? '' : '/no-stream'}`,
        what: `${format} throughput, ${mode === 'default' ? 'default flags' : 'in memory (--no-stream)'}`,
        lazy: () => fileData(dir, small, { parquet: true, jsonl: true }),
        um: (d) => umMetrics(d[format], undefined, ...(mode === 'default' ? [] : ['--no-stream'])),
        reference: (d) => npScript('numpy_full.py', d.refProbs, d.refLabels),
        file: (d) => d[format],
      });
    }
  }
  return filter === undefined ? list : list.filter((r) => filter.some((f) => r.id.includes(f)));
}

// ---------------------------------------------------------------------------------------------------- measuring
const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
// without GNU time: a python wrapper reads the child's peak RSS from getrusage(RUSAGE_CHILDREN)
const RUSAGE =
  'import resource,subprocess,sys;r=subprocess.run(sys.argv[1:]);sys.stderr.write("\\n0 %d\\n"%resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss);sys.exit(r.returncode)';

/** One run: wall seconds (measured here), peak RSS in MB (GNU time's %M), stdout. */
function measure(command, args) {
  const argv = timeBin ? ['-f', '\n%e %M', command, ...args] : ['-c', RUSAGE, command, ...args];
  const t0 = performance.now();
  const r = spawnSync(timeBin ?? python, argv, { encoding: 'utf8', maxBuffer: 1 << 28 });
  const seconds = (performance.now() - t0) / 1000;
  const last = r.stderr.trim().split('\n').pop() ?? '';
  const kb = Number(last.split(' ')[1]);
  if (r.status !== 0)
    return {
      seconds,
      rssMB: kb / 1024,
      error: `exit ${r.status ?? r.signal}: ${r.stderr.trim().split('\n').slice(-3, -1).join(' | ')}`,
    };
  return { seconds, rssMB: kb / 1024, stdout: r.stdout };
}

/** Reads a file once so the timed runs find it in the page cache (none of them pays the first disk read). */
function warm(file) {
  spawnSync('cat', [file], { stdio: ['ignore', 'ignore', 'ignore'] });
}

const median = (xs) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return s.length === 0 ? null : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function parse(stdout) {
  try {
    return JSON.parse(stdout);
  } catch {
    return null;
  }
}

async function runRow(row) {
  const data = await row.lazy();
  const file = row.file(data);
  const bytes = statSync(file).size;
  const umArgs = row.um(data);
  const competitors = row.numpy ? row.numpy(data) : [];
  warm(file);
  warm(data.labels ?? file);
  const load = loadavg()[0];
  const umRuns = [];
  const npRuns = competitors.map(() => []);
  for (let r = 0; r < repeats; r++) {
    // interleaved, alternating who goes first, so drift on the shared machine hits both sides alike
    const order = r % 2 === 0 ? ['um', ...competitors.keys()] : [...competitors.keys(), 'um'];
    for (const who of order) {
      if (who === 'um') {
        const m = measure(process.execPath, [um, ...umArgs]);
        umRuns.push({
          ...m,
          values:
            m.stdout === undefined ? null : row.output ? JSON.parse(readFileSync(row.output, 'utf8')) : parse(m.stdout),
        });
      } else {
        const c = competitors[who];
        const m = measure(c.command, c.args);
        npRuns[who].push({ ...m, values: m.stdout === undefined ? null : parse(m.stdout) });
      }
      const last = who === 'um' ? umRuns[umRuns.length - 1] : npRuns[who][npRuns[who].length - 1];
      console.error(
        `  ${row.id} ${who === 'um' ? 'um' : competitors[who].name}: ${last.seconds.toFixed(2)} s, ${Math.round(last.rssMB)} MB${last.error ? ` ERROR ${last.error}` : ''}`,
      );
    }
  }
  let refValues = npRuns[0]?.find((x) => x.values)?.values ?? null;
  let refName = competitors[0]?.name ?? null;
  if (row.reference) {
    const ref = row.reference(data);
    console.error(`  ${row.id} reference values: ${ref.name} on the parsed .npy`);
    refValues = parse(measure(ref.command, ref.args).stdout ?? '');
    refName = `${ref.name} (${ref.args[ref.args.length - 2].split('/').pop()})`;
  }
  const umValues = umRuns.find((x) => x.values)?.values ?? null;
  const umWall = median(umRuns.map((x) => (x.error ? NaN : x.seconds)));
  return {
    id: row.id,
    what: row.what,
    command: `um ${umArgs.map((a) => a.replace(dir, '$DATA')).join(' ')}`,
    file: file.replace(dir, '$DATA'),
    fileMB: bytes / 2 ** 20,
    loadBefore: load, // 1-minute load average when the row started (the machine is shared)
    um: {
      wall: umRuns.map((x) => x.seconds),
      rssMB: umRuns.map((x) => x.rssMB),
      medianWall: umWall,
      medianRssMB: median(umRuns.map((x) => x.rssMB)),
      errors: umRuns.filter((x) => x.error).map((x) => x.error),
      streamed: umValues?.streamed ?? null,
      bounds: umValues?.bounds ?? null,
    },
    MBps: umWall ? bytes / 2 ** 20 / umWall : null,
    numpy: competitors.map((c, i) => {
      const wall = median(npRuns[i].map((x) => (x.error ? NaN : x.seconds)));
      return {
        script: c.name,
        wall: npRuns[i].map((x) => x.seconds),
        rssMB: npRuns[i].map((x) => x.rssMB),
        medianWall: wall,
        medianRssMB: median(npRuns[i].map((x) => x.rssMB)),
        ratio: wall && umWall ? wall / umWall : null,
        errors: npRuns[i].filter((x) => x.error).map((x) => x.error),
      };
    }),
    agreement: agreement(umValues, refValues, refName, row.output ? ['temperature'] : undefined),
  };
}

// ----------------------------------------------------------------------------------------------------------- main
const beforePath = join(here, 'before.json');
const readJson = (path) => (existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : null);
if (process.argv.includes('--render')) {
  // the table of an existing results file (BENCH_OUT or bench/results.json), without running anything; with
  // --readme, the README's short table
  const saved = readJson(process.env.BENCH_OUT ?? join(root, 'bench', 'results.json'));
  console.log(process.argv.includes('--readme') ? readmeTable(saved) : markdown(saved, readJson(beforePath)));
  process.exit(0);
}
function version(code) {
  const r = spawnSync(python, ['-c', code], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}
const git = (args) => spawnSync('git', args, { cwd: root, encoding: 'utf8' }).stdout?.trim() ?? null;
const machine = {
  cpu: cpus()[0]?.model ?? null,
  cores: cpus().length,
  memoryGB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
  os: `${process.platform} ${release()}`,
  node: process.version,
  python: version('import platform; print(platform.python_version())'),
  numpy: version('import numpy; print(numpy.__version__)'),
  scipy: version('import scipy; print(scipy.__version__)'),
  rss: timeBin ? 'GNU time %M' : 'getrusage(RUSAGE_CHILDREN) via python',
};
const loadAtStart = loadavg();
const results = [];
for (const row of await plan()) {
  console.error(`${row.id}: ${row.what}`);
  results.push(await runRow(row));
}
const before = readJson(beforePath);
machine.loadAverage = { start: loadAtStart, end: loadavg() };
const report = {
  date: new Date().toISOString(),
  commit: git(['rev-parse', 'HEAD']),
  dirty: git(['status', '--porcelain', '--', 'src', 'assembly']) !== '',
  machine,
  repeats,
  scale,
  rows: results,
};
writeFileSync(outPath, `${JSON.stringify(report, null, 2)}\n`);
console.log(markdown(report, before));
console.error(`\nwrote ${outPath}`);
