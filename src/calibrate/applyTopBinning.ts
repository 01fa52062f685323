import { INPUT_KEYS, checkOptions } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import type { Scores } from '../input/types.js';
import { topLabel } from '../measures/topLabel.js';
import type { TopBin, TopBinningParams } from './fitTopBinning.js';
import { booleanField, checkClasses, field, numberField, numbersField, readHeader, wholeField } from './params.js';
import { TOP_SCORES, binsByCuts, topData, type TopData, type TopScoreName, type TopScoreOptions } from './topScore.js';

/** Validates Top-k binning parameters (internal; shared with parseCalibrator). */
export function readTopBinning(fn: string, params: unknown): TopBinningParams {
  const h = readHeader(fn, params, 'top-binning');
  const score = field(params, 'score');
  if (score !== 'given' && !TOP_SCORES.includes(score as never))
    fail('UM_CALIBRATOR', fn, 'params.score', `be one of ${TOP_SCORES.map((s) => `'${s}'`).join(', ')}, 'given'`, {
      value: score,
    });
  const direction = field(params, 'direction');
  if (direction !== 'confidence' && direction !== 'uncertainty')
    fail('UM_CALIBRATOR', fn, 'params.direction', "be 'confidence' or 'uncertainty'", { value: direction });
  if (score !== 'given') {
    // a named score has one direction; a mismatch would only surface later as a confusing score error
    const own = score === 'max-prob' || score === 'margin' ? 'confidence' : 'uncertainty';
    if (direction !== own)
      fail('UM_CALIBRATOR', fn, 'params.direction', `be '${own}' (the direction of the '${String(score)}' score)`, {
        value: direction,
      });
  }
  const top = numberField(
    fn,
    params,
    'params',
    'top',
    (v) => Number.isInteger(v) && v >= 1 && v < h.fittedOn.numClasses,
    'be an integer in [1, C)',
  );
  const cuts = numbersField(fn, params, 'params', 'cuts');
  cuts.forEach((c, i) => {
    if (i > 0 && c <= (cuts[i - 1] as number))
      fail('UM_CALIBRATOR', fn, 'params.cuts', 'increase strictly', { index: [i], value: c });
  });
  const list = field(params, 'bins');
  if (!Array.isArray(list) || list.length !== cuts.length + 1)
    fail('UM_CALIBRATOR', fn, 'params.bins', `be an array of ${cuts.length + 1} bins (one more than cuts)`, {
      value: list,
    });
  let total = 0;
  const bins: TopBin[] = Array.from(list, (b: unknown, j) => {
    const path = `params.bins[${j}]`;
    const count = wholeField(fn, b, path, 'count', 1);
    const hits = wholeField(fn, b, path, 'hits', 0, count);
    const probability = numberField(fn, b, path, 'probability', (v) => v >= 0 && v <= 1, 'be a probability in [0, 1]');
    const interval = numbersField(fn, b, path, 'interval', 2) as unknown as readonly [number, number];
    const freq = hits / count;
    if (!(interval[0] >= 0 && interval[0] <= freq && freq <= interval[1] && interval[1] <= 1)) {
      fail('UM_CALIBRATOR', fn, `${path}.interval`, `be [lo, hi] with 0 ≤ lo ≤ hits/count = ${freq} ≤ hi ≤ 1`, {
        value: interval,
      });
    }
    const range = numbersField(fn, b, path, 'range', 2) as unknown as readonly [number, number];
    // bins in score order: bin j holds the scores s with cuts[j − 1] ≤ s < cuts[j]
    const from = j === 0 ? -Infinity : (cuts[j - 1] as number);
    const to = j === cuts.length ? Infinity : (cuts[j] as number);
    if (!(range[0] <= range[1] && range[0] >= from && range[1] < to)) {
      fail(
        'UM_CALIBRATOR',
        fn,
        `${path}.range`,
        `be [lo, hi] with ${j === 0 ? '' : `cuts[${j - 1}] = ${from} ≤ `}lo ≤ hi${j === cuts.length ? '' : ` < cuts[${j}] = ${to}`} (bins in score order)`,
        {
          value: range,
        },
      );
    }
    total += count;
    return { count, hits, probability, interval, range };
  });
  if (total !== h.fittedOn.n)
    fail('UM_CALIBRATOR', fn, 'params.bins', `hold fittedOn.n = ${h.fittedOn.n} examples in all`, {
      value: `${total} examples`,
    });
  const accuracy = numberField(fn, params, 'params', 'accuracy', (v) => v >= 0 && v <= 1, 'be a probability in [0, 1]');
  const regularized = booleanField(fn, params, 'params', 'regularized');
  const delta = numberField(fn, params, 'params', 'delta', (v) => v > 0 && v < 1, 'be a number in (0, 1)');
  const eor = field(params, 'eor');
  // EOR is a weighted mean of odds ratios ≥ 1 (≥ 1 up to the rounding of the weights)
  if (eor !== null && (typeof eor !== 'number' || !Number.isFinite(eor) || !(eor >= 1 - 1e-12)))
    fail('UM_CALIBRATOR', fn, 'params.eor', 'be a finite number ≥ 1 or null', { value: eor });
  return {
    ...h,
    score: score as TopScoreName,
    direction,
    top,
    cuts,
    bins,
    accuracy,
    regularized,
    delta,
    eor: eor as number | null,
  };
}

/** Validates new scores against a calibrator and computes their score (internal). */
export function topDataFor(
  fn: string,
  t: TopBinningParams,
  labels: ArrayLike<number> | undefined,
  scores: Scores,
  options: Omit<TopScoreOptions, 'top'>,
): TopData {
  const given = options.score;
  if (t.score !== 'given' && given !== undefined && given !== t.score) {
    fail(
      'UM_CALIBRATOR',
      fn,
      'options.score',
      `be omitted or '${t.score}' (the score the calibrator was fitted with)`,
      { value: typeof given === 'string' ? given : 'values' },
    );
  }
  if (t.score === 'given' && (given === undefined || typeof given === 'string')) {
    fail(
      'UM_CALIBRATOR',
      fn,
      'options.score',
      `give the { ${t.direction} } values again (the calibrator was fitted on values you supplied)`,
      { value: given ?? 'undefined' },
    );
  }
  const d = topData(
    fn,
    labels,
    scores,
    { ...options, score: given ?? (t.score as Exclude<TopScoreName, 'given'>), top: t.top },
    { name: t.score, direction: t.direction },
  );
  checkClasses(fn, t, d.numClasses);
  return d;
}

/** Calibrated Top-k probabilities of new predictions. */
export interface TopBinningPrediction {
  /** The model's predicted class (argmax, ties → lowest index). */
  readonly predicted: Int32Array;
  /** Calibrated probability that the label is among the top k (Top-1: that `predicted` is right). */
  readonly probability: Float64Array;
  /** Bin of each prediction. */
  readonly bin: Int32Array;
}

/**
 * Applies a Top-k binning calibrator: each prediction gets the calibrated probability of its score's bin.
 *
 * **Formula.** p̂(x) = p̂ˢ_b for the bin b with cuts[b − 1] ≤ s(x) < cuts[b].
 *
 * **Conventions.**
 * - The score is recomputed from the scores as at fitting (or must be given again as `{ confidence }` /
 *   `{ uncertainty }` values when the calibrator was fitted on values); scores beyond the calibration range fall
 *   in the first or last bin. Parameters validated against their ranges, bins in score order (`UM_CALIBRATOR`, see
 *   {@link parseCalibrator}).
 * - Only the Top-k event is calibrated: the result is a probability per prediction, not a distribution over classes.
 *
 * **References.**
 * - Oberman, Finlay, Iannantuono & Salvador, §3.
 *
 * @param params from {@link fitTopBinning} or {@link parseCalibrator}.
 * @param scores [N, C] scores of the declared kind.
 * @param options `score` values (when fitted on values) and input options.
 * @returns a {@link TopBinningPrediction}.
 * @throws {UMError} `UM_CALIBRATOR` for bad parameters, another number of classes or a different score.
 * @example
 * ```js
 * import { applyTopBinning, fitTopBinning } from 'uncertainty-metrics';
 * const t = fitTopBinning([0, 0, 1, 0], [[0.9, 0.1], [0.8, 0.2], [0.7, 0.3], [0.6, 0.4]], { bins: 2, regularize: false });
 * Array.from(applyTopBinning(t, [[0.95, 0.05], [0.55, 0.45]]).probability); // => [1, 0.5]
 * ```
 */
export function applyTopBinning(
  params: TopBinningParams,
  scores: Scores,
  options: Omit<TopScoreOptions, 'top'> = {},
): TopBinningPrediction {
  return applyTopBinningAs('applyTopBinning', params, scores, options);
}

/** {@link applyTopBinning} naming `fn` in errors (internal; shared with applyCalibrator). */
export function applyTopBinningAs(
  fn: string,
  params: unknown,
  scores: Scores,
  options: Omit<TopScoreOptions, 'top'>,
): TopBinningPrediction {
  const t = readTopBinning(fn, params);
  checkOptions(fn, options, INPUT_KEYS, ['score']);
  const d = topDataFor(fn, t, undefined, scores, options);
  const bin = binsByCuts(t.cuts, d.score);
  const probability = Float64Array.from(bin, (b) => (t.bins[b] as TopBin).probability);
  return { predicted: topLabel(d.p).predicted, probability, bin };
}
