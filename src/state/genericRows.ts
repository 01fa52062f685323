import { fail } from '../errors/fail.js';
import type { ProbMatrix } from '../input/types.js';
import type { Part } from './parts.js';

/**
 * How a function's arguments hold rows: `'pairs'` — outcomes[N] and probabilities[N]; `'members'` — optional
 * labels[N] and ensemble members [S][N][C] (rows on the second axis); `'matrix'` — one matrix [N][M] (log-likelihoods).
 */
export type RowsLayout = 'pairs' | 'members' | 'matrix';

/** A function recomputed on the kept rows: called as `call(first, second, options)`. */
export interface GenericRowsMetric {
  layout: RowsLayout;
  /** Whether the first argument (labels, outcomes) is required. */
  labeled: boolean;
  weighted: boolean;
  /** The option the function takes its frequency weights by (default `weights`). */
  weightKey?: string;
  call: (first: unknown, second: unknown, options: Record<string, unknown>) => unknown;
}

type Row = { first: unknown; second: unknown; weight: number };

function rowsOf(fn: string, layout: RowsLayout, first: unknown, second: unknown): { first: unknown; second: unknown }[] {
  const isList = (x: unknown): x is ArrayLike<unknown> => x !== null && typeof x === 'object' && typeof (x as { length?: unknown }).length === 'number';
  if (!isList(second)) return fail('UM_SHAPE', fn, 'scores', layout === 'members' ? 'be nested members [S][n][C]' : 'be an array with one entry per row', { value: second });
  if (layout === 'members') {
    const members = Array.from(second, (m) => (isList(m) ? Array.from(m, (r) => (isList(r) ? Array.from(r as ArrayLike<number>) : r)) : fail('UM_SHAPE', fn, 'scores', 'be nested members [S][n][C]', { value: m })));
    const n = members[0]?.length ?? 0;
    members.forEach((m, s) => {
      if (m.length !== n) fail('UM_SHAPE', fn, 'scores', `have ${n} rows in every member`, { index: [s], value: m.length });
    });
    if (first !== null && first !== undefined && (!isList(first) || first.length !== n)) fail('UM_SHAPE', fn, 'labels', `have one entry per row (${n})`, { value: isList(first) ? first.length : first });
    return Array.from({ length: n }, (_, i) => ({ first: first === null || first === undefined ? null : (first as ArrayLike<unknown>)[i], second: members.map((m) => m[i]) }));
  }
  const rows = Array.from(second, (r) => (isList(r) ? Array.from(r as ArrayLike<number>) : r));
  if (layout === 'pairs' && (!isList(first) || first.length !== rows.length)) fail('UM_SHAPE', fn, 'labels', `have one outcome per probability (${rows.length})`, { value: isList(first) ? first.length : first });
  return rows.map((r, i) => ({ first: layout === 'pairs' ? (first as ArrayLike<unknown>)[i] : null, second: r }));
}

/**
 * Exact mode for the metrics of other shapes (binary pairs, ensemble members, log-likelihood matrices): keeps the
 * rows and recomputes the function on them in a canonical order (by their JSON text), so merges in any grouping give
 * identical results. Values are validated by the function when `result()` runs; shapes when rows are added.
 */
export class GenericRowsPart implements Part {
  readonly config: unknown;
  private rows: Row[] = [];
  constructor(
    readonly name: string,
    private readonly metric: GenericRowsMetric,
    private readonly options: Record<string, unknown>,
  ) {
    this.config = { rows: name, options: JSON.parse(JSON.stringify(options)) as unknown };
  }
  add(fn: string, _p: ProbMatrix): void {
    fail('UM_STATE', fn, 'scores', `go through addRows for ${this.name}`);
  }
  addRows(fn: string, first: unknown, second: unknown, weights: Float64Array | undefined): void {
    if (this.metric.labeled && (first === null || first === undefined)) fail('UM_SHAPE', fn, 'labels', `be given: ${this.name} needs them`, { value: first });
    if (weights !== undefined && !this.metric.weighted && weights.some((v) => v !== 1)) fail('UM_OPTION', fn, 'weights', `not be given: ${this.name} has no sample weights`);
    const rows = rowsOf(fn, this.metric.layout, first, second);
    if (weights !== undefined && weights.length !== rows.length) fail('UM_SHAPE', fn, 'options.weights', `have one weight per row (${rows.length})`, { value: weights.length });
    rows.forEach((r, i) => {
      const weight = weights === undefined ? 1 : (weights[i] as number);
      if (weight > 0) this.rows.push({ ...r, weight });
    });
  }
  merge(other: Part): void {
    this.rows.push(...(other as GenericRowsPart).rows);
  }
  result(fn: string): unknown {
    if (this.rows.length === 0) fail('UM_EMPTY', fn, 'state', 'hold at least one row (call update first)');
    const keyed = this.rows.map((r) => ({ r, key: JSON.stringify([r.first, r.second, r.weight]) }));
    keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const rows = keyed.map((k) => k.r);
    const w = rows.map((r) => r.weight);
    const options = w.every((v) => v === 1) ? this.options : { ...this.options, [this.metric.weightKey ?? 'weights']: w };
    const firsts = rows.map((r) => r.first);
    if (this.metric.layout === 'members') {
      const s = (rows[0]?.second as unknown[]).length;
      const members = Array.from({ length: s }, (_, m) => rows.map((r) => (r.second as unknown[])[m]));
      return this.metric.call(this.metric.labeled ? firsts : null, members, options);
    }
    return this.metric.call(this.metric.layout === 'pairs' ? firsts : null, rows.map((r) => r.second), options);
  }
  bound(): number {
    return 0;
  }
  toJSON(): unknown {
    return { rows: this.rows };
  }
  load(json: unknown): void {
    const j = json as { rows: Row[] };
    if (!Array.isArray(j.rows)) throw new Error('rows must be an array');
    this.rows = j.rows.map((r) => ({ first: r.first, second: r.second, weight: Number(r.weight) }));
  }
}
