import type { JsonPath } from '../accumulate/store.js';
import { fail } from '../errors/fail.js';

type Kind = 'rows' | 'confidence' | 'uncertainty';
type Side = { kind: Kind; rows: (number | number[])[]; weights: number[] };

const SIDES = ['inDistribution', 'outOfDistribution'] as const;

/** One side of an OoD input as rows: score rows, or given confidences or uncertainties (internal). */
function sideRows(fn: string, argument: string, side: unknown): { kind: Kind; rows: (number | number[])[] } {
  const list = (x: unknown, k: number[]): number[] => {
    if (x === null || typeof x !== 'object' || typeof (x as { length?: unknown }).length !== 'number')
      return fail('UM_SHAPE', fn, argument, 'be an array of numbers', { index: k, value: x });
    return Array.from(x as ArrayLike<unknown>, (v, j) =>
      typeof v === 'number' ? v : fail('UM_NOT_FINITE', fn, argument, 'be a number', { index: [...k, j], value: v }),
    );
  };
  if (side !== null && typeof side === 'object' && !Array.isArray(side) && !ArrayBuffer.isView(side)) {
    const o = side as Record<string, unknown>;
    const kind = 'confidence' in o ? 'confidence' : 'uncertainty' in o ? 'uncertainty' : undefined;
    if (kind === undefined)
      return fail('UM_SHAPE', fn, argument, 'be score rows, { confidence } or { uncertainty }', { value: side });
    return { kind, rows: list(o[kind], []) };
  }
  if (side === null || typeof side !== 'object')
    return fail('UM_SHAPE', fn, argument, 'be score rows, { confidence } or { uncertainty }', { value: side });
  return { kind: 'rows', rows: Array.from(side as ArrayLike<unknown>, (r, i) => list(r, [i])) };
}

/** Both sides' samples of an OoD state, with their weights (internal). */
export class OodSides {
  private sides: [Side | undefined, Side | undefined] = [undefined, undefined];

  add(fn: string, inside: unknown, outside: unknown, weights: unknown): void {
    const w = (weights ?? {}) as Partial<Record<(typeof SIDES)[number], ArrayLike<unknown>>>;
    [inside, outside].forEach((side, k) => {
      if (side === null || side === undefined) return;
      const name = SIDES[k] as (typeof SIDES)[number];
      const { kind, rows } = sideRows(fn, name, side);
      const given = w[name];
      if (given !== undefined && given.length !== rows.length)
        fail('UM_SHAPE', fn, `options.weights.${name}`, `have one weight per sample (${rows.length})`, {
          value: given.length,
        });
      const current = this.sides[k];
      if (current !== undefined && current.kind !== kind)
        fail(
          'UM_STATE',
          fn,
          name,
          `be ${current.kind === 'rows' ? 'score rows' : `{ ${current.kind} }`} like the earlier batches`,
          { value: kind },
        );
      const target = current ?? (this.sides[k] = { kind, rows: [], weights: [] });
      rows.forEach((r, i) => {
        const wi = given === undefined ? 1 : given[i];
        if (typeof wi !== 'number' || !Number.isFinite(wi) || wi < 0)
          fail('UM_OPTION', fn, `options.weights.${name}`, 'be finite numbers ≥ 0', { index: [i], value: wi });
        target.rows.push(r);
        target.weights.push(wi);
      });
    });
  }

  merge(fn: string, other: OodSides): void {
    other.sides.forEach((side, k) => {
      if (side === undefined) return;
      const mine = this.sides[k];
      if (mine === undefined) this.sides[k] = { kind: side.kind, rows: [...side.rows], weights: [...side.weights] };
      else {
        if (mine.kind !== side.kind)
          fail('UM_STATE', fn, 'other', 'hold the same kind of samples on each side', { value: side.kind });
        for (const r of side.rows) mine.rows.push(r);
        for (const x of side.weights) mine.weights.push(x);
      }
    });
  }

  /** Both sides in a canonical order, as the function takes them, and their weights (`undefined` when all are 1). */
  canonical(fn: string): {
    inside: unknown;
    outside: unknown;
    weights: { inDistribution: number[]; outOfDistribution: number[] } | undefined;
  } {
    const [a, b] = this.sides;
    if (a === undefined || b === undefined)
      fail('UM_EMPTY', fn, 'state', 'hold samples of both sides (call update first)');
    const order = (s: Side) =>
      s.rows
        .map((r, i) => ({ i, key: JSON.stringify([r, s.weights[i]]) }))
        .sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
    const side = (s: Side) => {
      const o = order(s);
      const rows = o.map((x) => s.rows[x.i]);
      return { value: s.kind === 'rows' ? rows : { [s.kind]: rows }, weights: o.map((x) => s.weights[x.i] as number) };
    };
    const x = side(a);
    const y = side(b);
    const weighted = [...x.weights, ...y.weights].some((v) => v !== 1);
    return {
      inside: x.value,
      outside: y.value,
      weights: weighted ? { inDistribution: x.weights, outOfDistribution: y.weights } : undefined,
    };
  }

  toJSON(): unknown {
    return { sides: this.sides.map((s) => s ?? null) };
  }

  load(json: unknown, at: JsonPath): void {
    const list = at.at('sides').array(at.object(json).sides, 2);
    this.sides = [undefined, undefined];
    list.forEach((x, k) => {
      if (x === null) return;
      const here = at.at('sides').at(k);
      const o = here.object(x);
      if (o.kind !== 'rows' && o.kind !== 'confidence' && o.kind !== 'uncertainty')
        here.at('kind').fail("be 'rows', 'confidence' or 'uncertainty'", o.kind);
      const rows = here
        .at('rows')
        .array(o.rows)
        .map((r, i) =>
          o.kind === 'rows'
            ? Array.from(here.at('rows').at(i).numbers(r))
            : (here.at('rows').numbers([r])[0] as number),
        );
      const weights = Array.from(
        here.at('weights').numbers(o.weights, rows.length, (v) => v >= 0, 'be a finite number ≥ 0'),
      );
      this.sides[k] = { kind: o.kind as Kind, rows, weights };
    });
  }
}
