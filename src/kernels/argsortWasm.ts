import { ensureMemory, type Kernel } from './rowStatsWasm.js';

/**
 * Above this many keys the JavaScript radix sort runs instead: WebAssembly memory never shrinks, and the sort needs 24
 * bytes per key of it (keys, spare keys, order, spare order), so the kernel keeps at most 48 MiB for sorting.
 */
export const WASM_SORT_MAX = 1 << 21;

/**
 * The stable radix argsort of order-preserving unsigned words (`words[0]` most significant, one or two words per key)
 * by the WebAssembly kernel: the words are copied into linear memory, sorted there, and the order copied out. Internal;
 * src/kernels/argsort.ts builds the words and keeps the JavaScript version for larger inputs and the reference backend.
 */
export function argsortWasm(k: Kernel, words: readonly Uint32Array[], n: number): Uint32Array {
  const stride = Math.ceil((n * 4) / 64) * 64;
  const [hi, lo, hiOut, loOut, order, next, count] = [0, 1, 2, 3, 4, 5, 6].map((j) => k.base + j * stride) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const need = count + 2048 * 4;
  ensureMemory(k, need);
  new Uint32Array(k.memory.buffer, hi, n).set(words[0] as Uint32Array);
  if (words.length === 2) new Uint32Array(k.memory.buffer, lo, n).set(words[1] as Uint32Array);
  const at = k.argsortU32(hi, lo, hiOut, loOut, words.length, n, order, next, count);
  return new Uint32Array(k.memory.buffer, at, n).slice();
}
