import { fail } from '../errors/fail.js';

/** Validates a probability strictly inside (0, 1) (internal). */
export function openProbability(fn: string, argument: string, p: unknown, index?: number[]): number {
  if (typeof p !== 'number' || !Number.isFinite(p))
    fail('UM_NOT_FINITE', fn, argument, 'be a finite number', { value: p, ...(index === undefined ? {} : { index }) });
  if (!(p > 0 && p < 1))
    fail('UM_PROB_RANGE', fn, argument, 'be in (0, 1) (odds of 0 or 1 are not finite)', {
      value: p,
      ...(index === undefined ? {} : { index }),
    });
  return p;
}

/** OR(p, a) = max(O(p)/O(a), O(a)/O(p)) with O(x) = x/(1 − x) (internal, unchecked). */
export function oddsRatioOf(p: number, a: number): number {
  // the larger ratio computed directly (not as 1/r of a tiny r), as a product of two quotients that stay in range
  // unless the ratio itself does: Infinity only when the odds ratio exceeds float64 (p or a within ~1e-308 of 0)
  const r = (p / a) * ((1 - a) / (1 - p));
  return r >= 1 ? r : (a / p) * ((1 - p) / (1 - a));
}

/** The odds ratio, or a UMError naming `argument` when it exceeds float64 (internal). */
export function finiteOddsRatio(fn: string, argument: string, p: number, a: number, index?: number[]): number {
  const r = oddsRatioOf(p, a);
  if (!Number.isFinite(r))
    fail('UM_NOT_FINITE', fn, argument, `give an odds ratio within float64 (at most 1.8e308) against ${a}`, {
      value: p,
      ...(index === undefined ? {} : { index }),
    });
  return r;
}

/**
 * Odds ratio of a probability against a baseline: how much more favourable the odds of a fair bet become when the
 * probability is p instead of a (betting against when p < a).
 *
 * **Formula.** OR(p, a) = max(O(p)/O(a), O(a)/O(p)), O(x) = x / (1 − x).
 *
 * **Conventions.**
 * - Always ≥ 1; 1 exactly when p = a. p and a must lie strictly inside (0, 1).
 *
 * **References.**
 * - Oberman, Finlay, Iannantuono & Salvador, "Calibrated Top-1 Uncertainty estimates for classification by score
 *   based models", Definition 2.
 *
 * @param p probability in (0, 1).
 * @param a baseline probability in (0, 1).
 * @returns OR(p, a) ≥ 1.
 * @throws {UMError} `UM_PROB_RANGE` outside (0, 1); `UM_NOT_FINITE` for non-numbers, and when the odds ratio exceeds
 *   float64 (p or a within about 1e-308 of 0 or 1).
 * @example
 * ```js
 * import { oddsRatio } from 'uncertainty-metrics';
 * oddsRatio(15 / 16, 1 / 2); // ≈ 15
 * oddsRatio(1 / 16, 1 / 2); // ≈ 15
 * ```
 */
export function oddsRatio(p: number, a: number): number {
  const fn = 'oddsRatio';
  return finiteOddsRatio(fn, 'p', openProbability(fn, 'p', p), openProbability(fn, 'a', a));
}
