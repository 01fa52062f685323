// The counting pass of a radix selection over one class column of float32 values (src/binning/rankSelect.ts): the
// JavaScript reference is narrowBitsSumsPass in src/binning/radixPasses.ts; test/kernels/columnsWasm.test.ts checks
// that both agree. The values' bits are their keys (no value may have its sign bit set: the pass stops at the first
// that has). Per key's top 16 bits (the bucket) it counts the entries and sums their values in float64 (exact: a
// bucket's values share sign and exponent); it also counts the keys ≤ atMost.
//
// Memory: the caller owns the layout; `counts` (i32) and `score` (f64) are zero over the buckets used on entry.

/**
 * Counts and sums `n` float32 values at `col` into `counts` and `score` by bucket. Writes the lowest key, the highest
 * key and the count of keys ≤ atMost to `out` (three i32) and returns n, or the index of the first value with its
 * sign bit set (the tables then hold the entries before it).
 */
export function histF32(col: usize, n: i32, counts: usize, score: usize, atMost: i32, out: usize): i32 {
  let kmin: i32 = 0x7fffffff;
  let kmax: i32 = -0x80000000;
  let below: i32 = 0;
  for (let i = 0; i < n; i++) {
    const at = col + (<usize>i << 2);
    const k = load<i32>(at);
    if (k < 0) {
      store<i32>(out, kmin);
      store<i32>(out, kmax, 4);
      store<i32>(out, below, 8);
      return i;
    }
    if (k <= atMost) below++;
    if (k < kmin) kmin = k;
    if (k > kmax) kmax = k;
    const b = <usize>((k >> 16) + 0x8000);
    const c = counts + (b << 2);
    store<i32>(c, load<i32>(c) + 1);
    const s = score + (b << 3);
    store<f64>(s, load<f64>(s) + <f64>load<f32>(at));
  }
  store<i32>(out, kmin);
  store<i32>(out, kmax, 4);
  store<i32>(out, below, 8);
  return n;
}

/**
 * The gathering pass over the column `histF32` counted: the position of every value whose bucket has a slot
 * (`slot[bucket]` ≥ 0) is written to `outPos` at its slot's next place (`fill[slot]`), in input order.
 */
export function gatherF32(col: usize, n: i32, slot: usize, fill: usize, outPos: usize): void {
  for (let i = 0; i < n; i++) {
    const k = load<i32>(col + (<usize>i << 2));
    const s = load<i32>(slot + (<usize>((k >> 16) + 0x8000) << 2));
    if (s < 0) continue;
    const f = fill + (<usize>s << 2);
    const p = load<i32>(f);
    store<i32>(f, p + 1);
    store<i32>(outPos + (<usize>p << 2), i);
  }
}

/**
 * Exact sums of float64 values by bin (class columns of float64 probabilities): the value at `values + 8·i` goes to
 * bin `index[i]` (< bins). Per (bin, biased exponent e) two float64 cells at `cells + 16·(bin·2048 + e)` sum the
 * significand's top 21 bits (implicit bit included; a subnormal counts as e = 1 without it) and its low 32 bits as
 * integers — exact for n ≤ 2^21 (sums below 2^42 and 2^53), the layout of `DenseSums` in src/math/exactSum.ts, whose
 * cell (e, top, low) is worth top·2^(e − 1043) + low·2^(e − 1075). The lowest and highest exponent used per bin go to
 * `lo` and `hi` (i32; 2048 and −1 on entry) and the entries per bin to `count` (i32; zero on entry). Returns n, or the
 * index of the first value that is ±∞ or NaN (the cells then hold the entries before it). With `floorBins` > 0 the bins
 * are not read but computed, by the equal-width `floor` rule in float64 (⌊floorBins·v⌋, below 0 → 0, from floorBins on
 * → `top`): the rule of src/binning/columnSums.ts's floor path.
 */
export function binSumsF64(values: usize, index: usize, n: i32, cells: usize, lo: usize, hi: usize, count: usize, floorBins: f64, top: i32): i32 {
  for (let i = 0; i < n; i++) {
    const bits = load<u64>(values + (<usize>i << 3));
    const high = <u32>(bits >> 32);
    let e = <i32>((high >>> 20) & 0x7ff);
    if (e == 0x7ff) return i;
    let b: usize;
    if (floorBins > 0) {
      const f = Math.floor(floorBins * reinterpret<f64>(bits));
      b = f < 0 ? 0 : f >= floorBins ? <usize>top : <usize>(<i32>f);
    } else b = <usize>load<i32>(index + (<usize>i << 2));
    let top = <f64>(high & 0xfffff);
    if (e == 0) e = 1;
    else top += 1048576.0;
    const low = <f64>(<u32>bits);
    const at = cells + ((b * 2048 + <usize>e) << 4);
    if (high >>> 31) {
      store<f64>(at, load<f64>(at) - top);
      store<f64>(at, load<f64>(at, 8) - low, 8);
    } else {
      store<f64>(at, load<f64>(at) + top);
      store<f64>(at, load<f64>(at, 8) + low, 8);
    }
    const l = lo + (b << 2);
    if (e < load<i32>(l)) store<i32>(l, e);
    const h = hi + (b << 2);
    if (e > load<i32>(h)) store<i32>(h, e);
    const c = count + (b << 2);
    store<i32>(c, load<i32>(c) + 1);
  }
  return n;
}
