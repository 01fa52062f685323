import { UMError } from '../errors/UMError.js';
import { fail } from '../errors/fail.js';
import { probMatrix } from '../input/probMatrix.js';
import type { InputOptions, Scores } from '../input/types.js';
import { topLabel } from '../measures/topLabel.js';
import { givenValues, resolveBy } from '../selective/selectiveInput.js';
import { namedConfidence } from '../select/confidence.js';
import type { GivenMeasure, NamedMeasure } from '../selective/types.js';
import { sweep, type Sweep } from '../selective/sweep.js';
import { weightInput } from '../input/weights.js';
import { gather } from '../math/gather.js';

/** One side of an out-of-distribution comparison: scores of the model, or the caller's per-sample values. */
export type OodInput = Scores | GivenMeasure;

/** Options of the out-of-distribution functions. */
export interface OodOptions extends InputOptions {
  /** Measure computed from scores (default `'normalized-entropy'`, the seeds' H̃); not used with given values. */
  by?: NamedMeasure;
  /**
   * Sample weights of either side or both, one non-negative number per sample (frequency weights; weight 0 leaves a
   * sample out). Default: every sample weighs 1.
   */
  weights?: { readonly inDistribution?: ArrayLike<number>; readonly outOfDistribution?: ArrayLike<number> };
}

/** Option keys of the OoD input. */
export const OOD_KEYS = ['input', 'numClasses', 'binary', 'sumTolerance', 'by', 'weights'] as const;

/** Both sides as "higher = more confident" values, and the sign back to the measure's scale (internal). */
export interface OodData {
  readonly inConfidence: Float64Array;
  readonly outConfidence: Float64Array;
  readonly sign: 1 | -1;
  readonly measure: NamedMeasure | 'given';
  /** Weights of each side (validated, ≥ 0), or undefined for unit weights; each side scaled on its own (see `WeightOptions`). */
  readonly inWeights?: Float64Array;
  readonly outWeights?: Float64Array;
  /** The scales of the sides' weights: sample i weighs `inWeights[i] · inScale` (absent = 1). */
  readonly inScale?: number;
  readonly outScale?: number;
}

function givenKey(x: unknown): 'confidence' | 'uncertainty' | undefined {
  if (x === null || typeof x !== 'object' || typeof (x as { length?: unknown }).length === 'number') return undefined;
  if ('kind' in x) return undefined; // validated probabilities
  const keys = Object.keys(x);
  if (keys.length === 1 && (keys[0] === 'confidence' || keys[0] === 'uncertainty')) return keys[0];
  return undefined;
}

/**
 * Validates both sides; they must be of the same form (internal). Each side's weights are scaled on their own
 * (`normalize`: always to a largest weight in [1, 2), as the rankings pool the two sides into shared blocks, where
 * sides of very different magnitudes would lose the smaller one; every OoD ranking metric normalises each side by
 * its own total, so this changes nothing else).
 */
export function oodInput(
  fn: string,
  inDist: OodInput,
  outDist: OodInput,
  options: OodOptions,
  normalize = true,
): OodData {
  const { weights, ...rest } = options;
  const d = unweighted(fn, inDist, outDist, rest);
  if (weights === undefined) return d;
  if (
    weights === null ||
    typeof weights !== 'object' ||
    Object.keys(weights).some((k) => k !== 'inDistribution' && k !== 'outOfDistribution')
  ) {
    fail('UM_OPTION', fn, 'options.weights', 'be { inDistribution?, outOfDistribution? }: one weight array per side', {
      value: weights,
    });
  }
  const side = (w: unknown, n: number, name: string) => {
    if (w === undefined) return undefined;
    try {
      return weightInput(fn, w, n, { normalize });
    } catch (error) {
      if (!(error instanceof UMError)) throw error;
      throw new UMError(error.code, error.message.replace(`${fn}: options.weights`, `${fn}: options.weights.${name}`), {
        ...error.details,
        argument: `options.weights.${name}`,
      });
    }
  };
  const inW = side(weights.inDistribution, d.inConfidence.length, 'inDistribution');
  const outW = side(weights.outOfDistribution, d.outConfidence.length, 'outOfDistribution');
  return {
    ...d,
    ...(inW === undefined ? {} : { inWeights: inW.w, inScale: inW.scale }),
    ...(outW === undefined ? {} : { outWeights: outW.w, outScale: outW.scale }),
  };
}

function unweighted(fn: string, inDist: OodInput, outDist: OodInput, options: OodOptions): OodData {
  const a = givenKey(inDist);
  const b = givenKey(outDist);
  if (a !== b) {
    fail(
      'UM_OPTION',
      fn,
      'outOfDistribution',
      `be of the same form as inDistribution (${a === undefined ? 'scores' : `{ ${a} }`})`,
      {
        value: b === undefined ? 'scores' : `{ ${b} }`,
      },
    );
  }
  if (a !== undefined) {
    for (const key of ['input', 'numClasses', 'binary', 'sumTolerance', 'by'] as const) {
      if (options[key] !== undefined)
        fail('UM_OPTION', fn, `options.${key}`, 'not be given with per-sample values (it applies to scores)', {
          value: options[key],
        });
    }
    const sign = a === 'confidence' ? 1 : -1;
    const read = (x: unknown, arg: string) => {
      const v = givenValues(fn, `${arg}.${a}`, (x as Record<string, unknown>)[a], undefined);
      if (sign === -1) for (let i = 0; i < v.length; i++) v[i] = -(v[i] as number);
      return v;
    };
    return {
      inConfidence: read(inDist, 'inDistribution'),
      outConfidence: read(outDist, 'outOfDistribution'),
      sign,
      measure: 'given',
    };
  }
  const { by, ...input } = options;
  const ranking = resolveBy(fn, by, undefined, 'normalized-entropy');
  if (!('named' in ranking))
    fail('UM_OPTION', fn, 'options.by', 'be a measure name; give per-sample values as the arguments instead', {
      value: by,
    });
  if (ranking.named === 'threshold-distance')
    fail('UM_OPTION', fn, 'options.by', "not be 'threshold-distance' (no decision threshold here)", { value: by });
  const side = (x: Scores, name: string) => {
    let p;
    try {
      p = probMatrix(fn, x, input);
    } catch (error) {
      // name the side: "oodAuroc: outOfDistribution.probs[3][1] must be in [0, 1]; got 1.2"
      if (
        !(error instanceof UMError) ||
        error.details.argument === undefined ||
        error.details.argument.startsWith('options.')
      )
        throw error;
      const argument = `${name}.${error.details.argument}`;
      throw new UMError(error.code, error.message.replace(`${fn}: ${error.details.argument}`, `${fn}: ${argument}`), {
        ...error.details,
        argument,
      });
    }
    return { ...namedConfidence(p, ranking.named, topLabel(p).confidence, 0.5), numClasses: p.numClasses };
  };
  const i = side(inDist as Scores, 'inDistribution');
  const o = side(outDist as Scores, 'outOfDistribution');
  if (i.numClasses !== o.numClasses) {
    fail(
      'UM_SHAPE',
      fn,
      'outOfDistribution',
      `have the classes of inDistribution (${i.numClasses}): both come from one model`,
      { value: o.numClasses },
    );
  }
  return { inConfidence: i.confidence, outConfidence: o.confidence, sign: i.sign, measure: ranking.named };
}

/** Pools both sides into the blocks of one ranking, in-distribution samples as the positives (internal). */
export function pooledSweep(d: OodData): Sweep {
  const a = d.inConfidence.length;
  const confidence = new Float64Array(a + d.outConfidence.length);
  confidence.set(d.inConfidence);
  confidence.set(d.outConfidence, a);
  const isIn = new Uint8Array(confidence.length);
  isIn.fill(1, 0, a);
  if (d.inWeights === undefined && d.outWeights === undefined) return sweep(confidence, isIn);
  const w = new Float64Array(confidence.length).fill(1);
  if (d.inWeights !== undefined) w.set(d.inWeights);
  if (d.outWeights !== undefined) w.set(d.outWeights, a);
  // rows of weight 0 add nothing to any block; a block of weight 0 alone would be an empty ROC step
  const keep: number[] = [];
  for (let i = 0; i < w.length; i++) if ((w[i] as number) > 0) keep.push(i);
  return sweep(
    gather(confidence, keep),
    Uint8Array.from(keep, (i) => isIn[i] as number),
    gather(w, keep),
  );
}
