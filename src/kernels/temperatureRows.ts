import { activeKernel } from './rowStats.js';
import { temperatureRowsReference } from './temperatureReference.js';
import type { TemperatureRowSums } from './temperatureTypes.js';
import { temperatureRowsWasm } from './temperatureWasm.js';

/**
 * One temperature pass at β over [rows, c] row-major values (logits or log-probabilities) by the selected backend
 * (`useKernels`): per row the maximum and s_j = Σ_k e^{β·d_k}·d_k^j (j = 0 … 3), d = z − max, written into `out`.
 * The WebAssembly kernel's exponential is within 1 ulp of `Math.exp`, and every sum has terms of one sign, so both
 * backends agree to (C + 4)·2⁻⁵² relative per sum (test/kernels/temperature.test.ts). Internal.
 */
export function temperatureRows(
  data: Float32Array | Float64Array,
  rows: number,
  c: number,
  beta: number,
  out: TemperatureRowSums,
): void {
  const k = activeKernel();
  if (k === null) temperatureRowsReference(data, rows, c, beta, out);
  else temperatureRowsWasm(k, data, rows, c, beta, out);
}
