import { fail } from '../errors/fail.js';

/**
 * Stable warning codes.
 *
 * | code | emitted when |
 * |---|---|
 * | `UM_W_INFINITE` | a score is +Infinity because a probability is exactly 0 where its log is taken (NLL, KL) |
 * | `UM_W_BOUND` | an optimiser stopped at a bound of its search interval |
 * | `UM_W_DEGENERATE` | an estimator falls back to a simpler form on degenerate data (e.g. one class only) |
 * | `UM_W_WEIGHTS` | a metric that needs whole-number sample weights is reported as null because some are fractional |
 * | `UM_W_EMPTY` | a metric of a suite has nothing to compute on (e.g. no probability above TACE's threshold) and is null |
 * | `UM_W_BOUNDED` | a metric of a suite has no proven error bound on the bounded grid and is null there |
 */
export type UMWarningCode =
  'UM_W_INFINITE' | 'UM_W_BOUND' | 'UM_W_DEGENERATE' | 'UM_W_WEIGHTS' | 'UM_W_EMPTY' | 'UM_W_BOUNDED';

/** A warning: the result is returned, but something about it deserves attention. */
export interface UMWarning {
  readonly code: UMWarningCode;
  /** Public function that emitted it. */
  readonly fn: string;
  /** Human-readable message, starting with the function name. */
  readonly message: string;
  /** Structured facts (counts, indices, values). */
  readonly details?: Readonly<Record<string, unknown>>;
}

/** Receives warnings. */
export type WarningHandler = (warning: UMWarning) => void;

/** Options of functions that can warn: a per-call handler overrides the global one. */
export interface WarningOptions {
  /** Called with each warning of this call instead of the global handler. */
  onWarning?: WarningHandler;
}

/** The default handler prints one line through the host's console, if it has one (browsers and Node do). */
const defaultHandler: WarningHandler = (w) => {
  const c = (globalThis as { console?: { warn?: (...args: unknown[]) => void } }).console;
  c?.warn?.(`${w.message} [${w.code}]`);
};

let current: WarningHandler = defaultHandler;

/**
 * Sets the handler that receives every warning not handled by a call's own `onWarning`, and returns the previous
 * one. Without an argument it restores the default (one line on the host's console).
 *
 * **Formula.** Not applicable.
 *
 * **Conventions.**
 * - Warnings never change a result; they say something about it (an infinite NLL, an optimiser at a bound).
 * - Per-call `options.onWarning` takes precedence over the global handler.
 *
 * **References.** None.
 *
 * @param handler the new global handler, or undefined for the default.
 * @returns the previous handler.
 * @throws {UMError} `UM_OPTION` when `handler` is not a function.
 * @example
 * ```js
 * import { setWarningHandler, nll } from 'uncertainty-metrics';
 * const seen = [];
 * const previous = setWarningHandler((w) => seen.push(w.code));
 * nll([0], [[0, 1]]); // => Infinity
 * setWarningHandler(previous);
 * seen; // => ['UM_W_INFINITE']
 * ```
 */
export function setWarningHandler(handler?: WarningHandler): WarningHandler {
  if (handler !== undefined && typeof handler !== 'function') {
    fail('UM_OPTION', 'setWarningHandler', 'handler', 'be a function or undefined', { value: handler });
  }
  const previous = current;
  current = handler ?? defaultHandler;
  return previous;
}

/** Delivers a warning to the call's handler or the global one. Internal. */
export function emitWarning(options: WarningOptions | undefined, warning: UMWarning): void {
  (options?.onWarning ?? current)(warning);
}
