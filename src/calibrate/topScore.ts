import { fail } from '../errors/fail.js';
import { labelArray } from '../input/labelArray.js';
import { probMatrix } from '../input/probMatrix.js';
import type { InputOptions, Labels, ProbMatrix, Scores } from '../input/types.js';
import { rowMargin } from '../measures/margin.js';
import { rowNormalizedEntropy } from '../measures/normalizedEntropy.js';
import { rowEntropy } from '../measures/rowEntropy.js';
import { givenValues } from '../selective/selectiveInput.js';
import type { GivenMeasure } from '../selective/types.js';
import { logProbabilities } from './temperatureCore.js';

/**
 * The uncertainty score binned by the Top-k calibrator (Oberman et al. §2.2, Table 5):
 * - `'max-prob'` — p_max (a confidence); `'margin'` — p_(1) − p_(2) (a confidence);
 * - `'entropy'`, `'normalized-entropy'` — H(p), H(p)/ln C (uncertainties);
 * - `'neg-log-max-prob'` — −ln p_max; `'neg-log-top-k'` — −ln Σ of the k largest p (uncertainties);
 * - `{ confidence }` / `{ uncertainty }` — the caller's values (ensemble variance, a judge's confidence, …).
 */
export type TopScore =
  'max-prob' | 'margin' | 'entropy' | 'normalized-entropy' | 'neg-log-max-prob' | 'neg-log-top-k' | GivenMeasure;

/** The score names stored in parameters (`'given'` for values supplied by the caller). */
export type TopScoreName = Exclude<TopScore, GivenMeasure> | 'given';

export const TOP_SCORES: readonly Exclude<TopScore, GivenMeasure>[] = [
  'max-prob',
  'margin',
  'entropy',
  'normalized-entropy',
  'neg-log-max-prob',
  'neg-log-top-k',
];

/** Options shared by the Top-k binning functions. */
export interface TopScoreOptions extends InputOptions {
  /** Score to bin (default `'max-prob'`). Given values must be passed again when applying. */
  score?: TopScore;
  /** k of the Top-k event "the label is among the k most probable classes" (default 1). */
  top?: number;
}

/** The classes ordered by decreasing probability (ties → lower index first) — first k of row i (internal). */
function topIndices(p: ProbMatrix, i: number, k: number): number[] {
  const c = p.numClasses;
  const idx = Array.from({ length: c }, (_, j) => j);
  idx.sort((a, b) => (p.data[i * c + b] as number) - (p.data[i * c + a] as number) || a - b);
  return idx.slice(0, k);
}

/** Per-sample score, its direction, the Top-k event and the rows' validation (internal). */
export interface TopData {
  readonly n: number;
  readonly numClasses: number;
  readonly p: ProbMatrix;
  /** The score in its own scale. */
  readonly score: Float64Array;
  readonly name: TopScoreName;
  readonly direction: 'confidence' | 'uncertainty';
  /** 1 where the label is among the top k (only with labels). */
  readonly event?: Uint8Array;
}

/** Reads `top` (internal). */
export function readTop(fn: string, top: unknown, numClasses?: number): number {
  const k = top ?? 1;
  if (typeof k !== 'number' || !Number.isInteger(k) || k < 1 || (numClasses !== undefined && k >= numClasses)) {
    fail(
      'UM_OPTION',
      fn,
      'options.top',
      numClasses === undefined
        ? 'be an integer ≥ 1'
        : `be an integer in [1, ${numClasses - 1}] (the Top-${numClasses} event is certain)`,
      { value: top },
    );
  }
  return k;
}

/** Validates scores (and labels) and computes the binned score (internal). */
export function topData(
  fn: string,
  labels: Labels | undefined,
  scores: Scores,
  options: TopScoreOptions,
  expected?: { name: TopScoreName; direction: 'confidence' | 'uncertainty' },
): TopData {
  const { score = 'max-prob', top, ...input } = options;
  const p = probMatrix(fn, scores, input);
  const k = readTop(fn, top, p.numClasses);
  let name: TopScoreName;
  let direction: 'confidence' | 'uncertainty';
  let values: Float64Array;
  if (typeof score === 'string') {
    if (!TOP_SCORES.includes(score))
      fail(
        'UM_OPTION',
        fn,
        'options.score',
        `be one of ${TOP_SCORES.map((s) => `'${s}'`).join(', ')} or { confidence } / { uncertainty }`,
        { value: score },
      );
    name = score;
    direction = score === 'max-prob' || score === 'margin' ? 'confidence' : 'uncertainty';
    const l = logProbabilities(p);
    const c = p.numClasses;
    if (score === 'max-prob')
      values = Float64Array.from(
        { length: p.n },
        (_, i) => p.data[i * c + (topIndices(p, i, 1)[0] as number)] as number,
      );
    else if (score === 'margin') values = rowMargin(p);
    else if (score === 'entropy') values = rowEntropy(p);
    else if (score === 'normalized-entropy') values = rowNormalizedEntropy(p);
    else {
      const kk = score === 'neg-log-max-prob' ? 1 : k;
      values = Float64Array.from({ length: p.n }, (_, i) => {
        const chosen = topIndices(p, i, kk).map((j) => l[i * c + j] as number);
        const max = Math.max(...chosen);
        return -(max + Math.log(chosen.reduce((s, v) => s + Math.exp(v - max), 0)));
      });
    }
  } else {
    if (score === null || typeof score !== 'object')
      fail('UM_OPTION', fn, 'options.score', 'be a score name or { confidence } / { uncertainty }', { value: score });
    const keys = Object.keys(score);
    if (keys.length !== 1 || (keys[0] !== 'confidence' && keys[0] !== 'uncertainty')) {
      fail(
        'UM_OPTION',
        fn,
        'options.score',
        'have exactly one key, confidence or uncertainty (it states the direction)',
        { value: keys.join(', ') },
      );
    }
    direction = keys[0] as 'confidence' | 'uncertainty';
    name = 'given';
    values = givenValues(fn, `options.score.${direction}`, (score as Record<string, unknown>)[direction], p.n);
  }
  if (expected !== undefined && (expected.name !== name || expected.direction !== direction)) {
    fail(
      'UM_CALIBRATOR',
      fn,
      'options.score',
      `be the score the calibrator was fitted with (${expected.name === 'given' ? `{ ${expected.direction} } values` : `'${expected.name}'`})`,
      {
        value: name === 'given' ? `{ ${direction} }` : name,
      },
    );
  }
  let event: Uint8Array | undefined;
  if (labels !== undefined) {
    const y = labelArray(fn, labels, p.n, p.numClasses);
    event = new Uint8Array(p.n);
    for (let i = 0; i < p.n; i++) event[i] = topIndices(p, i, k).includes(y[i] as number) ? 1 : 0;
  }
  return event === undefined
    ? { n: p.n, numClasses: p.numClasses, p, score: values, name, direction }
    : { n: p.n, numClasses: p.numClasses, p, score: values, name, direction, event };
}

/** The bin of each score: the number of cuts ≤ the score (bins [c_{b−1}, c_b), open at both ends) (internal). */
export function binsByCuts(cuts: readonly number[], score: Float64Array): Int32Array {
  const out = new Int32Array(score.length);
  for (let i = 0; i < score.length; i++) {
    const v = score[i] as number;
    let lo = 0;
    let hi = cuts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cuts[mid] as number) <= v) lo = mid + 1;
      else hi = mid;
    }
    out[i] = lo;
  }
  return out;
}
