import { checkCount } from '../errors/checkCount.js';
import * as tf from '@tensorflow/tfjs';
import { fail } from '../errors/fail.js';
import { checkFiniteData, checkTensor } from './tensorArg.js';

/**
 * MC-dropout prediction: runs a model `passes` times with dropout active and returns the stacked outputs in the layout
 * the core ensemble functions take (member-major [S, N, C]).
 *
 * **Formula.** out[s, i, :] = f(x_i; dropout mask s), s = 1 … S, each pass `model.apply(x, { training: true })`.
 *
 * **Conventions.**
 * - `training: true` activates dropout (and any other training-time behaviour of the model's layers, e.g. batch
 *   normalisation would use batch statistics: use models whose only stochastic layers are dropout).
 * - The outputs are what the model's last layer emits (logits or probabilities): declare `input` accordingly to the core.
 * - Values are copied out of the backend as a `Float32Array`; intermediate tensors are disposed.
 *
 * **References.**
 * - Gal & Ghahramani, "Dropout as a Bayesian Approximation", ICML 2016, arXiv:1506.02142.
 * - Laves et al., "Well-Calibrated Model Uncertainty with Temperature Scaling for Dropout Variational Inference",
 *   arXiv:1909.13550.
 *
 * @param model a `tf.LayersModel` (or any `tf.layers.Layer`) mapping [N, …] inputs to [N, C] outputs.
 * @param x the inputs (a tensor).
 * @param passes S ≥ 1 forward passes.
 * @returns `{ scores, numMembers, numClasses }` with `scores` a flat `Float32Array` of S·N·C values.
 * @throws {UMError} `UM_OPTION` when passes is not a whole number ≥ 1 or model is not a model; `UM_SHAPE` when x is not
 *   a tensor the model takes or the output is not [N, C]; `UM_NOT_FINITE` for an output that is not finite.
 * @example
 * ```js
 * import { sequential, layers, tensor2d } from '@tensorflow/tfjs';
 * import { mcPredict } from 'uncertainty-metrics/tfjs';
 * const model = sequential({ layers: [layers.dense({ inputShape: [2], units: 3, kernelInitializer: 'ones' })] });
 * const r = mcPredict(model, tensor2d([[1, 2]]), 4);
 * [r.numMembers, r.numClasses, r.scores.length]; // => [4, 3, 12]
 * ```
 */
export function mcPredict(
  model: tf.LayersModel | tf.layers.Layer,
  x: tf.Tensor,
  passes: number,
): { scores: Float32Array; numMembers: number; numClasses: number } {
  const fn = 'mcPredict';
  const m = model as { apply?: unknown } | null;
  if (m === null || typeof m !== 'object' || typeof m.apply !== 'function')
    fail('UM_OPTION', fn, 'model', 'be a tf.LayersModel or a layer', { value: model });
  checkTensor(fn, 'x', x);
  checkCount(fn, 'passes', passes);
  const chunks: Float32Array[] = [];
  let shape: number[] = [];
  for (let s = 0; s < passes; s++) {
    let out: tf.Tensor;
    try {
      out = tf.tidy(() => model.apply(x, { training: true }) as tf.Tensor);
    } catch (error) {
      // the model's own check of its input (rank, width, dtype): a located error, not TensorFlow's ValueError
      return fail(
        'UM_SHAPE',
        fn,
        'x',
        `fit the model's input (${(error instanceof Error ? error.message : String(error)).split('\n')[0]})`,
        { value: x.shape },
      );
    }
    if (!(out instanceof tf.Tensor)) fail('UM_SHAPE', fn, 'model output', 'be one tensor [N, C]', { value: out });
    shape = out.shape;
    if (out.rank !== 2) {
      out.dispose();
      fail('UM_SHAPE', fn, 'model output', 'be a 2-D tensor [N, C]', { value: shape });
    }
    const data = Float32Array.from(out.dataSync() as ArrayLike<number>);
    out.dispose();
    checkFiniteData(fn, 'model output', data, shape[1] as number);
    chunks.push(data);
  }
  const size = (chunks[0] as Float32Array).length;
  const scores = new Float32Array(size * passes);
  chunks.forEach((c, s) => scores.set(c, s * size));
  return { scores, numMembers: passes, numClasses: shape[1] as number };
}
