import { presetOf } from '../options/binning.js';
import { atPrecision } from '../select/precision.js';
import { fail } from '../errors/fail.js';
import { labelArray } from '../input/labelArray.js';
import { probMatrix } from '../input/probMatrix.js';
import { logProbAccess } from '../input/logRows.js';
import type { InputOptions, Labels, ProbMatrix, Scores } from '../input/types.js';
import type { Precision } from '../binning/types.js';
import type { PresetName } from '../presets/presets.js';
import { emitWarning, type WarningOptions } from '../warnings/warnings.js';
import { INPUT_KEYS, checkOptions } from '../errors/checkOptions.js';

/** Options of {@link nll} and {@link nllPerExample}. */
export interface NllOptions extends InputOptions, WarningOptions {
  /**
   * Clip every probability to [clip, 1 − clip] before the log; `'machine-epsilon'` uses the input precision's
   * epsilon (2⁻⁵² for float64, 2⁻²³ for float32), as scikit-learn; `null` (default) never clips.
   */
  clip?: number | 'machine-epsilon' | null;
  /** Divide each clipped row by its sum before the log (scikit-learn ≤ 1.4). Default false. */
  renormalize?: boolean;
  /** `'float32'` rounds probabilities to float32 first (float32 peers such as `torch.log` on float32 tensors). */
  precision?: Precision;
  /** Compatibility preset (`'sklearn'`: clip at machine epsilon). */
  preset?: PresetName;
}

/** Resolved NLL conventions (internal). */
export interface NllConfig {
  clip: number | null;
  renormalize: boolean;
  precision: Precision;
}

/** NLL options resolved from the options alone: `'machine-epsilon'` becomes a number per batch, from its precision. */
export interface NllSettings {
  clip: number | null | 'machine-epsilon';
  renormalize: boolean;
  precision: Precision;
}

/** Resolves NLL options (presets applied) without the data (internal). */
export function resolveNllOptions(fn: string, options: NllOptions): NllSettings {
  const base = presetOf(fn, options.preset).nll;
  const precision = options.precision ?? 'float64';
  if (precision !== 'float64' && precision !== 'float32')
    fail('UM_OPTION', fn, 'options.precision', `be 'float64' or 'float32'`, { value: precision });
  const rawClip = options.clip === undefined ? base.clip : options.clip;
  if (!(
    rawClip === 'machine-epsilon' ||
    rawClip === null ||
    (typeof rawClip === 'number' && rawClip >= 0 && rawClip < 0.5)
  )) {
    fail('UM_OPTION', fn, 'options.clip', `be a number in [0, 0.5), 'machine-epsilon' or null`, { value: rawClip });
  }
  const renormalize = options.renormalize ?? base.renormalize;
  if (typeof renormalize !== 'boolean')
    fail('UM_OPTION', fn, 'options.renormalize', 'be true or false', { value: renormalize });
  return { clip: rawClip, renormalize, precision };
}

/** Resolves NLL options against the input's precision (internal). */
export function resolveNll(fn: string, options: NllOptions, p: ProbMatrix): NllConfig {
  return concreteNll(resolveNllOptions(fn, options), p);
}

/** The clip of settings for data `p`: machine epsilon of float32 data or precision, of float64 otherwise. */
export function concreteNll(s: NllSettings, p: ProbMatrix): NllConfig {
  const clip =
    s.clip === 'machine-epsilon'
      ? s.precision === 'float32' || p.data instanceof Float32Array
        ? 2 ** -23
        : Number.EPSILON
      : s.clip;
  return { clip, renormalize: s.renormalize, precision: s.precision };
}

/** Per-example negative log-likelihoods (internal kernel); warns once when some are infinite. */
export function nllRows(
  fn: string,
  p0: ProbMatrix,
  labels: Int32Array,
  settings: NllConfig | NllSettings,
  options: WarningOptions,
): Float64Array {
  const cfg = concreteNll(settings, p0);
  const p = atPrecision(p0, cfg.precision);
  const { data, n, numClasses: c } = p;
  // ln p from logits or log-probabilities (an N × C array, or the engine's compact rows: input/logRows.ts)
  const logProb = logProbAccess(p);
  const out = new Float64Array(n);
  const lo = cfg.clip ?? 0;
  const hi = cfg.clip === null ? 1 : 1 - cfg.clip;
  let infinite = 0;
  let first = -1;
  for (let i = 0, o = 0; i < n; i++, o += c) {
    const y = labels[i] as number;
    let v: number;
    if (cfg.renormalize) {
      let sum = 0;
      for (let k = 0; k < c; k++) sum += Math.min(Math.max(data[o + k] as number, lo), hi);
      v = -Math.log(Math.min(Math.max(data[o + y] as number, lo), hi) / sum);
    } else if (cfg.clip !== null) {
      v = -Math.log(Math.min(Math.max(data[o + y] as number, lo), hi));
    } else if (logProb !== undefined) {
      v = -logProb(i, y);
    } else {
      v = -Math.log(data[o + y] as number);
    }
    if (v === Infinity) {
      infinite++;
      if (first < 0) first = i;
    }
    out[i] = v;
  }
  if (infinite > 0) {
    emitWarning(options, {
      code: 'UM_W_INFINITE',
      fn,
      message: `${fn}: ${infinite} of ${n} rows give probability exactly 0 to their label (first: row ${first}); the NLL is Infinity — pass clip to bound it`,
      details: { rows: infinite, first },
    });
  }
  return out;
}

/**
 * Negative log-likelihood of each example's label.
 *
 * **Formula.** NLL_i = −ln p_{i,y_i}; from logits, −ln softmax(z_i)\_{y_i} = LSE(z_i) − z_{i,y_i} without
 * exponentiating; with `clip = ε`: −ln min(max(p_{i,y_i}, ε), 1 − ε); with `renormalize`, the clipped row is divided
 * by its sum first.
 *
 * **Conventions.**
 * - Natural logarithm (nats).
 * - No clipping by default: a label with probability exactly 0 gives +Infinity and a `UM_W_INFINITE` warning.
 * - Logit and log-probability inputs keep their exact log-probabilities (no underflow to −Infinity).
 *
 * **References.**
 * - Good, "Rational Decisions", J. R. Stat. Soc. B 1952, doi:10.1111/j.2517-6161.1952.tb00104.x (logarithmic score).
 * - Gneiting & Raftery, JASA 2007, doi:10.1198/016214506000001437.
 *
 * @param labels N integer labels in [0, C).
 * @param scores [N, C] scores of the declared kind.
 * @param options `clip`, `renormalize`, `precision`, `preset`, `onWarning` and input options.
 * @returns `Float64Array` of N values in [0, ∞].
 * @throws {UMError} on invalid input or options.
 * @example
 * ```js
 * import { nllPerExample } from 'uncertainty-metrics';
 * Array.from(nllPerExample([0, 1], [[0.5, 0.5], [0.9, 0.1]])); // ≈ [0.6931471806, 2.302585093]
 * ```
 */
export function nllPerExample(labels: Labels, scores: Scores, options: NllOptions = {}): Float64Array {
  checkOptions('nllPerExample', options, INPUT_KEYS, ['clip', 'renormalize', 'precision', 'preset', 'onWarning']);
  const fn = 'nllPerExample';
  const p = probMatrix(fn, scores, options);
  const cfg = resolveNll(fn, options, p);
  return nllRows(fn, p, labelArray(fn, labels, p.n, p.numClasses), cfg, options);
}
