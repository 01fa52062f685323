/** The losses used the way tfjs users use losses: inside `model.compile` (one-hot targets, float labels). */
import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { entropy, mmce, nll, uce } from '../../src/index.js';
import { confidencePenalty, mmceLoss, uceLoss } from '../../src/tfjs/index.js';

tf.setBackend('cpu');

const N = 60;
const C = 3;
const xs = Array.from({ length: N }, (_, i) => [Math.sin(i), Math.cos(1.7 * i), (i % 7) / 7, 1]);
const ys = xs.map(([a = 0, b = 0]) => (a + b > 0.4 ? 0 : a > b ? 1 : 2));
const x = tf.tensor2d(xs);
const yOneHot = tf.oneHot(tf.tensor1d(ys, 'int32'), C).toFloat();

function model(): tf.Sequential {
  return tf.sequential({
    layers: [
      tf.layers.dense({
        inputShape: [4],
        units: 8,
        activation: 'tanh',
        kernelInitializer: tf.initializers.glorotUniform({ seed: 3 }),
      }),
      tf.layers.dense({ units: C, kernelInitializer: tf.initializers.glorotUniform({ seed: 4 }) }),
    ],
  });
}

const regularizers = {
  uce: {
    loss: (yTrue: tf.Tensor, logits: tf.Tensor) => uceLoss(yTrue, logits as tf.Tensor2D, { classwise: true }),
    core: (z: Float32Array) => uce(ys, z, { input: 'logits', numClasses: C, classwise: true }),
  },
  mmce: {
    loss: (yTrue: tf.Tensor, logits: tf.Tensor) => mmceLoss(yTrue, logits as tf.Tensor2D, { weighted: true }),
    core: (z: Float32Array) => mmce(ys, z, { input: 'logits', numClasses: C, weighted: true }),
  },
  penalty: {
    loss: (_yTrue: tf.Tensor, logits: tf.Tensor) => confidencePenalty(logits as tf.Tensor2D),
    core: (z: Float32Array) => {
      const h = entropy(z, { input: 'logits', numClasses: C });
      return -h.reduce((s, v) => s + v, 0) / h.length;
    },
  },
};

describe('losses in model.compile', () => {
  for (const [name, r] of Object.entries(regularizers)) {
    it(`NLL + 2·${name}: model.evaluate gives NLL + 2·(core ${name}) and model.fit trains without NaN`, async () => {
      const m = model();
      m.compile({
        optimizer: tf.train.adam(0.01),
        loss: (yTrue: tf.Tensor, yPred: tf.Tensor) =>
          tf.add(tf.losses.softmaxCrossEntropy(yTrue, yPred), tf.mul(2, r.loss(yTrue, yPred))),
      });
      const z = (m.predict(x) as tf.Tensor).dataSync() as Float32Array;
      const expected = nll(ys, z, { input: 'logits', numClasses: C }) + 2 * r.core(z);
      const evaluated = m.evaluate(x, yOneHot, { batchSize: N }) as tf.Scalar;
      expect(evaluated.dataSync()[0]).toBeCloseTo(expected, 4);
      const before = Array.from(m.getWeights()[0]?.dataSync() ?? []);
      const history = await m.fit(x, yOneHot, { epochs: 5, batchSize: 20, shuffle: false, verbose: 0 });
      const losses = history.history.loss as number[];
      expect(losses).toHaveLength(5);
      for (const l of losses) expect(Number.isFinite(l)).toBe(true);
      expect(Array.from(m.getWeights()[0]?.dataSync() ?? [])).not.toEqual(before); // gradients reached the weights
      evaluated.dispose();
      m.dispose();
    });
  }
});
