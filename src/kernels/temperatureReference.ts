import type { TemperatureRowSums } from './temperatureTypes.js';

/**
 * The readable reference of the temperature pass: per row, m = max_k z_k (Math.max, so a NaN entry makes it NaN) and,
 * with d = z − m, s0 = Σ e^{β·d}, s1 = Σ e^{β·d}·d, s2 = Σ e^{β·d}·d², s3 = Σ e^{β·d}·d³ by `Math.exp` and sequential float64
 * sums; entries
 * z = −∞ are skipped (probability 0); rows whose maximum is not finite get sums of 0 (the caller validates them).
 * The WebAssembly kernel must agree with it (test/kernels/temperature.test.ts). Internal.
 */
export function temperatureRowsReference(
  data: Float32Array | Float64Array,
  rows: number,
  c: number,
  beta: number,
  out: TemperatureRowSums,
): void {
  const { max, s0, s1, s2, s3 } = out;
  for (let i = 0, o = 0; i < rows; i++, o += c) {
    let m = -Infinity;
    for (let k = 0; k < c; k++) m = Math.max(m, data[o + k] as number);
    max[i] = m;
    let a = 0;
    let b = 0;
    let q = 0;
    let t = 0;
    if (Number.isFinite(m)) {
      for (let k = 0; k < c; k++) {
        const d = (data[o + k] as number) - m; // ≤ 0; −∞ for an exact zero probability
        if (d === -Infinity) continue;
        const e = Math.exp(beta * d);
        const ed = e * d;
        const edd = ed * d;
        a += e;
        b += ed;
        q += edd;
        t += edd * d;
      }
    }
    s0[i] = a;
    s1[i] = b;
    s2[i] = q;
    s3[i] = t;
  }
}
