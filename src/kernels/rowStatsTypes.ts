/**
 * What a row-statistics pass computes: 0 — max, argmax, min(0, min) and sum (enough to validate probabilities and to find
 * the top label); 1 — also Σ_k p_k²; 2 — also Σ_k p_k·ln p_k.
 */
export type RowStatsMode = 0 | 1 | 2;

/** Per-row statistics of an [N, C] row-major probability matrix, from one pass (internal). */
export interface RowStats {
  readonly mode: RowStatsMode;
  /** max_k p_ik. */
  readonly max: Float64Array;
  /** First index of the maximum (ties → lowest class). */
  readonly arg: Int32Array;
  /** min(0, min_k p_ik): 0 unless an entry is negative (or −0) — a validation screen; NaN entries make `sum` NaN instead. */
  readonly min: Float64Array;
  /** Σ_k p_ik — a validation screen: float32 accumulation for float32 data in the fast kernel. */
  readonly sum: Float64Array;
  /** Largest error of `sum` relative to an exact sum, per unit of Σ|p| (0 for exact float64 sums up to rounding). */
  readonly sumSlack: number;
  /** Σ_k p_ik² in float64 (mode ≥ 1). */
  readonly sumSq?: Float64Array;
  /** Σ_k p_ik·ln p_ik in float64, 0·ln 0 = 0 (mode 2). */
  readonly xlogx?: Float64Array;
}

/** Which implementation computes row statistics: the WebAssembly SIMD kernel or the TypeScript reference. */
export type KernelBackend = 'wasm' | 'reference';
