import { fail } from '../errors/fail.js';
import type { GroupBy, Target } from './selectPairs.js';

/** What is scored, in the one vocabulary every metric takes: `target` and `groupBy` (see `selectPairs`). */
export interface ScoredOptions {
  /** Which (score, outcome) pairs are scored: `'top-label'`, `'all-classes'`, `'positive-class'` or `'uncertainty'`. */
  target?: Target;
  /** How the pairs are grouped: `'none'`, `'class'` (the class a pair is about) or `'label'`. */
  groupBy?: GroupBy;
}

/** What a metric allows and its defaults; `aliases` are the older option names, each mapped to what it implies. */
export interface Vocabulary {
  readonly targets: readonly Target[];
  readonly groupBys: readonly GroupBy[];
  readonly fallback: { readonly target: Target; readonly groupBy: GroupBy };
  readonly aliases?: Readonly<
    Record<string, (value: unknown, fn: string) => Partial<Record<'target' | 'groupBy', string>>>
  >;
}

function oneOf<T extends string>(fn: string, argument: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !allowed.includes(value as T))
    fail('UM_OPTION', fn, argument, `be one of ${allowed.map((a) => `'${a}'`).join(', ')}`, { value });
  return value as T;
}

/**
 * Resolves `target` and `groupBy` and their documented aliases (`topLabel`, `classConditional`, `classwise`, `mode`,
 * `measure`): an alias states what it implies; an alias and the new name that disagree are an error naming both
 * (internal; the one place the vocabulary is read).
 */
export function resolveScored(
  fn: string,
  options: Readonly<Record<string, unknown>>,
  vocabulary: Vocabulary,
): { target: Target; groupBy: GroupBy } {
  const implied: Partial<Record<'target' | 'groupBy', { value: string; from: string }>> = {};
  for (const [alias, map] of Object.entries(vocabulary.aliases ?? {})) {
    if (options[alias] === undefined) continue;
    for (const [key, value] of Object.entries(map(options[alias], fn)) as ['target' | 'groupBy', string][]) {
      const seen = implied[key];
      if (seen !== undefined && seen.value !== value)
        fail(
          'UM_OPTION',
          fn,
          `options.${alias}`,
          `agree with options.${seen.from} (they imply ${key} '${value}' and '${seen.value}')`,
          { value: options[alias] },
        );
      implied[key] = { value, from: alias };
    }
  }
  const pick = (key: 'target' | 'groupBy', allowed: readonly string[], fallback: string): string => {
    const given = options[key];
    const alias = implied[key];
    if (given !== undefined) {
      const v = oneOf(fn, `options.${key}`, given, allowed);
      if (alias !== undefined && alias.value !== v)
        fail(
          'UM_OPTION',
          fn,
          `options.${key}`,
          `agree with options.${alias.from}, which implies '${alias.value}' (give one of them)`,
          { value: given },
        );
      return v;
    }
    return alias === undefined ? fallback : oneOf(fn, `options.${alias.from}`, alias.value, allowed);
  };
  return {
    target: pick('target', vocabulary.targets, vocabulary.fallback.target) as Target,
    groupBy: pick('groupBy', vocabulary.groupBys, vocabulary.fallback.groupBy) as GroupBy,
  };
}

/** A boolean alias `name`: `true` and `false` imply the two given values of `key`. */
export function booleanAlias(
  name: string,
  key: 'target' | 'groupBy',
  ifTrue: string,
  ifFalse: string,
): (value: unknown, fn: string) => Partial<Record<'target' | 'groupBy', string>> {
  return (value, fn) => {
    if (typeof value !== 'boolean') return fail('UM_OPTION', fn, `options.${name}`, 'be true or false', { value });
    return { [key]: value ? ifTrue : ifFalse };
  };
}

/** An alias `name` with named values, each implying target and/or groupBy. */
export function namedAlias(
  name: string,
  values: Readonly<Record<string, Partial<Record<'target' | 'groupBy', string>>>>,
): (value: unknown, fn: string) => Partial<Record<'target' | 'groupBy', string>> {
  return (value, fn) => {
    const keys = Object.keys(values);
    if (typeof value !== 'string' || !keys.includes(value))
      return fail('UM_OPTION', fn, `options.${name}`, `be one of ${keys.map((k) => `'${k}'`).join(', ')}`, { value });
    return values[value] as Partial<Record<'target' | 'groupBy', string>>;
  };
}
