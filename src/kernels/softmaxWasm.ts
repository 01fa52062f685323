import { ensureMemory, type Kernel } from './rowStatsWasm.js';

/** Logits are copied into linear memory in blocks of about this many bytes (the outputs are 2–4 times as large). */
const BLOCK_BYTES = 1 << 18;

/** ln p at given classes only: `atLabel[i]` = ln p(i, labels[i]) (NaN where the label is −1) (input/logRows.ts). */
export interface LabelLogs {
  readonly labels: Int32Array;
  readonly atLabel: Float64Array;
}

/**
 * Softmax and log-softmax of row-major logits rows [from, n) by the WebAssembly SIMD kernel (assembly/softmax.ts) into
 * `data` and `logData` — or, given {@link LabelLogs}, only ln p at each row's label (internal): rows are copied block by block into linear memory, converted there and copied out,
 * so the kernel's memory stays a few blocks whatever the input's size. Returns n, or the first row whose maximum is not
 * finite (a NaN or +∞ entry, or every entry −∞): the rows before it are converted, it and the rows after are not (the
 * caller's reference names the bad entry). Per entry within a few ulps of the reference (`convertRows`'s loop), whose
 * `Math.exp` the kernel's exponential matches within 1 ulp (test/kernels/softmax.test.ts).
 */
export function softmaxRowsWasm(
  k: Kernel,
  logits: Float32Array | Float64Array,
  from: number,
  n: number,
  c: number,
  data: Float64Array,
  logData: Float64Array | LabelLogs,
): number {
  if (from >= n) return n;
  const f32 = logits instanceof Float32Array;
  const bpe = f32 ? 4 : 8;
  const blockRows = Math.max(1, Math.min(n - from, Math.floor(BLOCK_BYTES / (c * bpe))));
  const inPtr = k.base;
  const pPtr = inPtr + Math.ceil((blockRows * c * bpe) / 64) * 64;
  const logPtr = pPtr + blockRows * c * 8;
  const maxPtr = logPtr + blockRows * c * 8;
  const need = maxPtr + 64;
  ensureMemory(k, need);
  const buf = k.memory.buffer;
  const input = f32 ? new Float32Array(buf, inPtr, blockRows * c) : new Float64Array(buf, inPtr, blockRows * c);
  const p = new Float64Array(buf, pPtr, blockRows * c);
  const lp = new Float64Array(buf, logPtr, blockRows * c);
  const fn = f32 ? k.softmaxF32 : k.softmaxF64;
  for (let r0 = from; r0 < n; r0 += blockRows) {
    const rows = Math.min(blockRows, n - r0);
    input.set(logits.subarray(r0 * c, (r0 + rows) * c));
    const done = fn(inPtr, rows, c, pPtr, logPtr, maxPtr);
    data.set(p.subarray(0, done * c), r0 * c);
    if (logData instanceof Float64Array) logData.set(lp.subarray(0, done * c), r0 * c);
    else {
      const { labels, atLabel } = logData;
      for (let i = 0; i < done; i++) {
        const y = labels[r0 + i] as number;
        atLabel[r0 + i] = y < 0 ? NaN : (lp[i * c + y] as number);
      }
    }
    if (done < rows) return r0 + done;
  }
  return n;
}
