/**
 * Indices that sort `keys` ascending (or descending), stable: equal keys keep their input order, and −0 equals 0.
 * An LSD radix sort on the keys' IEEE-754 bits (six passes of 11, 11, 10 bits per 32-bit word; digits shared by every
 * key skipped), O(N) instead of a
 * comparison sort with a callback; NaN must not occur (validated input). Internal.
 */
export function argsort(keys: ArrayLike<number>, descending = false): Uint32Array {
  const n = keys.length;
  const hi = new Uint32Array(n);
  const lo = new Uint32Array(n);
  const f = new Float64Array(1);
  const u = new Uint32Array(f.buffer);
  // little-endian hosts store the low word first; detect once
  f[0] = 1;
  const little = u[1] === 0x3ff00000;
  const H = little ? 1 : 0;
  const L = 1 - H;
  for (let i = 0; i < n; i++) {
    f[0] = (keys[i] as number) + 0; // −0 → 0
    let h = u[H] as number;
    let l = u[L] as number;
    // order-preserving map to unsigned: negative numbers flip every bit, others only the sign bit
    if (h & 0x80000000) {
      h = ~h >>> 0;
      l = ~l >>> 0;
    } else h = (h | 0x80000000) >>> 0;
    if (descending) {
      h = ~h >>> 0;
      l = ~l >>> 0;
    }
    hi[i] = h;
    lo[i] = l;
  }
  // keys travel with their indices, so every pass reads sequentially and only the writes scatter (into 2048 streams)
  let order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  let next = new Uint32Array(n);
  let kHi = hi;
  let kLo = lo;
  let nHi = new Uint32Array(n);
  let nLo = new Uint32Array(n);
  const count = new Uint32Array(2048);
  const digits: [boolean, number, number][] = [
    [false, 0, 0x7ff], [false, 11, 0x7ff], [false, 22, 0x3ff], [true, 0, 0x7ff], [true, 11, 0x7ff], [true, 22, 0x3ff],
  ];
  for (const [high, shift, mask] of digits) {
    const word = high ? kHi : kLo;
    count.fill(0);
    for (let r = 0; r < n; r++) {
      const d = ((word[r] as number) >>> shift) & mask;
      count[d] = (count[d] as number) + 1;
    }
    if (count[((word[0] as number) >>> shift) & mask] === n) continue; // every key has this digit
    let sum = 0;
    for (let d = 0; d <= mask; d++) {
      const c = count[d] as number;
      count[d] = sum;
      sum += c;
    }
    for (let r = 0; r < n; r++) {
      const d = ((word[r] as number) >>> shift) & mask;
      const at = count[d] as number;
      count[d] = at + 1;
      next[at] = order[r] as number;
      nHi[at] = kHi[r] as number;
      nLo[at] = kLo[r] as number;
    }
    [order, next] = [next, order];
    [kHi, nHi] = [nHi, kHi];
    [kLo, nLo] = [nLo, kLo];
  }
  return order;
}
