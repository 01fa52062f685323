import { fail } from './fail.js';

/** Option keys shared by functions that take predictions. */
export const INPUT_KEYS = ['input', 'numClasses', 'binary', 'sumTolerance'] as const;
/** Option keys of every binned function. */
export const BINNING_KEYS = ['preset', 'bins', 'binning', 'equalWidth', 'equalMass', 'ding', 'precision'] as const;
/** Option key of sample weights. */
export const WEIGHT_KEYS = ['weights'] as const;
/** Option keys of ensemble inputs. */
export const ENSEMBLE_KEYS = ['input', 'numMembers', 'numClasses', 'sumTolerance'] as const;

/**
 * Rejects an options argument that is not a plain object or that holds a key the function does not know, so a
 * misspelt option (`{ bin: 10 }`) is an error instead of being silently ignored; and an `onWarning` that is not a
 * function.
 */
export function checkOptions(fn: string, options: unknown, ...allowed: ReadonlyArray<readonly string[]>): void {
  if (options === undefined) return;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    fail('UM_OPTION', fn, 'options', 'be an object', { value: options });
  }
  const keys = allowed.flat();
  for (const key of Object.keys(options)) {
    if (!keys.includes(key)) {
      fail(
        'UM_OPTION',
        fn,
        `options.${key}`,
        `not be given: ${fn} has no such option (its options: ${[...new Set(keys)].join(', ')})`,
      );
    }
  }
  // checked here for every function that takes it: a handler that is not a function failed only when a warning came
  const handler = (options as { onWarning?: unknown }).onWarning;
  if (keys.includes('onWarning') && handler !== undefined && typeof handler !== 'function') {
    fail('UM_OPTION', fn, 'options.onWarning', 'be a function (warning) => void', { value: handler });
  }
}
