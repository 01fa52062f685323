/**
 * Per-row sums of one temperature pass at β over [rows, C] values z (logits or log-probabilities), with d = z − max_k z
 * ≤ 0 (internal): everything the NLL of softmax(β·z) and its first three derivatives in β need.
 */
export interface TemperatureRowSums {
  /** max_k z_ik: NaN when the row holds a NaN, ±∞ when it holds +∞ or only −∞ (the row is then invalid, its sums 0). */
  readonly max: Float64Array;
  /** Σ_k e^{β·d_ik} (≥ 1: the maximum contributes e^0 = 1). */
  readonly s0: Float64Array;
  /** Σ_k e^{β·d_ik}·d_ik (≤ 0). */
  readonly s1: Float64Array;
  /** Σ_k e^{β·d_ik}·d_ik² (≥ 0). */
  readonly s2: Float64Array;
  /** Σ_k e^{β·d_ik}·d_ik³ (≤ 0). */
  readonly s3: Float64Array;
}

/** Fresh output columns for `rows` rows (internal). */
export function temperatureRowSums(rows: number): TemperatureRowSums {
  return {
    max: new Float64Array(rows),
    s0: new Float64Array(rows),
    s1: new Float64Array(rows),
    s2: new Float64Array(rows),
    s3: new Float64Array(rows),
  };
}
