/**
 * Runs one generated call and judges it: a result without NaN or undefined anywhere (±Infinity only where the
 * library says so with a `UM_W_INFINITE` warning), or a `UMError` with a known code and a one-line message starting
 * with the function's name — never another exception, never over the time limit.
 */
import { readFileSync } from 'node:fs';
import { setWarningHandler, type UMWarning } from '../../src/index.js';

/** The stable error codes, read from the type's declaration (so a new code needs no edit here). */
export const ERROR_CODES: ReadonlySet<string> = new Set(
  [
    ...readFileSync(new URL('../../src/errors/UMError.ts', import.meta.url), 'utf8').matchAll(/\|\s*'(UM_[A-Z_]+)'/g),
  ].map((m) => m[1] as string),
);

/**
 * Per-call limit of CPU time (ms; a case over it is run once more). CPU time, not wall time: on a loaded machine a
 * call waits for a core without doing more work, and other processes' load made the wall-time limit fail runs of
 * calls that take a fifth of it alone. A call that waits rather than computes is caught by {@link WAIT_LIMIT_MS}.
 */
export const LIMIT_MS = Number(process.env.UM_FUZZ_LIMIT_MS ?? 2000);
/** Per-call limit of wall time (ms): a hang or a long wait, whatever the load. */
const WAIT_LIMIT_MS = 10 * LIMIT_MS;

/**
 * Infinite values that are documented results rather than overflows (each named in the function's doc):
 * - the ROC curve starts at the threshold ±Infinity (its (0, 0) point, as scikit-learn's roc_curve) — rocCurve's
 *   result and a rocCurve state's;
 * - a validated matrix keeps exact log-probabilities, −Infinity for a probability of exactly 0 (toProbabilities,
 *   toEnsemble and tensorScores return such matrices; see ProbMatrix.logData; the LLM readers return one as `probs`).
 */
function documentedInfinite(path: string, x: number): boolean {
  return (
    /^result\.points\[0\]\.threshold$/.test(path) ||
    (x === -Infinity && /^result(\.scores|\.probs)?\.logData\[\d+\]$/.test(path))
  );
}

/**
 * A number that is wrong in a result: NaN, or ±Infinity neither warned about nor documented. `passThrough` names
 * result paths whose values are documented to be copied unvalidated (the readers read NaN and ±Infinity so that the
 * metrics, which validate every value, report them with their file position).
 */
function badNumber(path: string, x: number, infiniteAllowed: boolean, passThrough?: RegExp): string | undefined {
  if (passThrough?.test(path) === true) return undefined;
  if (Number.isNaN(x)) return `${path} is NaN`;
  if (!Number.isFinite(x) && !infiniteAllowed && !documentedInfinite(path, x))
    return `${path} is ${x} without a UM_W_INFINITE warning`;
  return undefined;
}

export interface Outcome {
  /** What is wrong with the call; empty when it passed. */
  problems: string[];
  /** 'value' | 'error' (a UMError) | 'other'. */
  kind: 'value' | 'error' | 'other';
  ms: number;
  code?: string;
}

/** Every problem in a result: NaN, undefined, or ±Infinity without a `UM_W_INFINITE` warning of the call. */
export function resultProblems(
  x: unknown,
  infiniteAllowed: boolean,
  path = 'result',
  seen = new Set<unknown>(),
  out: string[] = [],
  passThrough?: RegExp,
): string[] {
  if (out.length >= 3) return out;
  if (typeof x === 'number') {
    const bad = badNumber(path, x, infiniteAllowed, passThrough);
    if (bad !== undefined) out.push(bad);
    return out;
  }
  if (x === undefined) {
    out.push(`${path} is undefined`);
    return out;
  }
  if (x === null || typeof x !== 'object' || seen.has(x)) return out;
  seen.add(x);
  if (ArrayBuffer.isView(x)) {
    if (x instanceof DataView) return out;
    const a = x as unknown as ArrayLike<number | bigint>;
    for (let i = 0; i < a.length && out.length < 3; i++) {
      const v = a[i];
      const bad = typeof v === 'number' ? badNumber(`${path}[${i}]`, v, infiniteAllowed, passThrough) : undefined;
      if (bad !== undefined) out.push(bad);
    }
    return out;
  }
  if (Array.isArray(x)) {
    for (let i = 0; i < x.length && out.length < 3; i++)
      resultProblems(x[i], infiniteAllowed, `${path}[${i}]`, seen, out, passThrough);
    return out;
  }
  if (x instanceof Map) {
    for (const [k, v] of x) resultProblems(v, infiniteAllowed, `${path}.get(${String(k)})`, seen, out, passThrough);
    return out;
  }
  // plain results only: an instance of a class (a state, an engine, a tensor) keeps its data in its own fields, where
  // undefined means "not yet"; what it returns is checked through its methods (the states' result())
  const proto = Object.getPrototypeOf(x) as unknown;
  if (proto !== Object.prototype && proto !== null) return out;
  for (const [k, v] of Object.entries(x)) {
    if (typeof v === 'function') continue;
    resultProblems(v, infiniteAllowed, `${path}.${k}`, seen, out, passThrough);
  }
  return out;
}

function isAsyncIterable(x: unknown): x is AsyncIterable<unknown> {
  return (
    x !== null &&
    typeof x === 'object' &&
    typeof (x as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}

/** Replaces every per-call `onWarning` function in the arguments by one that also records the warning. */
function recordWarnings(args: unknown[], record: (w: UMWarning) => void, depth = 0): void {
  if (depth > 2) return;
  for (const a of args) {
    if (a === null || typeof a !== 'object' || Array.isArray(a) || ArrayBuffer.isView(a)) continue;
    const o = a as Record<string, unknown>;
    if (Object.getOwnPropertyDescriptor(o, 'onWarning')?.writable === true && typeof o.onWarning === 'function') {
      const user = o.onWarning as (w: UMWarning) => void;
      o.onWarning = (w: UMWarning) => {
        record(w);
        user(w);
      };
    }
  }
}

/**
 * Calls `f(...args)` (awaiting a promise, reading an async iterator) and judges the outcome. `name` is the
 * function's public name: a UMError's message must start with it (or with `prefix`, for methods of returned
 * objects). `voidResult`: the function returns nothing on success. `passThrough`: result paths whose numbers are
 * documented to be copied as they are (see badNumber).
 */
export async function judge(
  name: string,
  f: (...a: unknown[]) => unknown,
  args: unknown[],
  options: { prefix?: RegExp; voidResult?: boolean; after?: (result: unknown) => unknown; passThrough?: RegExp } = {},
): Promise<Outcome> {
  const warnings: UMWarning[] = [];
  const record = (w: UMWarning) => void warnings.push(w);
  recordWarnings(args, record);
  const previous = setWarningHandler(record);
  const start = performance.now();
  const cpu = process.cpuUsage();
  let result: unknown;
  let thrown: unknown;
  let threw = false;
  try {
    result = f(...args);
    if (result instanceof Promise) result = await result;
    if (isAsyncIterable(result)) {
      const items: unknown[] = [];
      for await (const item of result) if (items.length < 1000) items.push(item);
      result = items;
    }
    if (options.after !== undefined) {
      result = options.after(result);
      if (result instanceof Promise) result = await result;
    }
  } catch (e) {
    threw = true;
    thrown = e;
  } finally {
    setWarningHandler(previous);
  }
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  const problems: string[] = [];
  if (cpuMs > LIMIT_MS) problems.push(`took ${cpuMs.toFixed(0)} ms of CPU (limit ${LIMIT_MS})`);
  else if (ms > WAIT_LIMIT_MS) problems.push(`took ${ms.toFixed(0)} ms (limit ${WAIT_LIMIT_MS} of wall time)`);
  if (!threw) {
    if (!(options.voidResult === true && result === undefined)) {
      const infinite = warnings.some((w) => w.code === 'UM_W_INFINITE');
      problems.push(...resultProblems(result, infinite, 'result', new Set(), [], options.passThrough));
    }
    return { problems, kind: 'value', ms };
  }
  const e = thrown as { name?: unknown; code?: unknown; message?: unknown; stack?: unknown };
  if (e === null || typeof e !== 'object' || e.name !== 'UMError') {
    problems.push(
      `threw a non-UMError: ${String((e as { stack?: unknown } | null)?.stack ?? e)
        .split('\n')
        .slice(0, 4)
        .join(' | ')}`,
    );
    return { problems, kind: 'other', ms };
  }
  const message = String(e.message);
  if (typeof e.code !== 'string' || !ERROR_CODES.has(e.code))
    problems.push(`UMError with unknown code ${String(e.code)}`);
  const prefix = options.prefix ?? new RegExp(`^${name}: `);
  if (!prefix.test(message)) problems.push(`UMError message does not start with "${name}: ": ${message.slice(0, 200)}`);
  if (message.includes('\n'))
    problems.push(`UMError message has a line break: ${JSON.stringify(message.slice(0, 200))}`);
  // a value shown as JavaScript's default text instead of formatted (formatValue names objects by their shape)
  if (message.includes('[object Object]'))
    problems.push(`UMError message shows an unformatted object: ${message.slice(0, 200)}`);
  return { problems, kind: 'error', ms, code: e.code as string };
}
