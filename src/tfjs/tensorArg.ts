import * as tf from '@tensorflow/tfjs';
import { fail } from '../errors/fail.js';

/**
 * Checks that `x` is a tensor (internal): an object with a numeric rank, a shape and dataSync — checked by shape, not
 * by `instanceof`, so tensors of another copy of @tensorflow/tfjs pass. Anything else (null, arrays, numbers) was
 * read as a tensor and threw a TypeError.
 */
export function checkTensor(fn: string, argument: string, x: unknown): asserts x is tf.Tensor {
  const t = x as { rank?: unknown; shape?: unknown; dataSync?: unknown } | null;
  if (
    t === null ||
    typeof t !== 'object' ||
    typeof t.rank !== 'number' ||
    !Array.isArray(t.shape) ||
    typeof t.dataSync !== 'function'
  ) {
    fail('UM_SHAPE', fn, argument, 'be a tf.Tensor', { value: x });
  }
}

/** Checks that every value of `data` is finite (internal; `data` is already read, so this costs no sync). */
export function checkFiniteData(fn: string, argument: string, data: ArrayLike<number>, columns: number): void {
  for (let i = 0; i < data.length; i++) {
    if (!Number.isFinite(data[i]))
      fail('UM_NOT_FINITE', fn, argument, 'be finite numbers', {
        index: [Math.floor(i / columns), i % columns],
        value: data[i],
      });
  }
}

/**
 * Checks logits [N, C] of the losses (internal): a float32 tensor of rank 2 with C ≥ 2 and finite values. TensorFlow's
 * softmax refuses other dtypes with a plain Error, and a NaN or ±Infinity logit made the loss NaN silently. Finiteness
 * is read as one boolean (tf.isFinite reduced on the backend), so a GPU backend transfers one value, not N·C.
 */
export function checkLogits(fn: string, logits: unknown): asserts logits is tf.Tensor2D {
  checkTensor(fn, 'logits', logits);
  if (logits.rank !== 2) fail('UM_SHAPE', fn, 'logits', 'be a 2-D tensor [N, C]', { value: logits.shape });
  if ((logits.shape[1] as number) < 2)
    fail('UM_SHAPE', fn, 'logits', 'have at least 2 columns (classes)', { value: logits.shape });
  if (logits.dtype !== 'float32') fail('UM_SHAPE', fn, 'logits', 'be a float32 tensor', { value: logits.dtype });
  const finite = tf.tidy(() => tf.all(tf.isFinite(logits)).dataSync()[0]);
  if (finite !== 1) {
    const data = logits.dataSync();
    checkFiniteData(fn, 'logits', data, logits.shape[1] as number);
  }
}
