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
  let order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  let next = new Uint32Array(n);
  const count = new Uint32Array(2048);
  const digits: [Uint32Array, number, number][] = [
    [lo, 0, 0x7ff], [lo, 11, 0x7ff], [lo, 22, 0x3ff], [hi, 0, 0x7ff], [hi, 11, 0x7ff], [hi, 22, 0x3ff],
  ];
  for (const [word, shift, mask] of digits) {
    count.fill(0);
    for (let i = 0; i < n; i++) {
      const d = ((word[i] as number) >>> shift) & mask;
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
      const i = order[r] as number;
      const d = ((word[i] as number) >>> shift) & mask;
      next[count[d] as number] = i;
      count[d] = (count[d] as number) + 1;
    }
    const t = order;
    order = next;
    next = t;
  }
  return order;
}
