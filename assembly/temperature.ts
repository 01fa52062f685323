// The temperature pass of uncertainty-metrics in AssemblyScript (WebAssembly SIMD), exported through rowStats.ts into
// the one module that `npm run build:wasm` compiles. The readable reference is src/kernels/temperatureReference.ts;
// test/kernels/temperature.test.ts checks that both agree and measures expNeg against Math.exp.
//
// Per row of `c` values z (logits or log-probabilities, float32 or float64) and a given β > 0 it computes
// m = max_k z_k (NaN for a row holding a NaN, so a NaN or ±∞ maximum flags the row for validation) and, with
// d_k = z_k − m ≤ 0, s0 = Σ e^{β·d}, s1 = Σ e^{β·d}·d, s2 = Σ e^{β·d}·d², s3 = Σ e^{β·d}·d³ — every term of a sum has
// one sign, so each sum is accurate to its number of terms times the rounding unit. Entries z = −∞ (probability 0)
// contribute exactly 0 to every sum. The exponential: within 0.89 ulp of the exact value on 30 000 arguments over
// [−745.2, 0] (checked with mpmath at 200 bits) and within 1 ulp of Math.exp (test/kernels/temperature.test.ts).

const LOG2E: f64 = 1.4426950408889634;
// ln 2 split so that k·LN2_HI is exact for |k| < 2^21 (fdlibm's split: LN2_HI has 32 significant bits)
const LN2_HI: f64 = 6.93147180369123816490e-1;
const LN2_LO: f64 = 1.90821492927058770002e-10;
// 1.5·2^52: adding it to an integer-valued float64 |k| < 2^51 leaves k (two's complement) in the low mantissa bits
const MAGIC: f64 = 6755399441055744.0;
// below this exp underflows to 0 in both factors of the scale (2^k1·2^k2 with k1, k2 ≥ −1010 stays normal)
const X_FLOOR: f64 = -1400.0;
// above this every e^x is a normal number with k ≥ −1020, so 2^k can be added to the exponent bits directly
export const X_NORMAL: f64 = -707.0;
// d below this contributes exactly 0 (β ≤ 1e6, so β·d < −1e305); clamping keeps 0·d finite for d = −∞
const D_FLOOR: f64 = -1.0e300;
// e^r = 1 + r + r²·Q(r) on |r| ≤ ln2/2 + 1e-6, Q of degree 9: Chebyshev interpolation of (e^r − 1 − r)/r²
// (mpmath.chebyfit(g, [−h, h], 10) at 200 bits), coefficients rounded to float64; the relative error of 1 + r + r²·Q
// with those coefficients is below 1.6e-17 (0.15 ulp) before the rounding of its evaluation
const Q0: f64 = 0.5000000000000001;
const Q1: f64 = 0.16666666666666669;
const Q2: f64 = 0.041666666666624164;
const Q3: f64 = 0.008333333333330065;
const Q4: f64 = 0.0013888888917197209;
const Q5: f64 = 0.00019841269863040922;
const Q6: f64 = 2.4801521321606647e-05;
const Q7: f64 = 2.7557268479724004e-06;
const Q8: f64 = 2.7620076242527254e-07;
const Q9: f64 = 2.510037611136142e-08;

/** k = round(x/ln 2) as an integer-valued float64 (two lanes). */
// @ts-ignore: decorator
@inline function expK(x: v128): v128 {
  return f64x2.nearest(f64x2.mul(x, f64x2.splat(LOG2E)));
}

/** e^r for r = x − k·ln 2 (two-part ln 2, so |r| ≤ ln2/2 + 2^-40): 1 + (r + r²·Q(r)). */
// @ts-ignore: decorator
@inline function expR(x: v128, kf: v128): v128 {
  const r = f64x2.sub(f64x2.sub(x, f64x2.mul(kf, f64x2.splat(LN2_HI))), f64x2.mul(kf, f64x2.splat(LN2_LO)));
  // Estrin's scheme: a dependency chain of 8 operations instead of Horner's 18, so successive exponentials overlap
  const r2 = f64x2.mul(r, r);
  const r4 = f64x2.mul(r2, r2);
  const q01 = f64x2.add(f64x2.splat(Q0), f64x2.mul(r, f64x2.splat(Q1)));
  const q23 = f64x2.add(f64x2.splat(Q2), f64x2.mul(r, f64x2.splat(Q3)));
  const q45 = f64x2.add(f64x2.splat(Q4), f64x2.mul(r, f64x2.splat(Q5)));
  const q67 = f64x2.add(f64x2.splat(Q6), f64x2.mul(r, f64x2.splat(Q7)));
  const q89 = f64x2.add(f64x2.splat(Q8), f64x2.mul(r, f64x2.splat(Q9)));
  const q03 = f64x2.add(q01, f64x2.mul(r2, q23));
  const q47 = f64x2.add(q45, f64x2.mul(r2, q67));
  const q = f64x2.add(q03, f64x2.mul(r4, f64x2.add(q47, f64x2.mul(r4, q89))));
  return f64x2.add(f64x2.splat(1.0), f64x2.add(r, f64x2.mul(r2, q)));
}

/**
 * e^x for two float64 lanes with −707 ≤ x ≤ 0: e^r·2^k by adding k to the exponent bits (k ≥ −1020, so the result is
 * a normal number and the addition is exact).
 */
// @ts-ignore: decorator
@inline export function expNormal(x: v128): v128 {
  const kf = expK(x);
  return i64x2.add(expR(x, kf), i64x2.shl(f64x2.add(kf, f64x2.splat(MAGIC)), 52));
}

/**
 * e^x for two float64 lanes with x ≤ 0 (−∞ included; NaN never reaches it): x is clamped at −1400 (e^x is 0 there
 * already), and 2^k is applied as 2^k1·2^k2, k1 = ⌊k/2⌋, k2 = k − k1, two normal powers of two each built from its
 * exponent bits (adding 1.5·2^52 + 1023 to an integer-valued float64 leaves the biased exponent in the low bits; a shift
 * left by 52 moves it into place), so a subnormal result is rounded once and x < −745.14 gives exactly 0.
 */
// @ts-ignore: decorator
@inline export function expNeg(x0: v128): v128 {
  const x = f64x2.pmax(x0, f64x2.splat(X_FLOOR));
  const kf = expK(x);
  const k1 = f64x2.floor(f64x2.mul(kf, f64x2.splat(0.5)));
  const k2 = f64x2.sub(kf, k1);
  const s1 = i64x2.shl(f64x2.add(k1, f64x2.splat(MAGIC + 1023.0)), 52);
  const s2 = i64x2.shl(f64x2.add(k2, f64x2.splat(MAGIC + 1023.0)), 52);
  return f64x2.mul(f64x2.mul(expR(x, kf), s1), s2);
}

/**
 * e^x of `n` float64 values x ≤ 0 at `src` into `dst`, by the general path (`normal` = 0) or, for −707 ≤ x ≤ 0, the
 * path of rows whose every exponential is normal (`normal` = 1): for the accuracy tests.
 */
export function expNegF64(src: usize, n: i32, dst: usize, normal: i32): void {
  for (let i = 0; i < n; i++) {
    const x = f64x2.splat(load<f64>(src + (<usize>i << 3)));
    store<f64>(dst + (<usize>i << 3), f64x2.extract_lane(normal != 0 ? expNormal(x) : expNeg(x), 0));
  }
}

/** Two lanes of z (float64) loaded from a row of float32 (`hi` = lanes 2, 3 of the four at p) or float64 values. */
// @ts-ignore: decorator
@inline export function lanes(p: usize, f32: bool, hi: bool): v128 {
  if (f32) {
    const v = v128.load(p);
    return f64x2.promote_low_f32x4(hi ? v128.shuffle<i32>(v, v, 2, 3, 2, 3) : v);
  }
  return hi ? v128.load(p, 16) : v128.load(p);
}

/**
 * s0 … s3 of one row with maximum m: d = z − m, e = e^{β·d}. `normal`: every β·d ≥ −707, so no clamp is needed and
 * the exponential takes its short path; otherwise d is clamped at −1e300 (z = −∞ gives e = 0 and e·d = 0, not NaN).
 * Four values per iteration into two sets of accumulators; the tail by the same arithmetic on single lanes.
 */
// @ts-ignore: decorator
@inline function rowSums(row: usize, c: i32, m: f64, beta: f64, out0: usize, out1: usize, out2: usize, out3: usize, f32: bool, normal: bool): void {
  const shift: usize = f32 ? 2 : 3;
  const c4 = c & ~3;
  const vm = f64x2.splat(m);
  const vb = f64x2.splat(beta);
  let a0 = f64x2.splat(0);
  let a1 = f64x2.splat(0);
  let b0 = f64x2.splat(0);
  let b1 = f64x2.splat(0);
  let q0 = f64x2.splat(0);
  let q1 = f64x2.splat(0);
  let t0 = f64x2.splat(0);
  let t1 = f64x2.splat(0);
  let k = 0;
  for (; k < c4; k += 4) {
    const p = row + (<usize>k << shift);
    let dl = f64x2.sub(lanes(p, f32, false), vm);
    let dh = f64x2.sub(lanes(p, f32, true), vm);
    if (!normal) {
      dl = f64x2.pmax(dl, f64x2.splat(D_FLOOR));
      dh = f64x2.pmax(dh, f64x2.splat(D_FLOOR));
    }
    const el = normal ? expNormal(f64x2.mul(vb, dl)) : expNeg(f64x2.mul(vb, dl));
    const eh = normal ? expNormal(f64x2.mul(vb, dh)) : expNeg(f64x2.mul(vb, dh));
    const edl = f64x2.mul(el, dl);
    const edh = f64x2.mul(eh, dh);
    a0 = f64x2.add(a0, el);
    a1 = f64x2.add(a1, eh);
    b0 = f64x2.add(b0, edl);
    b1 = f64x2.add(b1, edh);
    const eddl = f64x2.mul(edl, dl);
    const eddh = f64x2.mul(edh, dh);
    q0 = f64x2.add(q0, eddl);
    q1 = f64x2.add(q1, eddh);
    t0 = f64x2.add(t0, f64x2.mul(eddl, dl));
    t1 = f64x2.add(t1, f64x2.mul(eddh, dh));
  }
  a0 = f64x2.add(a0, a1);
  b0 = f64x2.add(b0, b1);
  q0 = f64x2.add(q0, q1);
  t0 = f64x2.add(t0, t1);
  let s0 = f64x2.extract_lane(a0, 0) + f64x2.extract_lane(a0, 1);
  let s1 = f64x2.extract_lane(b0, 0) + f64x2.extract_lane(b0, 1);
  let s2 = f64x2.extract_lane(q0, 0) + f64x2.extract_lane(q0, 1);
  let s3 = f64x2.extract_lane(t0, 0) + f64x2.extract_lane(t0, 1);
  for (; k < c; k++) {
    const z: f64 = f32 ? <f64>load<f32>(row + (<usize>k << 2)) : load<f64>(row + (<usize>k << 3));
    let d = f64x2.sub(f64x2.splat(z), vm);
    if (!normal) d = f64x2.pmax(d, f64x2.splat(D_FLOOR));
    const e = normal ? expNormal(f64x2.mul(vb, d)) : expNeg(f64x2.mul(vb, d));
    const ed = f64x2.mul(e, d);
    s0 += f64x2.extract_lane(e, 0);
    s1 += f64x2.extract_lane(ed, 0);
    const edd = f64x2.mul(ed, d);
    s2 += f64x2.extract_lane(edd, 0);
    s3 += f64x2.extract_lane(f64x2.mul(edd, d), 0);
  }
  store<f64>(out0, s0);
  store<f64>(out1, s1);
  store<f64>(out2, s2);
  store<f64>(out3, s3);
}

/**
 * Maximum and minimum of a row (pseudo-min/max, one instruction each) with NaN entries flagged apart (v ≠ v); the
 * maximum is returned (NaN for a row holding a NaN) and the minimum stored at `minOut`.
 */
// @ts-ignore: decorator
@inline export function rowRange(row: usize, c: i32, minOut: usize, f32: bool): f64 {
  const shift: usize = f32 ? 2 : 3;
  const step = f32 ? 4 : 2;
  const cv = c & ~(step - 1);
  let vmax = f32 ? f32x4.splat(-Infinity) : f64x2.splat(-Infinity);
  let vmin = f32 ? f32x4.splat(Infinity) : f64x2.splat(Infinity);
  let vnan = i32x4.splat(0);
  let k = 0;
  for (; k < cv; k += step) {
    const v = v128.load(row + (<usize>k << shift));
    if (f32) {
      vmax = f32x4.pmax(vmax, v);
      vmin = f32x4.pmin(vmin, v);
      vnan = v128.or(vnan, f32x4.ne(v, v));
    } else {
      vmax = f64x2.pmax(vmax, v);
      vmin = f64x2.pmin(vmin, v);
      vnan = v128.or(vnan, f64x2.ne(v, v));
    }
  }
  let m: f64;
  let lo: f64;
  if (f32) {
    m = <f64>Mathf.max(Mathf.max(f32x4.extract_lane(vmax, 0), f32x4.extract_lane(vmax, 1)), Mathf.max(f32x4.extract_lane(vmax, 2), f32x4.extract_lane(vmax, 3)));
    lo = <f64>Mathf.min(Mathf.min(f32x4.extract_lane(vmin, 0), f32x4.extract_lane(vmin, 1)), Mathf.min(f32x4.extract_lane(vmin, 2), f32x4.extract_lane(vmin, 3)));
  } else {
    m = Math.max(f64x2.extract_lane(vmax, 0), f64x2.extract_lane(vmax, 1));
    lo = Math.min(f64x2.extract_lane(vmin, 0), f64x2.extract_lane(vmin, 1));
  }
  for (; k < c; k++) {
    const z: f64 = f32 ? <f64>load<f32>(row + (<usize>k << 2)) : load<f64>(row + (<usize>k << 3));
    m = Math.max(m, z);
    lo = Math.min(lo, z);
  }
  store<f64>(minOut, lo);
  return v128.any_true(vnan) ? NaN : m;
}

/** The pass over `rows` rows of `c` values at `src` (see the file's header); `f32` is a constant, so each compiles apart. */
// @ts-ignore: decorator
@inline function rowsPass(src: usize, rows: i32, c: i32, beta: f64, outMax: usize, outS0: usize, outS1: usize, outS2: usize, outS3: usize, f32: bool): void {
  const shift: usize = f32 ? 2 : 3;
  for (let i = 0; i < rows; i++) {
    const row = src + ((<usize>i * <usize>c) << shift);
    const at = <usize>i << 3;
    // the minimum goes through outS0 (overwritten below)
    const m = rowRange(row, c, outS0 + at, f32);
    store<f64>(outMax + at, m);
    if (m - m != 0) {
      // NaN or ±∞: the caller re-validates this row
      store<f64>(outS0 + at, 0);
      store<f64>(outS1 + at, 0);
      store<f64>(outS2 + at, 0);
      store<f64>(outS3 + at, 0);
    } else if (beta * (load<f64>(outS0 + at) - m) >= X_NORMAL) {
      rowSums(row, c, m, beta, outS0 + at, outS1 + at, outS2 + at, outS3 + at, f32, true);
    } else {
      rowSums(row, c, m, beta, outS0 + at, outS1 + at, outS2 + at, outS3 + at, f32, false);
    }
  }
}

/**
 * The temperature pass over `rows` rows of `c` float32 values at `src`: per row the maximum (as float64) into outMax and
 * the sums s0 … s3 at β into outS0 … outS3 (0 when the maximum is not finite: the caller validates that row).
 */
export function temperatureF32(src: usize, rows: i32, c: i32, beta: f64, outMax: usize, outS0: usize, outS1: usize, outS2: usize, outS3: usize): void {
  rowsPass(src, rows, c, beta, outMax, outS0, outS1, outS2, outS3, true);
}

/** As {@link temperatureF32} for float64 values. */
export function temperatureF64(src: usize, rows: i32, c: i32, beta: f64, outMax: usize, outS0: usize, outS1: usize, outS2: usize, outS3: usize): void {
  rowsPass(src, rows, c, beta, outMax, outS0, outS1, outS2, outS3, false);
}
