import * as tf from '@tensorflow/tfjs';
import { fail } from '../errors/fail.js';
import { checkLogits, checkTensor } from './tensorArg.js';

/**
 * Class indices [N] as an Int32Array (constants: labels carry no gradient, and no tensor is left to dispose) from integer labels [N] or [N, 1], or from one-hot /
 * probability targets [N, C] (their argmax), checked against the logits' N and C; the logits are checked too (internal).
 */
export function labelsOf(fn: string, labels: tf.Tensor, logits: tf.Tensor): Int32Array {
  checkLogits(fn, logits);
  checkTensor(fn, 'labels', labels);
  const [n, c] = logits.shape as [number, number];
  let raw: ArrayLike<number>;
  if (labels.rank === 2 && labels.shape[1] === c) raw = tf.tidy(() => tf.argMax(labels, 1)).dataSync();
  else if ((labels.rank === 2 && labels.shape[1] === 1) || labels.rank === 1) raw = labels.dataSync();
  else fail('UM_SHAPE', fn, 'labels', `be [N], [N, 1] or one-hot [N, ${c}]`, { value: labels.shape });
  if (raw.length !== n)
    fail('UM_SHAPE', fn, 'labels', `have one label per row of logits (${n})`, { value: labels.shape });
  const ints = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const v = raw[i] as number;
    if (!(Number.isInteger(v) && v >= 0 && v < c))
      fail('UM_LABEL', fn, 'labels', `be integers in [0, ${c})`, { index: [i], value: v });
    ints[i] = v;
  }
  return ints;
}
