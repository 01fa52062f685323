import { DEFAULT_BINS } from '../presets/presets.js';
import { checkCount } from '../errors/checkCount.js';
import * as tf from '@tensorflow/tfjs';
import { fail } from '../errors/fail.js';
import { checkOptions } from '../errors/checkOptions.js';
import { labelsOf } from './labelsOf.js';
import { checkLogits } from './tensorArg.js';

/** Options of {@link uceLoss}. */
export interface UceLossOptions {
  /** Equal-width bins of the normalized entropy (default 15, as the core `uce`). */
  bins?: number;
  /**
   * Class-wise UCE (default false): (1/C)·Σ_c UCE(rows predicted as c) over all C classes, a class no row of the batch
   * predicts counting 0 — the core `uce`'s default `classAverage: 'all-classes'`, the form the UCE paper recommends for
   * training.
   */
  classwise?: boolean;
}

/** Options of {@link mmceLoss}. */
export interface MmceLossOptions {
  /** Kumar et al.'s weighted MMCE_w (their training form) instead of the plain MMCE (default false). */
  weighted?: boolean;
  /** Width w of the Laplacian kernel exp(−|r − r′|/w) (default 0.4). */
  kernelWidth?: number;
}

/** The first argmax of every row, read out of the tape (a constant of the loss). */
function predictedClasses(logits: tf.Tensor2D): Int32Array {
  return Int32Array.from(tf.tidy(() => tf.argMax(logits, 1)).dataSync() as ArrayLike<number>);
}

/** H(softmax(z_i)) per row in nats, from log-softmax (differentiable). */
function rowEntropy(logits: tf.Tensor2D): tf.Tensor1D {
  const logp = tf.logSoftmax(logits);
  return tf.neg(tf.sum(tf.mul(tf.exp(logp), logp), 1)) as tf.Tensor1D;
}

/**
 * The confidence penalty of Pereyra et al.: minus the mean entropy of the predicted distributions, to be added (times
 * β > 0) to the NLL so that over-confident predictions cost more.
 *
 * **Formula.** penalty = −(1/N)·Σ_i H(softmax(z_i)), H(p) = −Σ_k p_k ln p_k, from log-softmax.
 *
 * **Conventions.**
 * - Natural log; differentiable everywhere (log-softmax keeps 0·ln 0 finite).
 * - Equals −mean(`entropy`) of the core on softmax(z), up to float32 rounding.
 *
 * **References.**
 * - Pereyra, Tucker, Chorowski, Kaiser & Hinton, "Regularizing Neural Networks by Penalizing Confident Output
 *   Distributions", ICLR workshop 2017, arXiv:1701.06548.
 *
 * @param logits [N, C] logits (a `tf.Tensor2D`).
 * @returns a scalar tensor.
 * @throws {UMError} `UM_SHAPE` when logits are not a float32 tensor [N, C] with C ≥ 2; `UM_NOT_FINITE` for a NaN or ±Infinity logit.
 * @example
 * ```js
 * import { tensor1d, tensor2d } from '@tensorflow/tfjs';
 * import { confidencePenalty } from 'uncertainty-metrics/tfjs';
 * confidencePenalty(tensor2d([[0, 0], [0, 0]])).arraySync(); // ≈ -0.693147
 * ```
 */
export function confidencePenalty(logits: tf.Tensor2D): tf.Scalar {
  checkLogits('confidencePenalty', logits);
  return tf.tidy(() => tf.neg(tf.mean(rowEntropy(logits))) as tf.Scalar);
}

/**
 * The uncertainty calibration error of a mini-batch as a differentiable loss (NLL + λ·UCE, as in the UCE paper).
 *
 * **Formula.** u_i = H(softmax(z_i))/ln C, e_i = 1[argmax z_i ≠ y_i]; UCE = Σ_m (|B_m|/N)·|mean_{B_m} e − mean_{B_m} u|
 * = (1/N)·Σ_m |Σ_{i∈B_m} (e_i − u_i)| over 15 equal-width bins of u (b = min(⌊B·u⌋, B − 1)). Class-wise:
 * (1/C)·Σ_c UCE(rows predicted as c) over all C classes (a class never predicted in the batch counts 0).
 *
 * **Conventions.**
 * - Gradient flows through u only: the errors e_i and the bin membership are piecewise constant in z (zero gradient
 *   almost everywhere), so the loss pulls each bin's mean uncertainty towards its error rate.
 * - The same binning as the core `uce` (equal-width, p = 1 in the last bin), in float32.
 *
 * **References.**
 * - Laves, Ihler, Kortmann & Ortmaier, "Well-Calibrated Model Uncertainty with Temperature Scaling for Dropout
 *   Variational Inference", arXiv:1909.13550; "Uncertainty Calibration Error: A New Metric for Multi-Class
 *   Classification", ICLR 2020 submission, eq. 7.
 *
 * @param labels integer labels [N] (or [N, 1]), or one-hot targets [N, C].
 * @param logits [N, C] logits.
 * @param options `bins` (15), `classwise` (false).
 * @returns a scalar tensor.
 * @throws {UMError} `UM_SHAPE` (logits not a float32 tensor [N, C], C ≥ 2), `UM_NOT_FINITE` (a NaN or ±Infinity logit), `UM_LABEL` or
 *   `UM_OPTION` on invalid input.
 * @example
 * ```js
 * import { tensor1d, tensor2d } from '@tensorflow/tfjs';
 * import { uceLoss } from 'uncertainty-metrics/tfjs';
 * // a confident correct row (u ≈ 0.130, e = 0) and a uniform wrong row (u = 1, e = 1: no gap): 0.130 / 2
 * uceLoss(tensor1d([0, 1]), tensor2d([[4, 0], [0, 0]])).arraySync(); // ≈ 0.06499
 * ```
 */
export function uceLoss(labels: tf.Tensor, logits: tf.Tensor2D, options: UceLossOptions = {}): tf.Scalar {
  const fn = 'uceLoss';
  checkOptions(fn, options, ['bins', 'classwise']);
  const bins = options.bins ?? DEFAULT_BINS;
  checkCount(fn, 'options.bins', bins);
  const classwise = options.classwise ?? false;
  if (typeof classwise !== 'boolean')
    fail('UM_OPTION', fn, 'options.classwise', 'be true or false', { value: classwise });
  const y = labelsOf(fn, labels, logits);
  const [n, c] = logits.shape as [number, number];
  return tf.tidy(() => {
    const u = tf.div(rowEntropy(logits), Math.log(c)) as tf.Tensor1D;
    // constants (no gradient): predicted class, error, bin membership of every row
    const pv = predictedClasses(logits);
    const error = tf.tensor1d(Float32Array.from(pv, (p, i) => (p === y[i] ? 0 : 1)));
    const uv = u.dataSync();
    const groups = classwise ? c : 1;
    const cell = new Int32Array(n);
    const size = new Float64Array(groups);
    for (let i = 0; i < n; i++) {
      const b = Math.min(Math.floor(bins * (uv[i] as number)), bins - 1);
      const g = classwise ? (pv[i] as number) : 0;
      cell[i] = g * bins + Math.max(0, b);
      size[g] = (size[g] as number) + 1;
    }
    const member = tf.oneHot(tf.tensor1d(cell, 'int32'), groups * bins); // [N, G·B]
    const gap = tf.abs(tf.matMul(tf.reshape(tf.sub(error, u), [1, n]), tf.cast(member, 'float32'))); // [1, G·B]
    // each group's UCE is (1/N_g)·Σ_bins |Σ (e − u)|; the class-wise form averages over the C classes
    const scale = new Float32Array(groups * bins);
    for (let g = 0; g < groups; g++)
      for (let b = 0; b < bins; b++)
        scale[g * bins + b] = (size[g] as number) > 0 ? 1 / ((size[g] as number) * groups) : 0;
    return tf.sum(tf.mul(gap, tf.tensor2d(scale, [1, groups * bins]))) as tf.Scalar;
  });
}

/**
 * The maximum mean calibration error of a mini-batch as a differentiable loss (Kumar et al.'s trainable MMCE).
 *
 * **Formula.** r_i = max_k softmax(z_i)\_k, c_i = 1[argmax z_i = y_i], k(r, r′) = exp(−|r − r′|/w);
 * MMCE = √( Σ_{i,j} (c_i − r_i)(c_j − r_j)·k(r_i, r_j) / N² ); weighted MMCE_w = √( Σ_{W×W} r_i r_j k / n_w² +
 * Σ_{C×C} (1 − r_i)(1 − r_j) k / n_c² − 2·Σ_{C×W} (1 − r_i) r_j k / (n_c·n_w) ) (empty sets contribute 0).
 *
 * **Conventions.**
 * - Gradient flows through r (in the kernel and in the weights); c is piecewise constant.
 * - The root is taken of max(x, 0) + 1e-12 so the gradient stays finite at 0: the value exceeds the core `mmce` by at
 *   most 1e-6. An N × N kernel per batch (mini-batches of a few hundred rows).
 *
 * **References.**
 * - Kumar, Sarawagi & Jain, "Trainable Calibration Measures for Neural Networks from Kernel Mean Embeddings", ICML 2018,
 *   proceedings.mlr.press/v80/kumar18a.html, eqs. 1 and 3.
 *
 * @param labels integer labels [N] (or [N, 1]), or one-hot targets [N, C].
 * @param logits [N, C] logits.
 * @param options `weighted` (false), `kernelWidth` (0.4).
 * @returns a scalar tensor.
 * @throws {UMError} `UM_SHAPE` (logits not a float32 tensor [N, C], C ≥ 2), `UM_NOT_FINITE` (a NaN or ±Infinity logit), `UM_LABEL` or
 *   `UM_OPTION` on invalid input.
 * @example
 * ```js
 * import { tensor1d, tensor2d } from '@tensorflow/tfjs';
 * import { mmceLoss } from 'uncertainty-metrics/tfjs';
 * // two correct predictions (ties go to class 0) with confidence 0.5: a = c − r = 0.5 each, k = 1 → √(4·0.25/4)
 * mmceLoss(tensor1d([0, 0]), tensor2d([[0, 0], [0, 0]])).arraySync(); // ≈ 0.500000
 * ```
 */
export function mmceLoss(labels: tf.Tensor, logits: tf.Tensor2D, options: MmceLossOptions = {}): tf.Scalar {
  const fn = 'mmceLoss';
  checkOptions(fn, options, ['kernelWidth', 'weighted']);
  const width = options.kernelWidth ?? 0.4;
  if (typeof width !== 'number' || !(width > 0) || !Number.isFinite(width))
    fail('UM_OPTION', fn, 'options.kernelWidth', 'be a finite number > 0', { value: width });
  const weighted = options.weighted ?? false;
  if (typeof weighted !== 'boolean') fail('UM_OPTION', fn, 'options.weighted', 'be true or false', { value: weighted });
  const y = labelsOf(fn, labels, logits);
  const n = logits.shape[0] as number;
  return tf.tidy(() => {
    const r = tf.max(tf.softmax(logits), 1) as tf.Tensor1D;
    const pv = predictedClasses(logits);
    const correct = tf.tensor1d(Float32Array.from(pv, (p, i) => (p === y[i] ? 1 : 0))); // constant: no gradient
    const k = tf.exp(
      tf.div(tf.neg(tf.abs(tf.sub(tf.reshape(r, [n, 1]), tf.reshape(r, [1, n])))), width),
    ) as tf.Tensor2D;
    const form = (a: tf.Tensor1D, b: tf.Tensor1D) =>
      tf.sum(tf.mul(tf.mul(tf.reshape(a, [n, 1]), tf.reshape(b, [1, n])), k));
    let squared: tf.Tensor;
    if (!weighted) {
      const a = tf.sub(correct, r) as tf.Tensor1D;
      squared = tf.div(form(a, a), n * n);
    } else {
      let nc = 0;
      for (let i = 0; i < n; i++) if (pv[i] === y[i]) nc++;
      const nw = n - nc;
      const wrongR = tf.mul(tf.sub(1, correct), r) as tf.Tensor1D; // r_i on wrong rows, 0 elsewhere
      const rightQ = tf.mul(correct, tf.sub(1, r)) as tf.Tensor1D; // 1 − r_i on correct rows
      const parts: tf.Tensor[] = [];
      if (nw > 0) parts.push(tf.div(form(wrongR, wrongR), nw * nw));
      if (nc > 0) parts.push(tf.div(form(rightQ, rightQ), nc * nc));
      if (nc > 0 && nw > 0) parts.push(tf.mul(-2 / (nc * nw), form(rightQ, wrongR)));
      squared = parts.length === 0 ? tf.scalar(0) : tf.addN(parts);
    }
    return tf.sqrt(tf.add(tf.relu(squared), 1e-12)) as tf.Scalar;
  });
}
