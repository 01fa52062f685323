import { checkCount } from '../errors/checkCount.js';
import * as tf from '@tensorflow/tfjs';
import { fail } from '../errors/fail.js';
import { checkOptions } from '../errors/checkOptions.js';
import { labelsOf } from './labelsOf.js';

/**
 * A Keras-style layer that divides its input logits by a learned temperature T = exp(τ) (one trainable scalar τ,
 * initialised to 0, i.e. T = 1). Put it after a frozen model's logits and train τ on held-out data.
 *
 * **Formula.** output = z / exp(τ).
 *
 * **Conventions.**
 * - Parametrised by τ = ln T so every real τ is a valid temperature; the predicted class never changes.
 * - Registered with `tf.serialization` under `TemperatureScaling`, so models containing it save and load.
 *
 * **References.**
 * - Guo, Pleiss, Sun & Weinberger, "On Calibration of Modern Neural Networks", ICML 2017, arXiv:1706.04599.
 *
 * @example
 * ```js
 * import { tensor2d } from '@tensorflow/tfjs';
 * import { TemperatureScaling } from 'uncertainty-metrics/tfjs';
 * const layer = new TemperatureScaling();
 * layer.apply(tensor2d([[2, 4]])).arraySync(); // => [[2, 4]]
 * ```
 */
export class TemperatureScaling extends tf.layers.Layer {
  static className = 'TemperatureScaling';
  private tau: tf.LayerVariable | null = null;

  /** @param args tfjs layer arguments (name, trainable, …), as every layer takes. */
  constructor(args: ConstructorParameters<typeof tf.layers.Layer>[0] = {}) {
    // checked here: TensorFlow's Layer read fields of null and threw a TypeError
    if (args === null || typeof args !== 'object' || Array.isArray(args))
      fail('UM_OPTION', 'TemperatureScaling', 'args', 'be an object of layer arguments', { value: args });
    super(args);
  }

  override build(): void {
    this.tau = this.addWeight('logTemperature', [], 'float32', tf.initializers.zeros());
    this.built = true;
  }

  override call(inputs: tf.Tensor | tf.Tensor[]): tf.Tensor {
    const z = Array.isArray(inputs) ? (inputs[0] as tf.Tensor) : inputs;
    return tf.tidy(() => tf.div(z, tf.exp((this.tau as tf.LayerVariable).read())));
  }

  /** The current temperature T = exp(τ). */
  temperature(): number {
    return this.tau === null ? 1 : Math.exp(this.tau.read().dataSync()[0] as number);
  }
}
tf.serialization.registerClass(TemperatureScaling);

/** Consecutive steps each changing τ by less than the tolerance that end the fit. */
const STILL_STEPS = 5;

/** Options of {@link fitTemperatureTf}. */
export interface FitTemperatureTfOptions {
  /** A tfjs optimizer (default `tf.train.adam(0.05)`). */
  optimizer?: tf.Optimizer;
  /** Largest number of optimizer steps (default 2000). */
  maxSteps?: number;
  /** Stop when five steps in a row each change ln T by less than this (default 1e-7). */
  tolerance?: number;
}

/**
 * Temperature scaling fitted with a TensorFlow.js optimizer: minimises the mean NLL of softmax(z / T) over τ = ln T by
 * gradient steps — the same objective as the core `fitTemperature` (which solves it by Newton steps in float64).
 *
 * **Formula.** T* = exp(argmin_τ (1/N)·Σ_i −log softmax(z_i / e^τ)_{y_i}).
 *
 * **Conventions.**
 * - Starts at T = 1; float32 arithmetic; stops after `maxSteps` or when five steps in a row each change τ by less
 *   than `tolerance` (a single small step is also where a momentum optimizer such as Adam turns back past the
 *   minimum).
 * - Agrees with the core `fitTemperature` within 1e-4 relative on the tested data (test/tfjs/temperature.test.ts).
 *
 * **References.**
 * - Guo, Pleiss, Sun & Weinberger, "On Calibration of Modern Neural Networks", ICML 2017, arXiv:1706.04599.
 * - Kingma & Ba, "Adam: A Method for Stochastic Optimization", ICLR 2015, arXiv:1412.6980.
 *
 * @param labels integer labels [N] (or [N, 1]), or one-hot targets [N, C].
 * @param logits [N, C] logits (held-out data).
 * @param options `optimizer`, `maxSteps`, `tolerance`.
 * @returns `{ temperature, steps }`.
 * @throws {UMError} `UM_SHAPE` (logits not a float32 tensor [N, C], C ≥ 2), `UM_NOT_FINITE` (a NaN or ±Infinity logit), `UM_LABEL` or
 *   `UM_OPTION` on invalid input.
 * @example
 * ```js
 * import { tensor1d, tensor2d } from '@tensorflow/tfjs';
 * import { fitTemperatureTf } from 'uncertainty-metrics/tfjs';
 * // over-confident logits: one of three confident predictions is wrong, so T > 1
 * fitTemperatureTf(tensor1d([0, 1, 1]), tensor2d([[4, 0], [0, 4], [4, 0]])).temperature > 1; // => true
 * ```
 */
export function fitTemperatureTf(
  labels: tf.Tensor,
  logits: tf.Tensor2D,
  options: FitTemperatureTfOptions = {},
): { temperature: number; steps: number } {
  const fn = 'fitTemperatureTf';
  checkOptions(fn, options, ['optimizer', 'maxSteps', 'tolerance']);
  const maxSteps = options.maxSteps ?? 2000;
  checkCount(fn, 'options.maxSteps', maxSteps);
  const tolerance = options.tolerance ?? 1e-7;
  if (typeof tolerance !== 'number' || !(tolerance > 0))
    fail('UM_OPTION', fn, 'options.tolerance', 'be a number > 0', { value: tolerance });
  const y = labelsOf(fn, labels, logits);
  const c = logits.shape[1] as number;
  const target = tf.tidy(() => tf.oneHot(tf.tensor1d(y, 'int32'), c));
  const tau = tf.variable(tf.scalar(0), true);
  const optimizer = options.optimizer ?? tf.train.adam(0.05);
  let steps = 0;
  let previous = 0;
  let still = 0;
  try {
    for (; steps < maxSteps;) {
      optimizer.minimize(() => tf.losses.softmaxCrossEntropy(target, tf.div(logits, tf.exp(tau))) as tf.Scalar, false, [
        tau,
      ]);
      steps++;
      const now = tau.dataSync()[0] as number;
      // one small step is also where a momentum optimizer turns back past the minimum (stopping there left T off by
      // up to 4e-3 relative): stop after STILL_STEPS of them in a row
      still = Math.abs(now - previous) < tolerance ? still + 1 : 0;
      if (still === STILL_STEPS) break;
      previous = now;
    }
    return { temperature: Math.exp(tau.dataSync()[0] as number), steps };
  } finally {
    tau.dispose();
    target.dispose();
  }
}
