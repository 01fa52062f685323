import { isList } from '../input/isList.js';
import { presetOf, resolveBinning, type BinningOptions, type BinningScheme } from '../options/binning.js';
import { fail } from '../errors/fail.js';
import { positiveClassPrecision } from '../presets/presets.js';
import { weightInput, withUnit, type WeightRules } from '../input/weights.js';
import { gather } from '../math/gather.js';

/**
 * Validates a binary (outcome, probability) pair input and returns float64 copies, without the pairs of weight 0;
 * `w` is scaled (see `WeightOptions`): pair i weighs `w[i] · scale`. Internal.
 */
export function binaryPairs(
  fn: string,
  outcomes: ArrayLike<number>,
  probs: ArrayLike<number>,
  float32: boolean,
  weights?: unknown,
  rules: WeightRules = {},
): { o: Float64Array; p: Float64Array; w: Float64Array | undefined; scale: number } {
  if (!isList(outcomes)) {
    fail('UM_SHAPE', fn, 'outcomes', 'be an array of 0/1 outcomes', { value: outcomes });
  }
  if (!isList(probs)) {
    fail('UM_SHAPE', fn, 'probs', 'be an array of probabilities', { value: probs });
  }
  const n = probs.length;
  if (n === 0) fail('UM_EMPTY', fn, 'probs', 'hold at least one probability', { value: 0 });
  if (outcomes.length !== n) {
    fail('UM_SHAPE', fn, 'outcomes', `have one entry per probability (${n})`, { value: outcomes.length });
  }
  const o = new Float64Array(n);
  const p = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v: unknown = probs[i];
    if (typeof v !== 'number' || !Number.isFinite(v))
      fail('UM_NOT_FINITE', fn, 'probs', 'be a finite number', { index: [i], value: v });
    if (v < 0 || v > 1) fail('UM_PROB_RANGE', fn, 'probs', 'be in [0, 1]', { index: [i], value: v });
    const y: unknown = outcomes[i];
    if (y !== 0 && y !== 1) fail('UM_LABEL', fn, 'outcomes', 'be 0 or 1', { index: [i], value: y });
    p[i] = float32 ? Math.fround(v) : v;
    o[i] = y;
  }
  const given = weightInput(fn, weights, n, rules);
  const scale = given?.scale ?? 1;
  const w = given?.w;
  if (w === undefined || w.every((x) => x > 0)) return { o, p, w, scale };
  const keep = Array.from(w.keys()).filter((i) => (w[i] as number) > 0);
  return { o: gather(o, keep), p: gather(p, keep), w: withUnit(gather(w, keep), scale), scale };
}

/**
 * Resolves the binning of a positive-class function (internal): the preset's bins and rule, in the arithmetic of the
 * peer's positive-class function (`positiveClass.precision`; torchmetrics keeps the precision of `probs`) unless
 * `options.precision` is given.
 */
export function resolvePositiveBinning(
  fn: string,
  options: BinningOptions,
  probs: unknown,
  defaultScheme: BinningScheme = 'equal-width',
): ReturnType<typeof resolveBinning> {
  if (options.precision !== undefined) return resolveBinning(fn, options, defaultScheme);
  return resolveBinning(
    fn,
    { ...options, precision: positiveClassPrecision(presetOf(fn, options.preset), probs) },
    defaultScheme,
  );
}
