import type { JsonPath } from '../accumulate/store.js';
import { fail } from '../errors/fail.js';

/**
 * How a function's arguments hold rows: `'pairs'` — outcomes[N] and probabilities[N]; `'members'` — optional
 * labels[N] and ensemble members [S][N][C] (rows on the second axis); `'matrix'` — one matrix [N][M] (log-likelihoods).
 */
export type RowsLayout = 'pairs' | 'members' | 'matrix';

/** A kept row: its label or outcome (or null), its values (a number, a row, or one row per member) and its weight. */
export type Row = {
  readonly first: number | null;
  readonly second: number | number[] | number[][];
  readonly weight: number;
};

const isList = (x: unknown): x is ArrayLike<unknown> =>
  x !== null && typeof x === 'object' && typeof (x as { length?: unknown }).length === 'number';

function numbers(fn: string, argument: string, x: unknown, index: number[]): number[] {
  if (!isList(x)) return fail('UM_SHAPE', fn, argument, 'be an array of numbers', { index, value: x });
  return Array.from(x, (v, j) =>
    typeof v === 'number' ? v : fail('UM_NOT_FINITE', fn, argument, 'be a number', { index: [...index, j], value: v }),
  );
}

function scalar(fn: string, argument: string, x: unknown, index: number[]): number {
  return typeof x === 'number' ? x : fail('UM_NOT_FINITE', fn, argument, 'be a number', { index, value: x });
}

/** The rows of one update: shapes checked, values kept as given (the function checks them at `result()`). */
export function rowsOf(
  fn: string,
  layout: RowsLayout,
  first: unknown,
  second: unknown,
  labeled: boolean,
): { first: number | null; second: Row['second'] }[] {
  if (!isList(second))
    return fail(
      'UM_SHAPE',
      fn,
      'scores',
      layout === 'members' ? 'be nested members [S][n][C]' : 'be an array with one entry per row',
      { value: second },
    );
  if (labeled && (first === null || first === undefined))
    fail('UM_SHAPE', fn, 'labels', 'be given: this metric needs them', { value: first });
  if (layout === 'members') {
    const members = Array.from(second, (m, s) =>
      isList(m)
        ? Array.from(m, (r, i) => numbers(fn, 'scores', r, [s, i]))
        : fail('UM_SHAPE', fn, 'scores', 'be nested members [S][n][C]', { index: [s], value: m }),
    );
    const n = members[0]?.length ?? 0;
    members.forEach((m, s) => {
      if (m.length !== n)
        fail('UM_SHAPE', fn, 'scores', `have ${n} rows in every member`, { index: [s], value: m.length });
    });
    const labels =
      first === null || first === undefined
        ? null
        : isList(first)
          ? first
          : fail('UM_SHAPE', fn, 'labels', 'be an array or null', { value: first });
    if (labels !== null && labels.length !== n)
      fail('UM_SHAPE', fn, 'labels', `have one entry per row (${n})`, { value: labels.length });
    return Array.from({ length: n }, (_, i) => ({
      first: labels === null ? null : scalar(fn, 'labels', labels[i], [i]),
      second: members.map((m) => m[i] as number[]),
    }));
  }
  if (layout === 'pairs') {
    if (!isList(first) || first.length !== second.length)
      fail('UM_SHAPE', fn, 'labels', `have one outcome per probability (${second.length})`, {
        value: isList(first) ? first.length : first,
      });
    return Array.from(second, (v, i) => ({
      first: scalar(fn, 'labels', (first as ArrayLike<unknown>)[i], [i]),
      second: scalar(fn, 'scores', v, [i]),
    }));
  }
  return Array.from(second, (r, i) => ({ first: null, second: numbers(fn, 'scores', r, [i]) }));
}

/** The canonical order of rows (by their JSON text), so merges in any grouping give identical results. */
export function canonicalRows(rows: readonly Row[]): Row[] {
  return rows
    .map((r) => ({ r, key: JSON.stringify([r.first, r.second, r.weight]) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((k) => k.r);
}

/** Reads kept rows from JSON, checking every field (finite numbers, consistent nesting, weights > 0). */
export function rowsFromJSON(json: unknown, at: JsonPath, layout: RowsLayout): Row[] {
  const list = at.array(json);
  return list.map((x, i) => {
    const here = at.at(i);
    const [first, second, weight] = here.array(x, 3);
    if (first !== null && (typeof first !== 'number' || !Number.isFinite(first)))
      here.at(0).fail('be a finite number or null', first);
    if (typeof weight !== 'number' || !Number.isFinite(weight) || !(weight > 0))
      here.at(2).fail('be a finite number > 0 (a weight)', weight);
    let value: Row['second'];
    if (layout === 'pairs') {
      if (typeof second !== 'number' || !Number.isFinite(second)) here.at(1).fail('be a finite number', second);
      value = second as number;
    } else if (layout === 'matrix') value = Array.from(here.at(1).numbers(second));
    else
      value = here
        .at(1)
        .array(second)
        .map((m, s) => Array.from(here.at(1).at(s).numbers(m)));
    return { first: first as number | null, second: value, weight: weight as number };
  });
}
