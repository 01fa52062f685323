/**
 * The `um` command line as a function: `main(argv, io)` runs a command in process and returns its exit code.
 *
 * @module uncertainty-metrics/cli
 */
// uncertainty-metrics/cli — the `um` command line as a function. Re-exports only.
export { main } from './main.js';
export type { Io } from './io.js';
