import { numpyQuantileSorted } from '../binning/numpy.js';
import { checkCount } from '../errors/checkCount.js';
import { INPUT_KEYS, checkOptions } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import { samplesPerWeight, weightUnit } from '../input/weights.js';
import type { Labels, Scores } from '../input/types.js';
import { createRng } from '../random/rng.js';
import {
  densityFloor,
  gridCells,
  gridPoints,
  kernelValues,
  mesh,
  meshOperator,
  smoothPairAt,
} from './kernelSmoother.js';
import { smoothFit, type SmoothEceOptions } from './smoothEce.js';

/** Options of {@link smoothReliability}. */
export interface SmoothReliabilityOptions extends SmoothEceOptions {
  /** Bootstrap resamples of the band (default 200, as relplot; 0: no band). At most 10 000. */
  resamples?: number;
  /** Confidence level of the band (default 0.95). */
  level?: number;
  /** Seed of the resampling (default 0). */
  seed?: number;
}

/** One mesh point of a smooth reliability curve. */
export interface SmoothReliabilityPoint {
  /** The mesh point t (a confidence, or P(y = 1) with `target: 'positive-class'`). */
  readonly score: number;
  /** The smoothed outcome μ(t): accuracy (top label) or frequency of y = 1 (positive class) near t. */
  readonly outcome: number;
  /** Kernel density of the scores at t (integrates to 1 over [0, 1]). */
  readonly density: number;
  /** Predictions within the kernel's reach: Σ_i exp(−(t − s_i)²/2σ²) with reflection (samples, with weights). */
  readonly support: number;
  /** Lower end of the bootstrap band at t (`null` without a band). */
  readonly lower: number | null;
  /** Upper end of the bootstrap band at t (`null` without a band). */
  readonly upper: number | null;
}

/** A smooth reliability curve: relplot's diagram, from the smoother whose error is the smooth ECE. */
export interface SmoothReliability {
  /** `'confidence'` (top label: accuracy vs confidence) or `'probability'` (positive class: frequency vs P(y = 1)). */
  readonly measure: 'confidence' | 'probability';
  /** Number of pairs. */
  readonly n: number;
  /** The smooth ECE of the same smoother and bandwidth ({@link smoothEce}'s value). */
  readonly value: number;
  /** The kernel bandwidth σ (automatic: the fixed point σ = smECE_σ). */
  readonly bandwidth: number;
  /** How the band was made (`null` with `resamples: 0`). */
  readonly band: {
    readonly method: 'percentile';
    readonly resamples: number;
    readonly level: number;
    readonly seed: number;
  } | null;
  /** The curve on relplot's mesh of 200 points, linspace(0, 1, 200). */
  readonly points: SmoothReliabilityPoint[];
}

/** Mesh points of the curve (relplot's `plot_mesh_pts`). */
const MESH_POINTS = 200;

/**
 * Smooth reliability curve (Błasiok & Nakkiran's relplot): the kernel-smoothed outcome rate against the score, its
 * bootstrap band and the density of the scores — the diagram whose calibration error is {@link smoothEce}.
 *
 * **Formula.** With pairs (s_i, o_i), weights w_i and the reflected Gaussian kernel K_σ of {@link smoothEce}:
 * μ(t) = Σ_i w_i K_σ(t, s_i) o_i / (Σ_i w_i K_σ(t, s_i) + 10⁻⁴), density(t) = Σ_i w_i K_σ(t, s_i) / Σ_i w_i,
 * support(t) = σ√(2π)·Σ_i K_σ(t, s_i) (samples). The band: μ*_b(t) on B resamples of the pairs (drawn with
 * replacement, the same σ), and their (1 − level)/2 and (1 + level)/2 quantiles at each t.
 *
 * **Conventions.**
 * - One smoother: the grid, splatting, reflected convolution and interpolation of {@link smoothEce}
 *   (`kernelSmoother.ts`), at the bandwidth {@link smoothEce} chooses (or `bandwidth`); `value` equals its result.
 * - The curve is the fit to all pairs (relplot draws the mean of its bootstrap fits; the two differ by the
 *   resampling noise); mesh linspace(0, 1, 200); quantiles by numpy's linear rule.
 * - The band is a percentile bootstrap of the rows (relplot: 200 fits of sklearn's `BaggingRegressor`, 2.5/97.5%);
 *   seeded, so the same input gives the same band. With weights a drawn row carries its weight.
 * - Where no prediction lies near t the smoother has almost no mass and μ(t) falls towards 0 (relplot fades it
 *   out by density); `support` says how many predictions are within the kernel's reach, so a chart can leave those
 *   parts out.
 * - The density is relplot's KDE without its boundary correction, which the reflected kernel does not need.
 *
 * **References.**
 * - Błasiok & Nakkiran, "Smooth ECE: Principled Reliability Diagrams via Kernel Smoothing", ICLR 2024,
 *   arXiv:2309.12236 (relplot 1.0.3, `prepare_rel_diagram`).
 * - Efron & Tibshirani, "An Introduction to the Bootstrap", Chapman & Hall 1993 (percentile intervals).
 *
 * @param labels N integer labels.
 * @param scores [N, C] scores of the declared kind.
 * @param options `resamples`, `level`, `seed`, and {@link smoothEce}'s `bandwidth`, `eps`, `target`, weights and
 *   input options.
 * @returns a {@link SmoothReliability}.
 * @throws {UMError} on invalid input or options (as {@link smoothEce}; `resamples` outside [0, 10 000], `level`
 *   outside (0, 1), a bad `seed`).
 * @example
 * ```js
 * import { smoothReliability, smoothEce } from 'uncertainty-metrics';
 * const labels = [0, 0, 1, 1, 1, 0];
 * const scores = [[0.9, 0.1], [0.8, 0.2], [0.3, 0.7], [0.4, 0.6], [0.2, 0.8], [0.35, 0.65]];
 * const r = smoothReliability(labels, scores, { target: 'positive-class', resamples: 50 });
 * r.value === smoothEce(labels, scores, { target: 'positive-class' }).value; // => true
 * [r.points.length, r.band.resamples]; // => [200, 50]
 * r.points.every((p) => p.lower <= p.upper); // => true
 * ```
 */
export function smoothReliability(
  labels: Labels,
  scores: Scores,
  options: SmoothReliabilityOptions = {},
): SmoothReliability {
  const fn = 'smoothReliability';
  checkOptions(fn, options, INPUT_KEYS, ['target', 'bandwidth', 'eps', 'weights', 'resamples', 'level', 'seed']);
  const resamples = checkCount(fn, 'options.resamples', options.resamples ?? 200, {
    min: 0,
    max: 10_000,
    why: 'each resample smooths every mesh point again; 10 000 is far beyond what a band needs',
  });
  const level = options.level ?? 0.95;
  if (typeof level !== 'number' || !(level > 0 && level < 1))
    fail('UM_OPTION', fn, 'options.level', 'be a number in (0, 1)', { value: level });
  const seed = options.seed ?? 0;
  const rng = createRng(fn, seed);
  const { resamples: _r, level: _l, seed: _s, ...rest } = options;
  const { s, o, w, value, bandwidth } = smoothFit(fn, labels, scores, rest);
  const t = mesh(MESH_POINTS);
  const mass = w ?? new Float64Array(s.length).fill(1);
  const [ys, dens] = smoothPairAt(
    s,
    Float64Array.from(o, (v, i) => v * (mass[i] as number)),
    mass,
    t,
    bandwidth,
  );
  const floor = densityFloor(w);
  let total = 0;
  for (const v of mass) total += v;
  // the smoother's mass is in weight units; support counts samples (see samplesPerWeight)
  const samples = (w === undefined ? 1 : samplesPerWeight(w, weightUnit(w))) * bandwidth * Math.sqrt(2 * Math.PI);
  const band = resamples === 0 ? null : bootstrapBand(s, o, mass, bandwidth, t, resamples, level, floor, rng);
  return {
    measure: options.target === 'positive-class' ? 'probability' : 'confidence',
    n: s.length,
    value,
    bandwidth,
    band: band === null ? null : { method: 'percentile', resamples, level, seed },
    points: Array.from(t, (score, k) => ({
      score,
      outcome: (ys[k] as number) / ((dens[k] as number) + floor),
      density: (dens[k] as number) / total,
      support: (dens[k] as number) * samples,
      lower: band === null ? null : (band.lower[k] as number),
      upper: band === null ? null : (band.upper[k] as number),
    })),
  };
}

/**
 * The percentile band of μ over resamples of the rows (internal). The smoother is linear in the splatted values, so
 * each resample is its multiplicities splatted onto the grid cells that hold data and one product with the
 * smoother read at the mesh ({@link meshOperator}) — no convolution per resample.
 */
function bootstrapBand(
  s: Float64Array,
  o: Float64Array,
  mass: Float64Array,
  sigma: number,
  t: Float64Array,
  resamples: number,
  level: number,
  floor: number,
  rng: ReturnType<typeof createRng>,
): { lower: Float64Array; upper: Float64Array } {
  const g = gridPoints(sigma);
  const { bin, frac } = gridCells(s, g);
  // rows of weight 0 carry nothing: a resample draws among the others
  const rows = Int32Array.from(Array.from(mass.keys()).filter((i) => (mass[i] as number) > 0));
  const cellOf = new Int32Array(g).fill(-1);
  const cells: number[] = [];
  for (const i of rows) {
    for (const c of [bin[i] as number, (bin[i] as number) + 1]) {
      if (cellOf[c] === -1) {
        cellOf[c] = cells.length;
        cells.push(c);
      }
    }
  }
  const m = t.length;
  const { values: operator, lo: from, hi: to } = meshOperator(kernelValues(sigma, g), Int32Array.from(cells), t);
  // per row: its two cells, the shares splatted there, its outcome (a draw then costs four additions)
  const lo = Int32Array.from(rows, (i) => cellOf[bin[i] as number] as number);
  const hi = Int32Array.from(rows, (i) => cellOf[(bin[i] as number) + 1] as number);
  const wLo = Float64Array.from(rows, (i) => (1 - (frac[i] as number)) * (mass[i] as number));
  const wHi = Float64Array.from(rows, (i) => (frac[i] as number) * (mass[i] as number));
  const out = Float64Array.from(rows, (i) => o[i] as number);
  const vy = new Float64Array(cells.length);
  const v1 = new Float64Array(cells.length);
  const num = new Float64Array(m);
  const den = new Float64Array(m);
  const mu = new Float64Array(resamples * m);
  for (let b = 0; b < resamples; b++) {
    vy.fill(0);
    v1.fill(0);
    for (let k = 0; k < rows.length; k++) {
      const r = rng.integer(rows.length);
      const a = lo[r] as number;
      const z = hi[r] as number;
      v1[a] = (v1[a] as number) + (wLo[r] as number);
      v1[z] = (v1[z] as number) + (wHi[r] as number);
      vy[a] = (vy[a] as number) + (wLo[r] as number) * (out[r] as number);
      vy[z] = (vy[z] as number) + (wHi[r] as number) * (out[r] as number);
    }
    num.fill(0);
    den.fill(0);
    for (let c = 0; c < cells.length; c++) {
      const a = v1[c] as number;
      if (a === 0) continue;
      const y = vy[c] as number;
      const row = c * m;
      for (let k = from[c] as number, end = to[c] as number; k <= end; k++) {
        const e = operator[row + k] as number;
        den[k] = (den[k] as number) + a * e;
        num[k] = (num[k] as number) + y * e;
      }
    }
    for (let k = 0; k < m; k++) mu[b * m + k] = (num[k] as number) / ((den[k] as number) + floor);
  }
  const lower = new Float64Array(m);
  const upper = new Float64Array(m);
  const column = new Float64Array(resamples);
  for (let k = 0; k < m; k++) {
    for (let b = 0; b < resamples; b++) column[b] = mu[b * m + k] as number;
    column.sort();
    lower[k] = numpyQuantileSorted(column, (1 - level) / 2);
    upper[k] = numpyQuantileSorted(column, (1 + level) / 2);
  }
  return { lower, upper };
}
