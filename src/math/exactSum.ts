/**
 * Exactly rounded sums. Every finite double is an integer multiple of 2^−1074, so a sum of doubles is an integer
 * multiple of 2^−1074 too: `ExactSum` keeps that integer as a BigInt (`scaled` = Σx · 2^1074), adds and merges it
 * without rounding, and rounds once, half to even, when the value is read. The value is therefore the correctly
 * rounded sum of every number added, whatever their order or grouping — which is what makes a metric computed in one
 * pass, in batches, merged from states in any grouping or on several threads give the same bits.
 *
 * While every addition keeps it exact, the sum lives in a pair of doubles (`pairSum.ts`) and reading it is one IEEE
 * addition; the BigInt takes what the pair cannot hold. Hot loops do not add one number at a time: they fill a
 * `DenseSums` bank (`denseSums.ts`: two float64 cells per exponent, each an exact integer) and fold it once per batch
 * (internal).
 */
import { pairAdd, PAIR } from './pairSum.js';

const SCALE_BITS = 1074n;
/** |scaled| never exceeds this: 2^(1024 + 1074) · 2^64 (2^64 maximal doubles), so JSON cannot smuggle in huge values. */
const MAX_BITS = 1024 + 1074 + 64;

const scratch = new Float64Array(1);
const scratchBits = new Uint32Array(scratch.buffer);

/** 2^k as a double for −1074 ≤ k ≤ 1023 (exact), built from its bits. */
export function pow2(k: number): number {
  if (k > 1023) return Infinity;
  if (k < -1074) return 0;
  if (k >= -1022) {
    scratchBits[0] = 0;
    scratchBits[1] = (k + 1023) << 20;
  } else {
    // subnormal: a single mantissa bit
    const bit = k + 1074; // 0 … 51
    scratchBits[0] = bit < 32 ? 2 ** bit : 0;
    scratchBits[1] = bit < 32 ? 0 : 2 ** (bit - 32);
  }
  return scratch[0] as number;
}

/** The integer x · 2^1074 of a finite double x. */
export function scaledOf(x: number): bigint {
  scratch[0] = x;
  const hi = scratchBits[1] as number;
  const lo = scratchBits[0] as number;
  const e = (hi >>> 20) & 0x7ff;
  let mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (e !== 0) mantissa |= 1n << 52n;
  const shifted = mantissa << BigInt(e === 0 ? 0 : e - 1);
  return hi >>> 31 === 1 ? -shifted : shifted;
}

const TWO_1000 = 1n << 1000n;

/**
 * Number of bits of a positive BigInt (internal, exported for its test): from the exponent of the nearest double,
 * after shifting below 2^1000 where needed (a scaled sum of ~1 has 1074 bits), one step lower where the rounding
 * reached the next power of two. It runs on every value read; writing the ~280 hexadecimal digits of the number, as
 * it did, took four times as long.
 */
export function bitLength(a: bigint): number {
  let bits = 0;
  while (a >= TWO_1000) {
    a >>= 960n;
    bits += 960;
  }
  scratch[0] = Number(a); // a < 2^1000: finite, rounded to nearest
  let length = (((scratchBits[1] as number) >>> 20) & 0x7ff) - 1022;
  if (length > 1 && a < 1n << BigInt(length - 1)) length--;
  return bits + length;
}

/** The double nearest to scaled · 2^−1074 (ties to even; ±Infinity beyond the largest double). */
export function roundScaled(scaled: bigint): number {
  if (scaled === 0n) return 0;
  const negative = scaled < 0n;
  const a = negative ? -scaled : scaled;
  const length = bitLength(a);
  let value: number;
  if (length <= 53) {
    // below 2^53 units: exact (a subnormal or a normal double)
    value = Number(a) * pow2(-1074);
  } else {
    let shift = length - 53;
    const s = BigInt(shift);
    let q = a >> s;
    const rest = a - (q << s);
    const half = 1n << (s - 1n);
    if (rest > half || (rest === half && (q & 1n) === 1n)) q += 1n;
    if (q === 1n << 53n) {
      q >>= 1n;
      shift += 1;
    }
    // a normal double: q < 2^53 times a power of two, exact unless it overflows
    value = shift - 1074 > 971 ? Infinity : Number(q) * pow2(shift - 1074);
  }
  return negative ? -value : value;
}

/** The JSON form of an {@link ExactSum}: the scaled integer in hexadecimal (times a power of two) and the sum of non-finite values. */
export interface ExactSumJSON {
  readonly scaled: string;
  readonly special: number | 'Infinity' | '-Infinity' | 'NaN';
}

/**
 * An exactly rounded running sum; plain data in JSON (internal). The sum is `exact` + `exactLo` + `scaled`·2^−1074: a
 * pair of doubles holding the sum exactly while every addition keeps it so (counts, whole weights, values of a few
 * scales — then reading it is one addition, no BigInt), and the BigInt part for everything else.
 */
export class ExactSum {
  /** Σ x · 2^1074 of the finite values added that did not go into {@link exact}. */
  private scaled = 0n;
  /** A double part of the sum, exact with {@link exactLo}: only sums kept exactly by `pairAdd` went into them. */
  private exact = 0;
  private exactLo = 0;
  /** Sum of the non-finite values added (0 when none): ∞ + x = ∞, ∞ − ∞ = NaN. */
  special = 0;

  /** The finite part of the sum times 2^1074 (the BigInt every exact computation reads). */
  total(): bigint {
    let t = this.exact === 0 ? this.scaled : this.scaled + scaledOf(this.exact);
    if (this.exactLo !== 0) t += scaledOf(this.exactLo);
    return t;
  }

  /** Adds one number: to the double part when that is exact, else to the BigInt. */
  add(x: number): void {
    if (!Number.isFinite(x)) this.special += x;
    else if (x !== 0) {
      if (pairAdd(this.exact, this.exactLo, x)) {
        this.exact = PAIR[0] as number;
        this.exactLo = PAIR[1] as number;
      } else this.scaled += scaledOf(x);
    }
  }

  /** Adds s·2^−1074 (s an integer) to the BigInt part. */
  addScaled(s: bigint): void {
    this.scaled += s;
  }

  /**
   * Adds the product w·x of two finite doubles: rounded to a double like every product, unless that rounding loses the
   * product (beyond the largest double, or among the subnormals), where it is added exactly instead — so a weighted
   * sum never overflows and never loses a tiny term.
   */
  addProduct(w: number, x: number): void {
    const p = w * x;
    if (Number.isFinite(p) && (p === 0 ? w === 0 || x === 0 : Math.abs(p) >= 2 ** -1022)) {
      this.add(p);
      return;
    }
    if (!Number.isFinite(w) || !Number.isFinite(x)) {
      this.special += p;
      return;
    }
    this.scaled += (scaledOf(w) * scaledOf(x)) / (1n << SCALE_BITS);
  }

  /** Adds a whole number below 2^53 in magnitude (counts), exactly. */
  addInteger(k: number): void {
    if (k === 0) return;
    if (pairAdd(this.exact, this.exactLo, k)) {
      this.exact = PAIR[0] as number;
      this.exactLo = PAIR[1] as number;
    } else this.scaled += BigInt(k) << SCALE_BITS;
  }

  /** Adds another sum (exact). */
  addSum(other: ExactSum): void {
    this.scaled += other.scaled;
    if (other.exact !== 0) this.add(other.exact);
    if (other.exactLo !== 0) this.add(other.exactLo);
    this.special += other.special;
  }

  /** Empties the sum. */
  clear(): void {
    this.scaled = 0n;
    this.exact = 0;
    this.exactLo = 0;
    this.special = 0;
  }

  /** The correctly rounded sum (round half to even); the non-finite sum when any non-finite value was added. */
  value(): number {
    if (this.special !== 0 || Number.isNaN(this.special)) return this.special;
    // the double pair alone is the exact sum: one IEEE addition rounds it correctly (half to even), + 0 turns −0 to 0
    return this.scaled === 0n ? this.exact + this.exactLo + 0 : roundScaled(this.total());
  }

  /** Whether nothing but zeros was added. */
  isZero(): boolean {
    // the exact total, not the parts: a pair (−2^−60, 2^−60) is zero however it was reached
    return this.special === 0 && this.total() === 0n;
  }

  /** The sum times 2^1074 as hexadecimal digits times a power of two (`"1a3fp1012"` = 0x1a3f · 2^1012). */
  toJSON(): ExactSumJSON {
    const special = Number.isFinite(this.special) ? this.special : (String(this.special) as ExactSumJSON['special']);
    const scaled = this.total();
    if (scaled === 0n) return { scaled: '0', special };
    const hex = (scaled < 0n ? -scaled : scaled).toString(16);
    const zeros = hex.length - hex.replace(/0+$/, '').length;
    const digits = hex.slice(0, hex.length - zeros);
    return { scaled: `${scaled < 0n ? '-' : ''}${digits}${zeros === 0 ? '' : `p${zeros * 4}`}`, special };
  }

  /**
   * Reads {@link toJSON}'s form, or returns a description of what is wrong with it (the caller names the field).
   */
  static fromJSON(json: unknown): ExactSum | string {
    if (json === null || typeof json !== 'object') return 'be an object {scaled, special}';
    const { scaled, special } = json as Record<string, unknown>;
    const m = typeof scaled === 'string' ? /^(-?)([0-9a-f]{1,600})(?:p(\d{1,4}))?$/.exec(scaled) : null;
    if (m === null) return 'have `scaled` as hexadecimal digits with an optional power of two ("1a3fp1012")';
    const magnitude = BigInt(`0x${m[2] as string}`) << BigInt(m[3] ?? 0);
    const big = m[1] === '-' ? -magnitude : magnitude;
    if (big !== 0n && bitLength(big < 0n ? -big : big) > MAX_BITS)
      return 'have `scaled` within the range of sums of doubles';
    let sp: number;
    if (special === 'Infinity' || special === '-Infinity' || special === 'NaN') sp = Number(special);
    else if (special === 0) sp = 0;
    else return 'have `special` 0, "Infinity", "-Infinity" or "NaN"';
    const s = new ExactSum();
    s.addScaled(big);
    s.special = sp;
    return s;
  }
}

/**
 * The quotient of two exact sums, num/den (den > 0), rounded once from the exact quotient (truncated below 2^−1074
 * first) — so a mean is finite whenever its terms are, however large their sum (internal).
 */
export function quotient(num: ExactSum, den: ExactSum): number {
  if (num.special !== 0 || Number.isNaN(num.special) || den.special !== 0 || Number.isNaN(den.special))
    return num.value() / den.value();
  const d = den.total();
  if (d <= 0n) return num.value() / den.value();
  return roundScaled((num.total() << SCALE_BITS) / d);
}

/**
 * V8 keeps a field that has held only small integers in a small-integer form; the first fraction written to it changes
 * the field's form and deprecates the objects' shape, and every sum made before is migrated, one by one, when next
 * read — reading 2^20 bins × 3 sums after one fraction had been added took 2.5 s instead of 0.05 s. Writing fractions
 * to every number field once, when the module loads, gives every sum its final shape from the start.
 */
function settleShape(): void {
  const s = new ExactSum();
  s.add(0.5);
  s.add(2 ** -60); // the pair's low part
  s.special = 0.5;
}
settleShape();
