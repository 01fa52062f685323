// Baseline for the performance issue: median times of single metrics in this library vs the numpy versions in
// numpy_metrics.py, on the same seeded data (N × C probabilities, float32 and float64). Not a test.
// Usage: node bench/kernels/run.mjs   (env KERNEL_REPEATS, default 7)
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { auroc, brier, ece, normalizedEntropy, uce } from '../../dist/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = join(root, 'bench', '.data');
mkdirSync(dir, { recursive: true });
const repeats = Number(process.env.KERNEL_REPEATS ?? 7);

function npy(path, array, dtype, shape) {
  let header = `{'descr': '${dtype}', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  while ((10 + header.length + 1) % 64 !== 0) header += ' ';
  header += '\n';
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1;
  head.writeUInt16LE(header.length, 8);
  writeFileSync(path, Buffer.concat([head, Buffer.from(header, 'latin1'), Buffer.from(array.buffer, array.byteOffset, array.byteLength)]));
}

/** Seeded softmax rows (mulberry32). */
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
function time(f) {
  f();
  const ts = [];
  for (let r = 0; r < repeats; r++) {
    const t = performance.now();
    f();
    ts.push(performance.now() - t);
  }
  return median(ts);
}

const rows = [];
for (const [n, c] of [[100000, 100], [50000, 1000], [1000000, 10]]) {
  const { p, y } = data(n, c);
  const labels = Array.from(y);
  const base = join(dir, 'kernel');
  npy(`${base}-${n}x${c}-labels.npy`, BigInt64Array.from(labels.map(BigInt)), '<i8', [n]);
  for (const dtype of ['float32', 'float64']) {
    const arr = dtype === 'float32' ? Float32Array.from(p) : p;
    npy(`${base}-${n}x${c}-${dtype}.npy`, arr, dtype === 'float32' ? '<f4' : '<f8', [n, c]);
    const opts = { numClasses: c, sumTolerance: dtype === 'float32' ? 1e-3 : 1e-6 };
    const ours = {
      ece: time(() => ece(labels, arr, opts)),
      brier: time(() => brier(labels, arr, opts)),
      normalizedEntropy: time(() => normalizedEntropy(arr, opts)),
      uce: time(() => uce(labels, arr, opts)),
      auroc: time(() => auroc(labels, arr, opts)),
    };
    const py = spawnSync('python3', [join(root, 'bench', 'kernels', 'numpy_metrics.py'), String(n), String(c), dtype, String(repeats), base], { encoding: 'utf8' });
    const numpy = py.status === 0 ? JSON.parse(py.stdout) : null;
    for (const [k, ms] of Object.entries(ours)) rows.push({ n, c, dtype, metric: k, ms, numpyMs: numpy?.[k]?.ms ?? null });
  }
}
console.log('| N × C | dtype | metric | ours ms | numpy ms | ours / numpy |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.n} × ${r.c} | ${r.dtype} | ${r.metric} | ${r.ms.toFixed(1)} | ${r.numpyMs === null ? 'n/a' : r.numpyMs.toFixed(1)} | ${r.numpyMs === null ? 'n/a' : (r.ms / r.numpyMs).toFixed(2)} |`);
writeFileSync(join(root, 'bench', 'kernels', 'baseline.json'), `${JSON.stringify(rows, null, 2)}\n`);
