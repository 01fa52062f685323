import { activeKernel } from './rowStats.js';
import { instantiateKernel, type Kernel } from './rowStatsWasm.js';

const PAGE = 65536;
const BUCKETS = 1 << 16;
/** Above this many values the JavaScript pass runs (linear memory never shrinks: at most 8 MiB of column here). */
export const WASM_COLUMN_MAX = 1 << 21;

/** The column kernel: an instance of the kernel module and where its tables and column lie in its memory. */
export interface ColumnKernel {
  readonly k: Kernel;
  readonly counts: number;
  readonly score: number;
  /** The gathering pass's slot per bucket: −1 between calls (each call restores what it set). */
  readonly slot: number;
  readonly out: number;
  readonly col: number;
  /** The length of the column last counted (still in memory for the gathering pass). */
  n: number;
}

let layout: ColumnKernel | null | undefined;

/**
 * The counting pass over float32 class columns in WebAssembly (assembly/columns.ts), or null when the kernels are not
 * the selected backend (`useKernels`) or WebAssembly is unavailable. It runs in an instance of the kernel module of
 * its own, whose bucket tables nothing else writes: they are zero between calls, and each call clears what it used
 * (internal).
 */
export function columnKernel(): ColumnKernel | null {
  if (activeKernel() === null) return null;
  if (layout === undefined) {
    const k = instantiateKernel();
    if (k === null) layout = null;
    else {
      const base = k.base;
      const need = base + 16 * BUCKETS + 64;
      if (k.memory.buffer.byteLength < need) k.memory.grow(Math.ceil((need - k.memory.buffer.byteLength) / PAGE));
      const slot = base + 12 * BUCKETS;
      new Int32Array(k.memory.buffer, slot, BUCKETS).fill(-1);
      layout = {
        k,
        counts: base,
        score: base + 4 * BUCKETS,
        slot,
        out: slot + 4 * BUCKETS,
        col: slot + 4 * BUCKETS + 64,
        n: 0,
      };
    }
  }
  return layout;
}

/**
 * The counting pass of `src/binning/radixPasses.ts` (`narrowBitsSumsPass`, without the outcomes) by the kernel: the
 * column is copied into linear memory, counted there, and the counts and sums over the buckets used added to
 * `counts` and `score` (zero there on entry). Returns N or the index of the first value with its sign bit set (then
 * nothing is added), and the lowest and highest key and the count of keys ≤ `atMost` in `result`.
 */
export function histogramF32(
  c: ColumnKernel,
  values: Float32Array,
  atMost: number,
  counts: Int32Array,
  score: Float64Array,
  result: Int32Array,
): number {
  const n = values.length;
  const { k } = c;
  const need = c.col + 4 * n;
  if (k.memory.buffer.byteLength < need) k.memory.grow(Math.ceil((need - k.memory.buffer.byteLength) / PAGE));
  const buf = k.memory.buffer;
  new Float32Array(buf, c.col, n).set(values);
  c.n = n;
  const stop = k.histF32(c.col, n, c.counts, c.score, atMost, c.out);
  result.set(new Int32Array(buf, c.out, 3));
  const kmin = result[0] as number;
  const kmax = result[1] as number;
  if (kmin > kmax) return stop;
  const low = (kmin >> 16) + 0x8000;
  const high = (kmax >> 16) + 0x8000;
  const wc = new Int32Array(buf, c.counts, BUCKETS);
  const ws = new Float64Array(buf, c.score, BUCKETS);
  if (stop === n) {
    counts.set(wc.subarray(low, high + 1), low);
    score.set(ws.subarray(low, high + 1), low);
  }
  wc.fill(0, low, high + 1);
  ws.fill(0, low, high + 1);
  return stop;
}

/**
 * The gathering pass of a selection the kernel counted (`histogramF32`, the column still in its memory): the positions
 * of the entries of the given buckets, grouped by bucket in the given order (each group at `offsets[j]`, `sizes[j]`
 * long), in input order within it.
 */
export function gatherPositions(c: ColumnKernel, buckets: Int32Array, offsets: Int32Array, total: number): Int32Array {
  const { k } = c;
  const m = buckets.length;
  const fillAt = c.col + 4 * c.n;
  const outAt = fillAt + 4 * m;
  const need = outAt + 4 * total;
  if (k.memory.buffer.byteLength < need) k.memory.grow(Math.ceil((need - k.memory.buffer.byteLength) / PAGE));
  const buf = k.memory.buffer;
  const slot = new Int32Array(buf, c.slot, BUCKETS);
  for (let j = 0; j < m; j++) slot[buckets[j] as number] = j;
  new Int32Array(buf, fillAt, m).set(offsets);
  k.gatherF32(c.col, c.n, c.slot, fillAt, outAt);
  for (let j = 0; j < m; j++) slot[buckets[j] as number] = -1;
  return new Int32Array(buf, outAt, total).slice();
}
