import { roundHalfEven } from '../binning/numpy.js';
import { samplesPerWeight, weightUnit } from '../input/weights.js';

/**
 * The one kernel smoother of the smooth ECE and the smooth reliability curve (internal): relplot 1.0.3's
 * `ReflectedGaussianKernel` — values splatted linearly onto a grid, convolved with a Gaussian reflected at 0 and 1,
 * read at any point by linear interpolation. Everything here is linear in the values, which the bootstrap band uses:
 * {@link meshOperator} is the same map, read at a mesh, restricted to the grid cells that hold data.
 */

/** Grid points of the smoother at bandwidth σ: max(2000, round(20/σ)) // 2 + 1 (relplot `GaussianKernel.apply`). */
export function gridPoints(sigma: number): number {
  return Math.floor(Math.max(2000, roundHalfEven(20 / sigma)) / 2) + 1;
}

/** The grid cell of each score and its share in the next cell (relplot `smooth_round_to_grid`). */
export function gridCells(f: ArrayLike<number>, g: number): { bin: Int32Array; frac: Float64Array } {
  const bin = new Int32Array(f.length);
  const frac = new Float64Array(f.length);
  for (let i = 0; i < f.length; i++) {
    const x = (f[i] as number) * (g - 1);
    const b = Math.min(Math.max(Math.trunc(x), 0), g - 2);
    bin[i] = b;
    frac[i] = x - b;
  }
  return { bin, frac };
}

/** Linear splatting of weights v at positions in grid cells `cells` ({@link gridCells}) onto a grid of g points. */
function roundToGrid(cells: { bin: Int32Array; frac: Float64Array }, v: ArrayLike<number>, g: number): Float64Array {
  const { bin, frac } = cells;
  const values = new Float64Array(g);
  for (let i = 0; i < bin.length; i++) {
    const b = bin[i] as number;
    const w = v[i] as number;
    values[b] = (values[b] as number) + (1 - (frac[i] as number)) * w;
    values[b + 1] = (values[b + 1] as number) + (frac[i] as number) * w;
  }
  return values;
}

/** Gaussian kernel N(0.5, σ²) on linspace(0, 1, g) (relplot `kernel_ev`; no grid-spacing factor). */
export function kernelValues(sigma: number, g: number): Float64Array {
  const out = new Float64Array(g);
  const step = 1 / (g - 1);
  const variance = sigma ** 2;
  const norm = Math.sqrt(2 * Math.PI) * sigma;
  for (let k = 0; k < g; k++) {
    const t = k === g - 1 ? 1 : k * step;
    out[k] = Math.exp((-(t - 0.5) * (t - 0.5)) / (2 * variance)) / norm;
  }
  return out;
}

/**
 * The kernel's indices holding values of at least 2⁻⁶⁰ of its peak (beyond ≈ 9σ it is smaller): the terms left
 * out add less than N·2⁻⁶⁰ of a peak to any sum, below the rounding of every sum near data and far below the
 * 10⁻⁴ density floor elsewhere; a narrow kernel then costs its reach, not the whole grid.
 */
function reach(kernel: Float64Array): [number, number] {
  const tiny = (kernel[Math.floor(kernel.length / 2)] as number) * 2 ** -60;
  let lo = 0;
  while (lo < kernel.length - 1 && (kernel[lo] as number) < tiny) lo++;
  let hi = kernel.length - 1;
  while (hi > lo && (kernel[hi] as number) < tiny) hi--;
  return [lo, hi];
}

/**
 * Adds `weight` × the smoothed image of grid value i to `out` — one column of the reflected convolution. relplot
 * convolves E = [reverse(V)[:-1], V, reverse(V)[1:]] (length 3g − 2) with the kernel ('valid') and keeps outputs
 * g//2 … g//2 + g − 1, so out[j] = Σ_k E[g//2 + j + k]·κ[g − 1 − k]. V[i] sits in E at up to three places (its two
 * mirror images and itself); each adds a run of kernel values (within the kernel's `span`), contiguous in j.
 */
function addColumn(out: Float64Array, kernel: Float64Array, span: [number, number], i: number, weight: number): void {
  addColumns(out, weight, null, 0, kernel, span, i);
}

/**
 * {@link addColumn} into `out` with `weight` and, in the same loops, into `out2` with `weight2` (when `out2` is given
 * and `weight2` ≠ 0; `weight` 0 adds nothing to `out`): each array gets the same additions in the same order as its
 * own column would give it.
 */
function addColumns(
  out: Float64Array,
  weight: number,
  out2: Float64Array | null,
  weight2: number,
  kernel: Float64Array,
  span: [number, number],
  i: number,
): void {
  const g = kernel.length;
  const start = Math.floor(g / 2);
  const one = weight !== 0;
  const two = out2 !== null && weight2 !== 0;
  for (let image = 0; image < 3; image++) {
    const e = image === 0 ? (i >= 1 ? g - 1 - i : -1) : image === 1 ? g - 1 + i : i <= g - 2 ? 3 * g - 3 - i : -1;
    if (e < 0) continue;
    // 0 ≤ e − start − j ≤ g − 1, read at kernel index base + j = g − 1 − (e − start − j), within the span
    const base = g - 1 - e + start;
    const lo = Math.max(0, e - start - (g - 1), span[0] - base);
    const hi = Math.min(g - 1, e - start, span[1] - base);
    if (one && two) {
      const o2 = out2;
      for (let j = lo; j <= hi; j++) {
        const k = kernel[base + j] as number;
        out[j] = (out[j] as number) + weight * k;
        o2[j] = (o2[j] as number) + weight2 * k;
      }
    } else if (one) addRun(out, weight, kernel, base, lo, hi);
    else if (two) addRun(out2, weight2, kernel, base, lo, hi);
  }
}

/** out[j] += weight · kernel[base + j] for j in [lo, hi]: one column image into one grid. */
function addRun(out: Float64Array, weight: number, kernel: Float64Array, base: number, lo: number, hi: number): void {
  for (let j = lo; j <= hi; j++) out[j] = (out[j] as number) + weight * (kernel[base + j] as number);
}

/**
 * The reflected convolution of grid values, and of a second grid `values2` alongside (the same kernel, its reach and
 * column images found once; each output the same bits as convolved alone). Empty cells cost nothing: concentrated
 * scores smooth quickly.
 */
function reflectedConvolve(
  values: Float64Array,
  kernel: Float64Array,
  values2: Float64Array | null = null,
): [Float64Array, Float64Array | null] {
  const out = new Float64Array(values.length);
  const out2 = values2 === null ? null : new Float64Array(values.length);
  const span = reach(kernel);
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    const v2 = values2 === null ? 0 : (values2[i] as number);
    if (v !== 0 || v2 !== 0) addColumns(out, v, out2, v2, kernel, span, i);
  }
  return [out, out2];
}

/** Linear interpolation of grid values at x (relplot `interpolate`). */
function interpolate(grid: Float64Array, x: number): number {
  const g = grid.length;
  const bucket = 1 / (g - 1);
  const ind = Math.min(Math.max(Math.trunc(x * (g - 1)), 0), g - 2);
  const residual = (x - ind * bucket) / bucket;
  return (grid[ind] as number) * (1 - residual) + (grid[ind + 1] as number) * residual;
}

/**
 * Kernel smoothing of weights v at positions f, read at the points t (relplot `GaussianKernel.apply`), and of
 * weights v2 at the same positions (the residuals and the density of one fit: the grid cells, the kernel and its
 * columns found once — each of them had been most of a smoothing's time — each result the same bits as alone).
 */
export function smoothPairAt(
  f: ArrayLike<number>,
  v: ArrayLike<number>,
  v2: ArrayLike<number>,
  t: Float64Array,
  sigma: number,
): [Float64Array, Float64Array] {
  const g = gridPoints(sigma);
  const cells = gridCells(f, g);
  const [a, b] = reflectedConvolve(roundToGrid(cells, v, g), kernelValues(sigma, g), roundToGrid(cells, v2, g));
  const b2 = b as Float64Array;
  return [Float64Array.from(t, (x) => interpolate(a, x)), Float64Array.from(t, (x) => interpolate(b2, x))];
}

/**
 * The smoother read at the mesh t as a matrix over the grid cells `cells` (row c: the mesh values of a unit value in
 * cell cells[c]), so resampled values cost one product with the cells that hold data, not a convolution. Each row
 * keeps the mesh range [lo, hi] outside which its entries are below 2⁻⁶⁰ of the kernel's peak (see `reach`).
 */
export function meshOperator(
  kernel: Float64Array,
  cells: Int32Array,
  t: Float64Array,
): { values: Float64Array; lo: Int32Array; hi: Int32Array } {
  const g = kernel.length;
  const m = t.length;
  const values = new Float64Array(cells.length * m);
  const lo = new Int32Array(cells.length);
  const hi = new Int32Array(cells.length).fill(-1);
  const tiny = (kernel[Math.floor(g / 2)] as number) * 2 ** -60;
  const span = reach(kernel);
  const column = new Float64Array(g);
  for (let c = 0; c < cells.length; c++) {
    column.fill(0);
    addColumn(column, kernel, span, cells[c] as number, 1);
    let first = m;
    for (let k = 0; k < m; k++) {
      const v = interpolate(column, t[k] as number);
      values[c * m + k] = v;
      if (v >= tiny) {
        if (first === m) first = k;
        hi[c] = k;
      }
    }
    lo[c] = first;
  }
  return { values, lo, hi };
}

/** linspace(0, 1, m) with the last point exactly 1. */
export function mesh(m: number): Float64Array {
  const t = new Float64Array(m);
  const step = 1 / (m - 1);
  for (let k = 0; k < m; k++) t[k] = k === m - 1 ? 1 : k * step;
  return t;
}

/** relplot's density floor of 10⁻⁴ samples, in weight units (see `samplesPerWeight`). */
export function densityFloor(w: Float64Array | undefined): number {
  return w === undefined ? 0.0001 : 0.0001 / samplesPerWeight(w, weightUnit(w));
}

/** smECE at a fixed bandwidth (relplot `smooth_ece`): Σ_t |r̂(t)|·δ̂(t) / Σ_t δ̂(t) on max(round(10/σ), 200) points. */
export function smoothEceAt(f: Float64Array, residual: Float64Array, sigma: number, w?: Float64Array): number {
  const t = mesh(Math.max(roundHalfEven(10 / sigma), 200));
  // frequency weights scale each pair's mass (splatting is linear: the same as repeating the pair)
  const ones = w ?? new Float64Array(f.length).fill(1);
  const [ys, dens] = smoothPairAt(
    f,
    w === undefined ? residual : residual.map((r, i) => r * (w[i] as number)),
    ones,
    t,
    sigma,
  );
  const floor = densityFloor(w);
  let num = 0;
  let den = 0;
  for (let k = 0; k < t.length; k++) {
    const d = (dens[k] as number) + floor;
    num += Math.abs((ys[k] as number) / d) * d;
    den += d;
  }
  return num / den;
}

/**
 * The automatic bandwidth (relplot `smECE`): the fixed point σ = smECE_σ, found by 10 bisection steps on (0, 1] —
 * the largest σ on the grid of 2^-10 with σ ≥ smECE_σ (or σ < eps).
 */
export function automaticBandwidth(f: Float64Array, residual: Float64Array, eps: number, w?: Float64Array): number {
  const predicate = (alpha: number) => alpha < eps || alpha < smoothEceAt(f, residual, alpha, w);
  if (predicate(1)) return 1;
  let start = 1;
  let end = 0;
  for (let k = 0; k < 10; k++) {
    const mid = (start + end) / 2;
    if (predicate(mid)) end = mid;
    else start = mid;
  }
  return start;
}
