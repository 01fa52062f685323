import { fail } from '../errors/fail.js';
import type { Labels } from './types.js';

/**
 * Validates labels against `n` rows and `numClasses` classes and returns them as an `Int32Array`.
 * Internal; `fn` is the public function named in error messages.
 */
export function labelArray(fn: string, labels: Labels, n: number, numClasses: number): Int32Array {
  if (labels === null || typeof labels !== 'object' || typeof labels.length !== 'number') {
    fail('UM_SHAPE', fn, 'labels', 'be an array of integer class labels', { value: labels });
  }
  if (labels.length !== n) {
    fail('UM_SHAPE', fn, 'labels', `have one entry per row of scores (${n})`, {
      value: labels.length,
      hint: `labels has ${labels.length} entries`,
    });
  }
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const y = labels[i];
    if (typeof y !== 'number' || !Number.isInteger(y) || y < 0 || y >= numClasses) {
      fail('UM_LABEL', fn, 'labels', `be an integer in [0, ${numClasses})`, { index: [i], value: y });
    }
    out[i] = y;
  }
  return out;
}
