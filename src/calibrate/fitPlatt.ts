import { INPUT_KEYS, checkOptions } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import { labelArray } from '../input/labelArray.js';
import { probMatrix } from '../input/probMatrix.js';
import type { InputOptions, Labels, ProbMatrix, Scores } from '../input/types.js';
import { header, type CalibratorHeader } from './params.js';
import { logProbabilities } from './temperatureCore.js';

/** Fitted Platt scaling: P(y = 1 | f) = 1 / (1 + exp(a·f + b)), f = log-odds of the score. Plain JSON. */
export interface PlattParams extends CalibratorHeader<'platt'> {
  readonly a: number;
  readonly b: number;
  readonly diagnostics: { readonly iterations: number; readonly converged: boolean; readonly loss: number };
}

/** The log-odds f = ln P(y = 1) − ln P(y = 0) of every row of a two-class matrix; must be finite (internal). */
export function logOdds(fn: string, p: ProbMatrix): Float64Array {
  if (p.numClasses !== 2) {
    fail(
      'UM_OPTION',
      fn,
      'scores',
      'be binary (a vector with binary: true, or two columns); for more classes use fitTemperature',
      { value: `${p.numClasses} classes` },
    );
  }
  const l = logProbabilities(p);
  const f = new Float64Array(p.n);
  for (let i = 0; i < p.n; i++) {
    const v = (l[2 * i + 1] as number) - (l[2 * i] as number);
    if (!Number.isFinite(v)) {
      fail(
        'UM_NOT_FINITE',
        fn,
        p.input,
        'give finite log-odds (a probability of exactly 0 or 1 has none; give logits)',
        { index: [i], value: p.data[2 * i + 1] },
      );
    }
    f[i] = v;
  }
  return f;
}

/**
 * Platt scaling: a logistic regression of the label on the classifier's log-odds, with Platt's smoothed targets —
 * the classic calibration of a binary score.
 *
 * **Formula.** P(y = 1 | f) = 1 / (1 + exp(a·f + b)); (a, b) minimise −Σ_i [t_i ln P_i + (1 − t_i) ln(1 − P_i)] with
 * targets t = (N₊ + 1)/(N₊ + 2) for positives and 1/(N₋ + 2) for negatives; f = ln(p / (1 − p)) (the logit itself
 * for logits).
 *
 * **Conventions.**
 * - Newton's method with backtracking, from a = 0, b = ln((N₋ + 1)/(N₊ + 1)), as Lin, Lin & Weng's improved
 *   algorithm; stops when the gradient is below 1e-10 · N or after 100 iterations (`diagnostics`).
 * - Binary only (a vector with `binary: true` or two columns). The feature is the log-odds, not the probability
 *   (scikit-learn uses `decision_function` or, without one, the probability itself).
 * - A probability of exactly 0 or 1 has infinite log-odds: give logits instead (`UM_NOT_FINITE`).
 *
 * **References.**
 * - Platt, "Probabilistic Outputs for Support Vector Machines and Comparisons to Regularized Likelihood Methods",
 *   Advances in Large Margin Classifiers, 1999.
 * - Lin, Lin & Weng, "A note on Platt's probabilistic outputs for support vector machines", Machine Learning 68
 *   (2007), doi:10.1007/s10994-007-5018-6.
 *
 * @param labels N labels in {0, 1}.
 * @param scores N scores of the declared kind (`binary: true`) or [N, 2].
 * @param options input options.
 * @returns {@link PlattParams}.
 * @throws {UMError} on invalid input; `UM_OPTION` for more than two classes.
 * @example
 * ```js
 * import { fitPlatt } from 'uncertainty-metrics';
 * const p = fitPlatt([0, 0, 1, 1, 1, 0], [-2, -1, 1, 2, 0.5, 0.5], { binary: true, input: 'logits' });
 * [p.a < 0, p.diagnostics.converged]; // => [true, true]
 * ```
 */
export function fitPlatt(labels: Labels, scores: Scores, options: InputOptions = {}): PlattParams {
  const fn = 'fitPlatt';
  checkOptions(fn, options, INPUT_KEYS);
  const p = probMatrix(fn, scores, options);
  const y = labelArray(fn, labels, p.n, p.numClasses);
  const f = logOdds(fn, p);
  const n = p.n;
  let positives = 0;
  for (let i = 0; i < n; i++) positives += y[i] as number;
  const hi = (positives + 1) / (positives + 2);
  const lo = 1 / (n - positives + 2);
  const t = new Float64Array(n);
  for (let i = 0; i < n; i++) t[i] = y[i] === 1 ? hi : lo;
  // loss(a, b) = Σ t·(a f + b) + log(1 + exp(−(a f + b))), written stably
  const loss = (a: number, b: number) => {
    let s = 0;
    for (let i = 0; i < n; i++) {
      const z = a * (f[i] as number) + b;
      s +=
        z >= 0 ? (t[i] as number) * z + Math.log1p(Math.exp(-z)) : ((t[i] as number) - 1) * z + Math.log1p(Math.exp(z));
    }
    return s;
  };
  let a = 0;
  let b = Math.log((n - positives + 1) / (positives + 1));
  let value = loss(a, b);
  let iterations = 0;
  let converged = false;
  for (; iterations < 100; iterations++) {
    let g1 = 0;
    let g2 = 0;
    let h11 = 1e-12;
    let h22 = 1e-12;
    let h21 = 0;
    for (let i = 0; i < n; i++) {
      const z = a * (f[i] as number) + b;
      // P = 1/(1+exp(z)), 1 − P
      const pz = z >= 0 ? Math.exp(-z) / (1 + Math.exp(-z)) : 1 / (1 + Math.exp(z));
      const qz = z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
      const d2 = pz * qz;
      const d1 = (t[i] as number) - pz;
      const fi = f[i] as number;
      h11 += fi * fi * d2;
      h22 += d2;
      h21 += fi * d2;
      g1 += fi * d1;
      g2 += d1;
    }
    if (Math.abs(g1) < 1e-10 * n && Math.abs(g2) < 1e-10 * n) {
      converged = true;
      break;
    }
    const det = h11 * h22 - h21 * h21;
    const da = -(h22 * g1 - h21 * g2) / det;
    const db = -(-h21 * g1 + h11 * g2) / det;
    const slope = g1 * da + g2 * db;
    let step = 1;
    let accepted = false;
    while (step >= 1e-10) {
      const na = a + step * da;
      const nb = b + step * db;
      const nv = loss(na, nb);
      if (nv < value + 1e-4 * step * slope) {
        a = na;
        b = nb;
        value = nv;
        accepted = true;
        break;
      }
      step /= 2;
    }
    if (!accepted) {
      converged = true; // no descent direction left within rounding
      break;
    }
  }
  return {
    ...header('platt', { n, numClasses: 2, input: p.input, binary: p.binary }),
    a,
    b,
    diagnostics: { iterations, converged, loss: value / n },
  };
}
