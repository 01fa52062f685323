// Stable LSD radix argsort of unsigned 32-bit keys (one word) or (high, low) word pairs, for src/math/argsort.ts:
// JavaScript maps the numbers to order-preserving unsigned words, copies them in, and reads the order back. Passes of
// 11, 11 and 10 bits per word, the low word first; the high word is carried through the low word's passes; a digit
// shared by every key is skipped. Memory: the caller lays out every array above heapBase().

/**
 * One stable counting-sort pass on (key >>> shift) & mask: moves order → next, key → keyOut and carry → carryOut (the
 * more significant word still needed, or the key again). Returns false, moving nothing, when every key has one digit.
 */
// @ts-ignore: decorator
@inline function pass(key: usize, keyOut: usize, carry: usize, carryOut: usize, order: usize, next: usize, count: usize, n: i32, shift: u32, mask: u32): bool {
  memory.fill(count, 0, <usize>(mask + 1) << 2);
  for (let r = 0; r < n; r++) {
    const p = count + (<usize>((load<u32>(key + (<usize>r << 2)) >>> shift) & mask) << 2);
    store<u32>(p, load<u32>(p) + 1);
  }
  if (load<u32>(count + (<usize>((load<u32>(key) >>> shift) & mask) << 2)) == <u32>n) return false;
  let sum: u32 = 0;
  for (let d: u32 = 0; d <= mask; d++) {
    const p = count + (<usize>d << 2);
    const c = load<u32>(p);
    store<u32>(p, sum);
    sum += c;
  }
  for (let r = 0; r < n; r++) {
    const off = <usize>r << 2;
    const k = load<u32>(key + off);
    const p = count + (<usize>((k >>> shift) & mask) << 2);
    const at = load<u32>(p);
    store<u32>(p, at + 1);
    const dst = <usize>at << 2;
    store<u32>(next + dst, load<u32>(order + off));
    store<u32>(carryOut + dst, load<u32>(carry + off));
    store<u32>(keyOut + dst, k);
  }
  return true;
}

/**
 * Sorts n keys: `hi` (and `lo` when words = 2) with spare arrays `hiOut`, `loOut`, the order in `order` with spare
 * `next`, and 2048 counters at `count`. Returns the address of the sorted order (`order` or `next`).
 */
export function argsortU32(hi: usize, lo: usize, hiOut: usize, loOut: usize, words: i32, n: i32, order: usize, next: usize, count: usize): usize {
  for (let i = 0; i < n; i++) store<u32>(order + (<usize>i << 2), <u32>i);
  for (let w = words - 1; w >= 0; w--) {
    for (let digit: u32 = 0; digit < 3; digit++) {
      const shift = digit * 11;
      const mask: u32 = digit == 2 ? 0x3ff : 0x7ff;
      let moved: bool;
      if (w == 1) moved = pass(lo, loOut, hi, hiOut, order, next, count, n, shift, mask);
      else moved = pass(hi, hiOut, hi, hiOut, order, next, count, n, shift, mask);
      if (!moved) continue;
      let t = order;
      order = next;
      next = t;
      t = hi;
      hi = hiOut;
      hiOut = t;
      if (w == 1) {
        t = lo;
        lo = loOut;
        loOut = t;
      }
    }
  }
  return order;
}
