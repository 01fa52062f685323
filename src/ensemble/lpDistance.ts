import { fail } from '../errors/fail.js';
import { ensembleMatrix } from '../input/ensembleMatrix.js';
import type { EnsembleOptions, EnsembleScores } from '../input/types.js';
import { pairL1 } from './pairSums.js';
import { averageOverPairs, rowWeights } from './pairs.js';

/** Most members of lpDistance with p ≠ 1 (each pair is compared: S²/2 pairs per row). */
const MAX_PAIRWISE_MEMBERS = 2 ** 12;
import { ENSEMBLE_KEYS, WEIGHT_KEYS, checkOptions } from '../errors/checkOptions.js';
import type { WeightOptions } from '../input/weights.js';

/**
 * L^p distance between ensemble members' predicted distributions, averaged over examples and member pairs.
 *
 * **Formula.** (2/(S(S − 1)))·Σ_{a<b} (1/N)·Σ_i (Σ_k |p_a,k(x_i) − p_b,k(x_i)|^p)^{1/p}.
 *
 * **Conventions.**
 * - p ≥ 1, default 1 (as uncertainty_metrics' `lp_distance`). Needs S ≥ 2.
 * - p = 1 is summed over sorted values (O(S log S) per entry, any S); other p compare every pair of members
 *   (O(S²·N·C)), for at most 4096 members.
 *
 * **References.**
 * - google/uncertainty-metrics `lp_distance`.
 *
 * @param members [S, N, C] scores (see {@link toEnsemble}).
 * @param options `p` (default 1) and ensemble input options.
 * @returns the mean pairwise distance.
 * @throws {UMError} on invalid input or `p`, or `UM_SHAPE` with fewer than 2 members (or more than 4096 for p ≠ 1).
 * @example
 * ```js
 * import { lpDistance } from 'uncertainty-metrics';
 * lpDistance([[[1, 0]], [[0, 1]]]); // => 2
 * lpDistance([[[1, 0]], [[0, 1]]], { p: 2 }); // ≈ 1.4142135624
 * ```
 */
export function lpDistance(
  members: EnsembleScores,
  options: EnsembleOptions & WeightOptions & { p?: number } = {},
): number {
  checkOptions('lpDistance', options, ENSEMBLE_KEYS, WEIGHT_KEYS, ['p']);
  const fn = 'lpDistance';
  const p = options.p ?? 1;
  if (typeof p !== 'number' || !Number.isFinite(p) || p < 1)
    fail('UM_OPTION', fn, 'options.p', 'be a finite number ≥ 1', { value: p });
  const e = ensembleMatrix(fn, members, options);
  const { data, n, numClasses: c } = e;
  const { w, total } = rowWeights(fn, options.weights, n);
  // p = 1 (the default) sums over sorted values in O(S log S) per entry; any other p compares every pair of
  // members, O(S²·N·C): the members are bounded so that the pairs cannot outgrow the input by more than 2^11
  if (p === 1) return pairL1(fn, e, w, total);
  if (e.numMembers > MAX_PAIRWISE_MEMBERS)
    fail(
      'UM_SHAPE',
      fn,
      'members',
      `hold at most ${MAX_PAIRWISE_MEMBERS} members for p ≠ 1 (every pair is compared; p = 1 has no bound)`,
      { value: e.numMembers },
    );
  return averageOverPairs(fn, e, (a, b) => {
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const oa = (a * n + i) * c;
      const ob = (b * n + i) * c;
      let s = 0;
      for (let k = 0; k < c; k++) s += Math.abs((data[oa + k] as number) - (data[ob + k] as number)) ** p;
      const wi = w === undefined ? 1 : (w[i] as number);
      if (wi > 0) sum += wi * s ** (1 / p);
    }
    return sum / total;
  });
}
