import type { ProbMatrix } from '../input/types.js';
import { rowStatsOf } from '../kernels/rowStats.js';

/** Shannon entropy −Σ_k p_k ln p_k of every row in nats, with 0 · ln 0 = 0, from the fused row pass. Internal kernel. */
export function rowEntropy(p: ProbMatrix): Float64Array {
  const xlogx = rowStatsOf(p, 2).xlogx as Float64Array;
  const out = new Float64Array(p.n);
  for (let i = 0; i < p.n; i++) out[i] = -(xlogx[i] as number) + 0;
  return out;
}
