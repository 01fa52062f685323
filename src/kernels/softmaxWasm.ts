import { ensureMemory, type Kernel } from './rowStatsWasm.js';

/** Logits are copied into linear memory in blocks of about this many bytes (the outputs are 2–4 times as large). */
const BLOCK_BYTES = 1 << 18;

/** Per row, the maximum the kernel subtracted and ln Σ e^{z − max}: ln p_k = (z_k − shift) − logSum (input/logRows.ts). */
export interface RowLogSums {
  readonly shift: Float64Array;
  readonly logSum: Float64Array;
}

/**
 * Softmax and log-softmax of row-major logits rows [from, n) by the WebAssembly SIMD kernel (assembly/softmax.ts) into
 * `data` and `logData` — or, given a {@link RowLogSums}, only each row's maximum and log-sum (internal): rows are copied block by block into linear memory, converted there and copied out,
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
  logData: Float64Array | RowLogSums,
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
    else if (f32) rowLogSums32(input as Float32Array, lp, done, c, logData, r0);
    else rowLogSums64(input as Float64Array, lp, done, c, logData, r0);
    if (done < rows) return r0 + done;
  }
  return n;
}

/**
 * The maximum m and ln s of each of `rows` converted rows, read back from the kernel's log-probabilities: at the first
 * maximal entry ln p = (m − m) − ln s = ±0 − ln s, so ln s = 0 − ln p there exactly (ln s ≥ 0: s ≥ 1). The kernel's m
 * has this maximum's value; its sign (of a zero maximum) never shows in (z − m) − ln s: a row with two maximal entries
 * has s ≥ 2 (each adds e⁰ = 1), so ln s > 0 absorbs a ±0, and a row with one has it as its m either way. Two copies of
 * one loop (one array type each).
 */
function rowLogSums32(z: Float32Array, lp: Float64Array, rows: number, c: number, out: RowLogSums, r0: number): void {
  for (let i = 0; i < rows; i++) {
    const o = i * c;
    let m = -Infinity;
    let at = o;
    for (let k = o; k < o + c; k++) {
      const v = z[k] as number;
      if (v > m) {
        m = v;
        at = k;
      }
    }
    const logSum = 0 - (lp[at] as number);
    out.logSum[r0 + i] = logSum;
    out.shift[r0 + i] = m;
  }
}

function rowLogSums64(z: Float64Array, lp: Float64Array, rows: number, c: number, out: RowLogSums, r0: number): void {
  for (let i = 0; i < rows; i++) {
    const o = i * c;
    let m = -Infinity;
    let at = o;
    for (let k = o; k < o + c; k++) {
      const v = z[k] as number;
      if (v > m) {
        m = v;
        at = k;
      }
    }
    const logSum = 0 - (lp[at] as number);
    out.logSum[r0 + i] = logSum;
    out.shift[r0 + i] = m;
  }
}
