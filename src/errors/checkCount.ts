import { fail } from './fail.js';

/**
 * The largest value of every count-like option (`bins`, `samples`, `repeats`, `resamples`, `thresholds`, `folds`,
 * `bootstrap`, …): 2^20 = 1 048 576.
 *
 * Why this bound: each unit of a count costs memory and time that do not shrink with the data — a bin is a plain
 * object of the result (≈ 100–200 bytes with its interval), a resample or a posterior sample is one more pass, a
 * threshold one more point. 2^20 keeps any single option within a few hundred MB and a few seconds on small data,
 * and is far above every value of practical use (peers use 10–100 bins, 200 thresholds, 500–10 000 samples);
 * without a bound, `bins: 1e9` allocated gigabytes (or hung) and `bins: 1e15` threw a raw `RangeError`. Where two
 * counts multiply, their product has the bound: equal-width or edge bins of the class-wise metrics (SCE, class-wise
 * reliability; bins × classes ≤ 2^20, checked when the classes are known), `bayesianEce` (samples × bins ≤ 2^22).
 */
export const MAX_COUNT = 2 ** 20;

/** Bounds of {@link checkCount}: the smallest and largest allowed value (defaults 1 and {@link MAX_COUNT}). */
export interface CountBounds {
  min?: number;
  max?: number;
  /** Why the maximum is lower than {@link MAX_COUNT}, appended to the message. */
  why?: string;
  /** Another accepted value, named first in the message (`'null (exact)'`); the caller handles it. */
  or?: string;
}

/**
 * Validates one count-like option: an integer in [min, max] (default [1, {@link MAX_COUNT}]); otherwise throws
 * `UM_OPTION` naming the function, the option and the value, e.g.
 * `ece: options.bins must be an integer in [1, 1048576]; got 1000000000`. Returns the value. The one check every
 * count-like option of the library goes through (internal; exported for every module that takes counts).
 */
export function checkCount(
  fn: string,
  argument: string,
  value: unknown,
  bounds: CountBounds = {},
  index?: readonly number[],
): number {
  const min = bounds.min ?? 1;
  const max = bounds.max ?? MAX_COUNT;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    const tooLarge = typeof value === 'number' && value > max;
    const hint = tooLarge ? (bounds.why ?? `${max} = 2^20 is the library's limit on count-like options`) : undefined;
    fail(
      'UM_OPTION',
      fn,
      argument,
      `be ${bounds.or === undefined ? '' : `${bounds.or} or `}an integer in [${min}, ${max}]`,
      { value, ...(index === undefined ? {} : { index }), ...(hint === undefined ? {} : { hint }) },
    );
  }
  return value;
}
