import { UMError } from '../../src/index.js';

/** The UMError a call throws (fails the test if it throws nothing or something else). */
export function failure(call: () => unknown): UMError {
  try {
    call();
  } catch (e) {
    if (e instanceof UMError) return e;
    throw e;
  }
  throw new Error('expected a UMError, but the call returned');
}
