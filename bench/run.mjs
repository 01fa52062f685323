// npm run bench:files — throughput and peak memory of um metrics on a generated N × 10 prediction file (default
// N = 10 000 000, about 1.2 GB of CSV) and the same data as Parquet: streamed in TypeScript (bounded states)
// vs computed inside embedded DuckDB by the generated SQL, plus the whole-file in-memory path on a smaller
// file. Not a test: it prints a table (and bench/files-results.json) to copy into docs/benchmarks.md.
// Env: BENCH_ROWS (default 10000000), BENCH_DIR (default bench/.data), BENCH_INMEMORY_ROWS (default 1000000).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateCsv } from './generate.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const rows = Number(process.env.BENCH_ROWS ?? 10_000_000);
const smallRows = Number(process.env.BENCH_INMEMORY_ROWS ?? 1_000_000);
const dir = process.env.BENCH_DIR ?? join(root, 'bench', '.data');
mkdirSync(dir, { recursive: true });
const bin = join(root, 'packages', 'core', 'dist', 'cli', 'bin.js');

async function dataset(n) {
  const csv = join(dir, `preds-${n}x10.csv`);
  const parquet = join(dir, `preds-${n}x10.parquet`);
  if (!existsSync(csv)) {
    console.error(`generating ${csv} …`);
    await generateCsv(csv, n, 10, 1);
  }
  if (!existsSync(parquet)) {
    console.error(`writing ${parquet} with DuckDB …`);
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    await c.run(
      `COPY (SELECT * FROM read_csv('${csv}', header = true)) TO '${parquet}' (FORMAT parquet, ROW_GROUP_SIZE 65536)`,
    );
    c.closeSync();
    db.closeSync();
  }
  return { csv, parquet };
}

/** Runs `um` under /usr/bin/time: wall seconds and peak resident memory (MB). */
function measure(args) {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M', process.execPath, bin, ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  const last = r.stderr.trim().split('\n').pop() ?? '';
  const [seconds, kb] = last.split(' ').map(Number);
  if (r.status !== 0) throw new Error(`um ${args.join(' ')} failed (${r.status}):\n${r.stderr}`);
  return { seconds, peakMB: kb / 1024, stdout: r.stdout };
}

const big = await dataset(rows);
const small = await dataset(smallRows);
const runs = [
  { name: 'stream CSV (bounded states)', file: big.csv, args: ['metrics', big.csv, '--stream', '--json'] },
  { name: 'stream Parquet (bounded states)', file: big.parquet, args: ['metrics', big.parquet, '--stream', '--json'] },
  { name: 'DuckDB SQL on CSV', file: big.csv, args: ['metrics', '--engine', 'duckdb', big.csv, '--json'] },
  { name: 'DuckDB SQL on Parquet', file: big.parquet, args: ['metrics', '--engine', 'duckdb', big.parquet, '--json'] },
  {
    name: `whole file in memory, exact (${smallRows} rows)`,
    file: small.csv,
    rows: smallRows,
    args: ['metrics', small.csv, '--no-stream', '--json'],
  },
  {
    name: `stream CSV, exact states (${smallRows} rows)`,
    file: small.csv,
    rows: smallRows,
    args: ['metrics', small.csv, '--stream', '--exact', '--json'],
  },
];
const results = [];
for (const run of runs) {
  console.error(`running: ${run.name} …`);
  const m = measure(run.args);
  const n = run.rows ?? rows;
  const bytes = statSync(run.file).size;
  const out = JSON.parse(m.stdout);
  results.push({
    name: run.name,
    rows: n,
    fileMB: bytes / 2 ** 20,
    seconds: m.seconds,
    rowsPerSecond: n / m.seconds,
    MBps: bytes / 2 ** 20 / m.seconds,
    peakMB: m.peakMB,
    ece: out.ece,
    auroc: out.auroc,
  });
}
const machine = { cpus: cpus().length, cpu: cpus()[0]?.model, memoryGB: totalmem() / 2 ** 30, node: process.version };
writeFileSync(join(root, 'bench', 'files-results.json'), `${JSON.stringify({ machine, results }, null, 2)}\n`);
const f = (x, d = 1) => x.toFixed(d);
console.log(`machine: ${machine.cpus} × ${machine.cpu}, ${f(machine.memoryGB)} GB, node ${machine.node}\n`);
console.log('| run | rows | file MB | seconds | rows/s | MB/s | peak RSS MB | ECE | AUROC |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const r of results) {
  console.log(
    `| ${r.name} | ${r.rows.toLocaleString('en')} | ${f(r.fileMB, 0)} | ${f(r.seconds)} | ${Math.round(r.rowsPerSecond).toLocaleString('en')} | ${f(r.MBps)} | ${f(r.peakMB, 0)} | ${r.ece.toFixed(6)} | ${r.auroc.toFixed(6)} |`,
  );
}
