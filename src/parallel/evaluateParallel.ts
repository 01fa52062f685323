import { INPUT_KEYS, checkOptions } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import type { EvaluateOptions, Evaluation } from '../evaluate/evaluate.js';
import { EVALUATE } from '../evaluate/suite.js';
import { runSuite } from '../engine/suite.js';
import type { Labels } from '../input/types.js';
import { rowStatsParallel, threadCount } from './rowStatsParallel.js';

/** Options of {@link evaluateParallel}: those of `evaluate` plus `threads`. */
export interface EvaluateParallelOptions extends EvaluateOptions {
  /** Threads of the fused row pass (default: every core the process may use, `os.availableParallelism()`). */
  threads?: number;
}

/**
 * `evaluate` with its fused row pass spread over worker threads: the same numbers, bit for bit, from a
 * large in-memory matrix of probabilities in Node.
 *
 * **Formula.** As `evaluate`. The pass over the [N, C] matrix (validation, max/argmax, Σp², Σp·ln p per row) is split
 * into `threads` equal row ranges computed at once; the per-row results do not depend on the split, so every number
 * equals `evaluate`'s.
 *
 * **Conventions.**
 * - Takes a flat `Float32Array`/`Float64Array` of probabilities with `numClasses` (the input that is large enough to
 *   gain). Workers read a `SharedArrayBuffer`: the input's own buffer when it is one (no copy), else one copy of it —
 *   allocate the matrix on a `SharedArrayBuffer` to skip that copy.
 * - Fewer than 1024 rows per thread: one thread. Workers are kept for later calls and never keep the process alive.
 * - Only the row pass is parallel; binning, sorting and the metrics after it run on this thread.
 * - Workers use the WebAssembly kernel (the TypeScript reference where WebAssembly SIMD is unavailable).
 *
 * **References.**
 * - Node.js worker_threads and SharedArrayBuffer, https://nodejs.org/api/worker_threads.html.
 *
 * @param labels N integer labels in [0, C).
 * @param scores flat row-major [N, C] probabilities (`Float32Array` or `Float64Array`).
 * @param options `numClasses` (required), `threads`, and every option of `evaluate` (`bins`, `preset`, `classwise`, `weights`, `onWarning`, `sumTolerance`).
 * @returns a Promise of the `Evaluation` that `evaluate` returns.
 * @throws {UMError} (as a rejected Promise) on invalid input or options; `UM_OPTION` for logits or nested arrays.
 * @example
 * ```js
 * import { evaluateParallel } from 'uncertainty-metrics/parallel';
 * const p = new Float64Array([0.9, 0.1, 0.2, 0.8, 0.6, 0.4]);
 * const r = await evaluateParallel([0, 1, 1], p, { numClasses: 2, bins: 10, threads: 2 });
 * [r.n, r.ece]; // => [3, 0.3]
 * ```
 */
export async function evaluateParallel(
  labels: Labels,
  scores: Float32Array | Float64Array,
  options: EvaluateParallelOptions = {},
): Promise<Evaluation> {
  const fn = 'evaluateParallel';
  checkOptions(fn, options, INPUT_KEYS, ['bins', 'preset', 'onWarning', 'weights', 'classwise', 'threads']);
  const { threads: t, ...rest } = options;
  const threads = threadCount(fn, t);
  if (!(scores instanceof Float32Array || scores instanceof Float64Array)) {
    fail(
      'UM_OPTION',
      fn,
      'scores',
      'be a flat Float32Array or Float64Array of probabilities (use evaluate for other inputs)',
      { value: scores },
    );
  }
  if ((options.input ?? 'probs') !== 'probs' || options.binary === true) {
    fail(
      'UM_OPTION',
      fn,
      'options.input',
      "be 'probs' (a matrix of probabilities; use evaluate for logits or binary vectors)",
      { value: options.input },
    );
  }
  const c = options.numClasses;
  if (c === undefined || !Number.isInteger(c) || c < 2 || scores.length % c !== 0 || scores.length === 0) {
    // evaluate names the exact problem
    return runSuite(EVALUATE, fn, labels, scores, rest);
  }
  const stats = await rowStatsParallel(scores, scores.length / c, c, 2, threads);
  return runSuite(EVALUATE, fn, labels, scores, rest, stats);
}
