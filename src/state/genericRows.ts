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
  /**
   * Whether every batch of pairs came as a Float32Array: the function then gets a Float32Array again, so a preset that
   * keeps the input's precision (torchmetrics' binary calibration error) computes as it does on the whole input.
   */
  private float32: boolean | null = null;
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
    if (this.metric.layout === 'pairs') this.float32 = (this.float32 ?? true) && second instanceof Float32Array;
    if (weights !== undefined && weights.length !== rows.length) fail('UM_SHAPE', fn, 'options.weights', `have one weight per row (${rows.length})`, { value: weights.length });
    rows.forEach((r, i) => {
      const weight = weights === undefined ? 1 : (weights[i] as number);
      if (weight > 0) this.rows.push({ ...r, weight });
    });
  }
  merge(other: Part): void {
    const o = other as GenericRowsPart;
    this.rows.push(...o.rows);
    if (o.float32 !== null) this.float32 = (this.float32 ?? true) && o.float32;
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
    const seconds = rows.map((r) => r.second);
    return this.metric.call(this.metric.layout === 'pairs' ? firsts : null, this.float32 === true ? Float32Array.from(seconds as number[]) : seconds, options);
  }
  bound(): number {
    return 0;
  }
  toJSON(): unknown {
    return this.float32 === true ? { rows: this.rows, float32: true } : { rows: this.rows };
  }
  load(json: unknown): void {
    const j = json as { rows: Row[]; float32?: unknown };
    if (!Array.isArray(j.rows)) throw new Error('rows must be an array');
    this.rows = j.rows.map((r) => ({ first: r.first, second: r.second, weight: Number(r.weight) }));
    this.float32 = j.float32 === true ? true : j.rows.length > 0 && this.metric.layout === 'pairs' ? false : null;
  }
}

type Side = { kind: 'rows' | 'confidence' | 'uncertainty'; rows: unknown[]; weights: number[] };

/** One side of an OoD input as rows: score rows, or given confidences or uncertainties (internal). */
function sideRows(fn: string, argument: string, side: unknown): { kind: Side['kind']; rows: unknown[] } {
  if (side !== null && typeof side === 'object' && !Array.isArray(side) && !ArrayBuffer.isView(side)) {
    const o = side as Record<string, unknown>;
    const kind = 'confidence' in o ? 'confidence' : 'uncertainty' in o ? 'uncertainty' : undefined;
    const v = kind === undefined ? undefined : o[kind];
    if (kind === undefined || v === null || typeof v !== 'object') return fail('UM_SHAPE', fn, argument, 'be score rows, { confidence } or { uncertainty }', { value: side });
    return { kind, rows: Array.from(v as ArrayLike<unknown>) };
  }
  if (side === null || typeof side !== 'object') return fail('UM_SHAPE', fn, argument, 'be score rows, { confidence } or { uncertainty }', { value: side });
  return { kind: 'rows', rows: Array.from(side as ArrayLike<unknown>, (r) => (r !== null && typeof r === 'object' ? Array.from(r as ArrayLike<number>) : r)) };
}

/**
 * OoD metrics (`oodAuroc`, `fprAtTpr`, `oodCurve`) in exact mode: keeps each side's rows (score rows or given values)
 * and weights, and recomputes on both sides in a canonical order.
 */
export class OodRowsPart implements Part {
  readonly config: unknown;
  private sides: [Side | undefined, Side | undefined] = [undefined, undefined];
  constructor(
    readonly name: string,
    private readonly call: (inside: unknown, outside: unknown, options: Record<string, unknown>) => unknown,
    private readonly options: Record<string, unknown>,
  ) {
    this.config = { ood: name, options: JSON.parse(JSON.stringify(options)) as unknown };
  }
  add(fn: string): void {
    fail('UM_STATE', fn, 'scores', 'go through addSides for an OoD state');
  }
  addSides(fn: string, inside: unknown, outside: unknown, weights: { inDistribution?: ArrayLike<number>; outOfDistribution?: ArrayLike<number> } = {}): void {
    [inside, outside].forEach((side, k) => {
      if (side === null || side === undefined) return;
      const name = k === 0 ? 'inDistribution' : 'outOfDistribution';
      const { kind, rows } = sideRows(fn, name, side);
      const w = weights[name];
      if (w !== undefined && w.length !== rows.length) fail('UM_SHAPE', fn, `options.weights.${name}`, `have one weight per sample (${rows.length})`, { value: w.length });
      const current = this.sides[k];
      if (current !== undefined && current.kind !== kind) fail('UM_STATE', fn, name, `be ${current.kind === 'rows' ? 'score rows' : `{ ${current.kind} }`} like the earlier batches`, { value: kind });
      const target = current ?? (this.sides[k] = { kind, rows: [], weights: [] });
      rows.forEach((r, i) => {
        const wi = w === undefined ? 1 : Number(w[i]);
        if (!(wi >= 0)) fail('UM_OPTION', fn, `options.weights.${name}`, 'be numbers ≥ 0', { index: [i], value: w?.[i] });
        target.rows.push(r);
        target.weights.push(wi);
      });
    });
  }
  merge(other: Part): void {
    const o = other as OodRowsPart;
    o.sides.forEach((side, k) => {
      if (side === undefined) return;
      const mine = this.sides[k];
      if (mine === undefined) this.sides[k] = { kind: side.kind, rows: [...side.rows], weights: [...side.weights] };
      else {
        if (mine.kind !== side.kind) fail('UM_STATE', `${this.name}.merge`, 'other', 'hold the same kind of samples on each side', { value: side.kind });
        mine.rows.push(...side.rows);
        mine.weights.push(...side.weights);
      }
    });
  }
  result(fn: string): unknown {
    const [a, b] = this.sides;
    if (a === undefined || b === undefined) fail('UM_EMPTY', fn, 'state', 'hold samples of both sides (call update first)');
    const canonical = (s: Side) => {
      const order = s.rows.map((r, i) => ({ i, key: JSON.stringify([r, s.weights[i]]) })).sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
      const rows = order.map((o) => s.rows[o.i]);
      return { value: s.kind === 'rows' ? rows : { [s.kind]: rows }, weights: order.map((o) => s.weights[o.i] as number) };
    };
    const ca = canonical(a);
    const cb = canonical(b);
    const weighted = [...ca.weights, ...cb.weights].some((v) => v !== 1);
    return this.call(ca.value, cb.value, weighted ? { ...this.options, weights: { inDistribution: ca.weights, outOfDistribution: cb.weights } } : this.options);
  }
  bound(): number {
    return 0;
  }
  toJSON(): unknown {
    return { sides: this.sides.map((s) => s ?? null) };
  }
  load(json: unknown): void {
    const j = json as { sides: (Side | null)[] };
    if (!Array.isArray(j.sides) || j.sides.length !== 2) throw new Error('two sides expected');
    this.sides = [j.sides[0] ?? undefined, j.sides[1] ?? undefined];
  }
}
