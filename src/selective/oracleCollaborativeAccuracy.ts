import { assignBinsFor } from '../binning/assignBins.js';
import { presetOf, resolveBinning } from '../options/binning.js';
import { checkOptions } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import type { Labels, Scores } from '../input/types.js';
import type { PresetName } from '../presets/presets.js';
import { expectedErrorsAt } from './riskCore.js';
import { SELECTIVE_KEYS, selectiveInput, sweepOf, unitMeasure } from './selectiveInput.js';
import type { SelectiveOptions } from './types.js';

/** Options of {@link oracleCollaborativeAccuracy}. */
export interface OracleCollaborativeOptions extends SelectiveOptions {
  /** Share of the predictions referred to the oracle, in [0, 1] (default 0.01). */
  fraction?: number;
  /**
   * Refer by equal-width bins of the measure, as uncertainty_metrics does (its default: 100), instead of
   * example by example. The measure must lie in [0, 1].
   */
  bins?: number;
  /**
   * Equal-width rule and precision of the bins (default `'default'`): the preset's `oracleBins` — both
   * uncertainty-metrics presets give Keras' ⌊B·p⌋ in float32 (its `OracleCollaborativeAccuracy` is a Keras metric).
   */
  preset?: PresetName;
}

/**
 * Oracle-collaborative accuracy: the accuracy of a model that refers its least confident predictions to an oracle
 * (a human moderator who is always right) — how useful its uncertainty is for sharing work with people.
 *
 * **Formula.** m = ⌊N·fraction⌋ referred; exact: OCA = (m + Σ_{kept} 1[ŷ_i = y_i])/N = 1 − err̄(N − m)/N, with
 * err̄(k) the errors among the k most confident. Binned (`bins`): bins are referred from the least confident; the
 * bin f the quota ends in contributes r referred examples and its accuracy times the rest:
 * OCA = (m + acc_f·(n_f − r) + Σ_{b after f} correct_b)/N.
 *
 * **Conventions.**
 * - Exact by default: referral follows the ranking example by example; a tied block cut by the quota contributes
 *   its accuracy times the share kept (the expectation over orders).
 * - `bins` reproduces uncertainty_metrics' `OracleCollaborativeAccuracy` (equal-width bins of the measure through
 *   the shared binning core, rule from the preset's `oracleBins`: Keras' ⌊B·p⌋ in float32 for both
 *   uncertainty-metrics presets); referral runs from the lowest bins for confidences and from the
 *   highest for uncertainties.
 * - Correctness by top label (or P(y = 1) > `decisionThreshold`); ranking by `by` (default `'max-prob'`, or
 *   `'threshold-distance'` |P(y = 1) − t| for a threshold t ≠ 0.5, as uncertainty_metrics).
 *
 * **References.**
 * - Kivlichan, Lin, Liu & Vasserman, "Measuring and Improving Model-Moderator Collaboration using Uncertainty
 *   Estimation", WOAH 2021, arXiv:2107.04212.
 * - google/uncertainty-metrics `OracleCollaborativeAccuracy`.
 *
 * @param labels N integer labels.
 * @param scores [N, C] scores of the declared kind (or predicted classes with `input: 'predicted'`).
 * @param options `fraction` (default 0.01), `bins`, `preset`, `by`, `decisionThreshold` and input options.
 * @returns the collaborative accuracy in [0, 1].
 * @throws {UMError} on invalid input or options; `UM_OUT_OF_BINS` when binning a measure outside [0, 1].
 * @example
 * ```js
 * import { oracleCollaborativeAccuracy } from 'uncertainty-metrics';
 * // uncertainty_metrics' test: 8 binary predictions, 10 bins, 40 % referred
 * const p = [0.51, 0.45, 0.39, 0.66, 0.68, 0.29, 0.81, 0.85];
 * oracleCollaborativeAccuracy([0, 0, 0, 1, 0, 1, 1, 1], p, { binary: true, fraction: 0.4, bins: 10 }); // ≈ 0.7916666667
 * ```
 */
export function oracleCollaborativeAccuracy(
  labels: Labels,
  scores: Scores,
  options: OracleCollaborativeOptions = {},
): number {
  const fn = 'oracleCollaborativeAccuracy';
  checkOptions(fn, options, SELECTIVE_KEYS, ['fraction', 'bins', 'preset']);
  const { fraction = 0.01, bins, preset, ...rest } = options;
  if (typeof fraction !== 'number' || !(fraction >= 0 && fraction <= 1))
    fail('UM_OPTION', fn, 'options.fraction', 'be a number in [0, 1]', { value: fraction });
  const peer = preset === undefined ? undefined : presetOf(fn, preset);
  if (bins === undefined && preset !== undefined)
    fail('UM_OPTION', fn, 'options.preset', 'be given only with bins (it sets their rule)', { value: preset });
  const d = selectiveInput(fn, labels, scores, rest, true);
  const s = sweepOf(d);
  const n = s.n;
  // whole predictions referred: m = ⌊f·N⌋ (in the weights' units; beyond 2^53 predictions, f·N)
  const m = (s.unit ?? 1) === 1 && n <= 2 ** 53 ? Math.floor(n * fraction) : n * fraction;
  if (bins === undefined) return 1 - expectedErrorsAt(s, n - m) / n;
  // the peer's OracleCollaborativeAccuracy bins (Keras' ⌊B·p⌋ in float32 for uncertainty_metrics), not its ECE's
  const { spec } = resolveBinning(
    fn,
    {
      bins,
      ...(peer === undefined
        ? {}
        : { preset: peer.name, equalWidth: peer.oracleBins.equalWidth, precision: peer.oracleBins.precision }),
    },
    'equal-width',
  );
  const measure = unitMeasure(fn, d, 'equal-width bins (options.bins)');
  const a = assignBinsFor(fn, measure, spec);
  const count = new Float64Array(a.numBins);
  const correct = new Float64Array(a.numBins);
  for (let i = 0; i < d.n; i++) {
    const b = a.index[i] as number;
    const w = d.weights === undefined ? 1 : (d.weights[i] as number);
    count[b] = (count[b] as number) + w;
    correct[b] = (correct[b] as number) + w * (d.correct[i] as number);
  }
  if (m >= n) return 1;
  let used = 0;
  let total = m;
  let quotaOpen = true;
  for (let j = 0; j < a.numBins; j++) {
    const b = d.sign === 1 ? j : a.numBins - 1 - j;
    const c = count[b] as number;
    if (c === 0) continue;
    if (!quotaOpen) total += correct[b] as number;
    else if (used + c > m) {
      const r = m - used;
      total += ((correct[b] as number) / c) * (c - r);
      quotaOpen = false;
    } else used += c;
  }
  return total / n;
}
