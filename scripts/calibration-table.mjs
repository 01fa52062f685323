#!/usr/bin/env node
// Prints the before/after table of temperature scaling in docs/guides/calibrating-and-saving.md, on the bundled
// MNIST predictions: fitted on the validation split, evaluated on the test split. `npm run calibration-table` (after `npm run build`).
import {
  applyMcTemperature,
  applyTemperature,
  ece,
  fitMcTemperature,
  fitTemperature,
  mcIntegrate,
  nll,
  toProbabilities,
  uce,
} from 'uncertainty-metrics';
import { readPredictions } from 'uncertainty-metrics/io';

const dir = new URL('../examples/data/', import.meta.url).pathname;
const read = (name, split) =>
  readPredictions(`${dir}${name}.npy`, { labels: `${dir}${split}_labels.npy`, input: 'logits' });
const f = (x) => (Math.abs(x) < 1000 ? x.toFixed(4) : x.toExponential(3));
const rows = [];

function row(model, method, t, labels, before, after, warnings) {
  const arrow = (g) => `${f(g(labels, before))} → ${f(g(labels, after))}`;
  rows.push(
    `| ${model} | ${method} | ${t.toPrecision(4)} | ${arrow(ece)} | ${arrow(uce)} | ${arrow(nll)} | ${warnings.length === 0 ? '' : warnings.join('; ')} |`,
  );
}

for (const model of ['mlp_overfit', 'mlp_dropout', 'deep_ensemble', 'gnb_raw']) {
  const val = await read(`${model}_val_logits`, 'val');
  const test = await read(`${model}_test_logits`, 'test');
  const warnings = [];
  const o = { input: 'logits', numClasses: 10 };
  const params = fitTemperature(val.labels, val.scores, { ...o, onWarning: (w) => warnings.push(w.code) });
  row(
    model,
    'temperature',
    params.temperature,
    test.labels,
    toProbabilities(test.scores, o),
    applyTemperature(params, test.scores, o),
    warnings,
  );
}
const members = { input: 'logits', numClasses: 10, numMembers: 5 };
const val = await read('deep_ensemble_val_member_logits', 'val');
const test = await read('deep_ensemble_test_member_logits', 'test');
for (const objective of ['predictive', 'mean-nll']) {
  const warnings = [];
  const params = fitMcTemperature(val.labels, val.members, {
    ...members,
    objective,
    onWarning: (w) => warnings.push(w.code),
  });
  row(
    'deep_ensemble (5 members)',
    `mc-temperature, ${objective}`,
    params.temperature,
    test.labels,
    mcIntegrate(test.members, members),
    applyMcTemperature(params, test.members, members),
    warnings,
  );
}

console.log('| model | method | T | test ECE | test UCE | test NLL | warning |');
console.log('|---|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
