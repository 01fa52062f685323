import { isList } from '../input/isList.js';
import { fail } from '../errors/fail.js';
import { labelArray } from '../input/labelArray.js';
import { probMatrix } from '../input/probMatrix.js';
import type { InputOptions, Labels, Scores } from '../input/types.js';
import { topLabel } from '../measures/topLabel.js';
import { namedConfidence, negate, thresholdPredictions } from '../select/confidence.js';
import type { NamedMeasure, RankBy, SelectiveOptions } from './types.js';
import { sweep, type Sweep } from './sweep.js';
import { weightInput, type WeightRules } from '../input/weights.js';
import { gather } from '../math/gather.js';

/** Option keys of the selective-prediction input. */
export const SELECTIVE_KEYS = [
  'input',
  'numClasses',
  'binary',
  'sumTolerance',
  'by',
  'decisionThreshold',
  'weights',
] as const;

const NAMED: readonly NamedMeasure[] = ['max-prob', 'margin', 'entropy', 'normalized-entropy', 'threshold-distance'];

/**
 * Correctness and a ranking of N predictions: `confidence[i]` is larger for more confident predictions (an
 * uncertainty u enters as −u, so one descending order serves every measure). Internal.
 */
export interface SelectiveData {
  readonly n: number;
  /** 1 where the predicted class is the label. */
  readonly correct: Uint8Array;
  /** Higher = more confident. */
  readonly confidence: Float64Array;
  /** +1 when the measure is a confidence, −1 when it is an uncertainty: measure = sign · confidence. */
  readonly sign: 1 | -1;
  /** The measure's name (`'given'` for the caller's values). */
  readonly measure: NamedMeasure | 'given';
  /** Sample weights (all > 0: rows of weight 0 are left out of every array), or undefined for unit weights. */
  readonly weights?: Float64Array;
  /** Their scale: row i weighs `weights[i] · weightScale` (an exact power of two, see `WeightOptions`; absent = 1). */
  readonly weightScale?: number;
}

/** The blocks of the data's ranking, weighted by its sample weights (internal). */
export function sweepOf(d: SelectiveData): Sweep {
  return sweep(d.confidence, d.correct, d.weights, d.weightScale);
}

/** Validates `options.weights` and leaves out the rows of weight 0 (internal). */
function weighted(fn: string, d: SelectiveData, weights: unknown, rules: WeightRules): SelectiveData {
  const given = weightInput(fn, weights, d.n, rules);
  if (given === undefined) return d;
  const w = given.w;
  const keep: number[] = [];
  for (let i = 0; i < d.n; i++) if ((w[i] as number) > 0) keep.push(i);
  return {
    n: keep.length,
    correct: Uint8Array.from(keep, (i) => d.correct[i] as number),
    confidence: gather(d.confidence, keep),
    sign: d.sign,
    measure: d.measure,
    weights: Float64Array.from(keep, (i) => w[i] as number),
    ...(given.scale === 1 ? {} : { weightScale: given.scale }),
  };
}

/** Validates the caller's per-sample values: finite numbers, one per row (internal). */
export function givenValues(fn: string, argument: string, values: unknown, n: number | undefined): Float64Array {
  if (!isList(values)) {
    fail('UM_SHAPE', fn, argument, 'be an array of numbers', { value: values });
  }
  const v = values as ArrayLike<unknown>;
  if (n !== undefined && v.length !== n)
    fail('UM_SHAPE', fn, argument, `have one value per row (${n})`, { value: v.length });
  if (v.length === 0) fail('UM_EMPTY', fn, argument, 'hold at least one value', { value: 0 });
  const out = new Float64Array(v.length);
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (typeof x !== 'number' || !Number.isFinite(x))
      fail('UM_NOT_FINITE', fn, argument, 'be a finite number', { index: [i], value: x });
    out[i] = x;
  }
  return out;
}

/** Reads `by` as the caller's values, or returns the named measure (internal). */
export function resolveBy(
  fn: string,
  by: RankBy | undefined,
  n: number | undefined,
  fallback: NamedMeasure = 'max-prob',
): { named: NamedMeasure } | { values: Float64Array; sign: 1 | -1 } {
  if (by === undefined) return { named: fallback };
  if (typeof by === 'string') {
    if (!NAMED.includes(by))
      fail(
        'UM_OPTION',
        fn,
        'options.by',
        `be one of ${NAMED.map((m) => `'${m}'`).join(', ')} or { confidence } / { uncertainty }`,
        { value: by },
      );
    return { named: by };
  }
  if (by === null || typeof by !== 'object')
    fail('UM_OPTION', fn, 'options.by', 'be a measure name or { confidence } / { uncertainty }', { value: by });
  const keys = Object.keys(by);
  if (keys.length !== 1 || (keys[0] !== 'confidence' && keys[0] !== 'uncertainty')) {
    fail('UM_OPTION', fn, 'options.by', 'have exactly one key, confidence or uncertainty (it states the direction)', {
      value: keys.join(', '),
    });
  }
  const key = keys[0] as 'confidence' | 'uncertainty';
  return {
    values: givenValues(fn, `options.by.${key}`, (by as Record<string, unknown>)[key], n),
    sign: key === 'confidence' ? 1 : -1,
  };
}

/**
 * Validates labels and scores (or predicted classes), the ranking and the weights of a selective-prediction
 * function; `rules` (or `true`: whole-number weights, for metrics that count predictions one by one) are the
 * weights' requirements. Internal; `fn` is the public function named in error messages.
 */
export function selectiveInput(
  fn: string,
  labels: Labels,
  scores: Scores,
  options: SelectiveOptions,
  rules: boolean | WeightRules = false,
): SelectiveData {
  const { weights, ...rest } = options;
  return weighted(
    fn,
    unweightedInput(fn, labels, scores, rest),
    weights,
    typeof rules === 'boolean' ? { integer: rules } : rules,
  );
}

function unweightedInput(fn: string, labels: Labels, scores: Scores, options: SelectiveOptions): SelectiveData {
  const by = options.by;
  if (options.input === 'predicted') {
    for (const key of ['binary', 'numClasses', 'sumTolerance', 'decisionThreshold'] as const) {
      if (options[key] !== undefined)
        fail('UM_OPTION', fn, `options.${key}`, "not be given with input 'predicted'", { value: options[key] });
    }
    const predicted = givenValues(fn, 'predicted', scores, undefined);
    const n = predicted.length;
    for (let i = 0; i < n; i++) {
      const k = predicted[i] as number;
      if (!Number.isInteger(k) || k < 0)
        fail('UM_LABEL', fn, 'predicted', 'be a class index (an integer ≥ 0)', { index: [i], value: k });
    }
    if (labels === null || typeof labels !== 'object' || typeof labels.length !== 'number')
      fail('UM_SHAPE', fn, 'labels', 'be an array of integer class labels', { value: labels });
    if (labels.length !== n)
      fail('UM_SHAPE', fn, 'labels', `have one entry per predicted class (${n})`, { value: labels.length });
    const y = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const v = labels[i];
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
        fail('UM_LABEL', fn, 'labels', 'be a class index (an integer ≥ 0)', { index: [i], value: v });
      y[i] = v;
    }
    const ranking = resolveBy(fn, by, n);
    if ('named' in ranking) {
      fail(
        'UM_OPTION',
        fn,
        'options.by',
        "give per-sample values ({ confidence } or { uncertainty }) with input 'predicted'",
        { value: by ?? 'undefined' },
      );
    }
    const correct = new Uint8Array(n);
    for (let i = 0; i < n; i++) correct[i] = predicted[i] === y[i] ? 1 : 0;
    return {
      n,
      correct,
      confidence: ranking.sign === 1 ? ranking.values : negate(ranking.values),
      sign: ranking.sign,
      measure: 'given',
    };
  }
  const { by: _by, decisionThreshold, ...input } = options;
  const p = probMatrix(fn, scores, input as InputOptions);
  const y = labelArray(fn, labels, p.n, p.numClasses);
  const top = topLabel(p);
  if (decisionThreshold !== undefined) {
    if (p.numClasses !== 2)
      fail('UM_OPTION', fn, 'options.decisionThreshold', 'be given for two classes only', { value: decisionThreshold });
    if (typeof decisionThreshold !== 'number' || !(decisionThreshold >= 0 && decisionThreshold < 1)) {
      fail('UM_OPTION', fn, 'options.decisionThreshold', 'be a number in [0, 1)', { value: decisionThreshold });
    }
    thresholdPredictions(p, top, decisionThreshold);
  }
  const correct = correctness(top.predicted, y);
  const t = decisionThreshold ?? 0.5;
  const ranking = resolveBy(fn, by, p.n, t === 0.5 ? 'max-prob' : 'threshold-distance');
  if ('named' in ranking) {
    if (ranking.named === 'threshold-distance' && p.numClasses !== 2) {
      fail('UM_OPTION', fn, 'options.by', "be 'threshold-distance' for two classes only", { value: ranking.named });
    }
    const { confidence, sign } = namedConfidence(p, ranking.named, top.confidence, t);
    return { n: p.n, correct, confidence, sign, measure: ranking.named };
  }
  return {
    n: p.n,
    correct,
    confidence: ranking.sign === 1 ? ranking.values : negate(ranking.values),
    sign: ranking.sign,
    measure: 'given',
  };
}

/**
 * The ranking measure in its own scale (sign · confidence), checked to lie in [0, 1] where an equal-width or
 * thresholded approximation needs it; `purpose` ends the message (internal).
 */
export function unitMeasure(fn: string, d: SelectiveData, purpose: string): Float64Array {
  const argument =
    d.measure === 'given' ? (d.sign === 1 ? 'options.by.confidence' : 'options.by.uncertainty') : d.measure;
  const out = new Float64Array(d.n);
  for (let i = 0; i < d.n; i++) {
    const v = d.sign * (d.confidence[i] as number) + 0;
    if (!(v >= 0 && v <= 1))
      fail('UM_OUT_OF_BINS', fn, argument, `lie in [0, 1] for ${purpose}`, { index: [i], value: v });
    out[i] = v;
  }
  return out;
}

/** 1 where the predicted class equals the label (internal). */
export function correctness(predicted: Int32Array, labels: Int32Array): Uint8Array {
  const out = new Uint8Array(labels.length);
  for (let i = 0; i < labels.length; i++) out[i] = predicted[i] === labels[i] ? 1 : 0;
  return out;
}
