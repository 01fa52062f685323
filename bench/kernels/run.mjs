// npm run bench:kernels — every `um metrics` metric, the fused evaluator and the temperature fit, in memory, at
// N × C = 100 000 × 100, 50 000 × 1 000 and 1 000 000 × 10, float32 and float64, against a measured memory-copy
// baseline and (when python3 with numpy is present) the vectorised numpy versions in numpy_metrics.py, on the same
// seeded data. Medians of KERNEL_REPEATS runs (default 7) after one warm-up run. Not a test: it prints a table and
// writes bench/kernels/results.json, which docs/benchmarks.md quotes.
// Env: KERNEL_REPEATS (default 7), KERNEL_SIZES (e.g. "100000x100,50000x1000"), KERNEL_DIR (default bench/.data).
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  auroc,
  aurc,
  brier,
  ece,
  entropy,
  evaluate,
  fitTemperature,
  mce,
  nll,
  normalizedEntropy,
  toProbabilities,
  uce,
  useKernels,
} from '../../packages/core/dist/index.js';
import { evaluateParallel } from '../../packages/core/dist/parallel/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = process.env.KERNEL_DIR ?? join(root, 'bench', '.data');
mkdirSync(dir, { recursive: true });
const repeats = Number(process.env.KERNEL_REPEATS ?? 7);
const sizes = (process.env.KERNEL_SIZES ?? '100000x100,50000x1000,1000000x10')
  .split(',')
  .map((s) => s.split('x').map(Number));

function npy(path, array, dtype, shape) {
  let header = `{'descr': '${dtype}', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  while ((10 + header.length + 1) % 64 !== 0) header += ' ';
  header += '\n';
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1;
  head.writeUInt16LE(header.length, 8);
  writeFileSync(
    path,
    Buffer.concat([head, Buffer.from(header, 'latin1'), Buffer.from(array.buffer, array.byteOffset, array.byteLength)]),
  );
}

/** Seeded softmax rows (mulberry32): logits 3·u plus 2 at the label, so the predictions are informative. */
function data(n, c) {
  let s = 12345;
  const u = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const p = new Float64Array(n * c);
  const y = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    y[i] = Math.floor(u() * c);
    let z = 0;
    for (let k = 0; k < c; k++) {
      const v = Math.exp(3 * u() + (k === y[i] ? 2 : 0));
      p[i * c + k] = v;
      z += v;
    }
    for (let k = 0; k < c; k++) p[i * c + k] /= z;
  }
  return { p, y };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
let last;
async function time(f, reps = repeats) {
  last = await f();
  const ts = [];
  for (let r = 0; r < reps; r++) {
    const t = performance.now();
    await f();
    ts.push(performance.now() - t);
  }
  return median(ts);
}

const mean = (v) => v.reduce((a, b) => a + b, 0) / v.length;
const silent = { onWarning: () => undefined };
const numpyVersion = spawnSync('python3', ['-c', 'import numpy; print(numpy.__version__)'], { encoding: 'utf8' });
const haveNumpy = numpyVersion.status === 0;
const backend = useKernels('wasm');

const rows = [];
const temperature = [];
for (const [n, c] of sizes) {
  console.error(`generating ${n} × ${c} …`);
  const { p, y } = data(n, c);
  const base = join(dir, 'kernel');
  npy(
    `${base}-${n}x${c}-labels.npy`,
    BigInt64Array.from(y, (v) => BigInt(v)),
    '<i8',
    [n],
  );
  for (const dtype of ['float32', 'float64']) {
    const arr = dtype === 'float32' ? Float32Array.from(p) : p;
    npy(`${base}-${n}x${c}-${dtype}.npy`, arr, dtype === 'float32' ? '<f4' : '<f8', [n, c]);
    const o = { numClasses: c };
    const ow = { numClasses: c, ...silent };
    const copy = new arr.constructor(arr.length);
    const memcpy = await time(() => copy.set(arr));
    const shared = new arr.constructor(new SharedArrayBuffer(arr.byteLength));
    shared.set(arr);
    const threads = cpus().length;
    const ours = {
      'fused pass (validate + top label)': () => toProbabilities(arr, o).n,
      ece: () => ece(y, arr, o),
      mce: () => mce(y, arr, o),
      uce: () => uce(y, arr, o),
      brier: () => brier(y, arr, o),
      nll: () => nll(y, arr, ow),
      auroc: () => auroc(y, arr, o),
      aurc: () => aurc(y, arr, o),
      'normalized entropy (mean)': () => mean(normalizedEntropy(arr, o)),
      'entropy (mean)': () => mean(entropy(arr, o)),
      'um metrics set (evaluate, classwise: false)': () => evaluate(y, arr, { ...ow, classwise: false }),
      // the default (what `um metrics` runs): also SCE, ACE and TACE over all N·C entries; numpy has no counterpart here
      'um metrics default set (evaluate, with class-wise SCE/ACE/TACE)': () => evaluate(y, arr, ow),
      [`um metrics set, ${threads} threads (evaluateParallel)`]: () =>
        evaluateParallel(y, arr, { ...ow, classwise: false, threads }),
      [`um metrics set, ${threads} threads, SharedArrayBuffer input`]: () =>
        evaluateParallel(y, shared, { ...ow, classwise: false, threads }),
    };
    console.error(`  ${dtype}: ours …`);
    const ms = {};
    const values = {};
    for (const [k, fn] of Object.entries(ours)) {
      ms[k] = await time(fn);
      const e = last;
      values[k] =
        typeof e === 'number'
          ? e
          : k.startsWith('um metrics set')
            ? [e.ece, e.mce, e.uce, e.brier, e.nll, e.auroc, e.aurc, e.meanEntropy]
            : null;
    }
    let numpy = null;
    if (haveNumpy) {
      console.error(`  ${dtype}: numpy …`);
      const py = spawnSync(
        'python3',
        [join(root, 'bench', 'kernels', 'numpy_metrics.py'), String(n), String(c), dtype, String(repeats), base],
        { encoding: 'utf8', maxBuffer: 1 << 24 },
      );
      if (py.status === 0) numpy = JSON.parse(py.stdout);
      else console.error(py.stderr);
    }
    const bytes = arr.byteLength;
    rows.push({ n, c, dtype, metric: 'memory copy (baseline)', ms: memcpy, gbps: bytes / memcpy / 1e6, numpyMs: null });
    for (const [k, v] of Object.entries(ms)) {
      // the largest |ours − numpy| over the values (both compute the same definitions; float32 numpy sums may differ)
      const key = k.startsWith('um metrics set') ? 'um metrics set (evaluate, classwise: false)' : k;
      const theirs = numpy?.[key]?.value;
      const mine = values[k];
      const diff =
        theirs === undefined || mine === null
          ? null
          : Math.max(...[mine].flat().map((m, i) => Math.abs(m - [theirs].flat()[i])));
      rows.push({
        n,
        c,
        dtype,
        metric: k,
        ms: v,
        gbps: bytes / v / 1e6,
        numpyMs: numpy?.[key]?.ms ?? null,
        maxAbsDifference: diff,
      });
    }
    if (n === 50000 && c === 1000) {
      // temperature scaling on logits: ln p (float32/float64) declared as logits
      const logits = new arr.constructor(arr.length);
      for (let i = 0; i < arr.length; i++) logits[i] = Math.log(arr[i]);
      let params;
      const msFit = await time(() => {
        params = fitTemperature(y, logits, { input: 'logits', numClasses: c });
      }, 3);
      temperature.push({
        n,
        c,
        dtype,
        ms: msFit,
        temperature: params.temperature,
        evaluations: params.diagnostics.evaluations,
        converged: params.diagnostics.converged,
      });
    }
  }
}

const f = (x, d = 1) => (x === null ? 'n/a' : x.toFixed(d));
console.log(
  `| N × C | dtype | what | ours ms | GB/s | numpy ms | numpy / ours | ours / memcpy | max \\|ours − numpy\\| |`,
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  const copy = rows.find(
    (x) => x.n === r.n && x.c === r.c && x.dtype === r.dtype && x.metric === 'memory copy (baseline)',
  );
  console.log(
    `| ${r.n} × ${r.c} | ${r.dtype} | ${r.metric} | ${f(r.ms)} | ${f(r.gbps, 2)} | ${f(r.numpyMs)} | ${r.numpyMs === null ? 'n/a' : (r.numpyMs / r.ms).toFixed(2)} | ${(r.ms / copy.ms).toFixed(2)} | ${r.maxAbsDifference === null || r.maxAbsDifference === undefined ? '' : r.maxAbsDifference.toExponential(1)} |`,
  );
}
console.log('\n| temperature fit, N × C | dtype | ms | objective passes | T |');
console.log('|---|---|---|---|---|');
for (const t of temperature)
  console.log(`| ${t.n} × ${t.c} | ${t.dtype} | ${f(t.ms)} | ${t.evaluations} | ${t.temperature.toFixed(6)} |`);
const machine = {
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: cpus().length,
  memoryGB: +(totalmem() / 2 ** 30).toFixed(1),
  node: process.version,
  numpy: haveNumpy ? numpyVersion.stdout.trim() : null,
  kernels: backend,
  repeats,
};
console.log(`\n${JSON.stringify(machine)}`);
writeFileSync(
  join(root, 'bench', 'kernels', 'results.json'),
  `${JSON.stringify({ date: new Date().toISOString().slice(0, 10), machine, rows, temperature }, null, 2)}\n`,
);
