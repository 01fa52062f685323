/**
 * Seeded generators of hostile values and mutations of valid calls, shared by the fuzz tests. Every mutation copies
 * what it changes: seeds are never modified, so any case is reproduced from (seed, function, case number) alone.
 */

/** A small seeded generator (mulberry32): the same seed gives the same cases on every machine. */
export class Rand {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  /** Uniform in [0, 1). */
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)] as T;
  }
}

/** Mixes a run seed with a name and a case number into one 32-bit seed (FNV-1a). */
export function caseSeed(seed: number, name: string, i: number): number {
  let h = 0x811c9dc5 ^ seed;
  for (const ch of `${name}#${i}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
  return h >>> 0;
}

/** Numbers at the edges of float64, of probabilities and of integers. */
export const SPECIAL_NUMBERS: readonly number[] = [
  NaN,
  Infinity,
  -Infinity,
  1e308,
  -1e308,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  Number.MIN_VALUE,
  -Number.MIN_VALUE,
  2.2250738585072014e-308,
  1e-300,
  -0,
  0,
  1,
  -1,
  0.5,
  2,
  3,
  1.5,
  -0.5,
  1 + 2 ** -52,
  1 - 2 ** -53,
  -1e-17,
  1e-17,
  1.0001,
  0.9999,
  2 ** 31,
  2 ** 32,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 31),
  1e9,
  1e15,
  1e300,
  -1e300,
];

/** Count-like values: valid, at the library's bound 2^20, beyond it, and not integers at all. */
export const COUNTS: readonly unknown[] = [
  0,
  1,
  2,
  3,
  -1,
  1.5,
  7,
  1000,
  2 ** 12,
  2 ** 20 + 1,
  2 ** 31,
  1e9,
  1e15,
  Infinity,
  NaN,
  '10',
  null,
];

/** Names of count-like options (the values above are tried on them more often). */
export const COUNT_KEY =
  /^(bins|samples|resamples|repeats|thresholds|folds|bootstrap|threads|batchRows|batchSize|maxEvaluations|top|cellBits|seed|numClasses|numMembers|passes|maxBins)$/;

const TYPED = [
  Float64Array,
  Float32Array,
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
] as const;

/** A typed array of a random kind holding `xs` (converted by that kind's rules: wrapped, clamped, rounded). */
export function typedOf(r: Rand, xs: readonly unknown[]): ArrayBufferView {
  const nums = xs.map((x) => (typeof x === 'number' ? x : 0));
  if (r.chance(0.08))
    return r.chance(0.5)
      ? BigInt64Array.from(nums.map((x) => BigInt(Number.isFinite(x) ? Math.trunc(x) : 0)))
      : new DataView(new ArrayBuffer(nums.length * 8));
  const Kind = r.pick(TYPED);
  return Kind.from(nums);
}

const STRINGS: readonly string[] = [
  '',
  ' ',
  'abc',
  '0.5',
  '1',
  '-1',
  '1e999',
  'true',
  'null',
  '__proto__',
  'constructor',
  'toString',
  '\u0000',
  '\ud800',
  'é',
  'x'.repeat(5000),
  'a,b',
  '"quoted"',
  '../x',
  'p_0',
  'label',
];

/** A value of the wrong type (or an odd one of the right type). */
export function hostile(r: Rand): unknown {
  switch (r.int(24)) {
    case 0:
      return null;
    case 1:
      return undefined;
    case 2:
      return r.pick(SPECIAL_NUMBERS);
    case 3:
      return r.pick(STRINGS);
    case 4:
      return r.chance(0.5);
    case 5:
      return {};
    case 6:
      return [];
    case 7:
      return [[]];
    case 8:
      return [null, undefined];
    case 9:
      return { length: 3 };
    case 10:
      return () => 0.5;
    case 11:
      return Symbol('fuzz');
    case 12:
      return 10n;
    case 13:
      return new Date(0);
    case 14:
      return new Map([[0, 1]]);
    case 15:
      return Object.create(null) as object;
    case 16:
      return typedOf(r, [0.25, 0.75, 1, 0]);
    case 17:
      return new ArrayBuffer(16);
    case 18:
      return [, 0.5]; // eslint-disable-line no-sparse-arrays
    case 19:
      return [[[[0.5]]]];
    case 20:
      return Promise.resolve([0.5]);
    case 21:
      return [Symbol('in an array'), 1n];
    case 22:
      return JSON.parse('{"__proto__": {"polluted": 1}, "constructor": 5}') as object;
    default:
      return [r.pick(SPECIAL_NUMBERS), r.pick(SPECIAL_NUMBERS)];
  }
}

/** Whether `x` is copied and walked into (arrays, typed arrays and plain data objects) or kept as it is. */
export function isPlainData(x: unknown): x is Record<string, unknown> {
  if (x === null || typeof x !== 'object' || Array.isArray(x) || ArrayBuffer.isView(x)) return false;
  const proto = Object.getPrototypeOf(x) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  // objects with behaviour (states, engines, clients) are kept whole; only a per-call onWarning is data
  return Object.entries(x).every(([k, v]) => typeof v !== 'function' || k === 'onWarning');
}

/** A deep copy of arrays, typed arrays and plain data objects; anything else is shared. */
export function clone<T>(x: T): T {
  if (Array.isArray(x)) {
    const out = new Array(x.length) as unknown[];
    for (let i = 0; i < x.length; i++) if (i in x) out[i] = clone(x[i]);
    return out as T;
  }
  if (ArrayBuffer.isView(x) && !(x instanceof DataView)) return (x as unknown as { slice(): T }).slice();
  if (isPlainData(x)) {
    const out: Record<string, unknown> =
      Object.getPrototypeOf(x) === null ? (Object.create(null) as Record<string, unknown>) : {};
    for (const k of Object.keys(x))
      Object.defineProperty(out, k, { value: clone(x[k]), enumerable: true, writable: true, configurable: true });
    return out as T;
  }
  return x;
}

/** Words seen in valid calls: option keys with their values, and every string (enum values, names). */
export interface Vocabulary {
  options: Map<string, unknown[]>;
  strings: string[];
}

export function vocabulary(calls: readonly (readonly unknown[])[], extraStrings: readonly string[]): Vocabulary {
  const options = new Map<string, unknown[]>();
  const strings = new Set<string>(extraStrings);
  const visit = (x: unknown, depth: number): void => {
    if (depth > 6) return;
    if (typeof x === 'string' && x.length < 200) strings.add(x);
    else if (Array.isArray(x)) x.slice(0, 20).forEach((v) => visit(v, depth + 1));
    else if (isPlainData(x)) {
      for (const [k, v] of Object.entries(x)) {
        const seen = options.get(k) ?? [];
        if (seen.length < 12) seen.push(v);
        options.set(k, seen);
        visit(v, depth + 1);
      }
    }
  };
  calls.forEach((args) => visit(args, 0));
  return { options, strings: [...strings] };
}

/** A place in the arguments: the container and the key of the value there. */
interface Slot {
  parent: Record<string | number, unknown>;
  key: string | number;
  value: unknown;
}

/** Every slot below `root` (values of arrays and plain objects), at most `limit`, sampled evenly from long arrays. */
function slots(root: unknown[], limit = 400): Slot[] {
  const out: Slot[] = [];
  const visit = (
    parent: Record<string | number, unknown>,
    key: string | number,
    value: unknown,
    depth: number,
  ): void => {
    if (out.length >= limit || depth > 8) return;
    out.push({ parent, key, value });
    // typed arrays are changed as a whole (mutateArray): an entry of another type cannot be stored in them
    if (Array.isArray(value)) {
      const a = value as unknown[];
      const step = Math.max(1, Math.floor(a.length / 16));
      for (let i = 0; i < a.length; i += step) visit(a as unknown as Record<number, unknown>, i, a[i], depth + 1);
    } else if (isPlainData(value)) {
      for (const k of Object.keys(value)) visit(value, k, value[k], depth + 1);
    }
  };
  root.forEach((v, i) => visit(root as unknown as Record<number, unknown>, i, v, 0));
  return out;
}

/** The number of entries in a value (nested arrays counted through), capped. */
function leaves(x: unknown): number {
  if (Array.isArray(x)) return x.reduce((n: number, e) => Math.min(1e6, n + leaves(e)), 0);
  return ArrayBuffer.isView(x) ? (x as unknown as ArrayLike<unknown>).length : 1;
}

const asList = (x: unknown): unknown[] => (Array.isArray(x) ? x : Array.from(x as ArrayLike<unknown>));

/** A changed copy of an array or typed array: emptied, cut, grown, ragged, retyped, flattened or made huge. */
function mutateArray(r: Rand, a: unknown, v: Vocabulary): unknown {
  const xs = asList(a);
  switch (r.int(15)) {
    case 14: {
      // one entry special, in the array's own kind
      if (xs.length === 0 || a instanceof BigInt64Array || a instanceof BigUint64Array) return [];
      const out = (
        Array.isArray(a) ? a.slice() : (a as unknown as { slice(): Record<number, unknown> }).slice()
      ) as Record<number, unknown>;
      out[r.int(xs.length)] = r.pick(SPECIAL_NUMBERS);
      return out;
    }
    case 0:
      return [];
    case 1:
      return xs.slice(0, r.int(xs.length + 1));
    case 2:
      return [...xs, clone(xs[r.int(xs.length)] ?? hostile(r))];
    case 3:
      return [...xs, hostile(r)];
    case 4:
      return typedOf(r, xs.flat(3));
    case 5:
      return xs.flat(3);
    case 6:
      return [xs];
    case 7: {
      const out = xs.slice();
      Reflect.deleteProperty(out, r.int(out.length));
      return out;
    } // a hole
    case 8:
      return xs.slice().reverse();
    case 9: {
      // a huge dimension: many more entries of the same values (a row of thousands of classes, or rows)
      const each = Math.max(1, leaves(xs[0]));
      const size = Math.max(xs.length, Math.floor(r.pick([1000, 5000, 40_000]) / each));
      return Array.from({ length: size }, (_, i) => clone(xs[i % Math.max(1, xs.length)] ?? 0));
    }
    case 10:
      return xs.map((x) => (Array.isArray(x) && x.length > 1 && r.chance(0.3) ? x.slice(1) : x)); // ragged rows
    case 11:
      return xs.map(() => r.pick(SPECIAL_NUMBERS));
    case 12:
      return xs.map((x) => (typeof x === 'number' ? x * r.pick([1.5, -1, 0, 1e308, 1e-308, 2 ** 20]) : x));
    default:
      return xs.map((x) => (typeof x === 'string' ? r.pick(v.strings) : x));
  }
}

/** A changed copy of a plain object: unknown or polluting keys, a key dropped, a vocabulary key with a value. */
function mutateObject(r: Rand, o: Record<string, unknown>, v: Vocabulary): unknown {
  const out = clone(o);
  const keys = Object.keys(out);
  const set = (k: string, x: unknown) =>
    Object.defineProperty(out, k, { value: x, enumerable: true, writable: true, configurable: true });
  switch (r.int(7)) {
    case 0:
      set(
        r.pick(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'fuzzUnknown', 'then']),
        hostile(r),
      );
      return out;
    case 1:
      if (keys.length > 0) Reflect.deleteProperty(out, r.pick(keys));
      return out;
    case 2:
    case 3: {
      const k = r.pick([...v.options.keys()]);
      set(
        k,
        COUNT_KEY.test(k) && r.chance(0.5)
          ? r.pick(COUNTS)
          : r.chance(0.6)
            ? clone(r.pick(v.options.get(k) ?? [null]))
            : hostile(r),
      );
      return out;
    }
    case 4:
      return Object.assign(Object.create(clone(o)) as object, {}); // options inherited, none own
    case 5:
      return r.chance(0.5) ? null : [out];
    default:
      if (keys.length > 0) set(r.pick(keys), hostile(r));
      return out;
  }
}

/** A changed copy of one value, by its kind. */
export function mutateValue(r: Rand, x: unknown, key: string | number, v: Vocabulary): unknown {
  if (r.chance(0.1)) return hostile(r);
  if (typeof key === 'string' && COUNT_KEY.test(key) && r.chance(0.6)) return r.pick(COUNTS);
  if (typeof x === 'number')
    return r.chance(0.85)
      ? r.pick(SPECIAL_NUMBERS)
      : r.pick([String(x), [x], null, BigInt(Number.isInteger(x) && Math.abs(x) < 2 ** 53 ? x : 0)]);
  if (typeof x === 'string') return r.chance(0.7) ? r.pick(v.strings) : r.pick(STRINGS);
  if (typeof x === 'boolean') return r.chance(0.5) ? !x : r.pick([0, 1, 'true', null]);
  if (Array.isArray(x) || (ArrayBuffer.isView(x) && !(x instanceof DataView))) return mutateArray(r, x, v);
  if (isPlainData(x)) return mutateObject(r, x, v);
  return hostile(r);
}

/** Rows of the same length in every top-level array and in `options.weights`, resampled together (stays valid). */
function resampleRows(r: Rand, args: unknown[]): void {
  const lengths = args.filter((a) => Array.isArray(a) && a.length > 0).map((a) => (a as unknown[]).length);
  const n = lengths.sort((a, b) => lengths.filter((x) => x === b).length - lengths.filter((x) => x === a).length)[0];
  if (n === undefined) return;
  const size = r.pick([0, 1, 2, n, n, 3 * n + 1, 200]);
  const mode = r.int(3);
  const rows = Array.from({ length: size }, (_, i) =>
    mode === 0 ? i % n : mode === 1 ? r.int(n) : Math.min(n - 1, Math.floor((i * n) / Math.max(1, size))),
  );
  const take = (a: unknown[]) => rows.map((i) => clone(a[i]));
  args.forEach((a, i) => {
    if (Array.isArray(a) && a.length === n) args[i] = take(a);
    else if (isPlainData(a) && Array.isArray(a.weights) && a.weights.length === n)
      args[i] = { ...a, weights: take(a.weights) };
  });
}

/** Weights of `n` rows: negative, zero, huge, tiny, fractional, all equal, or not numbers. */
export function weights(r: Rand, n: number): unknown {
  const base = r.pick([1, 0, -1, 1e308, 1e-300, 0.5, 1e8, NaN, Infinity, 3]);
  const w = Array.from({ length: n }, () => (r.chance(0.3) ? base : r.pick([base, 1, 2, 0.25, 0, 1e300])));
  return r.chance(0.2) ? typedOf(r, w) : r.chance(0.1) ? w.slice(1) : w;
}

/** The number of rows a call is about: the most common length of its top-level arrays. */
function rowsOf(args: readonly unknown[]): number {
  const a = args.find((x) => Array.isArray(x) || ArrayBuffer.isView(x)) as ArrayLike<unknown> | undefined;
  return a?.length ?? 4;
}

/** Adds or replaces one option (in the last plain-object argument, or a new one at the end). */
function injectOption(r: Rand, args: unknown[], v: Vocabulary, presetNames: readonly string[]): void {
  let at = args.length - 1;
  while (at >= 0 && !isPlainData(args[at])) at--;
  if (at < 0 || r.chance(0.15)) {
    args.push({});
    at = args.length - 1;
  }
  const o = clone(args[at]) as Record<string, unknown>;
  switch (r.int(6)) {
    case 0:
      o.weights = weights(r, rowsOf(args));
      break;
    case 1:
      o.preset = r.chance(0.85) ? r.pick(presetNames) : r.pick(['sklearn-2', '', 'Default']);
      break;
    case 2:
      o.binary = r.chance(0.7) ? true : hostile(r);
      break;
    case 3:
      o.input = r.pick(['logits', 'logprobs', 'probs', 'predicted', 'binary']);
      break;
    case 4:
      o.onWarning = r.chance(0.8) ? () => {} : hostile(r);
      break;
    default: {
      const k = r.pick([...v.options.keys()]);
      o[k] = COUNT_KEY.test(k) && r.chance(0.5) ? r.pick(COUNTS) : clone(r.pick(v.options.get(k) ?? [null]));
    }
  }
  args[at] = o;
}

/** A mutated copy of a valid call: 0 (sometimes), 1, 2 or 3 mutations of different kinds. */
export function mutateCall(
  r: Rand,
  seed: readonly unknown[],
  v: Vocabulary,
  presetNames: readonly string[],
): unknown[] {
  const args = clone(seed) as unknown[];
  const count = r.chance(0.08) ? 0 : 1 + r.int(3);
  for (let m = 0; m < count; m++) {
    const kind = r.int(10);
    if (kind === 0 && args.length > 0) args[r.int(args.length)] = hostile(r);
    else if (kind === 1) {
      if (r.chance(0.5) && args.length > 0) args.pop();
      else args.push(hostile(r));
    } else if (kind === 2) resampleRows(r, args);
    else if (kind === 3) injectOption(r, args, v, presetNames);
    else {
      const all = slots(args);
      if (all.length === 0) continue;
      // leaves (numbers, strings) are most of the slots; structure mutations come from the containers
      const s = r.pick(all);
      s.parent[s.key] = mutateValue(r, s.value, s.key, v);
    }
  }
  return args;
}

/** A short description of a value for failure reports (special numbers and types visible, long arrays cut). */
export function describe(x: unknown, depth = 0): string {
  if (typeof x === 'number') return Object.is(x, -0) ? '-0' : String(x);
  if (typeof x === 'bigint') return `${x}n`;
  if (typeof x === 'string') return JSON.stringify(x.length > 40 ? `${x.slice(0, 40)}…(${x.length})` : x);
  if (typeof x === 'symbol' || typeof x === 'function' || x === undefined || x === null || typeof x === 'boolean')
    return String(x);
  if (depth > 3) return '…';
  if (Array.isArray(x) || ArrayBuffer.isView(x)) {
    const xs = x instanceof DataView ? [] : asList(x);
    // holes shown as such (a sparse array is one of the generated inputs)
    const head = Array.from({ length: Math.min(6, xs.length) }, (_, i) =>
      i in xs ? describe(xs[i], depth + 1) : '<hole>',
    ).join(', ');
    const name = Array.isArray(x) ? '' : x.constructor.name;
    return `${name}[${head}${xs.length > 6 ? `, …(${xs.length})` : ''}]`;
  }
  if (isPlainData(x))
    return `{${Object.entries(x)
      .map(([k, e]) => `${k}: ${describe(e, depth + 1)}`)
      .join(', ')}}`;
  return `<${(x as object).constructor?.name ?? 'object'}>`;
}
