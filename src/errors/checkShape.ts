import { fail } from './fail.js';

/**
 * Checks one value at `where` (e.g. `series[1].data.points[3].fpr`) and throws a located UMError otherwise
 * (internal). Functions that take another function's result (charts, reports, the SQL finisher) check every field
 * they read, so a hand-made or damaged result is rejected instead of giving NaN, undefined or a TypeError.
 */
export type Check = (fn: string, where: string, x: unknown) => void;

/** A finite number; with `positive` (the reason, for the message) also > 0. */
export const finite =
  (positive?: string): Check =>
  (fn, where, x) => {
    if (typeof x !== 'number' || !Number.isFinite(x))
      fail('UM_NOT_FINITE', fn, where, 'be a finite number', { value: x });
    if (positive !== undefined && x <= 0) fail('UM_OPTION', fn, where, `be a number > 0 (${positive})`, { value: x });
  };

/** A whole number ≥ 0. */
export const count: Check = (fn, where, x) => {
  if (typeof x !== 'number' || !Number.isInteger(x) || x < 0)
    fail('UM_SHAPE', fn, where, 'be a whole number ≥ 0', { value: x });
};

/** A string, or one of the given strings. */
export const text =
  (values?: readonly string[]): Check =>
  (fn, where, x) => {
    if (typeof x !== 'string' || (values !== undefined && !values.includes(x)))
      fail(
        'UM_OPTION',
        fn,
        where,
        values === undefined ? 'be a string' : `be one of ${values.map((v) => `'${v}'`).join(', ')}`,
        { value: x },
      );
  };

/** `null` or what `check` accepts. */
export const orNull =
  (check: Check): Check =>
  (fn, where, x) => {
    if (x !== null) check(fn, where, x);
  };

/** An array whose every entry passes `check`. */
export const arrayOf =
  (check: Check): Check =>
  (fn, where, x) => {
    if (!Array.isArray(x)) fail('UM_SHAPE', fn, where, 'be an array', { value: x });
    for (let i = 0; i < x.length; i++) check(fn, `${where}[${i}]`, x[i]);
  };

/** An object whose listed fields pass their checks (other fields are not read and not checked). */
export const record =
  (fields: Readonly<Record<string, Check>>): Check =>
  (fn, where, x) => {
    if (x === null || typeof x !== 'object' || Array.isArray(x))
      fail('UM_SHAPE', fn, where, 'be an object', { value: x });
    for (const [k, check] of Object.entries(fields)) check(fn, `${where}.${k}`, (x as Record<string, unknown>)[k]);
  };
