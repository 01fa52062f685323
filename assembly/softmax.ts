// The softmax of logits rows in AssemblyScript (WebAssembly SIMD), exported through rowStats.ts into the one module
// that `npm run build:wasm` compiles. The readable reference is the logits branch of convertRows in
// src/input/probMatrix.ts; test/kernels/softmax.test.ts checks that both agree.
//
// Per row of `c` logits z (float32 or float64): m = max_k z_k, e_k = e^{z_k − m} by the temperature pass's
// exponential (within 1 ulp of Math.exp), s = Σ_k e_k added in class order (as the reference does), then
// p_k = e_k / s and ln p_k = (z_k − m) − ln s, with ln s by the host's Math.log (imported: one call per row, the same
// function as the reference's). A row whose maximum is NaN or ±∞ (a NaN or +∞ entry, or every entry −∞) is not
// converted: its maximum is stored for the caller, which stops there and lets the reference name the bad entry.

import { expNeg, expNormal, lanes, rowRange, X_NORMAL } from './temperature';

// @ts-ignore: decorator
@external("env", "log")
declare function hostLog(x: f64): f64;

/** One row: e_k into outP, then p_k and ln p_k in place (outP) and into outLog. */
// @ts-ignore: decorator
@inline function softmaxRow(row: usize, c: i32, m: f64, outP: usize, outLog: usize, f32: bool, normal: bool): void {
  const shift: usize = f32 ? 2 : 3;
  const c4 = c & ~3;
  const vm = f64x2.splat(m);
  let s: f64 = 0;
  let k = 0;
  for (; k < c4; k += 4) {
    const p = row + (<usize>k << shift);
    const dl = f64x2.sub(lanes(p, f32, false), vm);
    const dh = f64x2.sub(lanes(p, f32, true), vm);
    const el = normal ? expNormal(dl) : expNeg(dl);
    const eh = normal ? expNormal(dh) : expNeg(dh);
    const o = outP + (<usize>k << 3);
    v128.store(o, el);
    v128.store(o, eh, 16);
    // the reference's order of additions: class by class
    s += f64x2.extract_lane(el, 0);
    s += f64x2.extract_lane(el, 1);
    s += f64x2.extract_lane(eh, 0);
    s += f64x2.extract_lane(eh, 1);
  }
  for (; k < c; k++) {
    const z: f64 = f32 ? <f64>load<f32>(row + (<usize>k << 2)) : load<f64>(row + (<usize>k << 3));
    const d = f64x2.splat(z - m);
    const e = f64x2.extract_lane(normal ? expNormal(d) : expNeg(d), 0);
    store<f64>(outP + (<usize>k << 3), e);
    s += e;
  }
  const ls = hostLog(s);
  const vs = f64x2.splat(s);
  const vls = f64x2.splat(ls);
  k = 0;
  for (; k < c4; k += 4) {
    const p = row + (<usize>k << shift);
    const o = outP + (<usize>k << 3);
    const g = outLog + (<usize>k << 3);
    v128.store(o, f64x2.div(v128.load(o), vs));
    v128.store(o, f64x2.div(v128.load(o, 16), vs), 16);
    v128.store(g, f64x2.sub(f64x2.sub(lanes(p, f32, false), vm), vls));
    v128.store(g, f64x2.sub(f64x2.sub(lanes(p, f32, true), vm), vls), 16);
  }
  for (; k < c; k++) {
    const z: f64 = f32 ? <f64>load<f32>(row + (<usize>k << 2)) : load<f64>(row + (<usize>k << 3));
    const o = outP + (<usize>k << 3);
    store<f64>(o, load<f64>(o) / s);
    store<f64>(outLog + (<usize>k << 3), z - m - ls);
  }
}

/** The pass over `rows` rows (see the file's header); `f32` is a constant, so each compiles apart. */
// @ts-ignore: decorator
@inline function softmaxPass(src: usize, rows: i32, c: i32, outP: usize, outLog: usize, outMax: usize, f32: bool): i32 {
  const shift: usize = f32 ? 2 : 3;
  for (let i = 0; i < rows; i++) {
    const row = src + ((<usize>i * <usize>c) << shift);
    const at = (<usize>i * <usize>c) << 3;
    // the row's minimum goes through outMax (overwritten below)
    const m = rowRange(row, c, outMax, f32);
    const lo = load<f64>(outMax);
    store<f64>(outMax, m);
    if (m - m != 0) return i;
    // every e^{z − m} normal (no clamp, the short path) unless some z − m is below −707 (−∞ included)
    if (lo - m >= X_NORMAL) softmaxRow(row, c, m, outP + at, outLog + at, f32, true);
    else softmaxRow(row, c, m, outP + at, outLog + at, f32, false);
  }
  return rows;
}

/**
 * Softmax and log-softmax of `rows` rows of `c` float32 logits at `src` into float64 outP and outLog (row-major).
 * Returns `rows`, or the first row whose maximum is not finite (rows before it are converted; its maximum is stored
 * at outMax).
 */
export function softmaxF32(src: usize, rows: i32, c: i32, outP: usize, outLog: usize, outMax: usize): i32 {
  return softmaxPass(src, rows, c, outP, outLog, outMax, true);
}

/** As {@link softmaxF32} for float64 logits. */
export function softmaxF64(src: usize, rows: i32, c: i32, outP: usize, outLog: usize, outMax: usize): i32 {
  return softmaxPass(src, rows, c, outP, outLog, outMax, false);
}
