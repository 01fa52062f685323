// Row-statistics kernels of uncertainty-metrics, in AssemblyScript, compiled to WebAssembly with SIMD by
// `npm run build:wasm` (scripts/build-wasm.mjs) and shipped inside the package as base64 (src/kernels/wasmBinary.ts).
// The readable reference is src/kernels/rowStatsReference.ts; test/kernels/ checks that both agree.
//
// One pass over a block of row-major probabilities computes, per row: the maximum and its first index (argmax, ties to
// the lowest class), the minimum, the sum, the sum of squares and, when asked, Σ_k p_k·ln p_k (0·ln 0 = 0).
// Sums of squares and of p·ln p are accumulated in float64 (float32 values are widened exactly). Minimum, maximum
// and sum are a screen for validation: pseudo-min/max skip NaN, but a NaN makes the sum NaN, so the caller
// (JavaScript) finds every invalid row in the same pass and re-checks only those rows with the reference.
//
// Memory: the caller owns the layout of linear memory above heapBase() and grows it as needed.

const LN2_HI: f64 = 6.93147180369123816490e-1;
const LN2_LO: f64 = 1.90821492927058770002e-10;
const SQRT2: f64 = 1.4142135623730951;
const LN2: f64 = 6.93147180559945309417e-1;
// Coefficients of the minimax polynomial R(z) ≈ (ln((1+s)/(1−s)) − 2s)/s, z = s², as published with fdlibm's log.
const LG1: f64 = 6.666666666666735130e-1;
const LG2: f64 = 3.999999999940941908e-1;
const LG3: f64 = 2.857142874366239149e-1;
const LG4: f64 = 2.222219843214978396e-1;
const LG5: f64 = 1.818357216161805012e-1;
const LG6: f64 = 1.531383769920937332e-1;
const LG7: f64 = 1.479819860511658591e-1;

export function heapBase(): usize {
  return __heap_base;
}

/**
 * x·ln x for two float64 lanes with x in [0, 1] (0 where x = 0). x = 2^e·m with m in [√½, √2); ln m from
 * f = m − 1, s = f/(2 + f): ln m = f − (f²/2 − s·(f²/2 + R(s²))). Within 1 ulp of ln for normal x; subnormal
 * float64 x (< 2.2e-308) gives a wrong logarithm but a product below 1e-305 in magnitude.
 */
// @ts-ignore: decorator
@inline function xlogx(x: v128): v128 {
  const expo = i64x2.shr_u(x, 52);
  let m = v128.or(v128.and(x, i64x2.splat(0x000fffffffffffff)), i64x2.splat(0x3ff0000000000000));
  const big = f64x2.gt(m, f64x2.splat(SQRT2));
  m = v128.bitselect(f64x2.mul(m, f64x2.splat(0.5)), m, big);
  const e64 = i64x2.sub(i64x2.sub(expo, i64x2.splat(1023)), big);
  const e = f64x2.convert_low_i32x4_s(v128.shuffle<i32>(e64, e64, 0, 2, 0, 2));
  const f = f64x2.sub(m, f64x2.splat(1.0));
  const s = f64x2.div(f, f64x2.add(f64x2.splat(2.0), f));
  const z = f64x2.mul(s, s);
  const w = f64x2.mul(z, z);
  const t1 = f64x2.mul(w, f64x2.add(f64x2.splat(LG2), f64x2.mul(w, f64x2.add(f64x2.splat(LG4), f64x2.mul(w, f64x2.splat(LG6))))));
  const t2 = f64x2.mul(z, f64x2.add(f64x2.splat(LG1), f64x2.mul(w, f64x2.add(f64x2.splat(LG3), f64x2.mul(w, f64x2.add(f64x2.splat(LG5), f64x2.mul(w, f64x2.splat(LG7))))))));
  const r = f64x2.add(t1, t2);
  const hfsq = f64x2.mul(f64x2.splat(0.5), f64x2.mul(f, f));
  const inner = f64x2.sub(hfsq, f64x2.add(f64x2.mul(s, f64x2.add(hfsq, r)), f64x2.mul(e, f64x2.splat(LN2_LO))));
  const ln = f64x2.sub(f64x2.mul(e, f64x2.splat(LN2_HI)), f64x2.sub(inner, f));
  // x = 0 has exponent field 0 and m = 1: a finite logarithm (−1023·ln 2), so the product is exactly 0 = 0·ln 0.
  return f64x2.mul(x, ln);
}

/** Scalar x·ln x with the same arithmetic as one lane of xlogx (for row tails). */
// @ts-ignore: decorator
@inline function xlogx1(x: f64): f64 {
  return f64x2.extract_lane(xlogx(f64x2.splat(x)), 0);
}

/** Σ of the squares of four float32 lanes, widened to float64, as two float64 lanes. */
// @ts-ignore: decorator
@inline function squaresF32(v: v128): v128 {
  const lo = f64x2.promote_low_f32x4(v);
  const hi = f64x2.promote_low_f32x4(v128.shuffle<i32>(v, v, 2, 3, 2, 3));
  return f64x2.add(f64x2.mul(lo, lo), f64x2.mul(hi, hi));
}

/**
 * Σ p·ln p of four float32 lanes as two float64 lanes: p = 2^e·m, m in [√½, √2), s = (m − 1)/(m + 1),
 * ln m = 2s·(1 + z/3 + z²/5 + z³/7 + z⁴/9) with z = s² (series truncation < 1e-9), evaluated in float32 (|ln m| ≤ 0.35,
 * so its error is below 1e-7 absolute), then ln p = e·ln 2 + ln m and p·ln p in float64. p = 0 gives e = −127, ln m = 0
 * (finite, so 0·ln 0 = 0); subnormal p (< 1.2e-38) gets a wrong logarithm, but p·ln p is then below 1e-35.
 */
// @ts-ignore: decorator
@inline function xlogxF32(v: v128): v128 {
  let e = i32x4.sub(i32x4.shr_u(v, 23), i32x4.splat(127));
  let m = v128.or(v128.and(v, i32x4.splat(0x007fffff)), i32x4.splat(0x3f800000));
  const big = f32x4.gt(m, f32x4.splat(<f32>SQRT2));
  m = v128.bitselect(f32x4.mul(m, f32x4.splat(0.5)), m, big);
  e = i32x4.sub(e, big);
  const f = f32x4.sub(m, f32x4.splat(1.0));
  const s = f32x4.div(f, f32x4.add(f32x4.splat(2.0), f));
  const z = f32x4.mul(s, s);
  const lnm = f32x4.mul(s, f32x4.add(f32x4.splat(2.0), f32x4.mul(z, f32x4.add(f32x4.splat(<f32>(2.0 / 3.0)), f32x4.mul(z, f32x4.add(f32x4.splat(<f32>0.4), f32x4.mul(z, f32x4.add(f32x4.splat(<f32>(2.0 / 7.0)), f32x4.mul(z, f32x4.splat(<f32>(2.0 / 9.0)))))))))));
  const lnLo = f64x2.add(f64x2.mul(f64x2.convert_low_i32x4_s(e), f64x2.splat(LN2)), f64x2.promote_low_f32x4(lnm));
  const lnHi = f64x2.add(f64x2.mul(f64x2.convert_low_i32x4_s(v128.shuffle<i32>(e, e, 2, 3, 2, 3)), f64x2.splat(LN2)), f64x2.promote_low_f32x4(v128.shuffle<i32>(lnm, lnm, 2, 3, 2, 3)));
  const lo = f64x2.promote_low_f32x4(v);
  const hi = f64x2.promote_low_f32x4(v128.shuffle<i32>(v, v, 2, 3, 2, 3));
  return f64x2.add(f64x2.mul(lo, lnLo), f64x2.mul(hi, lnHi));
}

/** Rows of float32 probabilities (see probsF32); `withSq`/`withLog` are constants, so each mode compiles to its own loop. */
// @ts-ignore: decorator
@inline function rowsF32(src: usize, rows: i32, c: i32, outMax: usize, outArg: usize, outMin: usize, outSum: usize, outSq: usize, outXlogx: usize, withSq: bool, withLog: bool): void {
  const c4 = c & ~3;
  for (let i = 0; i < rows; i++) {
    const row = src + (<usize>i * <usize>c << 2);
    let vmax = f32x4.splat(-Infinity);
    let vmax2 = f32x4.splat(-Infinity);
    let vsign = i32x4.splat(0);
    let vsum = f32x4.splat(0);
    let vsum2 = f32x4.splat(0);
    let sqv = f64x2.splat(0);
    let lgv = f64x2.splat(0);
    // two vectors per iteration into two sets of max/sum accumulators: shorter dependency chains
    const c8 = c & ~7;
    let k = 0;
    for (; k < c8; k += 8) {
      const v = v128.load(row + (<usize>k << 2));
      const w = v128.load(row + (<usize>k << 2), 16);
      vmax = f32x4.pmax(vmax, v);
      vmax2 = f32x4.pmax(vmax2, w);
      vsign = v128.or(vsign, v128.or(v, w));
      vsum = f32x4.add(vsum, v);
      vsum2 = f32x4.add(vsum2, w);
      if (withSq) sqv = f64x2.add(sqv, f64x2.add(squaresF32(v), squaresF32(w)));
      if (withLog) lgv = f64x2.add(lgv, f64x2.add(xlogxF32(v), xlogxF32(w)));
    }
    for (; k < c4; k += 4) {
      const v = v128.load(row + (<usize>k << 2));
      vmax = f32x4.pmax(vmax, v);
      vsign = v128.or(vsign, v);
      vsum = f32x4.add(vsum, v);
      if (withSq) sqv = f64x2.add(sqv, squaresF32(v));
      if (withLog) lgv = f64x2.add(lgv, xlogxF32(v));
    }
    vmax = f32x4.pmax(vmax, vmax2);
    vsum = f32x4.add(vsum, vsum2);
    let max: f32 = Mathf.max(Mathf.max(f32x4.extract_lane(vmax, 0), f32x4.extract_lane(vmax, 1)), Mathf.max(f32x4.extract_lane(vmax, 2), f32x4.extract_lane(vmax, 3)));
    let negative = i32x4.bitmask(vsign) != 0;
    let sum: f64 = <f64>f32x4.extract_lane(vsum, 0) + <f64>f32x4.extract_lane(vsum, 1) + <f64>f32x4.extract_lane(vsum, 2) + <f64>f32x4.extract_lane(vsum, 3);
    let sq = f64x2.extract_lane(sqv, 0) + f64x2.extract_lane(sqv, 1);
    let lg = f64x2.extract_lane(lgv, 0) + f64x2.extract_lane(lgv, 1);
    for (let k = c4; k < c; k++) {
      const v = load<f32>(row + (<usize>k << 2));
      if (v > max) max = v;
      if (reinterpret<i32>(v) < 0) negative = true;
      const d = <f64>v;
      sum += d;
      if (withSq) sq += d * d;
      if (withLog) lg += xlogx1(d);
    }
    // argmax: the first entry equal to the maximum, found by a second scan of the row (still in cache)
    let arg: i32 = 0;
    const target = f32x4.splat(max);
    let found = false;
    let j = 0;
    // eight entries per test: one any_true over both vectors, then the exact lane
    for (; j < c8 && !found; j += 8) {
      const e0 = f32x4.eq(v128.load(row + (<usize>j << 2)), target);
      const e1 = f32x4.eq(v128.load(row + (<usize>j << 2), 16), target);
      if (v128.any_true(v128.or(e0, e1))) {
        const bits = i32x4.bitmask(e0) | (i32x4.bitmask(e1) << 4);
        arg = j + ctz(bits);
        found = true;
      }
    }
    for (; j < c4 && !found; j += 4) {
      const eq = f32x4.eq(v128.load(row + (<usize>j << 2)), target);
      if (v128.any_true(eq)) {
        arg = j + ctz(i32x4.bitmask(eq));
        found = true;
      }
    }
    if (!found) {
      for (let k = c4; k < c; k++) {
        if (load<f32>(row + (<usize>k << 2)) == max) {
          arg = k;
          break;
        }
      }
    }
    // min(0, min_k p): only rows with a sign bit set (a negative entry or −0) are scanned
    let min: f32 = 0;
    if (negative) for (let k = 0; k < c; k++) min = Mathf.min(min, load<f32>(row + (<usize>k << 2)));
    store<f64>(outMax + (<usize>i << 3), <f64>max);
    store<i32>(outArg + (<usize>i << 2), arg);
    store<f64>(outMin + (<usize>i << 3), <f64>min);
    store<f64>(outSum + (<usize>i << 3), sum);
    if (withSq) store<f64>(outSq + (<usize>i << 3), sq);
    if (withLog) store<f64>(outXlogx + (<usize>i << 3), lg);
  }
}

/**
 * Statistics of `rows` rows of `c` float32 probabilities at `src`, per row: max (as float64), argmax (int32, first
 * maximum), min, the sum (a float32 accumulation: a screen for validation only), and with `mode` ≥ 1 the float64 sum of
 * squares, with `mode` = 2 also Σ p·ln p (float32 logarithm of the mantissa, float64 products and sums).
 * The minimum and maximum use pseudo-min/max, which skip NaN; a NaN still makes the sum NaN.
 */
export function probsF32(src: usize, rows: i32, c: i32, outMax: usize, outArg: usize, outMin: usize, outSum: usize, outSq: usize, outXlogx: usize, mode: i32): void {
  if (mode == 0) rowsF32(src, rows, c, outMax, outArg, outMin, outSum, outSq, outXlogx, false, false);
  else if (mode == 1) rowsF32(src, rows, c, outMax, outArg, outMin, outSum, outSq, outXlogx, true, false);
  else rowsF32(src, rows, c, outMax, outArg, outMin, outSum, outSq, outXlogx, true, true);
}

// @ts-ignore: decorator
@inline function rowsF64(src: usize, rows: i32, c: i32, outMax: usize, outArg: usize, outMin: usize, outSum: usize, outSq: usize, outXlogx: usize, withSq: bool, withLog: bool): void {
  const c2 = c & ~1;
  for (let i = 0; i < rows; i++) {
    const row = src + (<usize>i * <usize>c << 3);
    let vmax = f64x2.splat(-Infinity);
    let vmax2 = f64x2.splat(-Infinity);
    let vsign = i64x2.splat(0);
    let sum = f64x2.splat(0);
    let sum2 = f64x2.splat(0);
    let sq = f64x2.splat(0);
    let sq2 = f64x2.splat(0);
    let lg = f64x2.splat(0);
    const c4 = c & ~3;
    let k = 0;
    // two vectors per iteration into two sets of accumulators: shorter dependency chains
    for (; k < c4; k += 4) {
      const v = v128.load(row + (<usize>k << 3));
      const w = v128.load(row + (<usize>k << 3), 16);
      vmax = f64x2.pmax(vmax, v);
      vmax2 = f64x2.pmax(vmax2, w);
      vsign = v128.or(vsign, v128.or(v, w));
      sum = f64x2.add(sum, v);
      sum2 = f64x2.add(sum2, w);
      if (withSq) {
        sq = f64x2.add(sq, f64x2.mul(v, v));
        sq2 = f64x2.add(sq2, f64x2.mul(w, w));
      }
      if (withLog) lg = f64x2.add(lg, f64x2.add(xlogx(v), xlogx(w)));
    }
    for (; k < c2; k += 2) {
      const v = v128.load(row + (<usize>k << 3));
      vmax = f64x2.pmax(vmax, v);
      vsign = v128.or(vsign, v);
      sum = f64x2.add(sum, v);
      if (withSq) sq = f64x2.add(sq, f64x2.mul(v, v));
      if (withLog) lg = f64x2.add(lg, xlogx(v));
    }
    vmax = f64x2.pmax(vmax, vmax2);
    sum = f64x2.add(sum, sum2);
    sq = f64x2.add(sq, sq2);
    let max: f64 = Math.max(f64x2.extract_lane(vmax, 0), f64x2.extract_lane(vmax, 1));
    let negative = i64x2.bitmask(vsign) != 0;
    let s = f64x2.extract_lane(sum, 0) + f64x2.extract_lane(sum, 1);
    let q = f64x2.extract_lane(sq, 0) + f64x2.extract_lane(sq, 1);
    let l = f64x2.extract_lane(lg, 0) + f64x2.extract_lane(lg, 1);
    for (k = c2; k < c; k++) {
      const v = load<f64>(row + (<usize>k << 3));
      if (v > max) max = v;
      if (reinterpret<i64>(v) < 0) negative = true;
      s += v;
      if (withSq) q += v * v;
      if (withLog) l += xlogx1(v);
    }
    // argmax: the first entry equal to the maximum, by a second scan of the row (still in cache)
    let arg: i32 = 0;
    const target = f64x2.splat(max);
    let found = false;
    for (k = 0; k < c2; k += 2) {
      const eq = f64x2.eq(v128.load(row + (<usize>k << 3)), target);
      if (v128.any_true(eq)) {
        arg = k + (i64x2.bitmask(eq) & 1 ? 0 : 1);
        found = true;
        break;
      }
    }
    if (!found) {
      for (k = c2; k < c; k++) {
        if (load<f64>(row + (<usize>k << 3)) == max) {
          arg = k;
          break;
        }
      }
    }
    // min(0, min_k p): only rows with a sign bit set (a negative entry or −0) are scanned
    let min: f64 = 0;
    if (negative) for (k = 0; k < c; k++) min = Math.min(min, load<f64>(row + (<usize>k << 3)));
    store<f64>(outMax + (<usize>i << 3), max);
    store<i32>(outArg + (<usize>i << 2), arg);
    store<f64>(outMin + (<usize>i << 3), min);
    store<f64>(outSum + (<usize>i << 3), s);
    if (withSq) store<f64>(outSq + (<usize>i << 3), q);
    if (withLog) store<f64>(outXlogx + (<usize>i << 3), l);
  }
}

/** As {@link probsF32} for float64 probabilities; the sum is float64 and the logarithm is the float64 one of xlogx. */
export function probsF64(src: usize, rows: i32, c: i32, outMax: usize, outArg: usize, outMin: usize, outSum: usize, outSq: usize, outXlogx: usize, mode: i32): void {
  if (mode == 0) rowsF64(src, rows, c, outMax, outArg, outMin, outSum, outSq, outXlogx, false, false);
  else if (mode == 1) rowsF64(src, rows, c, outMax, outArg, outMin, outSum, outSq, outXlogx, true, false);
  else rowsF64(src, rows, c, outMax, outArg, outMin, outSum, outSq, outXlogx, true, true);
}
export { argsortU32 } from './argsort';
export { expNegF64, temperatureF32, temperatureF64 } from './temperature';
export { softmaxF32, softmaxF64 } from './softmax';
export { binSumsF64, gatherF32, histF32 } from './columns';
