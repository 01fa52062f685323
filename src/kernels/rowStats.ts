import { fail } from '../errors/fail.js';
import { rowStatsReference } from './rowStatsReference.js';
import type { KernelBackend, RowStats, RowStatsMode } from './rowStatsTypes.js';

/** The matrix a row pass reads: [n, numClasses] values, row-major (a validated `ProbMatrix`, in practice). */
interface Matrix {
  readonly data: Float64Array | Float32Array;
  readonly n: number;
  readonly numClasses: number;
}
import { rowStatsWasm, wasmKernel, type Kernel } from './rowStatsWasm.js';

let backend: KernelBackend = 'wasm';
/** Statistics already computed for a validated matrix (validated matrices are immutable by contract). */
let cache = new WeakMap<Matrix, RowStats>();
/** Counts the calls of {@link useKernels}: caches of values a kernel computed compare it to know they are current. */
let generation = 0;

/** The number of kernel switches so far (internal): a cache made under another number holds another kernel's values. */
export function kernelGeneration(): number {
  return generation;
}

/** The WebAssembly kernel when it is the selected backend and available, else null (internal; also used by argsort). */
export function activeKernel(): Kernel | null {
  return backend === 'wasm' ? wasmKernel() : null;
}

/** Row statistics of raw row-major probabilities by the selected backend (internal). */
export function computeRowStats(data: Float32Array | Float64Array, n: number, c: number, mode: RowStatsMode): RowStats {
  const k = activeKernel();
  return k === null ? rowStatsReference(data, n, c, mode) : rowStatsWasm(k, data, n, c, mode);
}

/** Keeps `stats` as the row statistics of `p` (internal; called where validation already computed them). */
export function rememberRowStats(p: Matrix, stats: RowStats): void {
  cache.set(p, stats);
}

/**
 * The per-row statistics of a validated matrix (max, argmax, min, sum and, by `mode`, Σp² and Σp·ln p), computed in one
 * fused pass and kept with the matrix so that every metric of one call (or of one `toProbabilities` result) shares it.
 * Internal.
 */
export function rowStatsOf(p: Matrix, mode: RowStatsMode): RowStats {
  const known = cache.get(p);
  if (known !== undefined && known.mode >= mode) return known;
  const stats = computeRowStats(p.data, p.n, p.numClasses, mode);
  cache.set(p, stats);
  return stats;
}

/**
 * Selects the implementation of the fused row pass behind every metric: `'wasm'` (default; WebAssembly SIMD, falling back
 * to the reference where WebAssembly SIMD is unavailable) or `'reference'` (plain TypeScript loops).
 *
 * **Formula.** One pass per row i of the [N, C] probabilities: max_k p_ik, the first argmax, min_k p_ik, Σ_k p_ik,
 * Σ_k p_ik² and Σ_k p_ik·ln p_ik (0·ln 0 = 0). Every metric reads these: validation (min ≥ 0, max ≤ 1, |Σ − 1| ≤
 * tolerance), the top label and confidence, the Brier score, the entropies.
 *
 * **Conventions.**
 * - Both give the same max, argmax, min (bit for bit) and the same validation verdicts. Sums differ by rounding order:
 *   Σp² within 2·C·2⁻⁵³ of the reference; Σp·ln p within 1e-14·(1 + |Σp·ln p|) for float64 data, and within 2e-7 (absolute,
 *   per row) for float32 data, whose logarithm of the mantissa is evaluated in float32 (test/kernels/rowStats.test.ts).
 * - Switching clears the statistics kept with validated matrices.
 * - The same choice runs the temperature pass of {@link fitTemperature} and {@link fitMcTemperature} (per row Σ e^{β·d}·d^j,
 *   j = 0 … 3, d = z − max z): its exponential is within 1 ulp of `Math.exp` (a degree-11 polynomial after reduction by
 *   ln 2; exact 0 below −745.14, subnormals rounded once), and each sum within (C + 4)·2⁻⁵² relative of the reference
 *   (test/kernels/temperature.test.ts).
 * - The same choice converts logits to probabilities and log-probabilities (softmax by the temperature pass's
 *   exponential, row sums in class order, ln of each row sum by `Math.log`): probabilities within 4 ulps and
 *   log-probabilities within 4·2⁻⁵²·(1 + |ln p|) of the reference (test/kernels/softmax.test.ts); and it sums the
 *   class-wise bins of float64 probabilities (exact either way: the same bits).
 * - The logarithm: ln x = e·ln 2 + ln m with x = 2^e·m, m in [√½, √2), and ln m from s = (m − 1)/(m + 1) by a
 *   polynomial in s² (fdlibm's coefficients for float64; the series 2s·Σ s^(2j)/(2j + 1) to j = 4 for float32).
 *
 * **References.**
 * - Haas et al., "Bringing the Web up to Speed with WebAssembly", PLDI 2017, doi:10.1145/3062341.3062363 (and the
 *   WebAssembly fixed-width SIMD proposal, https://github.com/WebAssembly/simd).
 * - Sun Microsystems, fdlibm e_log.c (1993): the float64 logarithm's reduction and polynomial.
 *
 * @param which `'wasm'` or `'reference'`.
 * @returns the backend that will actually run: `'reference'` when WebAssembly SIMD is unavailable.
 * @throws {UMError} `UM_OPTION` when `which` is neither.
 * @example
 * ```js
 * import { useKernels } from 'uncertainty-metrics';
 * useKernels('reference'); // => 'reference'
 * useKernels('wasm'); // => 'wasm'
 * ```
 */
export function useKernels(which: KernelBackend): KernelBackend {
  if (which !== 'wasm' && which !== 'reference')
    fail('UM_OPTION', 'useKernels', 'which', `be 'wasm' or 'reference'`, { value: which });
  backend = which;
  cache = new WeakMap();
  generation++;
  return backend === 'wasm' && wasmKernel() !== null ? 'wasm' : 'reference';
}
