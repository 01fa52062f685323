import type { Precision } from '../binning/types.js';
import type { ProbMatrix } from '../input/types.js';

/** Probabilities in the working precision: rounded to float32 when the preset computes in float32 (internal). */
export function atPrecision(p: ProbMatrix, precision: Precision): ProbMatrix {
  if (precision === 'float64' || (p.data instanceof Float32Array && p.logData === undefined)) return p;
  // float32 peers compute from float32 probabilities: log-probabilities are recomputed from them
  const { logData: _dropped, ...rest } = p;
  return { ...rest, data: Float32Array.from(p.data) };
}
