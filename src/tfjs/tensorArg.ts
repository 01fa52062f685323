import type * as tf from '@tensorflow/tfjs';
import { fail } from '../errors/fail.js';

/**
 * Checks that `x` is a tensor (internal): an object with a numeric rank, a shape and dataSync — checked by shape, not
 * by `instanceof`, so tensors of another copy of @tensorflow/tfjs pass. Anything else (null, arrays, numbers) was
 * read as a tensor and threw a TypeError.
 */
export function checkTensor(fn: string, argument: string, x: unknown): asserts x is tf.Tensor {
  const t = x as { rank?: unknown; shape?: unknown; dataSync?: unknown } | null;
  if (t === null || typeof t !== 'object' || typeof t.rank !== 'number' || !Array.isArray(t.shape) || typeof t.dataSync !== 'function') {
    fail('UM_SHAPE', fn, argument, 'be a tf.Tensor', { value: x });
  }
}

/** Checks that every value of `data` is finite (internal; `data` is already read, so this costs no sync). */
export function checkFiniteData(fn: string, argument: string, data: ArrayLike<number>, columns: number): void {
  for (let i = 0; i < data.length; i++) {
    if (!Number.isFinite(data[i])) fail('UM_NOT_FINITE', fn, argument, 'be finite numbers', { index: [Math.floor(i / columns), i % columns], value: data[i] });
  }
}
