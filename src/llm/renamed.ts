import { UMError, type UMErrorCode } from '../errors/UMError.js';

/**
 * Runs a library call on behalf of `fn`: a `UMError` of the inner function is rethrown as `fn`'s (message prefix and
 * `details.fn`), optionally with another code — so an error always names the function the user called (internal).
 */
export function renamed<T>(fn: string, body: () => T, code?: UMErrorCode): T {
  try {
    return body();
  } catch (error) {
    if (!(error instanceof UMError) || (error.details.fn === fn && code === undefined)) throw error;
    const inner = error.details.fn;
    const message = error.message.startsWith(`${inner}: `) ? error.message.slice(inner.length + 2) : error.message;
    throw new UMError(code ?? error.code, `${fn}: ${message}`, { ...error.details, fn });
  }
}
