import { fail } from '../errors/fail.js';
import { weightArray, type WeightOptions } from '../input/weights.js';
import type { Labels, Scores } from '../input/types.js';
import { calibrationPairs, type TargetOptions } from './pairs.js';
import { INPUT_KEYS, checkOptions } from '../errors/checkOptions.js';

/** Options of {@link mmce}. */
export interface MmceOptions extends TargetOptions, WeightOptions {
  /** Weighted MMCE_w of Kumar et al. (the training penalty's form) instead of the plain MMCE. Default false. */
  weighted?: boolean;
  /** Width w of the Laplacian kernel k(r, r′) = exp(−|r − r′|/w) (default 0.4, as Kumar et al. and netcal). */
  kernelWidth?: number;
}

/**
 * Σ_{i,j} a_i a_j exp(−|r_i − r_j|/w) in O(N log N): sort by r, then a running sum S_i = e^{−(r_i − r_{i−1})/w}·(S_{i−1} +
 * a_{i−1}) gives Σ_{j<i} a_j e^{−(r_i − r_j)/w}, so the double sum is Σ a_i² + 2·Σ a_i S_i (internal).
 */
export function laplacianQuadraticForm(r: Float64Array, a: Float64Array, width: number): number {
  const n = r.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => (r[x] as number) - (r[y] as number));
  let total = 0;
  let running = 0;
  let prevR = 0;
  let prevA = 0;
  for (let j = 0; j < n; j++) {
    const i = order[j] as number;
    const ri = r[i] as number;
    const ai = a[i] as number;
    running = j === 0 ? 0 : Math.exp(-(ri - prevR) / width) * (running + prevA);
    total += ai * ai + 2 * ai * running;
    prevR = ri;
    prevA = ai;
  }
  return total;
}

/**
 * Maximum mean calibration error: a kernel (RKHS) measure of the gap between confidence and correctness, without
 * bins.
 *
 * **Formula.** MMCE = √( Σ_{i,j} (c_i − r_i)(c_j − r_j)·k(r_i, r_j) / N² ), r = confidence, c = 1[ŷ = y],
 * k(r, r′) = exp(−|r − r′|/w). Weighted: MMCE_w = √( Σ_{W×W} r_i r_j k / n_w² + Σ_{C×C} (1 − r_i)(1 − r_j) k / n_c²
 * − 2·Σ_{C×W} (1 − r_i) r_j k / (n_c·n_w) ) over correct (C) and wrong (W) predictions; a term whose set is empty is 0.
 *
 * **Conventions.**
 * - Laplacian kernel, width 0.4 by default (the UCE paper uses MMCE with the weighted form in training).
 * - Computed exactly in O(N log N) by sorting (the Laplacian kernel factorises along the sorted scores).
 * - A negative value under the root (rounding) is taken as 0.
 *
 * **References.**
 * - Kumar, Sarawagi & Jain, "Trainable Calibration Measures for Neural Networks from Kernel Mean Embeddings",
 *   ICML 2018, proceedings.mlr.press/v80/kumar18a.html, eqs. 1 and 3.
 * - "Uncertainty Calibration Error: A New Metric for Multi-Class Classification", ICLR 2020 submission, eq. 4.
 *
 * @param labels N integer labels.
 * @param scores [N, C] scores of the declared kind.
 * @param options `weighted`, `kernelWidth`, `target` and input options.
 * @returns the MMCE, ≥ 0.
 * @throws {UMError} on invalid input or options.
 * @example
 * ```js
 * import { mmce } from 'uncertainty-metrics';
 * // one row, confidence 0.8 and wrong: √(0.8² · k(0.8, 0.8)) = 0.8
 * mmce([1], [[0.8, 0.2]]); // ≈ 0.8
 * ```
 */
export function mmce(labels: Labels, scores: Scores, options: MmceOptions = {}): number {
  checkOptions('mmce', options, INPUT_KEYS, ['target', 'weighted', 'kernelWidth', 'weights']);
  const fn = 'mmce';
  const width = options.kernelWidth ?? 0.4;
  if (typeof width !== 'number' || !Number.isFinite(width) || width <= 0)
    fail('UM_OPTION', fn, 'options.kernelWidth', 'be a finite number > 0', { value: width });
  const weighted = options.weighted ?? false;
  if (typeof weighted !== 'boolean') fail('UM_OPTION', fn, 'options.weighted', 'be true or false', { value: weighted });
  const { weights: _w, ...rest } = options;
  const { s, o } = calibrationPairs(fn, labels, scores, rest);
  const n = s.length;
  // frequency weights: a weight-w pair is w copies (each pair's coefficient scaled by w, totals by Σw)
  const w = weightArray(fn, options.weights, n);
  const wi = (i: number) => (w === undefined ? 1 : (w[i] as number));
  const a = new Float64Array(n);
  if (!weighted) {
    let total = 0;
    for (let i = 0; i < n; i++) total += wi(i);
    for (let i = 0; i < n; i++) a[i] = (wi(i) * ((o[i] as number) - (s[i] as number))) / total;
  } else {
    let nc = 0;
    let nw = 0;
    for (let i = 0; i < n; i++) {
      if (o[i] === 1) nc += wi(i);
      else nw += wi(i);
    }
    for (let i = 0; i < n; i++)
      a[i] = o[i] === 1 ? (wi(i) * (1 - (s[i] as number))) / nc : -(wi(i) * (s[i] as number)) / nw;
  }
  return Math.sqrt(Math.max(0, laplacianQuadraticForm(s, a, width)));
}
