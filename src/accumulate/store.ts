import { UMError } from '../errors/UMError.js';
import type { LabeledBatch } from '../input/types.js';
import { ExactSum } from '../math/exactSum.js';

/**
 * What every accumulator of a mergeable state is (internal): it takes batches (each store its own kind of input),
 * merges another store of the same configuration exactly, and is plain JSON. One store per file:
 * `fixedBins.ts`, `keptEntries.ts`, `grid.ts`, `meanStore.ts`, `rowsStore.ts`.
 */
export interface Store {
  readonly kind: string;
  /** Adds another store of the same kind and configuration (exact, associative and commutative to the bit). */
  merge(other: Store): void;
  /**
   * The store as plain data. With `typed`, long number lists are `Float64Array`s instead of arrays (the form passed
   * between threads: a worker transfers their memory, so they must be copies of the store's own, never shared);
   * `fromJSON` reads both.
   */
  toJSON(typed?: boolean): unknown;
}

/** A store a metric brings itself (its own sufficient statistics): it takes validated batches. */
export interface CustomStore extends Store {
  add(batch: LabeledBatch): void;
}

/** Where a state JSON is being read, for messages naming the bad field (`state.stores[2].groups[0].scores[5]`). */
export class JsonPath {
  constructor(
    readonly fn: string,
    readonly path: string,
  ) {}

  at(key: string | number): JsonPath {
    return new JsonPath(this.fn, typeof key === 'number' ? `${this.path}[${key}]` : `${this.path}.${key}`);
  }

  /** Throws `UM_STATE` naming this field. */
  fail(requirement: string, value?: unknown): never {
    const shown = value === undefined ? '' : `; got ${describe(value)}`;
    throw new UMError('UM_STATE', `${this.fn}: ${this.path} must ${requirement}${shown}`, {
      fn: this.fn,
      argument: this.path,
      ...(value === undefined ? {} : { value }),
    });
  }

  object(json: unknown): Record<string, unknown> {
    if (json === null || typeof json !== 'object' || Array.isArray(json)) this.fail('be an object', json);
    return json as Record<string, unknown>;
  }

  array(json: unknown, length?: number): unknown[] {
    if (!Array.isArray(json)) this.fail('be an array', json);
    if (length !== undefined && json.length !== length) this.fail(`have ${length} entries`, json.length);
    return json;
  }

  /** An array of finite numbers (each checked by `ok` when given, with the requirement `what`). */
  numbers(json: unknown, length?: number, ok?: (x: number) => boolean, what = 'be a finite number'): Float64Array {
    // the typed form of a store (passed between threads) is checked alike and kept without a copy
    const typed = json instanceof Float64Array;
    if (typed && length !== undefined && json.length !== length) this.fail(`have ${length} entries`, json.length);
    const a: ArrayLike<unknown> = typed ? json : this.array(json, length);
    const out = typed ? json : new Float64Array(a.length);
    for (let i = 0; i < a.length; i++) {
      const x = a[i];
      if (typeof x !== 'number' || !Number.isFinite(x) || (ok !== undefined && !ok(x))) this.at(i).fail(what, x);
      out[i] = x as number;
    }
    return out;
  }

  /**
   * Outcomes, each 0 or 1: a `Uint8Array` (the typed form of a one-group store's) checked and kept without a copy, or
   * numbers read as {@link numbers} reads them.
   */
  flags(json: unknown, length: number): Float64Array | Uint8Array {
    if (!(json instanceof Uint8Array)) return this.numbers(json, length, (v) => v === 0 || v === 1, 'be 0 or 1');
    if (json.length !== length) this.fail(`have ${length} entries`, json.length);
    for (let i = 0; i < json.length; i++) if ((json[i] as number) > 1) this.at(i).fail('be 0 or 1', json[i]);
    return json;
  }

  /** A whole number in [min, max]. */
  integer(json: unknown, min: number, max: number): number {
    if (typeof json !== 'number' || !Number.isInteger(json) || json < min || json > max)
      this.fail(`be an integer in [${min}, ${max}]`, json);
    return json;
  }

  exactSum(json: unknown): ExactSum {
    const s = ExactSum.fromJSON(json);
    if (typeof s === 'string') this.fail(s, json);
    return s;
  }

  exactSums(json: unknown, length: number): ExactSum[] {
    return this.array(json, length).map((x, i) => this.at(i).exactSum(x));
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (value !== null && typeof value === 'object') return 'an object';
  return String(value);
}

/**
 * A list of numbers as a JSON array, or (typed) as a copy in a `Float64Array` of its own (see {@link Store.toJSON}: a
 * worker thread transfers it, so it must share no memory with the store).
 */
export function numberList(values: ArrayLike<number>, typed: boolean): number[] | Float64Array {
  // the constructor copies a typed array as memory; Float64Array.from goes through its iterator value by value
  return typed ? new Float64Array(values) : Array.from(values);
}

/**
 * Outcomes as bytes, the typed form of a one-group store's outcomes (9 bytes per entry with its score), when every
 * one is 0 or 1; `undefined` otherwise (the caller then posts float64 numbers, which reading checks and refuses with
 * the entry named): a byte copy of 0.5 or 256 would silently be 0.
 */
export function outcomeBytes(outcomes: ArrayLike<number>): Uint8Array | undefined {
  for (let i = 0; i < outcomes.length; i++) {
    const o = outcomes[i] as number;
    if (o !== 0 && o !== 1) return undefined;
  }
  return Uint8Array.from(outcomes);
}

/** Whole numbers ≥ 0 (counts). */
export const isCount = (x: number): boolean => Number.isInteger(x) && x >= 0;
