import { checkCount, MAX_COUNT } from '../errors/checkCount.js';
import { checkOptions } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import { maxAbs, rescaleExponent, timesPow2 } from '../math/pow2.js';
import { createRng, type Rng } from '../random/rng.js';
import type { NamedMeasure } from '../selective/types.js';
import { OOD_KEYS, oodInput, type OodInput, type OodOptions } from './oodInput.js';

/** Options of {@link oodCurve}. */
export interface OodCurveOptions extends OodOptions {
  /** Samples per batch B (default 100, as in the seed); at most the size of each side. */
  batchSize?: number;
  /** Independent random batches averaged (default 1). */
  repeats?: number;
  /** Seed of the random draws (default 0). */
  seed?: number;
}

/** One step of an OoD curve. */
export interface OodCurvePoint {
  /** Out-of-distribution samples in the batch. */
  readonly outCount: number;
  /** outCount / B. */
  readonly fraction: number;
  /** Mean of the measure over the batch, averaged over the repeats. */
  readonly mean: number;
  /** Sample standard deviation of that mean across repeats (`null` with one repeat). */
  readonly std: number | null;
}

/** The curve of mean batch uncertainty against the share of out-of-distribution samples. */
export interface OodCurve {
  readonly measure: NamedMeasure | 'given';
  readonly direction: 'confidence' | 'uncertainty';
  readonly batchSize: number;
  readonly repeats: number;
  readonly seed: number;
  /** B + 1 points, 0 … B out-of-distribution samples. */
  readonly points: OodCurvePoint[];
}

/**
 * One side's samples as the caller's rows and their whole-number multiplicities: a weight-w row stands for w
 * samples, laid out row after row (internal). `cumulative[i]` counts the samples of rows 0…i, in units of `unit`.
 */
interface Population {
  readonly values: Float64Array;
  /** Undefined: every row is one sample. */
  readonly cumulative?: Float64Array;
  readonly unit: number;
  /** Number of samples (in units of `unit`). */
  readonly size: number;
}

function population(
  fn: string,
  values: Float64Array,
  w: Float64Array | undefined,
  unit: number,
  name: string,
): Population {
  if (w === undefined) return { values, unit: 1, size: values.length };
  const cumulative = new Float64Array(w.length);
  let total = 0;
  w.forEach((k, i) => {
    if (!Number.isInteger(k * unit))
      fail(
        'UM_OPTION',
        fn,
        `options.weights.${name}`,
        'be whole numbers here (the curve draws samples; a weight-w sample is w copies)',
        { index: [i], value: k * unit },
      );
    total += k;
    cumulative[i] = total;
  });
  return { values, cumulative, unit, size: total };
}

/** The row that holds sample `slot` (0-based, in units of `unit`): the first whose running count exceeds it. */
function rowOf(p: Population, slot: number): number {
  const c = p.cumulative;
  if (c === undefined) return slot;
  let lo = 0;
  let hi = c.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((c[mid] as number) > slot) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * k distinct samples in random order, as rows (partial Fisher–Yates over the samples, with only the displaced slots
 * kept: O(k) time and memory whatever the population's size — the same draws as shuffling the repeated rows).
 * Beyond 2^53 samples float64 no longer numbers each one: a draw picks a uniform position in the population (with
 * replacement, which at that size differs with probability below k²/2^53).
 */
function draw(rng: Rng, p: Population, k: number): Uint32Array {
  const out = new Uint32Array(k);
  const n = p.size;
  if (p.unit !== 1 || n > 2 ** 53) {
    for (let i = 0; i < k; i++) out[i] = rowOf(p, rng.uniform() * n);
    return out;
  }
  const moved = new Map<number, number>();
  for (let i = 0; i < k; i++) {
    const j = i + rng.integer(n - i);
    const atJ = moved.get(j) ?? j;
    moved.set(j, moved.get(i) ?? i);
    out[i] = rowOf(p, atJ);
  }
  return out;
}

/**
 * Out-of-distribution curve: the mean uncertainty of a batch of in-distribution samples as they are replaced, one
 * by one, by out-of-distribution samples — a good uncertainty measure rises steadily with the share of unknown
 * inputs.
 *
 * **Formula.** Draw B in-distribution samples a_1…a_B and B out-of-distribution samples o_1…o_B without
 * replacement; for k = 0…B the batch is {a_{k+1}…a_B, o_1…o_k} and the point is its mean measure
 * (1/B)·(Σ_{j>k} u(a_j) + Σ_{j≤k} u(o_j)); with R repeats, the mean over repeats and its sample standard deviation.
 *
 * **Conventions.**
 * - Seeded (xoshiro128**): the same `seed` gives the same curve. Batches are drawn without replacement, so B must
 *   not exceed either side's size.
 * - Values in the measure's own scale (default `'normalized-entropy'`, the seed's H̃); for a confidence measure the
 *   curve falls instead of rising.
 * - Each side: scores ranked by `by`, or `{ uncertainty }` / `{ confidence }` values.
 * - `weights` (whole numbers, per side): a weight-w sample is repeated w times before batches are drawn.
 *
 * **References.**
 * - "Uncertainty Calibration Error: A New Metric for Multi-Class Classification", ICLR 2020 submission, §5 and
 *   Fig. 2 (right): a batch of 100 CIFAR-10 samples stepwise replaced by CIFAR-100 samples.
 *
 * @param inDistribution [N_in, C] scores, or `{ uncertainty }` / `{ confidence }` values.
 * @param outOfDistribution [N_out, C] scores, or values of the same form.
 * @param options `batchSize` (default 100), `repeats` (default 1), `seed` (default 0), `by`, input options.
 * @returns an {@link OodCurve}.
 * @throws {UMError} on invalid input; `UM_OPTION` for a batch larger than a side or bad `repeats`/`seed`. Values of
 *   any finite magnitude are averaged scaled by a power of two (no overflow of the batch sums).
 * @example
 * ```js
 * import { oodCurve } from 'uncertainty-metrics';
 * const c = oodCurve({ uncertainty: [0.1, 0.1, 0.1] }, { uncertainty: [0.7, 0.7] }, { batchSize: 2 });
 * c.points.map((p) => p.mean); // ≈ [0.1, 0.4, 0.7]
 * ```
 */
export function oodCurve(
  inDistribution: OodInput,
  outOfDistribution: OodInput,
  options: OodCurveOptions = {},
): OodCurve {
  const fn = 'oodCurve';
  checkOptions(fn, options, OOD_KEYS, ['batchSize', 'repeats', 'seed']);
  const { batchSize = 100, repeats = 1, seed = 0, ...rest } = options;
  // the curve draws each side's samples on their own; whole weights are counts (used as given within [2^-100, 2^100])
  const d = oodInput(fn, inDistribution, outOfDistribution, rest, false);
  // values of extreme magnitude (±1e308) are averaged scaled by a power of two, and the means scaled back
  const e = rescaleExponent(Math.max(maxAbs(d.inConfidence), maxAbs(d.outConfidence)));
  const scaled = (v: Float64Array) => (e === 0 ? v : v.map((x) => timesPow2(x, -e)));
  const inside = population(fn, scaled(d.inConfidence), d.inWeights, d.inScale ?? 1, 'inDistribution');
  const outside = population(fn, scaled(d.outConfidence), d.outWeights, d.outScale ?? 1, 'outOfDistribution');
  const smaller = Math.min(inside.size * inside.unit, outside.size * outside.unit);
  checkCount(
    fn,
    'options.batchSize',
    batchSize,
    smaller < MAX_COUNT ? { max: smaller, why: 'at most the samples of each side' } : {},
  );
  checkCount(fn, 'options.repeats', repeats);
  const rng = createRng(fn, seed);
  const b = batchSize;
  const sums = new Float64Array(b + 1);
  const squares = new Float64Array(b + 1);
  for (let r = 0; r < repeats; r++) {
    const a = draw(rng, inside, b);
    const o = draw(rng, outside, b);
    let total = 0;
    for (let j = 0; j < b; j++) total += d.sign * (inside.values[a[j] as number] as number);
    for (let k = 0; k <= b; k++) {
      if (k > 0)
        total +=
          d.sign * ((outside.values[o[k - 1] as number] as number) - (inside.values[a[k - 1] as number] as number));
      const m = total / b;
      sums[k] = (sums[k] as number) + m;
      squares[k] = (squares[k] as number) + m * m;
    }
  }
  const points: OodCurvePoint[] = [];
  for (let k = 0; k <= b; k++) {
    const mean = (sums[k] as number) / repeats;
    const std =
      repeats === 1 ? null : Math.sqrt(Math.max(0, ((squares[k] as number) - repeats * mean * mean) / (repeats - 1)));
    points.push({
      outCount: k,
      fraction: k / b,
      mean: timesPow2(mean, e),
      std: std === null ? null : timesPow2(std, e),
    });
  }
  return {
    measure: d.measure,
    direction: d.sign === 1 ? 'confidence' : 'uncertainty',
    batchSize: b,
    repeats,
    seed,
    points,
  };
}
