import { fail } from '../errors/fail.js';
import { exponentOf, maxAbs, timesPow2 } from '../math/pow2.js';
import { digamma } from '../math/special.js';
import type { ScoreMatrix } from '../input/types.js';
import type { UncertaintyDecomposition } from './modelUncertainty.js';
import { checkOptions } from '../errors/checkOptions.js';

/**
 * Uncertainty of a Dirichlet prediction Dir(α) (a prior network or a distilled ensemble): total, expected data and
 * knowledge uncertainty (the mutual information between label and categorical parameters), per example.
 *
 * **Formula.** α_0 = Σ_c α_c, p̄_c = α_c/α_0. total = H(p̄) = −Σ_c p̄_c ln p̄_c; expectedData = E_{π∼Dir(α)}[H(π)] =
 * −Σ_c p̄_c·(ψ(α_c + 1) − ψ(α_0 + 1)); mutualInformation = total − expectedData.
 *
 * **Conventions.**
 * - Natural log; ψ is the digamma function. Every α_c must be > 0.
 * - Knowledge uncertainty falls to 0 as α_0 grows with p̄ fixed (a confident, concentrated Dirichlet).
 *
 * **References.**
 * - Malinin & Gales, "Predictive Uncertainty Estimation via Prior Networks", NeurIPS 2018, arXiv:1802.10501, eq. 11.
 * - Malinin, Mlodozeniec & Gales, ICLR 2020, arXiv:1905.00076.
 *
 * @param alphas [N, C] concentration parameters (nested, or flat with `options.numClasses`).
 * @param options `numClasses` for a flat typed array.
 * @returns `{ total, expectedData, mutualInformation }`, `Float64Array`s of N values in nats.
 * @throws {UMError} `UM_SHAPE`, `UM_EMPTY`, `UM_NOT_FINITE`, `UM_OPTION` (α ≤ 0 or bad numClasses). Any finite α > 0
 *   works: concentrations summing beyond float64 take their shares scaled by a power of two and ψ(α₀ + 1) = ln α₀;
 *   a share below float64's resolution counts 0 (0·ln 0 = 0).
 * @example
 * ```js
 * import { knowledgeUncertainty } from 'uncertainty-metrics';
 * // Dir(1, 1): p̄ = (½, ½), E[H(π)] = ½ nat
 * const u = knowledgeUncertainty([[1, 1]]);
 * [u.total[0], u.expectedData[0], u.mutualInformation[0]]; // ≈ [0.6931471806, 0.5, 0.1931471806]
 * ```
 */
export function knowledgeUncertainty(
  alphas: ScoreMatrix,
  options: { numClasses?: number } = {},
): UncertaintyDecomposition {
  checkOptions('knowledgeUncertainty', options, ['numClasses']);
  const fn = 'knowledgeUncertainty';
  let n: number;
  let c: number;
  let get: (i: number, k: number) => unknown;
  if (alphas instanceof Float64Array || alphas instanceof Float32Array) {
    const nc = options.numClasses;
    if (typeof nc !== 'number' || !Number.isInteger(nc) || nc < 2)
      fail('UM_OPTION', fn, 'options.numClasses', 'be an integer ≥ 2 for a flat array', { value: nc });
    if (alphas.length % nc !== 0)
      fail('UM_SHAPE', fn, 'alphas', `have a length that is a multiple of numClasses (${nc})`, {
        value: alphas.length,
      });
    c = nc;
    n = alphas.length / nc;
    get = (i, k) => alphas[i * nc + k];
  } else if (Array.isArray(alphas)) {
    n = alphas.length;
    const first: unknown = alphas[0];
    if (n > 0 && (first === null || typeof first !== 'object'))
      fail('UM_SHAPE', fn, 'alphas', 'be a matrix [N, C]', { index: [0], value: first });
    c = n > 0 ? (first as ArrayLike<unknown>).length : 0;
    if (n > 0 && c < 2) fail('UM_OPTION', fn, 'alphas[0].length', 'be an integer ≥ 2', { value: c });
    for (let i = 0; i < n; i++) {
      const row: unknown = alphas[i];
      if (row === null || typeof row !== 'object' || (row as ArrayLike<unknown>).length !== c)
        fail('UM_SHAPE', fn, 'alphas', `be a row of ${c} numbers`, { index: [i], value: row });
    }
    get = (i, k) => (alphas[i] as ArrayLike<unknown>)[k];
  } else {
    fail('UM_SHAPE', fn, 'alphas', 'be a number[][] or a flat typed array with numClasses', { value: alphas });
  }
  if (n === 0) fail('UM_EMPTY', fn, 'alphas', 'hold at least one row', { value: 0 });
  const total = new Float64Array(n);
  const expectedData = new Float64Array(n);
  const mutualInformation = new Float64Array(n);
  const row = new Float64Array(c);
  for (let i = 0; i < n; i++) {
    let a0 = 0;
    for (let k = 0; k < c; k++) {
      const a = get(i, k);
      if (typeof a !== 'number' || !Number.isFinite(a))
        fail('UM_NOT_FINITE', fn, 'alphas', 'be a finite number', { index: [i, k], value: a });
      if (a <= 0) fail('UM_OPTION', fn, 'alphas', 'be > 0 (Dirichlet concentration)', { index: [i, k], value: a });
      row[k] = a;
      a0 += a;
    }
    // concentrations summing beyond float64 (1e308 each): the shares from values scaled by a power of two, and
    // ψ(α0 + 1) = ln α0 + 1/(2α0) − … = ln α0 to float64's precision
    let scale = 1;
    let psi0: number;
    if (a0 === Infinity) {
      const e = exponentOf(maxAbs(row));
      a0 = 0;
      for (let k = 0; k < c; k++) a0 += timesPow2(row[k] as number, -e);
      scale = timesPow2(1, -e);
      psi0 = Math.log(a0) + e * Math.LN2;
    } else psi0 = digamma(a0 + 1);
    let t = 0;
    let d = 0;
    for (let k = 0; k < c; k++) {
      const a = row[k] as number;
      const pk = (scale === 1 ? a : a * scale) / a0;
      if (pk === 0) continue; // a share below float64's resolution: 0·ln 0 = 0
      t -= pk * Math.log(pk);
      d -= pk * (digamma(a + 1) - psi0);
    }
    total[i] = t;
    expectedData[i] = d;
    mutualInformation[i] = Math.max(0, t - d);
  }
  return { total, expectedData, mutualInformation };
}
