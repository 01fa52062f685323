/**
 * The fine fixed grid of the bounded-memory states: a value x in [0, 1] goes to a cell by the leading bits of
 * min(x, 1 − x) — its binary exponent and `m` mantissa bits — so cells are relatively fine near both ends, where
 * probabilities crowd (relative width 2^−m; values within 2^−40 of 0 or 1 share the end cells). 1 − x is exact in
 * float64 for x ≥ 0.5 (Sterbenz), so the cell index is monotone in x and never splits equal values. Internal.
 */

/** Binary exponents kept below 0.5: cells cover [2^−(EXPONENTS+1), 0.5) on each side, plus an end cell. */
const EXPONENTS = 40;

const buffer = new ArrayBuffer(8);
const asFloat = new Float64Array(buffer);
const asWords = new Uint32Array(buffer);
// the high word of a float64 is the second 32-bit word on little-endian hosts
const HIGH = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;

/** Cells on one side of 0.5 for `m` mantissa bits. */
function halfCells(m: number): number {
  return (EXPONENTS << m) + 1;
}

/** Number of cells of the grid with `m` mantissa bits. */
export function cellCount(m: number): number {
  return 2 * halfCells(m);
}

/** Index of the cell on one side: 0 for d < 2^−41, else 1 + (exponent offset, m mantissa bits). d in [0, 0.5]. */
function sideIndex(d: number, m: number): number {
  asFloat[0] = d;
  const key = (asWords[HIGH] as number) >>> (20 - m); // sign 0, 11 exponent bits, m mantissa bits
  const base = (1022 - EXPONENTS) << m; // exponent field of 2^−(EXPONENTS+1)
  if (key < base) return 0;
  return Math.min(key - base + 1, halfCells(m) - 1);
}

/** The cell of x ∈ [0, 1] (monotone non-decreasing in x). */
export function cellOf(x: number, m: number): number {
  const h = halfCells(m);
  if (x < 0.5) return sideIndex(x, m);
  // x ≥ 0.5: mirror 1 − x (exact), the largest cells nearest 1
  return 2 * h - 1 - sideIndex(1 - x, m);
}

/** Exclusive upper end of side index i (d-scale), the inverse of sideIndex. */
function sideUpper(i: number, m: number): number {
  if (i === 0) return 2 ** -(EXPONENTS + 1);
  const k = i - 1;
  const exponent = (k >> m) - (EXPONENTS + 1);
  const mantissa = (k & ((1 << m) - 1)) + 1;
  return 2 ** exponent * (1 + mantissa / (1 << m));
}

/** [lower, upper] of cell j in x-scale (for reporting thresholds and bounds). */
export function cellRange(j: number, m: number): [number, number] {
  const h = halfCells(m);
  if (j < h) return [j === 0 ? 0 : sideUpper(j - 1, m), Math.min(0.5, sideUpper(j, m))];
  const i = 2 * h - 1 - j;
  return [1 - Math.min(0.5, sideUpper(i, m)), i === 0 ? 1 : 1 - sideUpper(i - 1, m)];
}
