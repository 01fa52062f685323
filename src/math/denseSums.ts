/**
 * The dense bank of exact accumulators of hot loops (internal): per exponent, two float64 cells of exact integers, folded
 * into `ExactSum`s once per batch instead of one BigInt operation per number.
 */
import { ExactSum, pow2 } from './exactSum.js';
import { PairSum } from './pairSum.js';

const scratch = new Float64Array(1);
const scratchBits = new Uint32Array(scratch.buffer);

/** 2^(j − 1074) for j = 0 … 2078: the weight of a cell's unit (exponent e: top 2^(e+31−1074), low 2^(e−1−1074)). */
const CELL_SCALE = Float64Array.from({ length: 2079 }, (_, j) => pow2(j - 1074));

/** Adds per cell before a fold: each lower cell grows by < 2^32 per add and must stay below 2^53. */
const FOLD_EVERY = 2 ** 20;
/** Cells per sum: two per biased exponent (0 … 2047). */
const CELLS = 4096;
/** The pair a fold sums its cells in (emptied at the end of every fold). */
const FOLD_PAIR = new PairSum();

/**
 * A bank of `size` exact accumulators for hot loops. Sum k keeps, per biased exponent e of the numbers added, two
 * float64 cells holding exact integers: the top 21 bits of the significands (implicit bit included) and the low 32
 * bits. Adding is two float additions; {@link foldInto} moves the cells into an `ExactSum` — through a pair of doubles
 * while they fit one (see `PairSum`), as BigInts beyond (internal).
 */
export class DenseSums {
  readonly size: number;
  private readonly cells: Float64Array;
  private readonly lowest: Int32Array;
  private readonly highest: Int32Array;
  private readonly special: Float64Array;
  private readonly pending: ExactSum[];
  private adds = 0;

  constructor(size: number) {
    this.size = size;
    this.cells = new Float64Array(size * CELLS);
    this.lowest = new Int32Array(size).fill(2048);
    this.highest = new Int32Array(size).fill(-1);
    this.special = new Float64Array(size);
    this.pending = Array.from({ length: size }, () => new ExactSum());
  }

  /** Adds x to sum k. */
  add(k: number, x: number): void {
    scratch[0] = x;
    const hi = scratchBits[1] as number;
    let e = (hi >>> 20) & 0x7ff;
    if (e === 0x7ff) {
      this.special[k] = (this.special[k] as number) + x;
      return;
    }
    let top = hi & 0xfffff;
    if (e === 0) e = 1;
    else top += 0x100000;
    const low = scratchBits[0] as number;
    const at = k * CELLS + (e << 1);
    const c = this.cells;
    if (hi >>> 31 === 1) {
      c[at] = (c[at] as number) - top;
      c[at + 1] = (c[at + 1] as number) - low;
    } else {
      c[at] = (c[at] as number) + top;
      c[at + 1] = (c[at + 1] as number) + low;
    }
    if (e < (this.lowest[k] as number)) this.lowest[k] = e;
    if (e > (this.highest[k] as number)) this.highest[k] = e;
    if (++this.adds === FOLD_EVERY) this.foldAll();
  }

  /** Moves every cell into the BigInt sums and clears the cells (exactness needs it every 2^20 adds). */
  private foldAll(): void {
    for (let k = 0; k < this.size; k++) this.fold(k);
    this.adds = 0;
  }

  private fold(k: number): void {
    const lo = this.lowest[k] as number;
    const hi = this.highest[k] as number;
    const target = this.pending[k] as ExactSum;
    if (hi >= lo) {
      const c = this.cells;
      if (hi < 2000) {
        // every cell is a double times a power of two (exact below exponent 2000): summed into a pair of doubles,
        // lowest first; a cell the pair cannot take exactly moves the pair to the target and starts the next one — a
        // few BigInt conversions for a sum spanning many scales instead of one per cell
        const pair = FOLD_PAIR;
        for (let e = lo; e <= hi; e++) {
          const at = k * CELLS + (e << 1);
          const low = c[at + 1] as number;
          const top = c[at] as number;
          if (low !== 0) pair.push(low * (CELL_SCALE[e - 1] as number), target);
          if (top !== 0) pair.push(top * (CELL_SCALE[e + 31] as number), target);
          c[at] = 0;
          c[at + 1] = 0;
        }
        pair.moveTo(target);
      } else {
        let s = 0n;
        for (let e = lo; e <= hi; e++) {
          const at = k * CELLS + (e << 1);
          const top = c[at] as number;
          const low = c[at + 1] as number;
          if (top !== 0) s += BigInt(top) << BigInt(e + 31);
          if (low !== 0) s += BigInt(low) << BigInt(e - 1);
          c[at] = 0;
          c[at + 1] = 0;
        }
        target.addScaled(s);
      }
      this.lowest[k] = 2048;
      this.highest[k] = -1;
    }
    if ((this.special[k] as number) !== 0 || Number.isNaN(this.special[k])) {
      target.special += this.special[k] as number;
      this.special[k] = 0;
    }
  }

  /** Adds sum k into `target` and clears it. */
  foldInto(k: number, target: ExactSum): void {
    this.fold(k);
    const p = this.pending[k] as ExactSum;
    target.addSum(p);
    p.clear();
  }
}

let shared: DenseSums | undefined;

/**
 * One scratch bank of three sums for every hot loop of the library (JavaScript runs one call at a time, and each
 * fold leaves the sums it folds empty, so callers fold every sum they added to before returning) (internal).
 */
export function scratchSums(): DenseSums {
  shared ??= new DenseSums(3);
  return shared;
}
