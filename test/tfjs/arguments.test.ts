/**
 * Every function of uncertainty-metrics/tfjs checks its arguments: what is not a tensor (null, arrays, numbers,
 * objects), options of the wrong shape or with unknown keys, a model that is not one or an input it cannot take,
 * non-finite scores or model outputs — each a located UMError; they threw TypeErrors from reading `rank` of null and
 * TensorFlow's own ValueErrors (found by the tfjs fuzz).
 */
import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { UMError } from '../../src/index.js';
import {
  confidencePenalty,
  fitTemperatureTf,
  mcPredict,
  mmceLoss,
  tensorScores,
  TemperatureScaling,
  uceLoss,
} from '../../src/tfjs/index.js';

tf.setBackend('cpu');

const y = tf.tensor1d([0, 1]);
const z = tf.tensor2d([
  [1, 0],
  [0, 1],
]);
const NOT_TENSORS: unknown[] = [
  null,
  undefined,
  [
    [1, 0],
    [0, 1],
  ],
  5,
  'z',
  {},
  { rank: 2 },
];
const model = tf.sequential({ layers: [tf.layers.dense({ inputShape: [2], units: 3, kernelInitializer: 'ones' })] });

function rejects(call: () => unknown, message: RegExp): void {
  let caught: unknown;
  try {
    call();
  } catch (e) {
    caught = e;
  }
  expect(caught, String(message)).toBeInstanceOf(UMError);
  expect((caught as UMError).message).toMatch(message);
}

describe('tfjs arguments', () => {
  it('what is not a tensor, in every tensor argument', () => {
    for (const x of NOT_TENSORS) {
      rejects(() => confidencePenalty(x as never), /^confidencePenalty: logits must be a tf.Tensor/);
      rejects(() => uceLoss(x as never, z), /^uceLoss: labels must be a tf.Tensor/);
      rejects(() => uceLoss(y, x as never), /^uceLoss: logits must be a tf.Tensor/);
      rejects(() => mmceLoss(y, x as never), /^mmceLoss: logits must be a tf.Tensor/);
      rejects(() => fitTemperatureTf(x as never, z), /^fitTemperatureTf: labels must be a tf.Tensor/);
      rejects(() => tensorScores(x as never), /^tensorScores: scores must be a tf.Tensor/);
      if (x !== undefined) rejects(() => tensorScores(z, x as never), /^tensorScores: labels must be a tf.Tensor/);
      rejects(() => mcPredict(model, x as never, 2), /^mcPredict: x must be a tf.Tensor/);
    }
  });
  it('options that are not an object or hold unknown keys', () => {
    rejects(() => uceLoss(y, z, null as never), /^uceLoss: options must be an object; got null/);
    rejects(() => uceLoss(y, z, { bin: 10 } as never), /^uceLoss: options.bin must not be given/);
    rejects(() => mmceLoss(y, z, { bogus: 1 } as never), /^mmceLoss: options.bogus must not be given/);
    rejects(
      () => fitTemperatureTf(y, z, { epochs: 5 } as never),
      /^fitTemperatureTf: options.epochs must not be given/,
    );
    rejects(
      () => new TemperatureScaling(null as never),
      /^TemperatureScaling: args must be an object of layer arguments; got null/,
    );
  });
  it('mcPredict: a model that is not one, an input it cannot take, an output that is not finite', () => {
    rejects(
      () => mcPredict(null as never, tf.tensor2d([[1, 2]]), 2),
      /^mcPredict: model must be a tf.LayersModel or a layer; got null/,
    );
    rejects(
      () => mcPredict({} as never, tf.tensor2d([[1, 2]]), 2),
      /^mcPredict: model must be a tf.LayersModel or a layer/,
    );
    rejects(() => mcPredict(model, tf.tensor1d([1, 2]), 2), /^mcPredict: x must fit the model's input \(.*ndim/);
    rejects(() => mcPredict(model, tf.tensor2d([[1, 2, 3]]), 2), /^mcPredict: x must fit the model's input/);
    rejects(
      () => mcPredict(model, tf.tensor2d([[Infinity, 2]]), 2),
      /^mcPredict: model output\[0\]\[0\] must be finite numbers; got Infinity/,
    );
  });
  it('logits of another dtype or not finite, in every loss and the temperature fit (softmax threw a plain Error; NaN losses)', () => {
    const losses: [string, (logits: tf.Tensor) => unknown][] = [
      ['confidencePenalty', (l) => confidencePenalty(l as tf.Tensor2D)],
      ['uceLoss', (l) => uceLoss(y, l as tf.Tensor2D)],
      ['uceLoss', (l) => uceLoss(y, l as tf.Tensor2D, { classwise: true })],
      ['mmceLoss', (l) => mmceLoss(y, l as tf.Tensor2D)],
      ['fitTemperatureTf', (l) => fitTemperatureTf(y, l as tf.Tensor2D, { maxSteps: 2 })],
    ];
    for (const [name, loss] of losses) {
      for (const dtype of ['int32', 'bool'] as const)
        rejects(
          () =>
            loss(
              tf.tensor2d(
                [
                  [1, 0],
                  [0, 1],
                ],
                [2, 2],
                dtype,
              ),
            ),
          new RegExp(`^${name}: logits must be a float32 tensor; got "${dtype}"`),
        );
      for (const bad of [NaN, Infinity, -Infinity])
        rejects(
          () =>
            loss(
              tf.tensor2d([
                [1, 0],
                [0, bad],
              ]),
            ),
          new RegExp(`^${name}: logits\\[1\\]\\[1\\] must be finite numbers; got ${bad}`),
        );
      rejects(() => loss(tf.tensor2d([[1], [0]])), new RegExp(`^${name}: logits must have at least 2 columns`));
    }
  });
  it('tensorScores: scores that are not finite', () => {
    rejects(
      () => tensorScores(tf.tensor2d([[0.5, NaN]])),
      /^tensorScores: scores\[0\]\[1\] must be finite numbers; got NaN/,
    );
    rejects(
      () =>
        tensorScores(
          tf.tensor2d([
            [0.5, 0.5],
            [Infinity, 0],
          ]),
        ),
      /^tensorScores: scores\[1\]\[0\] must be finite numbers; got Infinity/,
    );
  });
});
