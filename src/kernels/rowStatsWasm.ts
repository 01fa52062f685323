import { rowStatsColumns, rowStatsResult } from './rowStatsResult.js';
import type { RowStats, RowStatsMode } from './rowStatsTypes.js';
import { WASM_BASE64 } from './wasmBinary.js';

/** The parts of the WebAssembly JS API used here (the core's lib has no DOM or Node types). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
type KernelFn = (
  src: number,
  rows: number,
  c: number,
  outMax: number,
  outArg: number,
  outMin: number,
  outSum: number,
  outSq: number,
  outXlogx: number,
  mode: number,
) => void;
type ArgsortFn = (
  hi: number,
  lo: number,
  hiOut: number,
  loOut: number,
  words: number,
  n: number,
  order: number,
  next: number,
  count: number,
) => number;
/** The temperature pass (assembly/temperature.ts): per row max and s0 … s3 at β. */
export type TemperatureFn = (
  src: number,
  rows: number,
  c: number,
  beta: number,
  outMax: number,
  outS0: number,
  outS1: number,
  outS2: number,
  outS3: number,
) => void;
/** The softmax pass (assembly/softmax.ts): rows converted, or the first row whose maximum is not finite. */
export type SoftmaxFn = (src: number, rows: number, c: number, outP: number, outLog: number, outMax: number) => number;
export interface Kernel {
  memory: WasmMemory;
  base: number;
  probsF32: KernelFn;
  probsF64: KernelFn;
  argsortU32: ArgsortFn;
  temperatureF32: TemperatureFn;
  temperatureF64: TemperatureFn;
  /** e^x of n float64 values x ≤ 0 by the temperature pass's exponential (`normal` = 1: its path for −707 ≤ x), for tests. */
  expNegF64: (src: number, n: number, dst: number, normal: number) => void;
  /** Softmax and log-softmax of logits rows (assembly/softmax.ts; see src/kernels/softmaxWasm.ts). */
  softmaxF32: SoftmaxFn;
  softmaxF64: SoftmaxFn;
  /** The counting pass over a float32 class column (assembly/columns.ts; see src/kernels/columnsWasm.ts). */
  histF32: (col: number, n: number, counts: number, score: number, atMost: number, out: number) => number;
  /** Exact sums of float64 values by bin, DenseSums' cells (assembly/columns.ts; see src/kernels/columnsWasm.ts). */
  binSumsF64: (
    values: number,
    index: number,
    n: number,
    cells: number,
    lo: number,
    hi: number,
    count: number,
    floorBins: number,
    top: number,
  ) => number;
  /** The gathering pass over the column histF32 counted (positions of the entries of slotted buckets). */
  gatherF32: (col: number, n: number, slot: number, fill: number, outPos: number) => void;
}

/** Rows are copied into linear memory in blocks of about this many bytes, so each block is still in cache when the kernel reads it. */
const BLOCK_BYTES = 1 << 18;

function decodeBase64(text: string): Uint8Array {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const lookup = new Int16Array(128).fill(-1);
  for (let i = 0; i < alphabet.length; i++) lookup[alphabet.charCodeAt(i)] = i;
  const clean = text.replace(/=+$/, '');
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let bits = 0;
  let acc = 0;
  let j = 0;
  for (let i = 0; i < clean.length; i++) {
    acc = (acc << 6) | (lookup[clean.charCodeAt(i)] as number);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[j++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

let kernel: Kernel | null | undefined;
let compiled: object | null | undefined;

/**
 * A new instance of the kernel module, with a linear memory of its own, or null where WebAssembly SIMD is unavailable
 * (internal: the kernel, and the column kernel whose tables must stay as it left them).
 */
export function instantiateKernel(): Kernel | null {
  const api = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (api === undefined || compiled === null) return null;
  try {
    compiled ??= new api.Module(decodeBase64(WASM_BASE64));
    // the softmax pass takes ln of each row's sum from the host: the reference's own Math.log
    const instance = new api.Instance(compiled, { env: { abort: () => undefined, log: Math.log } });
    // every export (the passes and the memory), and the first free byte past the module's data, 64-byte aligned
    const { heapBase, ...exports } = instance.exports as Omit<Kernel, 'base'> & { heapBase: () => number };
    return { ...exports, base: (heapBase() + 63) & ~63 };
  } catch {
    compiled = null;
    return null;
  }
}

/** The instantiated kernel, or null where WebAssembly SIMD is unavailable (then the reference is used). */
export function wasmKernel(): Kernel | null {
  if (kernel === undefined) kernel = instantiateKernel();
  return kernel;
}

/**
 * Row statistics by the WebAssembly SIMD kernel: rows are copied block by block into linear memory (one memory read of
 * the input, the copy staying in cache) and reduced there. Internal; see rowStatsReference for the meaning.
 */
export function rowStatsWasm(
  k: Kernel,
  data: Float32Array | Float64Array,
  n: number,
  c: number,
  mode: RowStatsMode,
): RowStats {
  const f32 = data instanceof Float32Array;
  const bpe = f32 ? 4 : 8;
  const blockRows = Math.max(1, Math.min(n, Math.floor(BLOCK_BYTES / (c * bpe))));
  const inPtr = k.base;
  const outPtr = inPtr + Math.ceil((blockRows * c * bpe) / 64) * 64;
  const need = outPtr + blockRows * 44 + 64;
  ensureMemory(k, need);
  const buf = k.memory.buffer;
  const ptr = {
    max: outPtr,
    min: outPtr + blockRows * 8,
    sum: outPtr + blockRows * 16,
    sq: outPtr + blockRows * 24,
    lg: outPtr + blockRows * 32,
    arg: outPtr + blockRows * 40,
  };
  const input = f32 ? new Float32Array(buf, inPtr, blockRows * c) : new Float64Array(buf, inPtr, blockRows * c);
  const views = {
    max: new Float64Array(buf, ptr.max, blockRows),
    min: new Float64Array(buf, ptr.min, blockRows),
    sum: new Float64Array(buf, ptr.sum, blockRows),
    sq: new Float64Array(buf, ptr.sq, blockRows),
    lg: new Float64Array(buf, ptr.lg, blockRows),
    arg: new Int32Array(buf, ptr.arg, blockRows),
  };
  const { max, arg, min, sum, sumSq, xlogx } = rowStatsColumns(n, mode);
  const fn = f32 ? k.probsF32 : k.probsF64;
  for (let r0 = 0; r0 < n; r0 += blockRows) {
    const rows = Math.min(blockRows, n - r0);
    input.set(data.subarray(r0 * c, (r0 + rows) * c));
    fn(inPtr, rows, c, ptr.max, ptr.arg, ptr.min, ptr.sum, ptr.sq, ptr.lg, mode);
    max.set(views.max.subarray(0, rows), r0);
    arg.set(views.arg.subarray(0, rows), r0);
    min.set(views.min.subarray(0, rows), r0);
    sum.set(views.sum.subarray(0, rows), r0);
    if (sumSq !== undefined) sumSq.set(views.sq.subarray(0, rows), r0);
    if (xlogx !== undefined) xlogx.set(views.lg.subarray(0, rows), r0);
  }
  // float32 sums are accumulated in float32 (a validation screen only); float64 in two lanes.
  return rowStatsResult(mode, { max, arg, min, sum, sumSq, xlogx }, c * (f32 ? 2 ** -23 : 2 ** -52));
}

/** Grows the kernel's linear memory to at least `bytes` (whole 64 KiB pages; views made before must be made again). */
export function ensureMemory(k: Kernel, bytes: number): void {
  const have = k.memory.buffer.byteLength;
  if (have < bytes) k.memory.grow(Math.ceil((bytes - have) / 65536));
}
