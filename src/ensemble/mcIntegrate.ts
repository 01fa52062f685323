import { ensembleMatrix } from '../input/ensembleMatrix.js';
import type { EnsembleMatrix, EnsembleOptions, EnsembleScores, ProbMatrix } from '../input/types.js';
import { markValidated } from '../input/validated.js';
import { ENSEMBLE_KEYS, checkOptions } from '../errors/checkOptions.js';

/** The predictive distribution of validated members (internal kernel). */
export function meanPrediction(e: EnsembleMatrix): ProbMatrix {
  const { data, logData, numMembers: s, n, numClasses: c } = e;
  const size = n * c;
  const out = new Float64Array(size);
  for (let m = 0; m < s; m++) {
    const base = m * size;
    for (let j = 0; j < size; j++) out[j] = (out[j] as number) + (data[base + j] as number);
  }
  for (let j = 0; j < size; j++) {
    // identical members give back exactly their common value
    let same = true;
    const v0 = data[j] as number;
    for (let m = 1; m < s && same; m++) same = data[m * size + j] === v0;
    out[j] = same ? v0 : (out[j] as number) / s;
  }
  if (logData === undefined)
    return markValidated({ kind: 'probabilities', data: out, n, numClasses: c, input: 'probs', binary: false });
  // ln p̄ = LSE_s(ln p_s) − ln S, exact for tiny probabilities
  const logOut = new Float64Array(size);
  const logS = Math.log(s);
  for (let j = 0; j < size; j++) {
    let max = -Infinity;
    for (let m = 0; m < s; m++) max = Math.max(max, logData[m * size + j] as number);
    if (max === -Infinity) {
      logOut[j] = -Infinity;
      continue;
    }
    let sum = 0;
    for (let m = 0; m < s; m++) sum += Math.exp((logData[m * size + j] as number) - max);
    logOut[j] = max + Math.log(sum) - logS;
  }
  return markValidated({
    kind: 'probabilities',
    data: out,
    logData: logOut,
    n,
    numClasses: c,
    input: e.input,
    binary: false,
  });
}

/**
 * Monte-Carlo integration of an ensemble or of MC-dropout passes: the predictive distribution, the mean of the
 * members' probabilities.
 *
 * **Formula.** p(x_i) = (1/S)·Σ_s softmax(f_s(x_i)) (Laves et al. 2019, eq. 2), i.e. the mean of the members' probabilities.
 *
 * **Conventions.**
 * - Averages probabilities, not logits (the mean of logits is a different, un-Bayesian prediction).
 * - From logits, ln p̄ is kept as LSE_s(ln p_s) − ln S, so log-scores of the result stay exact.
 * - The result is validated probabilities that every metric accepts directly.
 *
 * **References.**
 * - Gal & Ghahramani, ICML 2016, arXiv:1506.02142 (MC dropout).
 * - Laves, Ihler, Kortmann & Ortmaier, arXiv:1909.13550, eq. 2.
 *
 * @param members [S, N, C] scores (see {@link toEnsemble}).
 * @param options ensemble input options.
 * @returns validated probabilities [N, C].
 * @throws {UMError} on invalid input (see {@link toEnsemble}).
 * @example
 * ```js
 * import { mcIntegrate } from 'uncertainty-metrics';
 * Array.from(mcIntegrate([[[0.9, 0.1]], [[0.5, 0.5]]]).data); // ≈ [0.7, 0.3]
 * ```
 */
export function mcIntegrate(members: EnsembleScores, options: EnsembleOptions = {}): ProbMatrix {
  checkOptions('mcIntegrate', options, ENSEMBLE_KEYS);
  return meanPrediction(ensembleMatrix('mcIntegrate', members, options));
}
