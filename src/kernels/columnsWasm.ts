import { activeKernel } from './rowStats.js';
import { ensureMemory, instantiateKernel, type Kernel } from './rowStatsWasm.js';

const BUCKETS = 1 << 16;
/** Above this many values the JavaScript pass runs (linear memory never shrinks: at most 8 MiB of column here). */
export const WASM_COLUMN_MAX = 1 << 21;
/** Bins of {@link binSumsF64} at most (its cells: 32 KiB per bin, kept zero between calls). */
export const BIN_SUMS_MAX = 64;
const EXPONENTS = 2048;
/** The equal-width `floor` rule in float64: bin ⌊bins·v⌋, 0 below 0, `top` from `bins` on (the last or an own bin). */
export interface FloorRule {
  readonly bins: number;
  readonly top: number;
}
/** Cells of a higher exponent could overflow when folded (top·2^(e − 1043), top < 2^42): such columns stay in JavaScript. */
const EXPONENT_MAX = 1990;

/** The column kernel: an instance of the kernel module and where its tables and column lie in its memory. */
export interface ColumnKernel {
  readonly k: Kernel;
  readonly counts: number;
  readonly score: number;
  /** The gathering pass's slot per bucket: −1 between calls (each call restores what it set). */
  readonly slot: number;
  readonly out: number;
  /** binSumsF64's cells (zero between calls), then its lowest and highest exponents (2048, −1) and counts (0) per bin. */
  readonly cells: number;
  readonly lo: number;
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
      const slot = base + 12 * BUCKETS;
      const out = slot + 4 * BUCKETS;
      const cells = out + 64;
      const lo = cells + 16 * EXPONENTS * BIN_SUMS_MAX;
      const col = lo + 12 * BIN_SUMS_MAX;
      ensureMemory(k, col);
      new Int32Array(k.memory.buffer, slot, BUCKETS).fill(-1);
      new Int32Array(k.memory.buffer, lo, 2 * BIN_SUMS_MAX).fill(EXPONENTS, 0, BIN_SUMS_MAX).fill(-1, BIN_SUMS_MAX);
      layout = { k, counts: base, score: base + 4 * BUCKETS, slot, out, cells, lo, col, n: 0 };
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
  ensureMemory(k, need);
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
  ensureMemory(k, need);
  const buf = k.memory.buffer;
  const slot = new Int32Array(buf, c.slot, BUCKETS);
  for (let j = 0; j < m; j++) slot[buckets[j] as number] = j;
  new Int32Array(buf, fillAt, m).set(offsets);
  k.gatherF32(c.col, c.n, c.slot, fillAt, outAt);
  for (let j = 0; j < m; j++) slot[buckets[j] as number] = -1;
  return new Int32Array(buf, outAt, total).slice();
}

/**
 * Exact per-bin sums of float64 values by the kernel (assembly/columns.ts), the work of `DenseSums.add(bin, value)` for
 * every entry: `values` (at most {@link WASM_COLUMN_MAX}) and their bins (`index`, each < `numBins` ≤
 * {@link BIN_SUMS_MAX}) are copied into linear memory and summed there per (bin, exponent) in integer cells; each
 * non-zero cell then reaches `add(bin, x)` as one exact double (an integer below 2^53 times a power of two), and the
 * entries per bin are added to `count`. Returns false, adding nothing, when a value is not finite or too large (above
 * 2^967) for the cells to be read as doubles: the caller sums those columns itself. `index` a {@link FloorRule}: the bins
 * are computed in the kernel by the equal-width `floor` rule in float64, as `equalWidthIndexInto` computes them.
 */
export function binSumsF64(
  c: ColumnKernel,
  values: Float64Array,
  index: Int32Array | FloorRule,
  numBins: number,
  add: (bin: number, x: number) => void,
  count: Float64Array,
): boolean {
  const n = values.length;
  const { k } = c;
  // past the float32 column a selection may still hold (histogramF32, then gatherPositions)
  const valuesAt = c.col + 8 * Math.ceil(c.n / 2);
  const indexAt = valuesAt + 8 * n;
  const floor = index instanceof Int32Array ? null : index;
  const need = indexAt + (floor === null ? 4 * n : 0);
  ensureMemory(k, need);
  const buf = k.memory.buffer;
  new Float64Array(buf, valuesAt, n).set(values);
  if (floor === null) new Int32Array(buf, indexAt, n).set((index as Int32Array).subarray(0, n));
  const hiAt = c.lo + 4 * BIN_SUMS_MAX;
  const countAt = hiAt + 4 * BIN_SUMS_MAX;
  const stop = k.binSumsF64(valuesAt, indexAt, n, c.cells, c.lo, hiAt, countAt, floor?.bins ?? 0, floor?.top ?? 0);
  const lo = new Int32Array(buf, c.lo, numBins);
  const hi = new Int32Array(buf, hiAt, numBins);
  const counts = new Int32Array(buf, countAt, numBins);
  const cells = new Float64Array(buf, c.cells, 2 * EXPONENTS * numBins);
  let ok = stop === n;
  for (let b = 0; b < numBins; b++) if ((hi[b] as number) > EXPONENT_MAX) ok = false;
  for (let b = 0; b < numBins; b++) {
    const from = lo[b] as number;
    const to = hi[b] as number;
    if (to < from) continue;
    for (let e = from; e <= to; e++) {
      const at = 2 * (b * EXPONENTS + e);
      const top = cells[at] as number;
      const low = cells[at + 1] as number;
      if (ok && top !== 0) add(b, top * 2 ** (e - 1043));
      if (ok && low !== 0) add(b, low * 2 ** (e - 1075));
    }
    cells.fill(0, 2 * (b * EXPONENTS + from), 2 * (b * EXPONENTS + to + 1));
    if (ok) count[b] = (count[b] as number) + (counts[b] as number);
  }
  lo.fill(EXPONENTS);
  hi.fill(-1);
  counts.fill(0);
  return ok;
}
