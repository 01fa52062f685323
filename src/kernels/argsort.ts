import { argsortWasm, WASM_SORT_MAX } from './argsortWasm.js';
import { activeKernel } from './rowStats.js';

/** Digits of a 32-bit word, least significant first: 11, 11 and 10 bits (2048 counters at most). */
const DIGITS: readonly (readonly [shift: number, mask: number])[] = [
  [0, 0x7ff],
  [11, 0x7ff],
  [22, 0x3ff],
];

/** Flips the IEEE-754 sign-and-exponent word so unsigned order is numeric order (negative: every bit, else the sign). */
function orderedHigh(h: number): number {
  return h & 0x80000000 ? ~h >>> 0 : (h | 0x80000000) >>> 0;
}

/** True when every key is a float32 value (then 32 bits order them, and three passes suffice instead of six). */
function float32Exact(keys: ArrayLike<number>): boolean {
  if (keys instanceof Float32Array) return true;
  const n = keys.length;
  for (let i = 0; i < n; i++) {
    const v = keys[i] as number;
    if (Math.fround(v) !== v) return false;
  }
  return true;
}

/**
 * One stable counting-sort pass on the digit (key >>> shift) & mask: moves `order` into `next` and the key and
 * `carry` (the more significant word still needed, or the key again) into their spare arrays. Returns false, moving nothing, when every key
 * has the same digit.
 */
function scatter(
  key: Uint32Array,
  keyOut: Uint32Array,
  carry: Uint32Array,
  carryOut: Uint32Array,
  shift: number,
  mask: number,
  order: Uint32Array,
  next: Uint32Array,
  count: Uint32Array,
): boolean {
  const n = key.length;
  count.fill(0);
  for (let r = 0; r < n; r++) {
    const d = ((key[r] as number) >>> shift) & mask;
    count[d] = (count[d] as number) + 1;
  }
  if (count[((key[0] as number) >>> shift) & mask] === n) return false;
  let sum = 0;
  for (let d = 0; d <= mask; d++) {
    const c = count[d] as number;
    count[d] = sum;
    sum += c;
  }
  // keys travel with their indices, so every pass reads sequentially and only the writes scatter (with no more
  // significant word to carry, carry is the key itself and its second write lands on the same cache line)
  for (let r = 0; r < n; r++) {
    const k = key[r] as number;
    const d = (k >>> shift) & mask;
    const at = count[d] as number;
    count[d] = at + 1;
    next[at] = order[r] as number;
    carryOut[at] = carry[r] as number;
    keyOut[at] = k;
  }
  return true;
}

/**
 * Keys already in order, either way (kept entries arrive sorted; Ding's bins ask for them descending): writes the
 * stable order into `order` (holding 0…n−1) and returns true — in the order asked, the identity; in the other, the
 * blocks of equal keys from last to first, each in input order. False, `order` untouched, when the keys are not
 * monotone (a scan that stops at the first pair out of both orders).
 */
function presorted(keys: ArrayLike<number>, descending: boolean, order: Uint32Array): boolean {
  const n = keys.length;
  let up = true;
  let down = true;
  for (let i = 1; i < n && (up || down); i++) {
    const a = keys[i - 1] as number;
    const b = keys[i] as number;
    if (a > b) up = false;
    else if (a < b) down = false;
  }
  if (descending ? down : up) return true;
  if (!(descending ? up : down)) return false;
  let at = 0;
  for (let end = n; end > 0;) {
    let start = end - 1;
    while (start > 0 && keys[start - 1] === keys[end - 1]) start--;
    for (let i = start; i < end; i++) order[at++] = i;
    end = start;
  }
  return true;
}

/**
 * Indices that sort `keys` ascending (or descending), stable: equal keys keep their input order, and −0 equals 0.
 * An LSD radix sort on the keys' IEEE-754 bits, O(N) instead of a comparison sort with a callback: three passes of
 * 11, 11, 10 bits over the 32-bit pattern when every key is a float32 value (float32 input), six over the 64-bit
 * pattern otherwise (the high word is carried only through the low word's passes); a digit shared by every key is
 * skipped; keys already monotone (either way) take no pass at all. NaN must not occur (validated input). The passes run in the WebAssembly kernel (assembly/argsort.ts) when it
 * is the selected backend and N ≤ 2^21, else in JavaScript (the same algorithm; `useKernels('reference')`). Internal.
 */
export function argsort(keys: ArrayLike<number>, descending = false): Uint32Array {
  const n = keys.length;
  let order: Uint32Array = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  if (n < 2 || presorted(keys, descending, order)) return order;
  const flip = descending ? 0xffffffff : 0;
  // words of the order-preserving keys, most significant first
  let words: Uint32Array[];
  if (float32Exact(keys)) {
    const f = new Float32Array(1);
    const u = new Uint32Array(f.buffer);
    const k = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      f[0] = (keys[i] as number) + 0; // −0 → 0
      k[i] = (orderedHigh(u[0] as number) ^ flip) >>> 0;
    }
    words = [k];
  } else {
    const f = new Float64Array(1);
    const u = new Uint32Array(f.buffer);
    // little-endian hosts store the low word first; detect once
    f[0] = 1;
    const H = u[1] === 0x3ff00000 ? 1 : 0;
    const L = 1 - H;
    const hi = new Uint32Array(n);
    const lo = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      f[0] = (keys[i] as number) + 0;
      const h = u[H] as number;
      // a negative number flips every bit of both words
      hi[i] = (orderedHigh(h) ^ flip) >>> 0;
      lo[i] = ((h & 0x80000000 ? ~(u[L] as number) : (u[L] as number)) ^ flip) >>> 0;
    }
    words = [hi, lo];
  }
  const k = n <= WASM_SORT_MAX ? activeKernel() : null;
  if (k !== null) return argsortWasm(k, words, n);
  let next: Uint32Array = new Uint32Array(n);
  const spare: Uint32Array[] = words.map(() => new Uint32Array(n));
  const count = new Uint32Array(2048);
  for (let w = words.length - 1; w >= 0; w--) {
    for (const [shift, mask] of DIGITS) {
      const carried = w > 0;
      const key = words[w] as Uint32Array;
      const keyOut = spare[w] as Uint32Array;
      if (
        !scatter(
          key,
          keyOut,
          carried ? (words[0] as Uint32Array) : key,
          carried ? (spare[0] as Uint32Array) : keyOut,
          shift,
          mask,
          order,
          next,
          count,
        )
      )
        continue;
      [order, next] = [next, order];
      [words[w], spare[w]] = [spare[w] as Uint32Array, words[w] as Uint32Array];
      if (carried) [words[0], spare[0]] = [spare[0] as Uint32Array, words[0] as Uint32Array];
    }
  }
  return order;
}
