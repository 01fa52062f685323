import type * as tf from '@tensorflow/tfjs';
import { fail } from '../errors/fail.js';
import { checkFiniteData, checkTensor } from './tensorArg.js';

/**
 * A tensor of scores as the core metrics take them: the flat row-major `Float32Array` with its `numClasses` (and the
 * labels as an `Int32Array` when given), so `ece(labels, scores, { numClasses })` works on model outputs.
 *
 * **Formula.** [N, C] tensor → `dataSync()` (row-major) and C = shape[1]; labels [N] or [N, 1] → integers.
 *
 * **Conventions.**
 * - Copies the values out of the backend (`dataSync`); the tensors are not disposed. Declare `input: 'logits'` to the
 *   core metric when the tensor holds logits: nothing is guessed.
 * - float32 tensors give a `Float32Array`, which the core reads as float32 and accumulates in float64.
 *
 * **References.**
 * - TensorFlow.js API, `tf.Tensor.dataSync`, https://js.tensorflow.org/api/latest/#tf.Tensor.dataSync.
 *
 * @param scores a 2-D tensor [N, C].
 * @param labels optional labels tensor [N] or [N, 1].
 * @returns `{ scores, numClasses, labels? }`.
 * @throws {UMError} `UM_SHAPE` when scores are not a 2-D tensor or labels not a tensor of N entries; `UM_LABEL` for a
 *   non-integer label; `UM_NOT_FINITE` for a score that is not finite.
 * @example
 * ```js
 * import { tensor1d, tensor2d } from '@tensorflow/tfjs';
 * import { tensorScores } from 'uncertainty-metrics/tfjs';
 * import { ece } from 'uncertainty-metrics';
 * const { scores, numClasses, labels } = tensorScores(tensor2d([[0.95, 0.05], [0.25, 0.75]]), tensor1d([0, 0]));
 * ece(labels, scores, { numClasses, bins: 10 }); // ≈ 0.400000
 * ```
 */
export function tensorScores(
  scores: tf.Tensor,
  labels?: tf.Tensor,
): { scores: Float32Array; numClasses: number; labels?: Int32Array } {
  const fn = 'tensorScores';
  checkTensor(fn, 'scores', scores);
  if (scores.rank !== 2) fail('UM_SHAPE', fn, 'scores', 'be a 2-D tensor [N, C]', { value: scores.shape });
  const [n, c] = scores.shape as [number, number];
  const data = Float32Array.from(scores.dataSync() as ArrayLike<number>);
  // read anyway: an infinite score (or one beyond float32) is said here, where the tensor is named
  checkFiniteData(fn, 'scores', data, c);
  if (labels === undefined) return { scores: data, numClasses: c };
  checkTensor(fn, 'labels', labels);
  if (!(labels.rank === 1 || (labels.rank === 2 && labels.shape[1] === 1)) || labels.size !== n) {
    fail('UM_SHAPE', fn, 'labels', `be [N] or [N, 1] with N = ${n}`, { value: labels.shape });
  }
  const raw = labels.dataSync() as ArrayLike<number>;
  const ints = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const v = raw[i] as number;
    if (!Number.isInteger(v)) fail('UM_LABEL', fn, 'labels', 'be integers', { index: [i], value: v });
    ints[i] = v;
  }
  return { scores: data, numClasses: c, labels: ints };
}
