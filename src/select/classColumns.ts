import type { Precision } from '../binning/types.js';
import type { LabeledBatch } from '../input/types.js';
import { weightUnit } from '../input/weights.js';
import type { SelectionSpec } from './selectPairs.js';

/**
 * The entries of a batch as class columns, for the selections of every class grouped by class (class-wise SCE, ACE,
 * TACE and their reliability tables): group k holds (p_ik, 1[y_i = k], w_i) for the rows i with p_ik above the
 * threshold — the same pairs, in the same order, as `selectPairs`, which would copy all N·C of them as float64 scores,
 * outcomes and weights. Here nothing per entry is copied: a class's outcomes are read from the N labels, its weights
 * from the N row weights, and its scores from the batch itself (`lent`), or from one class-major copy at the
 * selection's precision (`kept`: float32 values stay 4 bytes) when the batch's arrays may change before the store is
 * read (internal).
 */
export interface ClassColumns {
  readonly n: number;
  readonly numClasses: number;
  /** The values: row-major [N, C] (`classMajor` false: the batch's own array) or class-major [C, N] (a kept copy). */
  readonly data: Float32Array | Float64Array;
  readonly classMajor: boolean;
  /** Whether values are rounded to float32 when read (float32 precision over float64 data). */
  readonly round: boolean;
  readonly labels: Int32Array;
  /** Row weights (scaled; see `WeightOptions`), `undefined` when every weight is 1. */
  readonly weights: Float64Array | undefined;
  readonly unit: number;
}

/** Whether a selection is every class of every row grouped by class: read as {@link ClassColumns}. */
export function readsClassColumns(spec: SelectionSpec): boolean {
  return spec.target === 'all-classes' && spec.groupBy === 'class';
}

/** Whether the values read from `cols` are float32 values (so sums and keys may use float32 arithmetic). */
export function float32Valued(cols: ClassColumns): boolean {
  return cols.round || cols.data instanceof Float32Array;
}

/** The batch's class columns at a precision, reading the batch's own arrays (valid while they do not change). */
export function lentColumns(batch: LabeledBatch, precision: Precision): ClassColumns {
  const { p, y, w } = batch;
  return {
    n: p.n,
    numClasses: p.numClasses,
    data: p.data,
    classMajor: false,
    round: precision === 'float32' && !(p.data instanceof Float32Array),
    labels: y,
    weights: w,
    unit: weightUnit(w),
  };
}

/** Rows per block of the transpose (a block of rows × every class stays in cache while it is copied). */
const TRANSPOSE_ROWS = 64;

/**
 * A class-major copy of lent columns, values rounded as read (float32 when they are float32 values) — what a store
 * keeps when the batch's arrays may change before it is read (a state: the caller owns them).
 */
export function keptColumns(cols: ClassColumns): ClassColumns {
  if (cols.classMajor) return cols;
  const { n, numClasses: c, data } = cols;
  const out = float32Valued(cols) ? new Float32Array(n * c) : new Float64Array(n * c);
  for (let i0 = 0; i0 < n; i0 += TRANSPOSE_ROWS) {
    const i1 = Math.min(n, i0 + TRANSPOSE_ROWS);
    for (let k = 0; k < c; k++) {
      const to = k * n;
      for (let i = i0; i < i1; i++) out[to + i] = data[i * c + k] as number;
    }
  }
  return {
    n,
    numClasses: c,
    data: out,
    classMajor: true,
    round: false,
    labels: cols.labels.slice(),
    weights: cols.weights?.slice(),
    unit: cols.unit,
  };
}

/** One source of class columns and the threshold its entries must exceed (`null`: every entry). */
export interface ColumnChunk {
  readonly cols: ClassColumns;
  readonly threshold: number | null;
}

/** The entries of one class: views into {@link ColumnBlocks}' scratch, valid until its next {@link ColumnBlocks.column}. */
export interface ClassColumn {
  /** Float32Array when every value is a float32 value. */
  readonly scores: Float32Array | Float64Array;
  /** 1 for the entries of rows labelled with the class, else 0. */
  readonly outcomes: Float64Array;
  /** The positions of the outcomes equal to 1, ascending. */
  readonly positives: Int32Array;
  readonly weights: Float64Array | undefined;
  readonly unit: number;
}

/** Values (and, thresholded, rows) gathered per block of classes: each block reads every row's segment once. */
let BLOCK_BYTES = 32 * 2 ** 20;

/**
 * Float64 values (softmax of logits) are gathered in blocks of at most this many bytes: their N × C float64 matrix is
 * already held, twice the file's float32 bytes, so the block is on top of the largest array of the run (`um metrics
 * --input logits` on 50 000 × 1 000: 32 MiB blocks were 5 % of its peak RSS; 4 MiB ones cost ≈ 0.1 s more gathering,
 * 10 classes a block instead of 83).
 */
const F64_BLOCK_BYTES = 4 * 2 ** 20;

/** Sets the bytes gathered per block of classes, returning the previous setting (tests force several blocks). */
export function columnBlockBytes(bytes: number): number {
  const previous = BLOCK_BYTES;
  BLOCK_BYTES = bytes;
  return previous;
}
/** Rows per tile of a row-major gather: a tile's block of classes stays in cache while it is copied. */
const TILE_ROWS = 64;

/**
 * The columns of one class after another, read from one or more chunks (of one selection: one threshold) into
 * reusable scratch (internal). Reading a row-major batch by columns hops from row to row, and each row is a memory
 * page of its own when there are many classes, so columns are gathered many classes at a time: a block of classes
 * holding up to {@link BLOCK_BYTES}, copied tile by tile (a tile of rows × the block's classes is read from memory
 * once), each class's entries one contiguous run. With a threshold, one pass over the rows in order first counts each
 * class's entries above it, so blocks are sized by what they keep and a sparse threshold (TACE's 0.01) reads all
 * classes in one block; kept entries carry their rows. Outcomes are not copied: a class's outcome column is a zeroed
 * scratch where only its positives (rows labelled with it) are set, and weights are the rows' own. Classes are meant
 * to be read in ascending order; any order works.
 */
export class ColumnBlocks {
  readonly numClasses: number;
  private readonly rows: number;
  private readonly threshold: number | null;
  private readonly f32: boolean;
  /** Entries of each class. */
  private readonly sizes: Int32Array;
  /** The first class of every block, and the classes' offsets in their block's runs. */
  private readonly blockStart: number[] = [];
  /** How many blocks the classes are gathered in (tests check the block budget). */
  get blockCount(): number {
    return this.blockStart.length - 1;
  }
  private readonly offset: Float64Array;
  private current = -1;
  private values: Float32Array | Float64Array | undefined;
  /** Thresholded: the row (over all chunks) of every gathered entry. */
  private rowIds: Int32Array | undefined;
  /** Every chunk's labels and weights, concatenated (a chunk's own when there is one). */
  private readonly labels: Int32Array;
  private readonly rowWeights: Float64Array | undefined;
  /** Unthresholded: the rows of every label, grouped by label (the positives of class k at byLabel[labelStart[k] …]). */
  private byLabel: Int32Array | undefined;
  private labelStart: Int32Array | undefined;
  private readonly outcomes: Float64Array;
  private readonly positives: Int32Array;
  private lastPositives: Int32Array | undefined;
  private readonly weightScratch: Float64Array | undefined;

  constructor(readonly chunks: readonly ColumnChunk[]) {
    const first = chunks[0] as ColumnChunk;
    const c = first.cols.numClasses;
    this.numClasses = c;
    this.threshold = first.threshold;
    this.rows = chunks.reduce((a, ch) => a + ch.cols.n, 0);
    this.f32 = chunks.every((ch) => float32Valued(ch.cols));
    this.labels =
      chunks.length === 1
        ? first.cols.labels
        : concat(
            chunks.map((ch) => ch.cols.labels),
            Int32Array,
          );
    const weighted = chunks.some((ch) => ch.cols.weights !== undefined);
    this.rowWeights = !weighted
      ? undefined
      : chunks.length === 1
        ? first.cols.weights
        : concat(
            chunks.map((ch) => ch.cols.weights ?? new Float64Array(ch.cols.n).fill(1)),
            Float64Array,
          );
    this.outcomes = new Float64Array(this.rows);
    this.positives = new Int32Array(this.rows);
    this.weightScratch = weighted && this.threshold !== null ? new Float64Array(this.rows) : undefined;
    this.sizes = new Int32Array(c);
    if (this.threshold === null) this.sizes.fill(this.rows);
    else for (const ch of chunks) countAbove(ch.cols, this.threshold, this.sizes);
    // blocks of consecutive classes holding up to `budget` bytes each (at least one class)
    const bytes = (this.f32 ? 4 : 8) + (this.threshold === null ? 0 : 4);
    const budget = this.f32 ? BLOCK_BYTES : Math.min(BLOCK_BYTES, F64_BLOCK_BYTES);
    this.offset = new Float64Array(c);
    let used = 0;
    for (let k = 0; k < c; k++) {
      const size = (this.sizes[k] as number) * bytes;
      if (k === 0 || used + size > budget) {
        this.blockStart.push(k);
        used = 0;
      }
      this.offset[k] = used / bytes;
      used += size;
    }
    this.blockStart.push(c);
  }

  /** The entries of class k (views, valid until the next call), in the order of the chunks and their rows. */
  column(k: number): ClassColumn {
    if (this.lastPositives !== undefined) for (const q of this.lastPositives) this.outcomes[q] = 0;
    const b = this.blockOf(k);
    if (b !== this.current) this.gather(b);
    const from = this.offset[k] as number;
    const m = this.sizes[k] as number;
    const scores = (this.values as Float32Array | Float64Array).subarray(from, from + m);
    let positives: Int32Array;
    let weights = this.rowWeights;
    let unit: number;
    if (this.threshold === null) {
      // every row kept: a class's positions are the rows, its positives the rows labelled with it
      this.listLabels();
      positives = (this.byLabel as Int32Array).subarray(
        (this.labelStart as Int32Array)[k] as number,
        (this.labelStart as Int32Array)[k + 1] as number,
      );
      unit = m === 0 ? 1 : (this.chunks.find((ch) => ch.cols.n > 0) as ColumnChunk).cols.unit;
    } else {
      const rows = (this.rowIds as Int32Array).subarray(from, from + m);
      let p = 0;
      for (let j = 0; j < m; j++) if (this.labels[rows[j] as number] === k) this.positives[p++] = j;
      positives = this.positives.subarray(0, p);
      if (weights !== undefined) {
        const w = weights;
        const out = this.weightScratch as Float64Array;
        for (let j = 0; j < m; j++) out[j] = w[rows[j] as number] as number;
        weights = out;
      }
      unit = m === 0 ? 1 : this.chunkOf(rows[0] as number).cols.unit;
    }
    for (const q of positives) this.outcomes[q] = 1;
    this.lastPositives = positives;
    return { scores, outcomes: this.outcomes.subarray(0, m), positives, weights: weights?.subarray(0, m), unit };
  }

  /** The block holding class k. */
  private blockOf(k: number): number {
    let lo = 0;
    let hi = this.blockStart.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((this.blockStart[mid] as number) <= k) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The chunk holding row r (over all chunks). */
  private chunkOf(r: number): ColumnChunk {
    let at = 0;
    for (const ch of this.chunks) {
      at += ch.cols.n;
      if (r < at) return ch;
    }
    return this.chunks[this.chunks.length - 1] as ColumnChunk;
  }

  /** Lists the rows of every label, once. */
  private listLabels(): void {
    if (this.byLabel !== undefined) return;
    const c = this.numClasses;
    const start = new Int32Array(c + 1);
    const labels = this.labels;
    for (let i = 0; i < labels.length; i++) {
      const y = (labels[i] as number) + 1;
      start[y] = (start[y] as number) + 1;
    }
    for (let k = 0; k < c; k++) start[k + 1] = (start[k + 1] as number) + (start[k] as number);
    const at = start.slice(0, c);
    const rows = new Int32Array(this.rows);
    for (let i = 0; i < labels.length; i++) {
      const y = labels[i] as number;
      rows[at[y] as number] = i;
      at[y] = (at[y] as number) + 1;
    }
    this.byLabel = rows;
    this.labelStart = start;
  }

  /** Gathers block b: class k's entries at offset[k] of the block's runs. */
  private gather(b: number): void {
    this.current = b;
    const k0 = this.blockStart[b] as number;
    const k1 = this.blockStart[b + 1] as number;
    const size = (this.offset[k1 - 1] as number) + (this.sizes[k1 - 1] as number);
    if (this.values === undefined || this.values.length < size)
      this.values = this.f32 ? new Float32Array(size) : new Float64Array(size);
    const fill = new Int32Array(k1 - k0);
    for (let k = k0; k < k1; k++) fill[k - k0] = this.offset[k] as number;
    if (this.threshold === null) {
      for (const ch of this.chunks) copyBlock(ch.cols, k0, k1, fill, this.values);
      return;
    }
    if (this.rowIds === undefined || this.rowIds.length < size) this.rowIds = new Int32Array(size);
    let offset = 0;
    for (const ch of this.chunks) {
      keepAbove(ch.cols, this.threshold, k0, k1, offset, fill, this.values, this.rowIds);
      offset += ch.cols.n;
    }
  }
}

/** The arrays one after another. */
function concat<T extends Int32Array | Float64Array>(parts: readonly T[], type: { new (n: number): T }): T {
  const out = new type(parts.reduce((a, p) => a + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Adds each class's number of entries above `thr` to count[k], in one pass over the rows in order. */
function countAbove(cols: ClassColumns, thr: number, count: Int32Array): void {
  const { n, numClasses: c, data, round } = cols;
  if (cols.classMajor) {
    for (let k = 0; k < c; k++) {
      let m = 0;
      for (let i = k * n; i < (k + 1) * n; i++) {
        const raw = data[i] as number;
        if ((round ? Math.fround(raw) : raw) > thr) m++;
      }
      count[k] = (count[k] as number) + m;
    }
    return;
  }
  for (let i = 0; i < n; i++) {
    const base = i * c;
    for (let k = 0; k < c; k++) {
      const raw = data[base + k] as number;
      if ((round ? Math.fround(raw) : raw) > thr) count[k] = (count[k] as number) + 1;
    }
  }
}

/** Appends the entries above `thr` of classes [k0, k1) to their runs (`fill[k − k0]`), with their rows (+ `offset`). */
function keepAbove(
  cols: ClassColumns,
  thr: number,
  k0: number,
  k1: number,
  offset: number,
  fill: Int32Array,
  values: Float32Array | Float64Array,
  rowIds: Int32Array,
): void {
  const { n, numClasses: c, data, round } = cols;
  if (cols.classMajor) {
    for (let k = k0; k < k1; k++) {
      let at = fill[k - k0] as number;
      for (let i = 0; i < n; i++) {
        const raw = data[k * n + i] as number;
        const v = round ? Math.fround(raw) : raw;
        if (!(v > thr)) continue;
        values[at] = v;
        rowIds[at++] = offset + i;
      }
      fill[k - k0] = at;
    }
    return;
  }
  for (let i = 0; i < n; i++) {
    const base = i * c;
    for (let k = k0; k < k1; k++) {
      const raw = data[base + k] as number;
      const v = round ? Math.fround(raw) : raw;
      if (!(v > thr)) continue;
      const at = fill[k - k0] as number;
      fill[k - k0] = at + 1;
      values[at] = v;
      rowIds[at] = offset + i;
    }
  }
}

/** Copies classes [k0, k1) of one chunk to their runs in `values`, advancing `fill`. */
function copyBlock(
  cols: ClassColumns,
  k0: number,
  k1: number,
  fill: Int32Array,
  values: Float32Array | Float64Array,
): void {
  const { n, numClasses: c, data } = cols;
  const f32 = values instanceof Float32Array && data instanceof Float32Array;
  if (cols.classMajor) {
    for (let k = k0; k < k1; k++) {
      const at = fill[k - k0] as number;
      if (cols.round) for (let i = 0; i < n; i++) values[at + i] = Math.fround(data[k * n + i] as number);
      else values.set(data.subarray(k * n, (k + 1) * n), at);
      fill[k - k0] = at + n;
    }
    return;
  }
  for (let i0 = 0; i0 < n; i0 += TILE_ROWS) {
    const rows = Math.min(n, i0 + TILE_ROWS) - i0;
    for (let k = k0; k < k1; k++) {
      const j = k - k0;
      const from = i0 * c + k;
      fill[j] = f32
        ? copyF32(data, from, c, rows, values, fill[j] as number)
        : copyAny(data, cols.round, from, c, rows, values, fill[j] as number);
    }
  }
}

/**
 * Copies `count` values data[from + r·stride] to `values` from `at`, returning the next position: float32 to float32,
 * the common case, in a loop of its own so that it stays monomorphic.
 */
function copyF32(
  data: Float32Array,
  from: number,
  stride: number,
  count: number,
  values: Float32Array,
  at: number,
): number {
  for (let r = 0, e = from; r < count; r++, e += stride) values[at + r] = data[e] as number;
  return at + count;
}

/** {@link copyF32} for every other combination (float64 values, or float64 data rounded to float32 values). */
function copyAny(
  data: Float32Array | Float64Array,
  round: boolean,
  from: number,
  stride: number,
  count: number,
  values: Float32Array | Float64Array,
  at: number,
): number {
  if (round) for (let r = 0, e = from; r < count; r++, e += stride) values[at + r] = Math.fround(data[e] as number);
  else for (let r = 0, e = from; r < count; r++, e += stride) values[at + r] = data[e] as number;
  return at + count;
}
