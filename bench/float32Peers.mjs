// How far the float32 peers' ECE is from our float32 presets (docs/guides/choosing-a-calibration-metric.md, src/presets/presets.ts).
// torchmetrics' multiclass_calibration_error and uncertainty_metrics' Keras ExpectedCalibrationError add each bin up in
// float32, one value after another (scatter_add_ / unsorted_segment_sum on CPU); our presets use the same bins and
// sum in float64. The peers are emulated with Math.fround after every operation (an independent numpy emulation with
// np.add.at in float32 gave the same magnitudes: 5.6e-5 at N = 10^6 and 3.1e-3 at 10^7 on overconfident data).
// Usage: npm run build && node bench/float32Peers.mjs [--large]   (--large adds N = 10^7, a few minutes)
import { ece } from '../packages/core/dist/index.js';
const f = Math.fround;
function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}
function data(seed, n, c, T, scale) {
  const u = rng(seed);
  const normal = () => Math.sqrt(-2 * Math.log(u() + 1e-300)) * Math.cos(2 * Math.PI * u());
  const probs = new Float32Array(n * c);
  const labels = new Int32Array(n);
  const z = new Float64Array(c);
  for (let i = 0; i < n; i++) {
    let m = -Infinity;
    for (let k = 0; k < c; k++) {
      z[k] = normal() * scale;
      m = Math.max(m, z[k]);
    }
    // label from softmax(z), prediction softmax(z / T)
    let s = 0;
    for (let k = 0; k < c; k++) s += Math.exp(z[k] - m);
    let r = u() * s,
      y = c - 1;
    for (let k = 0; k < c; k++) {
      r -= Math.exp(z[k] - m);
      if (r <= 0) {
        y = k;
        break;
      }
    }
    labels[i] = y;
    let s2 = 0;
    for (let k = 0; k < c; k++) s2 += Math.exp((z[k] - m) / T);
    for (let k = 0; k < c; k++) probs[i * c + k] = Math.exp((z[k] - m) / T) / s2;
  }
  return { probs, labels };
}
function topLabel(probs, labels, c) {
  const n = labels.length,
    conf = new Float32Array(n),
    acc = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    let b = 0;
    for (let k = 1; k < c; k++) if (probs[i * c + k] > probs[i * c + b]) b = k;
    conf[i] = probs[i * c + b];
    acc[i] = b === labels[i] ? 1 : 0;
  }
  return { conf, acc };
}
// torchmetrics: float32 linspace edges, bucketize(right=True) - 1, scatter_add_ (sequential) in float32
function torchEce(conf, acc, B) {
  const step = f(1 / B),
    half = Math.floor((B + 1) / 2),
    e = [];
  for (let i = 0; i <= B; i++) e.push(i < half ? f(step * i) : f(1 - f(step * (B - i))));
  const cnt = new Float32Array(B + 1),
    cs = new Float32Array(B + 1),
    as = new Float32Array(B + 1);
  for (let i = 0; i < conf.length; i++) {
    const x = conf[i];
    let b = 0;
    while (b < B && x >= e[b + 1]) b++;
    cnt[b] = f(cnt[b] + 1);
    cs[b] = f(cs[b] + x);
    as[b] = f(as[b] + acc[i]);
  }
  let tot = 0;
  for (const v of cnt) tot = f(tot + v);
  let out = 0;
  for (let b = 0; b <= B; b++) {
    if (cnt[b] === 0) continue;
    out = f(out + f(f(Math.abs(f(as[b] / cnt[b]) - f(cs[b] / cnt[b]))) * f(cnt[b] / tot)));
  }
  return out;
}
// Keras ExpectedCalibrationError: histogram_fixed_width_bins (floor(B p) in float32), unsorted_segment_sum in float32
function kerasEce(conf, acc, B) {
  const cnt = new Float32Array(B),
    cs = new Float32Array(B),
    as = new Float32Array(B);
  for (let i = 0; i < conf.length; i++) {
    const x = conf[i];
    const b = Math.min(Math.max(Math.floor(f(f(B) * x)), 0), B - 1);
    cnt[b] = f(cnt[b] + 1);
    cs[b] = f(cs[b] + x);
    as[b] = f(as[b] + acc[i]);
  }
  let tot = 0;
  for (const v of cnt) tot = f(tot + v);
  let out = 0;
  for (let b = 0; b < B; b++) {
    if (cnt[b] === 0) continue;
    out = f(out + f(f(Math.abs(f(as[b] / cnt[b]) - f(cs[b] / cnt[b]))) * f(cnt[b] / tot)));
  }
  return out;
}
const rows = [];
const cfgs = [
  { T: 0.5, scale: 2, name: 'overconfident' },
  { T: 1, scale: 2, name: 'calibrated' },
];
for (const N of [1e3, 1e4, 1e5, 1e6, ...(process.argv.includes('--large') ? [1e7] : [])]) {
  for (const cfg of cfgs) {
    let maxT = 0,
      maxK = 0,
      relT = 0,
      relK = 0,
      eceV = 0;
    const seeds = N >= 1e7 ? 2 : 5;
    for (let seed = 1; seed <= seeds; seed++) {
      const { probs, labels } = data(seed * 7919 + N, N, 10, cfg.T, cfg.scale);
      const { conf, acc } = topLabel(probs, labels, 10);
      const oursT = ece(labels, probs, { numClasses: 10, preset: 'torchmetrics' });
      const oursK = ece(labels, probs, { numClasses: 10, preset: 'uncertainty-metrics-tf' });
      const t = torchEce(conf, acc, 15),
        k = kerasEce(conf, acc, 15);
      maxT = Math.max(maxT, Math.abs(t - oursT));
      relT = Math.max(relT, Math.abs(t - oursT) / oursT);
      maxK = Math.max(maxK, Math.abs(k - oursK));
      relK = Math.max(relK, Math.abs(k - oursK) / oursK);
      eceV = oursT;
    }
    rows.push({
      N,
      data: cfg.name,
      ece: eceV.toPrecision(3),
      torchAbs: maxT.toExponential(2),
      torchRel: relT.toExponential(2),
      kerasAbs: maxK.toExponential(2),
      kerasRel: relK.toExponential(2),
      sqrtNu: (Math.sqrt(N) * 2 ** -24).toExponential(2),
      Nu: (N * 2 ** -24).toExponential(2),
    });
  }
}
console.table(rows);
