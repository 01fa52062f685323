import { ensureMemory, type Kernel } from './rowStatsWasm.js';
import type { TemperatureRowSums } from './temperatureTypes.js';

/** Rows are copied into linear memory in blocks of about this many bytes, so each block is still in cache when read. */
const BLOCK_BYTES = 1 << 18;

/**
 * The temperature pass by the WebAssembly SIMD kernel (assembly/temperature.ts): rows are copied block by block into
 * linear memory and reduced there, so the kernel's memory stays one block (about 256 KiB) whatever the input's size.
 * Internal; see temperatureRowsReference for the meaning and test/kernels/temperature.test.ts for the agreement.
 */
export function temperatureRowsWasm(
  k: Kernel,
  data: Float32Array | Float64Array,
  rows: number,
  c: number,
  beta: number,
  out: TemperatureRowSums,
): void {
  const f32 = data instanceof Float32Array;
  const bpe = f32 ? 4 : 8;
  const blockRows = Math.max(1, Math.min(rows, Math.floor(BLOCK_BYTES / (c * bpe))));
  const inPtr = k.base;
  const outPtr = inPtr + Math.ceil((blockRows * c * bpe) / 64) * 64;
  const need = outPtr + blockRows * 40 + 64;
  ensureMemory(k, need);
  const buf = k.memory.buffer;
  const ptr = [0, 1, 2, 3, 4].map((j) => outPtr + j * blockRows * 8) as [number, number, number, number, number];
  const input = f32 ? new Float32Array(buf, inPtr, blockRows * c) : new Float64Array(buf, inPtr, blockRows * c);
  const views = ptr.map((p) => new Float64Array(buf, p, blockRows));
  const columns = [out.max, out.s0, out.s1, out.s2, out.s3];
  const fn = f32 ? k.temperatureF32 : k.temperatureF64;
  for (let r0 = 0; r0 < rows; r0 += blockRows) {
    const n = Math.min(blockRows, rows - r0);
    input.set(data.subarray(r0 * c, (r0 + n) * c));
    fn(inPtr, n, c, beta, ...ptr);
    for (let j = 0; j < 5; j++) (columns[j] as Float64Array).set((views[j] as Float64Array).subarray(0, n), r0);
  }
}
