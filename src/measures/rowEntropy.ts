import type { ProbMatrix } from '../input/types.js';

/** Shannon entropy −Σ_k p_k ln p_k of every row in nats, with 0 · ln 0 = 0. Internal kernel. */
export function rowEntropy(p: ProbMatrix): Float64Array {
  const { data, n, numClasses: c } = p;
  const out = new Float64Array(n);
  for (let i = 0, o = 0; i < n; i++, o += c) {
    let h = 0;
    for (let k = 0; k < c; k++) {
      const v = data[o + k] as number;
      if (v > 0) h -= v * Math.log(v);
    }
    out[i] = h;
  }
  return out;
}
