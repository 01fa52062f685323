import { fail } from '../errors/fail.js';
import { rowStatsOf } from '../kernels/rowStats.js';
import { labelArray } from '../input/labelArray.js';
import { probMatrix } from '../input/probMatrix.js';
import type { InputOptions, Labels, ProbMatrix, Scores } from '../input/types.js';
import { presetOf } from '../options/binning.js';
import type { BrierForm, PresetName } from '../presets/presets.js';
import { INPUT_KEYS, checkOptions } from '../errors/checkOptions.js';

/** Options of {@link brier} and {@link brierPerExample}. */
export interface BrierOptions extends InputOptions {
  /** Scale of the score (default: the preset's, `'standard'`). */
  form?: BrierForm;
  /** Compatibility preset (`'uncertainty-metrics'` → `'minus-one'`, `'sklearn'` → `'half-if-binary'`, `'verified-calibration'` → `'half'`). */
  preset?: PresetName;
}

const FORMS: readonly BrierForm[] = ['standard', 'half', 'minus-one', 'half-if-binary'];

/** Resolves the Brier form (internal). */
export function resolveBrierForm(fn: string, options: BrierOptions): BrierForm {
  const form = options.form ?? presetOf(fn, options.preset).brier;
  if (!FORMS.includes(form))
    fail('UM_OPTION', fn, 'options.form', `be one of ${FORMS.map((f) => `'${f}'`).join(', ')}`, { value: form });
  return form;
}

/** Per-example Brier scores of validated probabilities (internal kernel). */
export function brierRows(p: ProbMatrix, labels: Int32Array, form: BrierForm): Float64Array {
  const { data, n, numClasses: c } = p;
  const sq = rowStatsOf(p, 1).sumSq as Float64Array;
  const out = new Float64Array(n);
  const half = form === 'half' || (form === 'half-if-binary' && c < 3);
  for (let i = 0, o = 0; i < n; i++, o += c) {
    const y = labels[i] as number;
    // Σ p² comes from the fused row pass. 'minus-one' (uncertainty_metrics) is Σ p² − 2·p_y; the others
    // Σ_{k≠y} p_k² + (1 − p_y)², the first term as max(0, Σ p² − p_y²), so a confident correct row never goes negative.
    const py = data[o + y] as number;
    const total = sq[i] as number;
    if (form === 'minus-one') out[i] = total - 2 * py;
    else {
      const s = Math.max(0, total - py * py) + (1 - py) * (1 - py);
      out[i] = half ? s / 2 : s;
    }
  }
  return out;
}

/**
 * Brier score of each example: the squared distance between the predicted distribution and the one-hot label.
 *
 * **Formula.** BS_i = Σ_k (p_ik − 1[y_i = k])² (form `'standard'`, ∈ [0, 2]); `'half'`: BS_i/2; `'minus-one'`:
 * BS_i − 1 = Σ_k p_ik² − 2·p_{i,y_i} (uncertainty_metrics); `'half-if-binary'`: BS_i/2 when C = 2.
 *
 * **Conventions.**
 * - Every class counts (not only the top label); use {@link binaryBrier} for the Brier score of one event.
 * - Accumulated in float64. Σ_k p_k² comes from the fused row pass shared by every metric of a call, so a per-example
 *   score may differ from the textbook loop by rounding: at most (C + 2)·2⁻⁵² (test/scores/brierPerExample.test.ts).
 *
 * **References.**
 * - Brier, "Verification of Forecasts Expressed in Terms of Probability", Monthly Weather Review 1950,
 *   doi:10.1175/1520-0493(1950)078<0001:VOFEIT>2.0.CO;2.
 * - Gneiting & Raftery, "Strictly Proper Scoring Rules, Prediction, and Estimation", JASA 2007,
 *   doi:10.1198/016214506000001437.
 *
 * @param labels N integer labels in [0, C).
 * @param scores [N, C] scores of the declared kind.
 * @param options `form`, `preset` and input options.
 * @returns `Float64Array` of N scores.
 * @throws {UMError} on invalid input or options.
 * @example
 * ```js
 * import { brierPerExample } from 'uncertainty-metrics';
 * // (0.9 − 1)² + 0.1² = 0.02;  0.6² + (0.4 − 1)² = 0.72
 * Array.from(brierPerExample([0, 1], [[0.9, 0.1], [0.6, 0.4]])); // => [0.02, 0.72]
 * ```
 */
export function brierPerExample(labels: Labels, scores: Scores, options: BrierOptions = {}): Float64Array {
  checkOptions('brierPerExample', options, INPUT_KEYS, ['form', 'preset']);
  const fn = 'brierPerExample';
  const form = resolveBrierForm(fn, options);
  const p = probMatrix(fn, scores, options, 1);
  return brierRows(p, labelArray(fn, labels, p.n, p.numClasses), form);
}
