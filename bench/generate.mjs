// Writes a seeded synthetic prediction CSV (label,p_0..p_{C-1}) of N rows, about 122 bytes per row for C = 10:
// softmax of Gaussian logits with a true-class boost, labels drawn so the model is overconfident.
import { createWriteStream } from 'node:fs';

export async function generateCsv(path, rows, classes = 10, seed = 1) {
  let s = seed >>> 0;
  const uniform = () => {
    // mulberry32
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = createWriteStream(path);
  const write = (text) => (out.write(text) ? Promise.resolve() : new Promise((r) => out.once('drain', r)));
  await write(`label,${Array.from({ length: classes }, (_, k) => `p_${k}`).join(',')}\n`);
  const logits = new Float64Array(classes);
  let chunk = [];
  for (let i = 0; i < rows; i++) {
    const y = Math.floor(uniform() * classes);
    const guess = uniform() < 0.85 ? y : Math.floor(uniform() * classes);
    let max = -Infinity;
    for (let k = 0; k < classes; k++) {
      logits[k] =
        2 * (uniform() + uniform() + uniform() - 1.5) + (k === guess ? (guess === y ? 4 : 2.5) + 2 * uniform() : 0);
      if (logits[k] > max) max = logits[k];
    }
    let z = 0;
    for (let k = 0; k < classes; k++) z += Math.exp(logits[k] - max);
    let line = String(y);
    for (let k = 0; k < classes; k++) line += `,${(Math.exp(logits[k] - max) / z).toFixed(9)}`;
    chunk.push(line);
    if (chunk.length === 10000) {
      await write(`${chunk.join('\n')}\n`);
      chunk = [];
    }
  }
  if (chunk.length > 0) await write(`${chunk.join('\n')}\n`);
  await new Promise((r) => out.end(r));
}
