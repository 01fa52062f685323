import { INPUT_KEYS, checkOptions } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import type { Labels, Scores } from '../input/types.js';
import { emitWarning, type WarningOptions } from '../warnings/warnings.js';
import { rocArea } from '../selective/ranking.js';
import { sweep } from '../selective/sweep.js';
import { readTopBinning, topDataFor } from './applyTopBinning.js';
import { eorOf, hoeffding, type TopBinningParams } from './fitTopBinning.js';
import { binsByCuts, type TopScoreOptions } from './topScore.js';

/** One bin of a Top-k binning report on test data. */
export interface TopReportBin {
  /** Test samples in the bin. */
  readonly count: number;
  /** count / N. */
  readonly weight: number;
  /** Test frequency of the event p_b (`null` for an empty bin). */
  readonly frequency: number | null;
  /** The calibrator's probability p̂_b for the bin. */
  readonly probability: number;
  /** Hoeffding interval of the test frequency at δ (`null` for an empty bin). */
  readonly interval: readonly [number, number] | null;
}

/** A binary score decomposition: score = uncertainty − resolution + calibration. */
export interface TopDecomposition {
  readonly score: number;
  readonly uncertainty: number;
  readonly resolution: number;
  readonly calibration: number;
}

/** How a Top-k binning calibrator does on test data. */
export interface TopBinningReport {
  readonly n: number;
  readonly top: number;
  /** Test rate of the event p̄ (Top-k accuracy). */
  readonly accuracy: number;
  readonly bins: TopReportBin[];
  /** ECE between the test histogram and the calibrator: Σ_b w_b·|p_b − p̂_b| (Oberman et al., eq. 5). */
  readonly ece: number;
  /** EOR of the calibrated probabilities on the test weights: Σ_b w_b·OR(p̂_b, p̄); `null` if a p̂_b or p̄ is 0 or 1. */
  readonly eor: number | null;
  /** AUROC of the event against the calibrated probability (ties ½); `null` when the event is always or never true. */
  readonly auroc: number | null;
  /** Brier score of the calibrated probabilities and its decomposition (§5.1). */
  readonly brier: TopDecomposition;
  /** NLL (nats) of the calibrated probabilities and its decomposition (§5.1). */
  readonly nll: TopDecomposition;
  readonly delta: number;
}

const xlogy = (x: number, y: number) => (x === 0 ? 0 : x * Math.log(y));
/** Binary KL(p ‖ q) with 0·log 0 = 0. */
const kl = (p: number, q: number) => xlogy(p, p) - xlogy(p, q) + xlogy(1 - p, 1 - p) - xlogy(1 - p, 1 - q);

/**
 * Evaluates a Top-k binning calibrator on test data: per-bin test frequencies with Hoeffding intervals, the ECE
 * between test and calibration histograms, the expected odds ratio, AUROC, and the Brier and NLL decompositions.
 *
 * **Formula.** With test weights w_b, test frequencies p_b, calibrated p̂_b and p̄ = Σ w_b p_b:
 * ECE = Σ w_b |p_b − p̂_b| (eq. 5); EOR = Σ w_b OR(p̂_b, p̄);
 * BS = p̄(1 − p̄) − Σ w_b (p̄ − p_b)² + Σ w_b (p_b − p̂_b)²;
 * NLL = H(p̄) − Σ w_b KL(p_b ‖ p̄) + Σ w_b KL(p_b ‖ p̂_b) (§5.1; the paper writes KL(p, q) = −Σ q log(p/q)).
 *
 * **Conventions.**
 * - The decompositions add up exactly because the forecast is constant within a bin; natural logs; 0·log 0 = 0.
 * - Empty test bins have weight 0 and `null` frequency; the NLL is Infinity (with p̂_b of 0 or 1 where the event
 *   contradicts it) with a `UM_W_INFINITE` warning, which regularisation prevents.
 * - Hoeffding half-width √(ln(2/δ)/(2·count)) at `delta` (default: the calibrator's).
 *
 * **References.**
 * - Oberman, Finlay, Iannantuono & Salvador, eqs. 4–5, Definition 2, §5.1.
 * - Murphy, "A new vector partition of the probability score", J. Appl. Meteorology 12 (1973),
 *   doi:10.1175/1520-0450(1973)012<0595:ANVPOT>2.0.CO;2.
 *
 * @param params from {@link fitTopBinning} or {@link parseCalibrator}.
 * @param labels N integer labels of test data.
 * @param scores [N, C] scores of the declared kind.
 * @param options `delta`, `score` values (when fitted on values), input options and `onWarning`.
 * @returns a {@link TopBinningReport}.
 * @throws {UMError} `UM_CALIBRATOR` for bad parameters or mismatched data; input errors as every metric.
 * @example
 * ```js
 * import { fitTopBinning, topBinningReport } from 'uncertainty-metrics';
 * const probs = [[0.9, 0.1], [0.8, 0.2], [0.7, 0.3], [0.6, 0.4]];
 * const t = fitTopBinning([0, 0, 1, 0], probs, { bins: 2, regularize: false });
 * const r = topBinningReport(t, [0, 0, 1, 0], probs);
 * [r.ece, r.brier.score, r.brier.uncertainty - r.brier.resolution + r.brier.calibration]; // => [0, 0.125, 0.125]
 * ```
 */
export function topBinningReport(
  params: TopBinningParams,
  labels: Labels,
  scores: Scores,
  options: Omit<TopScoreOptions, 'top'> & { delta?: number } & WarningOptions = {},
): TopBinningReport {
  const fn = 'topBinningReport';
  const t = readTopBinning(fn, params);
  checkOptions(fn, options, INPUT_KEYS, ['score', 'delta', 'onWarning']);
  const { delta = t.delta, onWarning: _w, ...rest } = options;
  if (typeof delta !== 'number' || !(delta > 0 && delta < 1))
    fail('UM_OPTION', fn, 'options.delta', 'be a number in (0, 1)', { value: delta });
  // labels are optional where calibrators are applied, not here (undefined labels threw a TypeError)
  if (labels === undefined)
    fail('UM_SHAPE', fn, 'labels', 'be an array of integer class labels (a report needs them)', { value: labels });
  const d = topDataFor(fn, t, labels, scores, rest);
  const event = d.event as Uint8Array;
  const bin = binsByCuts(t.cuts, d.score);
  const B = t.bins.length;
  const count = new Array<number>(B).fill(0);
  const hits = new Array<number>(B).fill(0);
  let total = 0;
  for (let i = 0; i < d.n; i++) {
    const b = bin[i] as number;
    count[b] = (count[b] as number) + 1;
    hits[b] = (hits[b] as number) + (event[i] as number);
    total += event[i] as number;
  }
  const n = d.n;
  const mean = total / n;
  const forecast = t.bins.map((b) => b.probability);
  let ece = 0;
  let bRes = 0;
  let bCal = 0;
  let lRes = 0;
  let lCal = 0;
  const bins: TopReportBin[] = count.map((c, b) => {
    const q = forecast[b] as number;
    if (c === 0) return { count: 0, weight: 0, frequency: null, probability: q, interval: null };
    const w = c / n;
    const f = (hits[b] as number) / c;
    ece += w * Math.abs(f - q);
    bRes += w * (mean - f) ** 2;
    bCal += w * (f - q) ** 2;
    lRes += w * kl(f, mean);
    lCal += w * kl(f, q);
    const eps = hoeffding(delta, c);
    return {
      count: c,
      weight: w,
      frequency: f,
      probability: q,
      interval: [Math.max(0, f - eps), Math.min(1, f + eps)] as const,
    };
  });
  let brierScore = 0;
  let nllScore = 0;
  const p = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const q = forecast[bin[i] as number] as number;
    p[i] = q;
    const e = event[i] as number;
    brierScore += (q - e) ** 2;
    nllScore -= e === 1 ? Math.log(q) : Math.log(1 - q);
  }
  if (nllScore === Infinity) {
    emitWarning(options, {
      code: 'UM_W_INFINITE',
      fn,
      message: `${fn}: a bin's calibrated probability is exactly 0 or 1 where a test example contradicts it; the NLL is Infinity (fit with regularize: true to avoid it)`,
    });
  }
  const entropy = -(xlogy(mean, mean) + xlogy(1 - mean, 1 - mean));
  const auroc =
    total === 0 || total === n
      ? null
      : rocArea(fn, sweep(p, event), { argument: 'labels', positives: 'events', negatives: 'non-events' });
  return {
    n,
    top: t.top,
    accuracy: mean,
    bins,
    ece,
    eor: eorOf(forecast, count, mean),
    auroc,
    brier: { score: brierScore / n, uncertainty: mean * (1 - mean), resolution: bRes, calibration: bCal },
    nll: { score: nllScore / n, uncertainty: entropy, resolution: lRes, calibration: lCal },
    delta,
  };
}
