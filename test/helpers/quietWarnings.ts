/**
 * Passing tests print nothing: warnings that reach the library's global handler (a test that checks warnings passes
 * `onWarning` or sets its own handler) are dropped instead of printed to stderr — in the sources and in the built
 * dist/ that some tests import (each has its own handler). The CLI's warnings go to its own stderr and are checked.
 */
import { setWarningHandler } from '../../src/index.js';
import { setWarningHandler as setDistWarningHandler } from '../../packages/core/dist/index.js';

setWarningHandler(() => {});
setDistWarningHandler(() => {});
