// uncertainty-metrics/cli — the `um` command line as a function. Re-exports only.
export { main } from './main.js';
export type { Io } from './io.js';
