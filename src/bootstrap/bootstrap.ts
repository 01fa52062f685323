import { isList } from '../input/isList.js';
import { checkCount } from '../errors/checkCount.js';
import { checkOptions } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import { createRng } from '../random/rng.js';
import { BOOTSTRAP_METHODS, intervalOf, type BootstrapInterval, type BootstrapMethod } from './intervals.js';

export type { BootstrapInterval, BootstrapMethod } from './intervals.js';

/** A metric of rows given frequency weights: a number, or named numbers (null where undefined). */
export type WeightedMetric = (weights: Float64Array) => number | null | Readonly<Record<string, unknown>>;

/** Largest `resamples` (beyond it the Monte Carlo error of the interval ends is negligible; values are kept in memory). */
export const MAX_RESAMPLES = 100_000;
/**
 * Largest number of rows `n`: a bootstrap holds three Float64Arrays of n (base weights, the estimate's copy, a
 * resample's weights), 1 GiB each at 2²⁷. At 2³⁰ (24 GiB) n = 1e9 passed the check and spent 48 s allocating before
 * the metric ran once.
 */
export const MAX_ROWS = 2 ** 27;
/** Number of jackknife groups of BCa's acceleration (every row its own group when there are fewer rows). */
export const JACKKNIFE_GROUPS = 100;

/** Options of {@link bootstrap}. */
export interface BootstrapOptions {
  /** Number of resamples, an integer in [2, 100 000] (default 1000). */
  resamples?: number;
  /** Confidence level, in (0, 1) (default 0.95). */
  level?: number;
  /** Seed of the resampling, an integer in [0, 2³² − 1] (default 0). */
  seed?: number;
  /** How the interval is read from the resamples: `'percentile'` (default), `'basic'`, `'bca'` or `'union'`. */
  method?: BootstrapMethod;
  /** Sample weights of the rows (default 1 each): each resample multiplies them by its counts. */
  weights?: ArrayLike<number>;
}

/** What {@link bootstrap} returns: one interval, or one per named number, with the settings used. */
export interface BootstrapResult {
  readonly intervals: BootstrapInterval | Readonly<Record<string, BootstrapInterval>>;
  readonly level: number;
  readonly resamples: number;
  readonly seed: number;
  readonly method: BootstrapMethod;
}

/** The settings of a bootstrap, validated (internal; shared with comparePaired). */
export interface BootstrapSettings<M extends string = BootstrapMethod> {
  resamples: number;
  level: number;
  seed: number;
  method: M;
}

/**
 * Validates `resamples`, `level`, `seed` and `method` (one of `methods`, default `fallback`) of `fn`'s options
 * against their documented ranges (internal; shared with comparePaired so both name the same ranges).
 */
export function bootstrapSettings<M extends string>(
  fn: string,
  options: { resamples?: unknown; level?: unknown; seed?: unknown; method?: unknown },
  methods: readonly M[],
  fallback: M,
): BootstrapSettings<M> {
  const { resamples = 1000, level = 0.95, seed = 0 } = options;
  const count = checkCount(fn, 'options.resamples', resamples, {
    min: 2,
    max: MAX_RESAMPLES,
    why: `${MAX_RESAMPLES} resamples keep every resampled value in memory; more change the interval ends by less than their Monte Carlo error`,
  });
  if (typeof level !== 'number' || !(level > 0 && level < 1))
    fail('UM_OPTION', fn, 'options.level', 'be a number in (0, 1)', { value: level });
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    fail('UM_OPTION', fn, 'options.seed', 'be an integer in [0, 2³² − 1]', { value: seed });
  }
  const method = options.method ?? fallback;
  if (!methods.includes(method as M))
    fail('UM_OPTION', fn, 'options.method', `be one of ${methods.map((x) => `'${x}'`).join(', ')}`, { value: method });
  return { resamples: count, level, seed, method: method as M };
}

/** The numbers of one call of a metric: its value under '', or its named values (null where undefined) (internal). */
export type Numbers = Map<string, number | null>;

/** The numbers of a metric result: the number itself under '', or the numeric (or null) fields (internal). */
export function numbersOf(r: number | null | Readonly<Record<string, unknown>>): Numbers {
  const out: Numbers = new Map();
  // a NaN from the metric is "undefined" (null), as the metrics' own undefined values are: never a NaN estimate
  const defined = (v: number | null) => (v !== null && Number.isNaN(v) ? null : v);
  if (r === null || typeof r === 'number') out.set('', defined(r));
  else for (const [k, v] of Object.entries(r)) if (typeof v === 'number' || v === null) out.set(k, defined(v));
  return out;
}

/** The numbers of `call()`, or null when it throws: a resample (or jackknife group) the metric is undefined on. */
export function tryNumbers(call: () => number | null | Readonly<Record<string, unknown>>): Numbers | null {
  try {
    return numbersOf(call());
  } catch {
    return null;
  }
}

/**
 * The resamples of a bootstrap: for b = 0 … count − 1, `visit` gets resample b's weights — row counts drawn with
 * replacement (seeded) times `base` — in one array reused from call to call. The sequence depends on n, `base` and the
 * seed only, so bootstraps of several metrics with the same settings resample the same rows, and one pass over the
 * resamples can feed them all (the report's table and its comparisons) (internal).
 */
export function forEachResample(
  n: number,
  base: Float64Array,
  seed: number,
  count: number,
  visit: (w: Float64Array, b: number) => void,
): void {
  const rng = createRng('bootstrap', seed);
  const w = new Float64Array(n);
  for (let b = 0; b < count; b++) {
    w.fill(0);
    for (let j = 0; j < n; j++) {
      const i = rng.integer(n);
      w[i] = (w[i] as number) + 1;
    }
    for (let i = 0; i < n; i++) w[i] = (w[i] as number) * (base[i] as number);
    visit(w, b);
  }
}

/**
 * The jackknife of BCa's acceleration: `visit` gets the weights with one group of rows left out (weight 0), for each
 * of min(rows of positive weight, {@link JACKKNIFE_GROUPS}) groups; row j of positive weight is in group j mod G
 * (interleaved, so sorted data spreads over every group). One array, reused (internal).
 */
export function forEachJackknifeGroup(base: Float64Array, visit: (w: Float64Array, g: number) => void): void {
  const rows: number[] = [];
  for (let i = 0; i < base.length; i++) if ((base[i] as number) > 0) rows.push(i);
  const groups = Math.min(rows.length, JACKKNIFE_GROUPS);
  const w = Float64Array.from(base);
  for (let g = 0; g < groups; g++) {
    for (let j = g; j < rows.length; j += groups) w[rows[j] as number] = 0;
    visit(w, g);
    for (let j = g; j < rows.length; j += groups) w[rows[j] as number] = base[rows[j] as number] as number;
  }
}

/**
 * What a bootstrap collects, call by call: the estimate's numbers, each key's finite resampled values and failures
 * (resamples where the metric was undefined, not finite or threw, left out), and the jackknife values of the keys that
 * need them; then the intervals (internal; the one reading of every bootstrap of the library: {@link bootstrap},
 * comparePaired, the report's table and comparisons).
 */
export class Resampled {
  readonly keys: readonly string[];
  private readonly samples = new Map<string, number[]>();
  private readonly failed = new Map<string, number>();
  private readonly jack = new Map<string, number[]>();

  constructor(readonly estimate: Numbers) {
    this.keys = [...estimate.keys()];
    for (const k of this.keys) {
      this.samples.set(k, []);
      this.failed.set(k, 0);
    }
  }

  /** One resample's numbers, or null when the metric threw on it (every key fails). */
  add(r: Numbers | null): void {
    for (const k of this.keys) {
      const v = r?.get(k);
      if (typeof v === 'number' && Number.isFinite(v)) this.samples.get(k)?.push(v);
      else this.failed.set(k, (this.failed.get(k) as number) + 1);
    }
  }

  /**
   * One jackknife group's numbers for `keys` (those with BCa intervals), or null when the metric threw: a group whose
   * removal leaves the metric undefined does not inform the acceleration.
   */
  addGroup(r: Numbers | null, keys: readonly string[]): void {
    for (const k of keys) {
      // a key the jackknife's metric does not compute would silently give BCa no acceleration: a defect, not data
      if (r !== null && r.size > 0 && !r.has(k)) throw new Error(`jackknife: the metric gave no value for ${k}`);
      const v = r?.get(k);
      if (typeof v === 'number' && Number.isFinite(v)) {
        let list = this.jack.get(k);
        if (list === undefined) this.jack.set(k, (list = []));
        list.push(v);
      }
    }
  }

  /** The interval of each key by its method (one interval when the metric is a single number). */
  intervals(
    level: number,
    methodOf: (key: string) => BootstrapMethod,
  ): BootstrapInterval | Readonly<Record<string, BootstrapInterval>> {
    const per = (k: string) =>
      intervalOf(
        methodOf(k),
        this.estimate.get(k) ?? null,
        this.samples.get(k) ?? [],
        this.failed.get(k) ?? 0,
        level,
        this.jack.get(k) ?? [],
      );
    return this.estimate.has('') && this.estimate.size === 1
      ? per('')
      : Object.fromEntries(this.keys.map((k) => [k, per(k)]));
  }
}

/**
 * Seeded bootstrap confidence intervals for any metric: resamples the N rows with replacement and recomputes the
 * metric on each resample, given as frequency weights (how often each row was drawn) — so every library metric
 * with a `weights` option bootstraps without copying data.
 *
 * **Formula.** For b = 1 … R: counts c^b ~ Multinomial(N; 1/N, …, 1/N), θ̂*_b = metric(w ⊙ c^b); q(·) are the
 * quantiles of {θ̂*_b} (linear interpolation), α = 1 − level, z_u = Φ⁻¹(u).
 * - `'percentile'`: [q(α/2), q(1 − α/2)].
 * - `'basic'`: [2θ̂ − q(1 − α/2), 2θ̂ − q(α/2)] (θ̂ − θ estimated by θ̂* − θ̂, so a bias under resampling is
 *   subtracted, not added).
 * - `'bca'`: [q(α₁), q(α₂)] with α_{1,2} = Φ(z₀ + (z₀ + z_{α/2, 1−α/2})/(1 − a·(z₀ + z_{α/2, 1−α/2}))),
 *   z₀ = Φ⁻¹((#{θ̂*\_b < θ̂} + ½·#{θ̂*\_b = θ̂})/R), a = Σ d_g³ / (6·(Σ d_g²)^{3/2}), d_g = θ̄_(·) − θ̂_(g) over
 *   G = min(N, 100) jackknife groups (row j of positive weight in group j mod G; θ̂_(g) the metric without group g).
 *   Past the pole (1 − a·(z₀ + z) ≤ 0) α is 0 or 1.
 * - `'union'`: θ̂ ± max(|q(α/2) − θ̂|, |q(1 − α/2) − θ̂|), the smallest interval holding both the percentile and the
 *   basic interval (and always θ̂).
 * The standard error is the standard deviation of {θ̂*_b}.
 *
 * **Conventions.**
 * - Row resampling (the i.i.d. nonparametric bootstrap); `metric` must treat weights as frequency weights (every
 *   metric of this library does: a weight-w row counts as w copies).
 * - The default `'percentile'` interval assumes the metric is unbiased under resampling. Binned calibration errors
 *   are not (duplicated rows sharpen the bins), so their percentile interval can lie above the estimate. `'bca'`
 *   corrects a bias the resamples measure (z₀) and skewness (a) — for smooth metrics (accuracy, Brier, NLL, AUROC)
 *   it is the method of choice; it costs G ≤ 100 extra evaluations of `metric` (Efron & Narasimhan's grouped
 *   jackknife; with N ≤ 100 the ordinary jackknife). The bias of binned errors is one the resamples under-measure;
 *   `'union'` is the conservative choice for them ({@link comparePaired} documents the measured coverage).
 * - BCa when every resample lies strictly on one side of θ̂ (z₀ = ±∞, undefined): the `'union'` interval, marked
 *   `method: 'union'` on that interval.
 * - A resample where the metric is null, not finite or throws (e.g. AUROC with one class left) is counted in
 *   `failed` and left out; the interval is null when the estimate itself is null or not finite (a NaN estimate is
 *   reported as null).
 * - Object results (e.g. {@link evaluate}) get one interval per numeric field, from the same resamples.
 * - Ranges: `resamples` an integer in [2, 100 000], `level` in (0, 1), `seed` an integer in [0, 2³² − 1],
 *   n ≤ 2²⁷; unknown option keys are rejected. Deterministic for a seed (xoshiro128**).
 *
 * **References.**
 * - Efron & Tibshirani, "An Introduction to the Bootstrap", Chapman & Hall 1993, doi:10.1201/9780429246593
 *   (ch. 13 percentile, ch. 14 BCa with eq. 14.15).
 * - Davison & Hinkley, "Bootstrap Methods and their Application", Cambridge 1997, doi:10.1017/CBO9780511802843
 *   (eq. 5.6, the basic interval).
 * - Efron, "Better bootstrap confidence intervals", JASA 82(397) 1987, doi:10.1080/01621459.1987.10478410.
 * - Efron & Narasimhan, "The automatic construction of bootstrap confidence intervals", JCGS 29(3) 2020,
 *   doi:10.1080/10618600.2020.1714633 (grouped jackknife for the acceleration).
 *
 * @param n number of rows N.
 * @param metric the metric of the rows under frequency weights.
 * @param options `resamples` (1000), `level` (0.95), `seed` (0), `method` (`'percentile'`), `weights`.
 * @returns a {@link BootstrapResult}.
 * @throws {UMError} `UM_OPTION` for unknown or invalid options, `UM_EMPTY` for n < 1; errors of `metric` on the
 *   full data.
 * @example
 * ```js
 * import { bootstrap, brier } from 'uncertainty-metrics';
 * const y = [0, 1, 1, 0, 1, 0, 1, 1];
 * const p = [[0.8, 0.2], [0.3, 0.7], [0.4, 0.6], [0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [0.5, 0.5], [0.1, 0.9]];
 * const r = bootstrap(y.length, (w) => brier(y, p, { weights: w }), { resamples: 200, seed: 1, method: 'bca' });
 * r.intervals.estimate; // ≈ 0.19
 * r.intervals.lower < 0.19 && 0.19 < r.intervals.upper; // => true
 * ```
 */
export function bootstrap(n: number, metric: WeightedMetric, options: BootstrapOptions = {}): BootstrapResult {
  const fn = 'bootstrap';
  checkOptions(fn, options, ['resamples', 'level', 'seed', 'method', 'weights']);
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1)
    fail('UM_EMPTY', fn, 'n', 'be an integer ≥ 1 (the number of rows)', { value: n });
  if (n > MAX_ROWS) fail('UM_OPTION', fn, 'n', `be at most 2²⁷ = ${MAX_ROWS} (the number of rows)`, { value: n });
  if (typeof metric !== 'function')
    fail('UM_OPTION', fn, 'metric', 'be a function of the row weights', { value: metric });
  const settings = bootstrapSettings(fn, options, BOOTSTRAP_METHODS, 'percentile');
  const base = new Float64Array(n).fill(1);
  if (options.weights !== undefined) {
    if (!isList(options.weights)) {
      fail('UM_SHAPE', fn, 'options.weights', 'be an array of numbers, one per row', { value: options.weights });
    }
    if (options.weights.length !== n)
      fail('UM_SHAPE', fn, 'options.weights', `have one weight per row (${n})`, { value: options.weights.length });
    for (let i = 0; i < n; i++) {
      const v = options.weights[i] as number;
      if (typeof v !== 'number' || !(v >= 0) || !Number.isFinite(v))
        fail('UM_OPTION', fn, 'options.weights', 'be finite numbers ≥ 0', { index: [i], value: v });
      base[i] = v;
    }
  }
  return resample(n, metric, base, settings);
}

/**
 * The resampling loop of {@link bootstrap} on validated settings and base weights; `methodOf` may choose the method
 * per number; `jackknifeMetric` (default `metric`) computes at least the numbers whose method is BCa — a cheaper
 * metric when the others (e.g. class-wise errors with union intervals) need no jackknife (internal; shared with
 * comparePaired and the report).
 */
export function resample(
  n: number,
  metric: WeightedMetric,
  base: Float64Array,
  settings: BootstrapSettings,
  methodOf: (key: string) => BootstrapMethod = () => settings.method,
  jackknifeMetric: WeightedMetric = metric,
): BootstrapResult {
  const { resamples, level, seed, method } = settings;
  const r = new Resampled(numbersOf(metric(Float64Array.from(base))));
  forEachResample(n, base, seed, resamples, (w) => r.add(tryNumbers(() => metric(w))));
  const bca = r.keys.filter((k) => methodOf(k) === 'bca');
  if (bca.length > 0)
    forEachJackknifeGroup(base, (w) =>
      r.addGroup(
        tryNumbers(() => jackknifeMetric(w)),
        bca,
      ),
    );
  return { intervals: r.intervals(level, methodOf), level, resamples, seed, method };
}
