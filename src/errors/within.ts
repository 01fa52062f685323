import { UMError } from './UMError.js';

/**
 * A UMError raised by another public function that `fn` calls, re-labelled as `fn`'s own (internal): the message
 * starts with the function the user called (`binSweep: probs[2] must sum to 1 …`, not `toProbabilities: …`), with
 * `where` (`model "b"`) before the problem when the caller's input has several parts. The code, argument, index and
 * value stay. Anything else, and `fn`'s own errors, are returned unchanged.
 */
export function relabel(fn: string, error: unknown, where?: string): unknown {
  if (!(error instanceof UMError) || error.details.fn === fn) return error;
  const inner = error.details.fn;
  const rest = error.message.startsWith(`${inner}: `) ? error.message.slice(inner.length + 2) : error.message;
  return new UMError(error.code, `${fn}: ${where === undefined ? '' : `${where}: `}${rest}`, { ...error.details, fn });
}

/** Runs `call`, re-labelling its UMErrors as `fn`'s ({@link relabel}) (internal). */
export function within<T>(fn: string, call: () => T, where?: string): T {
  try {
    return call();
  } catch (error) {
    throw relabel(fn, error, where);
  }
}

/** {@link within} for an asynchronous `call` (internal). */
export async function withinAsync<T>(fn: string, call: () => Promise<T>, where?: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw relabel(fn, error, where);
  }
}
