/**
 * The TensorFlow.js losses: values equal the core metrics on the same inputs (float32 tolerance), gradients match
 * central finite differences, bad input throws typed errors. (Part of the training-time calibration issue.)
 */
import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { entropy, mmce, uce } from '../../src/index.js';
import { confidencePenalty, mmceLoss, tensorScores, uceLoss } from '../../src/tfjs/index.js';
import { failure } from '../helpers/failure.js';
import { uniforms } from '../helpers/minstd.js';

tf.setBackend('cpu');

function data(seed: number, n: number, c: number, scale: number): { labels: number[]; logits: number[][] } {
  const u = uniforms(seed, n * (c + 1));
  const logits = Array.from({ length: n }, (_, i) =>
    Array.from({ length: c }, (_, k) => scale * ((u[i * c + k] as number) - 0.5)),
  );
  const labels = Array.from({ length: n }, (_, i) => Math.floor((u[n * c + i] as number) * c));
  return { labels, logits };
}

/** The core value on the same float32 logits the tensor holds. */
const f32 = (m: number[][]) => m.map((r) => r.map((v) => Math.fround(v)));

describe('tfjs losses equal the core metrics', () => {
  for (const [seed, n, c, scale] of [
    [1, 200, 4, 6],
    [2, 300, 10, 3],
    [3, 150, 3, 12],
  ] as const) {
    const { labels, logits } = data(seed, n, c, scale);
    const y = tf.tensor1d(labels);
    const z = tf.tensor2d(logits);
    const L = f32(logits);
    it(`N = ${n}, C = ${c}: uceLoss (and class-wise) = uce; mmceLoss (and weighted) = mmce; confidencePenalty = −mean entropy`, () => {
      expect(uceLoss(y, z).arraySync()).toBeCloseTo(uce(labels, L, { input: 'logits' }), 5);
      expect(uceLoss(y, z, { classwise: true }).arraySync()).toBeCloseTo(
        uce(labels, L, { input: 'logits', classwise: true }),
        5,
      );
      expect(uceLoss(y, z, { bins: 7 }).arraySync()).toBeCloseTo(uce(labels, L, { input: 'logits', bins: 7 }), 5);
      expect(mmceLoss(y, z).arraySync()).toBeCloseTo(mmce(labels, L, { input: 'logits' }), 5);
      expect(mmceLoss(y, z, { weighted: true, kernelWidth: 0.2 }).arraySync()).toBeCloseTo(
        mmce(labels, L, { input: 'logits', weighted: true, kernelWidth: 0.2 }),
        5,
      );
      const h = entropy(L, { input: 'logits' });
      expect(confidencePenalty(z).arraySync()).toBeCloseTo(-h.reduce((a, b) => a + b, 0) / n, 5);
      // one-hot targets give the same losses as integer labels
      const oneHot = tf.oneHot(tf.tensor1d(labels, 'int32'), c);
      expect(uceLoss(oneHot, z).arraySync()).toBe(uceLoss(y, z).arraySync());
      expect(mmceLoss(oneHot, z).arraySync()).toBe(mmceLoss(y, z).arraySync());
    });
  }
});

describe('gradients match central finite differences', () => {
  const { labels, logits } = data(7, 12, 3, 4);
  const y = tf.tensor1d(labels);
  const losses: [string, (z: tf.Tensor2D) => tf.Scalar][] = [
    ['confidencePenalty', (z) => confidencePenalty(z)],
    ['uceLoss', (z) => uceLoss(y, z)],
    ['uceLoss class-wise', (z) => uceLoss(y, z, { classwise: true })],
    ['mmceLoss', (z) => mmceLoss(y, z)],
    ['mmceLoss weighted', (z) => mmceLoss(y, z, { weighted: true })],
  ];
  for (const [name, loss] of losses) {
    it(`${name}: tf.grad equals (f(z + h) − f(z − h)) / 2h entry by entry (h = 1e-2, float32)`, () => {
      const z = tf.tensor2d(logits);
      const g = tf
        .grad((t: tf.Tensor) => loss(t as tf.Tensor2D))(z)
        .arraySync() as number[][];
      const at = (i: number, k: number, d: number) => {
        const m = logits.map((r) => [...r]);
        (m[i] as number[])[k] = ((m[i] as number[])[k] as number) + d;
        return loss(tf.tensor2d(m)).arraySync() as number;
      };
      /** Row i's predicted class and UCE bin: where a step of ±h changes either, the loss jumps (piecewise constant). */
      const cellOf = (row: number[]) => {
        const m = Math.max(...row);
        const e = row.map((v) => Math.exp(v - m));
        const t = e.reduce((a, b) => a + b, 0);
        const h = -e.reduce((a, v) => a + (v / t) * Math.log(v / t), 0) / Math.log(row.length);
        return `${row.indexOf(m)}:${Math.min(Math.floor(15 * h), 14)}`;
      };
      const smooth = (i: number, k: number) =>
        [-1e-2, 1e-2].every((d) => {
          const row = [...(logits[i] as number[])];
          row[k] = (row[k] as number) + d;
          return cellOf(row) === cellOf(logits[i] as number[]);
        });
      let nonzero = 0;
      let compared = 0;
      for (let i = 0; i < logits.length; i++) {
        for (let k = 0; k < 3; k++) {
          if (name.startsWith('uceLoss') && !smooth(i, k)) continue; // a bin or class boundary lies within ±h
          compared++;
          const fd = (at(i, k, 1e-2) - at(i, k, -1e-2)) / 2e-2;
          const an = (g[i] as number[])[k] as number;
          expect(Math.abs(an - fd), `${name} [${i}][${k}]`).toBeLessThan(2e-3 + 0.02 * Math.abs(fd));
          if (Math.abs(an) > 1e-4) nonzero++;
        }
      }
      expect(compared).toBeGreaterThan(24); // most entries are compared
      expect(nonzero).toBeGreaterThan(6); // and the check is not vacuous
    });
  }
});

describe('bad input', () => {
  const z = tf.tensor2d([
    [1, 0],
    [0, 1],
  ]);
  const cases: [string, () => unknown, string, RegExp][] = [
    [
      'a label ≥ C',
      () => uceLoss(tf.tensor1d([0, 2]), z),
      'UM_LABEL',
      /^uceLoss: labels\[1\] must be integers in \[0, 2\); got 2/,
    ],
    [
      'a fractional label',
      () => mmceLoss(tf.tensor1d([0, 0.5]), z),
      'UM_LABEL',
      /^mmceLoss: labels\[1\] must be integers in \[0, 2\); got 0.5/,
    ],
    [
      'labels of another length',
      () => uceLoss(tf.tensor1d([0]), z),
      'UM_SHAPE',
      /^uceLoss: labels must have one label per row of logits \(2\)/,
    ],
    [
      '1-D logits',
      () => confidencePenalty(tf.tensor1d([1, 2]) as unknown as tf.Tensor2D),
      'UM_SHAPE',
      /^confidencePenalty: logits must be a 2-D tensor/,
    ],
    [
      'bins 0',
      () => uceLoss(tf.tensor1d([0, 1]), z, { bins: 0 }),
      'UM_OPTION',
      /^uceLoss: options.bins must be an integer in \[1, 1048576\]; got 0/,
    ],
    [
      'kernelWidth −1',
      () => mmceLoss(tf.tensor1d([0, 1]), z, { kernelWidth: -1 }),
      'UM_OPTION',
      /^mmceLoss: options.kernelWidth must be a finite number > 0; got -1/,
    ],
    [
      'tensorScores of a vector',
      () => tensorScores(tf.tensor1d([1, 2])),
      'UM_SHAPE',
      /^tensorScores: scores must be a 2-D tensor/,
    ],
    [
      'tensorScores with a fractional label',
      () => tensorScores(z, tf.tensor1d([0, 1.5])),
      'UM_LABEL',
      /^tensorScores: labels\[1\] must be integers; got 1.5/,
    ],
  ];
  for (const [what, call, code, message] of cases) {
    it(`${what}: ${code}`, () => {
      const e = failure(call);
      expect(e.code).toBe(code);
      expect(e.message).toMatch(message);
    });
  }
});

describe('no tensors leak', () => {
  it('uceLoss, mmceLoss and confidencePenalty leave no tensor behind but their result', () => {
    const y = tf.tensor1d([0, 1, 1, 0]);
    const z = tf.tensor2d([
      [2, 0],
      [0, 1],
      [1, 1],
      [0, 3],
    ]);
    const before = tf.memory().numTensors;
    for (const loss of [
      uceLoss(y, z),
      uceLoss(y, z, { classwise: true }),
      mmceLoss(y, z),
      mmceLoss(y, z, { weighted: true }),
      confidencePenalty(z),
    ])
      loss.dispose();
    expect(tf.memory().numTensors).toBe(before);
  });
});
