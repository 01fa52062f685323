import { checkCount } from '../errors/checkCount.js';
import { dingBins } from './dingBins.js';
import { distinctBins } from './distinctBins.js';
import { edgeBins } from './edgeBins.js';
import { equalMassBins } from './equalMass.js';
import { equalWidthBins } from './equalWidth.js';
import { fail } from '../errors/fail.js';
import type { BinAssignment, BinningSpec } from './types.js';

function oneOf(fn: string, argument: string, value: unknown, allowed: readonly string[]): void {
  if (typeof value !== 'string' || !allowed.includes(value)) {
    fail('UM_OPTION', fn, argument, `be one of ${allowed.map((a) => `'${a}'`).join(', ')}`, { value });
  }
}

/** Validates a binning spec given directly by a caller (resolved specs from options are valid by construction). */
function checkSpec(fn: string, spec: BinningSpec): void {
  if (spec === null || typeof spec !== 'object')
    fail('UM_OPTION', fn, 'spec', 'be a binning spec object', { value: spec });
  oneOf(fn, 'spec.scheme', spec.scheme, ['equal-width', 'equal-mass', 'ding', 'distinct', 'edges']);
  if (spec.scheme === 'equal-width' || spec.scheme === 'equal-mass') {
    checkCount(fn, 'spec.bins', spec.bins);
  }
  if (spec.scheme === 'equal-width') {
    const r = spec.rule;
    if (r === null || typeof r !== 'object')
      fail('UM_OPTION', fn, 'spec.rule', 'be an equal-width rule object', { value: r });
    oneOf(fn, 'spec.rule.index', r.index, ['floor', 'divide', 'edges']);
    oneOf(fn, 'spec.rule.edges', r.edges, ['exact', 'numpy', 'torch']);
    oneOf(fn, 'spec.rule.closed', r.closed, ['left', 'right']);
    oneOf(fn, 'spec.rule.one', r.one, ['last-bin', 'own-bin']);
    oneOf(fn, 'spec.precision', spec.precision, ['float64', 'float32']);
    if (r.index === 'edges' && r.closed === 'right' && r.one === 'own-bin') {
      fail('UM_OPTION', fn, 'spec.rule.one', `be 'last-bin' with right-closed bins`, { value: r.one });
    }
  } else if (spec.scheme === 'equal-mass') {
    oneOf(fn, 'spec.method', spec.method, [
      'quantile',
      'uncertainty-metrics',
      'verified-calibration',
      'netcal',
      'sklearn',
    ]);
  } else if (spec.scheme === 'distinct') {
    // nothing to check
  } else if (spec.scheme === 'ding') {
    const d = spec.ding;
    if (d === null || typeof d !== 'object')
      fail('UM_OPTION', fn, 'spec.ding', 'be an object { z, minRemaining, minGap }', { value: d });
    for (const key of ['z', 'minRemaining', 'minGap'] as const) {
      const v = d[key];
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || (key === 'z' && v === 0)) {
        fail('UM_OPTION', fn, `spec.ding.${key}`, key === 'z' ? 'be a finite number > 0' : 'be a finite number ≥ 0', {
          value: v,
        });
      }
    }
  } else {
    const e = spec.edges;
    if (!Array.isArray(e) || e.length < 2)
      fail('UM_OPTION', fn, 'spec.edges', 'be an array of at least 2 increasing numbers', { value: e });
    for (let i = 0; i < e.length; i++) {
      const v: unknown = e[i];
      if (typeof v !== 'number' || !Number.isFinite(v) || (i > 0 && v <= (e[i - 1] as number))) {
        fail('UM_OPTION', fn, 'spec.edges', 'be finite and strictly increasing', { index: [i], value: v });
      }
    }
    oneOf(fn, 'spec.closed', spec.closed, ['left', 'right']);
  }
}

/**
 * {@link assignBins} naming the public function `fn` in error messages (internal). `weights` (all > 0, of scale
 * `unit`: a weight w stands for w·unit) move the data-dependent cuts (equal-mass `'quantile'`, Ding) as if each
 * sample were repeated w times; the peers' equal-mass constructions have no weighted form and are rejected.
 */
export function assignBinsFor(
  fn: string,
  scores: ArrayLike<number>,
  spec: BinningSpec,
  weights?: ArrayLike<number>,
  ascending?: Uint32Array,
  unit = 1,
): BinAssignment {
  switch (spec.scheme) {
    case 'equal-width':
      return equalWidthBins(scores, spec.bins, spec.rule, spec.precision);
    case 'equal-mass':
      if (weights !== undefined && spec.method !== 'quantile') {
        fail(
          'UM_OPTION',
          fn,
          'options.weights',
          `not be given with equal-mass construction '${spec.method}' (a peer's, which has no weighted form; this library's 'quantile' has one)`,
        );
      }
      return equalMassBins(scores, spec.bins, spec.method, weights, ascending, unit);
    case 'ding':
      return dingBins(scores, spec.ding, weights, unit);
    case 'distinct':
      return distinctBins(scores);
    case 'edges':
      return edgeBins(fn, scores, spec.edges, spec.closed);
  }
}

/**
 * Assigns every score to exactly one bin under a resolved binning scheme. This is the one binning core behind every
 * binned metric, reliability table and diagram.
 *
 * **Formula.** equal-width `'floor'`: b = min(⌊B·p⌋, B − 1) (or B for an own bin); `'divide'`: trunc(p/(1/B));
 * `'edges'`: b = #{k ≥ 1 : e_k ≤ p} (left-closed) or #{1 ≤ k < B : e_k < p} (right-closed); equal-mass and Ding
 * bins are cut from the sorted scores (see `EqualMassMethod`, `DingOptions`); `'distinct'` gives every distinct score
 * its own bin (for discrete model outputs, e.g. after histogram binning).
 *
 * **Conventions.**
 * - Every sample lands in exactly one bin; `index[i]` is in [0, numBins).
 * - Equal-width `'floor'` with `one: 'last-bin'` (our default) puts p = 1 in the last bin and p = 0 in the first,
 *   evaluated in float64.
 * - `precision: 'float32'` evaluates the equal-width rule in float32 arithmetic, as TensorFlow and torchmetrics do.
 * - Data-dependent schemes describe their bins by the data: `lower`/`upper` are the smallest/largest score or the
 *   midpoint between neighbouring groups.
 * - User-given edges must cover every score; `closed` decides which bin a score on an inner edge joins.
 *
 * **References.**
 * - Naeini, Cooper & Hauskrecht, "Obtaining Well Calibrated Probabilities Using Bayesian Binning", AAAI 2015,
 *   doi:10.1609/aaai.v29i1.9602 (equal-width binning for ECE).
 * - Nixon et al., "Measuring Calibration in Deep Learning", CVPR Workshops 2019, arXiv:1904.01685 (equal-mass bins).
 * - Ding, Liu, Xiong & Shi, "Revisiting the Evaluation of Uncertainty Estimation and Its Application to Explore Model
 *   Complexity-Uncertainty Trade-Off", CVPR Workshops 2020, arXiv:1903.02050 (adaptive binning).
 *
 * @param scores the scores to bin (confidences, uncertainties, or any probabilities), length N ≥ 1.
 * @param spec a resolved binning scheme.
 * @returns `{ numBins, lower, upper, index }`.
 * @throws {UMError} `UM_OPTION` for an invalid spec, `UM_EMPTY` for no scores, `UM_NOT_FINITE` for a NaN or
 *   infinite score, `UM_OUT_OF_BINS` for an equal-width score outside [0, 1] or a score outside user-given edges.
 * @example
 * ```js
 * import { assignBins } from 'uncertainty-metrics';
 * const rule = { index: 'floor', edges: 'exact', closed: 'left', one: 'last-bin' };
 * const a = assignBins([0, 0.3, 0.5, 1], { scheme: 'equal-width', bins: 2, rule, precision: 'float64' });
 * Array.from(a.index); // => [0, 0, 1, 1]
 * ```
 */
export function assignBins(scores: ArrayLike<number>, spec: BinningSpec): BinAssignment {
  const fn = 'assignBins';
  checkSpec(fn, spec);
  if (scores === null || typeof scores !== 'object' || typeof scores.length !== 'number') {
    fail('UM_SHAPE', fn, 'scores', 'be an array of numbers', { value: scores });
  }
  if (scores.length === 0) fail('UM_EMPTY', fn, 'scores', 'hold at least one score', { value: 0 });
  for (let i = 0; i < scores.length; i++) {
    const v: unknown = scores[i];
    if (typeof v !== 'number' || !Number.isFinite(v))
      fail('UM_NOT_FINITE', fn, 'scores', 'be a finite number', { index: [i], value: v });
    if (spec.scheme === 'equal-width' && (v < 0 || v > 1)) {
      fail('UM_OUT_OF_BINS', fn, 'scores', 'be in [0, 1] for equal-width bins', { index: [i], value: v });
    }
  }
  return assignBinsFor(fn, scores, spec);
}
