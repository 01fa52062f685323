import { binnedErrorRaw, type Norm } from '../binning/binnedError.js';
import type { BinningConfig } from '../binning/options.js';
import type { BinningSpec } from '../binning/types.js';
import { calibrationSlices, errorOfSlices, resolveCalibration, resolveUce, uceSlices, type ResolvedCalibration, type Slice, type UceClassAverage } from '../calibration/core.js';
import { reliabilityPairs, resolveInterval, table, type ReliabilityTable } from '../calibration/reliability.js';
import { fail } from '../errors/fail.js';
import type { EnsembleMatrix, ProbMatrix } from '../input/types.js';
import { topLabel } from '../measures/topLabel.js';
import { markValidated } from '../input/validated.js';
import type { BrierDecompositionConvention, PresetName } from '../presets/presets.js';
import { brierRows, resolveBrierForm } from '../scores/brierPerExample.js';
import { nllRows, resolveNll, type NllConfig } from '../scores/nllPerExample.js';
import { resolveAuc } from '../selective/aucOptions.js';
import { averagePrecision, rocArea } from '../selective/ranking.js';
import { AURC_ESTIMATORS, aurcOf, excessAurcOf, type AurcEstimator } from '../selective/riskCore.js';
import { selectiveInput } from '../selective/selectiveInput.js';
import { sweep, type Sweep } from '../selective/sweep.js';
import type { NamedMeasure } from '../selective/types.js';
import type { WarningOptions } from '../warnings/warnings.js';
import { atPrecision } from '../calibration/core.js';
import { ExactSum } from './exactSum.js';
import { SliceStore, type StoreMode } from './sliceStore.js';
import { gather } from '../math/gather.js';
import { timesPow2 } from '../math/pow2.js';

/** Exact (keeps what it must) or bounded memory (fine fixed grid) for the order-based metrics. */
export type StateMode = 'exact' | 'bounded';

/** The part of a state that accumulates one metric (internal). */
export interface Part {
  /** Adds validated rows (weights all > 0 or undefined). */
  add(fn: string, p: ProbMatrix, y: Int32Array, w: Float64Array | undefined): void;
  merge(other: Part): void;
  result(fn: string): unknown;
  /** Bound on |result − exact result| (0 when exact; null when no bound is known). */
  bound(fn: string): number | null;
  /** Resolved configuration (plain JSON): states merge only when theirs are equal. */
  readonly config: unknown;
  toJSON(): unknown;
  load(json: unknown): void;
}

const STATE_MESSAGE = 'be merged exactly';

/** Chooses how a slice is stored for a binning spec (internal). */
function storeMode(fn: string, spec: BinningSpec, mode: StateMode): StoreMode {
  if (spec.scheme === 'equal-width' || spec.scheme === 'edges') {
    if (spec.scheme === 'equal-width' && spec.precision === 'float32') {
      fail('UM_STATE', fn, 'options.precision', `be 'float64' in a mergeable state (a float32 preset accumulates in float32 like its peer, which depends on the order of the rows, so it cannot ${STATE_MESSAGE})`, { value: 'float32' });
    }
    return 'bins';
  }
  if (mode === 'exact') return 'exact';
  if (spec.scheme === 'distinct') fail('UM_STATE', fn, 'options.mode', "be 'exact' with binning 'distinct' (every distinct score is its own bin)", { value: mode });
  return 'sketch';
}

/** Slices of binned entries, created once the number of classes is known. */
class Slices {
  stores: SliceStore[] = [];
  constructor(
    readonly mode: StoreMode,
    readonly spec: BinningSpec,
    readonly resolution: number,
  ) {}
  ensure(count: number): void {
    while (this.stores.length < count) this.stores.push(new SliceStore(this.mode, this.spec, this.resolution));
  }
  add(fn: string, slices: Slice[]): void {
    this.ensure(slices.length);
    slices.forEach((s, k) => this.stores[k]?.add(fn, s.scores, s.outcomes, s.weights));
  }
  merge(other: Slices): void {
    this.ensure(other.stores.length);
    other.stores.forEach((s, k) => this.stores[k]?.merge(s));
  }
  raws(fn: string, norm: Norm): (number | null)[] {
    return this.stores.map((s) => (s.isEmpty() ? null : binnedErrorRaw(s.binsOf(fn), norm)));
  }
  /** l1: the mean (class-conditional; over the non-empty slices when `nonEmptyOnly`) or the one slice's sketch bound; other norms: null for sketches. */
  bound(fn: string, norm: Norm, classConditional: boolean, nonEmptyOnly = false): number | null {
    if (this.mode !== 'sketch') return 0;
    // the boundary argument holds for equal-mass cuts; Ding's bins grow by score range (no bound proven)
    if (norm !== 'l1' || this.spec.scheme !== 'equal-mass') return null;
    const b = this.stores.map((s) => (s.isEmpty() ? 0 : s.l1Bound(s.binsOf(fn))));
    const slices = nonEmptyOnly ? this.stores.filter((s) => !s.isEmpty()).length : b.length;
    return classConditional ? b.reduce((a, x) => a + x, 0) / Math.max(1, slices) : (b[0] ?? 0);
  }
  toJSON(): unknown {
    return this.stores.map((s) => s.toJSON());
  }
  load(json: unknown): void {
    this.stores = (json as unknown[]).map((j) => SliceStore.fromJSON(j, this.mode, this.spec, this.resolution));
  }
}

/**
 * A binned error over slices of entries (any member of the ECE family, or the UCE) as a state part: the entries come
 * from the same slicing function the metric uses, the error from the same slice combination.
 */
export class SlicedPart implements Part {
  private readonly slices: Slices;
  constructor(
    fn: string,
    spec: BinningSpec,
    mode: StateMode,
    resolution: number,
    readonly config: unknown,
    private readonly entries: (p: ProbMatrix, y: Int32Array, w: Float64Array | undefined) => Slice[],
    private readonly combine: { norm: Norm; classConditional: boolean; classAverage?: UceClassAverage | null; what: string },
  ) {
    this.slices = new Slices(storeMode(fn, spec, mode), spec, resolution);
  }
  add(fn: string, p: ProbMatrix, y: Int32Array, w: Float64Array | undefined): void {
    this.slices.add(fn, this.entries(p, y, w));
  }
  merge(other: Part): void {
    this.slices.merge((other as SlicedPart).slices);
  }
  result(fn: string): number {
    const c = this.combine;
    return errorOfSlices(fn, this.slices.raws(fn, c.norm), c, c.what);
  }
  bound(fn: string): number | null {
    return this.slices.bound(fn, this.combine.norm, this.combine.classConditional, this.combine.classAverage === 'predicted-classes');
  }
  toJSON(): unknown {
    return this.slices.toJSON();
  }
  load(json: unknown): void {
    this.slices.load(json);
  }
}

/** A member of the ECE family as a state part (internal). */
export function calibrationPart(fn: string, options: Record<string, unknown>, fixed: Parameters<typeof resolveCalibration>[2], defaults: Parameters<typeof resolveCalibration>[3], mode: StateMode, resolution: number): SlicedPart {
  const cfg: ResolvedCalibration = resolveCalibration(fn, options, fixed, defaults);
  const what = cfg.threshold === null ? 'no entries' : `entries with p > ${cfg.threshold}`;
  return new SlicedPart(fn, cfg.spec, mode, resolution, cfg.config, (p, y, w) => calibrationSlices(p, y, cfg, w).slices, { norm: cfg.norm, classConditional: cfg.classConditional, what });
}

/** The UCE as a state part (internal). */
export function ucePart(fn: string, options: Record<string, unknown>, mode: StateMode, resolution: number): SlicedPart {
  const cfg = resolveUce(fn, options);
  return new SlicedPart(fn, cfg.spec, mode, resolution, cfg.config, (p, y, w) => uceSlices(p, y, cfg, w), { norm: cfg.norm, classConditional: cfg.classwise, classAverage: cfg.classAverage, what: 'no rows' });
}

/** A reliability table as a state part. */
export class ReliabilityPart implements Part {
  readonly config: { binning: BinningConfig; measure: 'confidence' | 'uncertainty'; interval: ReturnType<typeof resolveInterval> };
  private readonly store: Slices;
  private readonly precision: 'float64' | 'float32';
  private numClasses = 0;
  /** Some weight was not a whole number: the intervals read the weights as relative (see samplesPerWeight). */
  private relative = false;
  constructor(fn: string, options: Record<string, unknown>, resolved: { spec: BinningSpec; config: BinningConfig; precision: 'float64' | 'float32' }, mode: StateMode, resolution: number) {
    const measure = (options.measure ?? 'confidence') as 'confidence' | 'uncertainty';
    if (measure !== 'confidence' && measure !== 'uncertainty') fail('UM_OPTION', fn, 'options.measure', `be 'confidence' or 'uncertainty'`, { value: measure });
    this.precision = resolved.precision;
    this.store = new Slices(storeMode(fn, resolved.spec, mode), resolved.spec, resolution);
    this.config = { binning: resolved.config, measure, interval: resolveInterval(fn, options) };
  }
  add(fn: string, p0: ProbMatrix, y: Int32Array, w: Float64Array | undefined): void {
    const p = atPrecision(p0, this.precision);
    this.numClasses = p.numClasses;
    const { s, o } = reliabilityPairs(p, y, this.config.measure);
    if (w !== undefined && !w.every((v) => Number.isInteger(v))) this.relative = true;
    this.store.add(fn, [{ scores: Array.from(s), outcomes: Array.from(o), weights: w === undefined ? undefined : Array.from(w) }]);
  }
  merge(other: Part): void {
    const o = other as ReliabilityPart;
    this.store.merge(o.store);
    this.numClasses = Math.max(this.numClasses, o.numClasses);
    this.relative ||= o.relative;
  }
  result(fn: string): ReliabilityTable {
    const s = this.store.stores[0];
    if (s === undefined || s.isEmpty()) fail('UM_EMPTY', fn, 'state', 'hold at least one row (call update first)');
    const bins = s.binsOf(fn);
    const n = bins.reduce((a, b) => a + b.count, 0);
    // as the function: whole weights are samples, others stand for the n rows
    const samplesPer = this.relative ? n / bins.reduce((a, b) => a + b.weight, 0) : 1;
    return table(this.config.measure, n, this.numClasses, bins, this.config.binning, this.config.interval, samplesPer);
  }
  bound(fn: string): number | null {
    return this.store.bound(fn, 'l1', false);
  }
  toJSON(): unknown {
    return { numClasses: this.numClasses, slices: this.store.toJSON(), ...(this.relative ? { relative: true } : {}) };
  }
  load(json: unknown): void {
    const j = json as { numClasses: number; slices: unknown; relative?: boolean };
    this.numClasses = j.numClasses;
    this.relative = j.relative === true;
    this.store.load(j.slices);
  }
}

/** A weighted mean of a per-row value, with exact sums. */
export class MeanPart implements Part {
  private readonly sum = new ExactSum();
  /** Σ w·v·2^-400 of the terms beyond 2^800 (a CRPS of 1e308): kept apart so that the exact sums cannot overflow. */
  private readonly big = new ExactSum();
  private readonly weight = new ExactSum();
  constructor(
    readonly config: unknown,
    private readonly rows: (fn: string, p: ProbMatrix, y: Int32Array) => ArrayLike<number>,
  ) {}
  add(fn: string, p: ProbMatrix, y: Int32Array, w: Float64Array | undefined): void {
    this.addValues(this.rows(fn, p, y), w);
  }
  /** Adds per-row values directly (CRPS rows) with weights (rows of weight 0 left out). */
  addValues(v: ArrayLike<number>, w: Float64Array | undefined): void {
    for (let i = 0; i < v.length; i++) {
      const wi = w === undefined ? 1 : (w[i] as number);
      if (wi === 0) continue;
      const x = v[i] as number;
      if (Math.abs(x) * wi > 2 ** 800 && Number.isFinite(x)) this.big.add(wi * timesPow2(x, -400));
      else this.sum.add(wi * x);
      this.weight.add(wi);
    }
  }
  merge(other: Part): void {
    const o = other as MeanPart;
    this.sum.addSum(o.sum);
    this.big.addSum(o.big);
    this.weight.addSum(o.weight);
  }
  result(fn: string): number {
    const w = this.weight.value();
    if (w === 0) fail('UM_EMPTY', fn, 'state', 'hold at least one row (call update first)');
    const big = this.big.value();
    if (big === 0) return this.sum.value() / w;
    return timesPow2((big + timesPow2(this.sum.value(), -400)) / w, 400);
  }
  /** The total weight (the number of rows without weights). */
  total(): number {
    return this.weight.value();
  }
  bound(): number {
    return 0;
  }
  toJSON(): unknown {
    return { sum: this.sum.toJSON(), weight: this.weight.toJSON(), ...(this.big.value() === 0 ? {} : { big: this.big.toJSON() }) };
  }
  load(json: unknown): void {
    const j = json as { sum: ReturnType<ExactSum['toJSON']>; weight: ReturnType<ExactSum['toJSON']>; big?: ReturnType<ExactSum['toJSON']> };
    const s = ExactSum.fromJSON(j.sum);
    const w = ExactSum.fromJSON(j.weight);
    if (j.big !== undefined) {
      const b = ExactSum.fromJSON(j.big);
      this.big.partials = b.partials;
      this.big.special = b.special;
    }
    this.sum.partials = s.partials;
    this.sum.special = s.special;
    this.weight.partials = w.partials;
    this.weight.special = w.special;
  }
}

/** The Brier score as a state part. */
export function brierPart(fn: string, options: Record<string, unknown>): MeanPart {
  const form = resolveBrierForm(fn, options);
  return new MeanPart({ form }, (_fn, p, y) => brierRows(p, y, form));
}

/** The NLL as a state part (the clipping convention is resolved on the first batch's kind, fixed by the options). */
export function nllPart(fn: string, options: Record<string, unknown>, warnings: WarningOptions): MeanPart {
  let cfg: NllConfig | undefined;
  const { clip, renormalize, preset } = options as { clip?: number | null; renormalize?: boolean; preset?: string };
  return new MeanPart({ clip: clip ?? null, renormalize: renormalize ?? null, preset: preset ?? null }, (f, p, y) => {
    cfg ??= resolveNll(f, options, p);
    return nllRows(f, p, y, cfg, warnings);
  });
}

/** Accuracy (top-1) as a state part. */
export function accuracyPart(): MeanPart {
  return new MeanPart({}, (_fn, p, y) => {
    const { predicted } = topLabel(p);
    return Float64Array.from(predicted, (k, i) => (k === y[i] ? 1 : 0));
  });
}

const BOUNDED_MEASURES: readonly NamedMeasure[] = ['max-prob', 'margin', 'normalized-entropy'];

/** What a ranking part computes from its blocks. */
export type RankingMetric = 'auroc' | 'aupr' | 'aurc' | 'eAurc';

/** AUROC, AUPR, AURC and E-AURC as a state part: (confidence, correct, weight) entries, exact or on the grid. */
export class RankingPart implements Part {
  readonly config: { by: NamedMeasure; positive?: 'error' | 'correct'; estimator?: AurcEstimator };
  private readonly store: SliceStore;
  constructor(
    fn: string,
    readonly metric: RankingMetric,
    options: Record<string, unknown>,
    mode: StateMode,
    resolution: number,
  ) {
    const by = (options.by ?? 'max-prob') as NamedMeasure;
    if (typeof by !== 'string') fail('UM_OPTION', fn, 'options.by', 'be a named measure in a state (per-sample values cannot be merged by name)', { value: by });
    if (options.thresholds !== undefined && options.thresholds !== null) fail('UM_OPTION', fn, 'options.thresholds', 'be null in a state (the exact area)', { value: options.thresholds });
    // a preset whose AUC is Keras' thresholded approximation cannot be computed exactly, nor silently replaced by it
    if ((metric === 'auroc' || metric === 'aupr') && resolveAuc(fn, { preset: options.preset as PresetName | undefined }).thresholds !== null) {
      fail('UM_STATE', fn, 'options.preset', "have exact AUROC/AUPR in a state (this preset uses Keras' thresholded AUC)", { value: options.preset });
    }
    if (mode === 'bounded' && !BOUNDED_MEASURES.includes(by)) {
      fail('UM_OPTION', fn, 'options.by', `be one of ${BOUNDED_MEASURES.map((m) => `'${m}'`).join(', ')} in mode 'bounded' (a measure in [0, 1])`, { value: by });
    }
    const config: RankingPart['config'] = { by };
    if (metric === 'aupr') {
      const positive = (options.positive ?? 'error') as 'error' | 'correct';
      if (positive !== 'error' && positive !== 'correct') fail('UM_OPTION', fn, 'options.positive', "be 'error' or 'correct'", { value: positive });
      config.positive = positive;
    }
    if (metric === 'aurc' || metric === 'eAurc') {
      const estimator = (options.estimator ?? 'mean-risk') as AurcEstimator;
      if (!AURC_ESTIMATORS.includes(estimator)) fail('UM_OPTION', fn, 'options.estimator', `be one of ${AURC_ESTIMATORS.map((x) => `'${x}'`).join(', ')}`, { value: estimator });
      config.estimator = estimator;
    }
    this.config = config;
    this.store = new SliceStore(mode === 'exact' ? 'exact' : 'sketch', { scheme: 'distinct' }, resolution);
  }
  add(fn: string, p: ProbMatrix, y: Int32Array, w: Float64Array | undefined): void {
    const integer = (this.metric === 'aurc' || this.metric === 'eAurc') && this.config.estimator !== 'fd-shifts';
    const d = selectiveInput(fn, y, p, { by: this.config.by, ...(w === undefined ? {} : { weights: w }) }, integer);
    // the grid needs a value in [0, 1] that grows with confidence: the measure, or 1 − uncertainty
    const x = this.store.mode === 'sketch' && d.sign === -1 ? d.confidence.map((c) => 1 + c) : d.confidence;
    this.store.add(fn, x, d.correct, d.weights);
  }
  merge(other: Part): void {
    this.store.merge((other as RankingPart).store);
  }
  private value(fn: string, s: Sweep): number {
    const names = { argument: 'labels', positives: 'correct predictions', negatives: 'wrong predictions' };
    if (this.metric === 'auroc') return rocArea(fn, s, names);
    if (this.metric === 'aupr') {
      const correct = this.config.positive === 'correct';
      return averagePrecision(fn, s, correct, correct ? names : { argument: 'labels', positives: 'wrong predictions', negatives: 'correct predictions' });
    }
    if (this.metric === 'aurc') return aurcOf(fn, s, this.config.estimator as AurcEstimator);
    return excessAurcOf(fn, s, this.config.estimator as AurcEstimator);
  }
  /** The blocks: exact entries, or one block per cell (tied), or each cell split positives-first/negatives-first. */
  private sweep(split: 'tied' | 'positives-first' | 'negatives-first'): Sweep {
    const e = this.store.entries();
    if (this.store.mode === 'exact') {
      const unit = e.weights.every((w) => w === 1);
      return sweep(e.scores, Uint8Array.from(e.outcomes), unit ? undefined : e.weights);
    }
    // pseudo-entries ascend with the cell: blocks run from the highest cell down
    const level: number[] = [];
    const count: number[] = [];
    const positive: number[] = [];
    let total = 0;
    let pos = 0;
    for (let j = e.scores.length - 1; j >= 0; j--) {
      const w = e.weights[j] as number;
      const pw = (e.outcomes[j] as number) * w;
      total += w;
      pos += pw;
      const at = 4 * j;
      if (split === 'tied') {
        level.push(at);
        count.push(w);
        positive.push(pw);
        continue;
      }
      const parts: [number, number][] = split === 'positives-first' ? [[pw, pw], [w - pw, 0]] : [[w - pw, 0], [pw, pw]];
      parts.forEach(([c, pp], k) => {
        if (c <= 0) return;
        level.push(at + 1 - k);
        count.push(c);
        positive.push(pp);
      });
    }
    return { n: total, blocks: level.length, level: Float64Array.from(level), count: Float64Array.from(count), positive: Float64Array.from(positive), totalPositive: pos };
  }
  result(fn: string): number {
    if (this.store.isEmpty()) fail('UM_EMPTY', fn, 'state', 'hold at least one row (call update first)');
    return this.value(fn, this.sweep('tied'));
  }
  /**
   * Exact mode: 0. Bounded: every ordering of the rows within a cell gives a value between the value with each cell's
   * correct predictions first and the value with its wrong ones first (each of these metrics moves one way when a
   * correct prediction passes a wrong one), and so does the exact value; the bound is the larger distance from the
   * estimate to those two.
   */
  bound(fn: string): number {
    if (this.store.mode === 'exact') return 0;
    const est = this.value(fn, this.sweep('tied'));
    const a = this.value(fn, this.sweep('positives-first'));
    const b = this.value(fn, this.sweep('negatives-first'));
    return Math.max(Math.abs(a - est), Math.abs(b - est));
  }
  toJSON(): unknown {
    return this.store.toJSON();
  }
  load(json: unknown): void {
    const s = SliceStore.fromJSON(json, this.store.mode, { scheme: 'distinct' }, this.store.resolution);
    this.store.merge(s);
  }
}

/** A function of labelled probabilities that a {@link RowsPart} recomputes on the kept rows. */
export type RowsMetric = (labels: Int32Array, p: ProbMatrix, options: Record<string, unknown>) => unknown;

/**
 * Exact mode for any labelled metric without a smaller sufficient statistic (curves, kernel and Bayesian estimators,
 * accuracy at coverage, …): keeps the rows (label, probabilities, weight) and recomputes the metric on them in a
 * canonical order (by label, then probabilities, then weight), so merges in any grouping give identical results.
 */
export class RowsPart implements Part {
  readonly config: unknown;
  private labels: number[] = [];
  private probs: number[] = [];
  private weights: number[] = [];
  private numClasses = 0;
  constructor(
    private readonly fn: string,
    private readonly metric: RowsMetric,
    private readonly options: Record<string, unknown>,
    private readonly weighted: boolean,
  ) {
    this.config = { rows: true, options: JSON.parse(JSON.stringify(options)) as unknown };
  }
  add(fn: string, p: ProbMatrix, y: Int32Array, w: Float64Array | undefined): void {
    if (w !== undefined && !this.weighted && w.some((v) => v !== 1)) fail('UM_OPTION', fn, 'weights', `not be given: ${this.fn} has no sample weights`);
    this.numClasses = p.numClasses;
    for (let i = 0; i < p.n; i++) {
      this.labels.push(y[i] as number);
      this.weights.push(w === undefined ? 1 : (w[i] as number));
      for (let k = 0; k < p.numClasses; k++) this.probs.push(p.data[i * p.numClasses + k] as number);
    }
  }
  merge(other: Part): void {
    const o = other as RowsPart;
    this.labels.push(...o.labels);
    this.probs.push(...o.probs);
    this.weights.push(...o.weights);
    this.numClasses ||= o.numClasses;
  }
  result(fn: string): unknown {
    const n = this.labels.length;
    if (n === 0) fail('UM_EMPTY', fn, 'state', 'hold at least one row (call update first)');
    const c = this.numClasses;
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => {
      const d = (this.labels[a] as number) - (this.labels[b] as number);
      if (d !== 0) return d;
      for (let k = 0; k < c; k++) {
        const e = (this.probs[a * c + k] as number) - (this.probs[b * c + k] as number);
        if (e !== 0) return e;
      }
      return (this.weights[a] as number) - (this.weights[b] as number);
    });
    const data = new Float64Array(n * c);
    order.forEach((i, r) => {
      for (let k = 0; k < c; k++) data[r * c + k] = this.probs[i * c + k] as number;
    });
    const labels = Int32Array.from(order, (i) => this.labels[i] as number);
    const w = gather(this.weights, order);
    const p = markValidated<ProbMatrix>({ kind: 'probabilities', data, n, numClasses: c, input: 'probs', binary: false });
    return this.metric(labels, p, w.every((v) => v === 1) ? this.options : { ...this.options, weights: w });
  }
  bound(): number {
    return 0;
  }
  toJSON(): unknown {
    return { numClasses: this.numClasses, labels: this.labels, probs: this.probs, weights: this.weights };
  }
  load(json: unknown): void {
    const j = json as { numClasses: number; labels: number[]; probs: number[]; weights: number[] };
    if (j.probs.length !== j.labels.length * j.numClasses || j.weights.length !== j.labels.length) throw new Error('row arrays differ in length');
    this.numClasses = j.numClasses;
    this.labels = [...j.labels];
    this.probs = [...j.probs];
    this.weights = [...j.weights];
  }
}

/**
 * The Brier decomposition from O(C²) sufficient statistics: per predicted class k the weights of each label j, the
 * sums Σ w·p_ij and Σ w·Σ_j p_ij², and Σ w·p_{i,y_i} — exact sums, so merges are exact.
 */
export class BrierDecompositionPart implements Part {
  readonly config: BrierDecompositionConvention;
  private c = 0;
  private counts: ExactSum[] = [];
  private sums: ExactSum[] = [];
  private squares: ExactSum[] = [];
  private own = new ExactSum();
  private total = new ExactSum();
  constructor(config: BrierDecompositionConvention) {
    this.config = config;
  }
  private ensure(c: number): void {
    if (this.c === c) return;
    this.c = c;
    const make = (m: number) => Array.from({ length: m }, () => new ExactSum());
    this.counts = make(c * c);
    this.sums = make(c * c);
    this.squares = make(c);
  }
  add(_fn: string, p: ProbMatrix, y: Int32Array, w: Float64Array | undefined): void {
    const c = p.numClasses;
    this.ensure(c);
    const { predicted } = topLabel(p);
    for (let i = 0; i < p.n; i++) {
      const wi = w === undefined ? 1 : (w[i] as number);
      const k = predicted[i] as number;
      const yi = y[i] as number;
      (this.counts[k * c + yi] as ExactSum).add(wi);
      let sq = 0;
      for (let j = 0; j < c; j++) {
        const v = p.data[i * c + j] as number;
        (this.sums[k * c + j] as ExactSum).add(wi * v);
        sq += v * v;
      }
      (this.squares[k] as ExactSum).add(wi * sq);
      this.own.add(wi * (p.data[i * c + yi] as number));
      this.total.add(wi);
    }
  }
  merge(other: Part): void {
    const o = other as BrierDecompositionPart;
    if (o.c === 0) return;
    this.ensure(o.c);
    o.counts.forEach((s, k) => this.counts[k]?.addSum(s));
    o.sums.forEach((s, k) => this.sums[k]?.addSum(s));
    o.squares.forEach((s, k) => this.squares[k]?.addSum(s));
    this.own.addSum(o.own);
    this.total.addSum(o.total);
  }
  result(fn: string): unknown {
    const n = this.total.value();
    if (!(n > 0)) fail('UM_EMPTY', fn, 'state', 'hold at least one row (call update first)');
    const c = this.c;
    const cfg = this.config;
    const counts = this.counts.map((s) => s.value());
    const cell = Array.from({ length: c }, (_, k) => counts.slice(k * c, k * c + c).reduce((a, b) => a + b, 0));
    const pbar = Array.from({ length: c }, (_, j) => counts.filter((_, at) => at % c === j).reduce((a, b) => a + b, 0) / n);
    const d = counts.map((v, at) => {
      const denom = (cell[Math.floor(at / c)] as number) + cfg.epsilon;
      return denom === 0 ? 0 : v / denom;
    });
    const sumSq = pbar.reduce((a, b) => a + b * b, 0);
    const uncertainty = cfg.form === 'standard' ? 1 - sumSq : -sumSq;
    let resolution = 0;
    let distance = 0;
    let recal = 0;
    let squares = 0;
    for (let k = 0; k < c; k++) {
      const nk = cell[k] as number;
      const q = (this.squares[k] as ExactSum).value();
      squares += q;
      let dd = 0;
      let sd = 0;
      let cd = 0;
      let s = 0;
      for (let j = 0; j < c; j++) {
        const dkj = d[k * c + j] as number;
        dd += dkj * dkj;
        sd += (this.sums[k * c + j] as ExactSum).value() * dkj;
        cd += (counts[k * c + j] as number) * dkj;
        const ref = cfg.resolution === 'correct' ? (pbar[j] as number) : (pbar[k] as number);
        s += (ref - dkj) ** 2;
      }
      if (nk > 0) resolution += (nk / n) * s;
      distance += q - 2 * sd + nk * dd;
      recal += nk * dd - 2 * cd + nk;
    }
    const bs = squares - 2 * this.own.value() + n;
    const reliability = (cfg.reliability === 'distance' ? distance : bs - recal) / n;
    return { uncertainty, resolution, reliability, score: cfg.form === 'standard' ? bs / n : bs / n - 1, config: cfg };
  }
  bound(): number {
    return 0;
  }
  toJSON(): unknown {
    const j = (s: ExactSum[]) => s.map((x) => x.toJSON());
    return { c: this.c, counts: j(this.counts), sums: j(this.sums), squares: j(this.squares), own: this.own.toJSON(), total: this.total.toJSON() };
  }
  load(json: unknown): void {
    type S = ReturnType<ExactSum['toJSON']>;
    const o = json as { c: number; counts: S[]; sums: S[]; squares: S[]; own: S; total: S };
    if (o.counts.length !== o.c * o.c || o.sums.length !== o.c * o.c || o.squares.length !== o.c) throw new Error('statistics of the wrong size');
    this.c = o.c;
    this.counts = o.counts.map(ExactSum.fromJSON);
    this.sums = o.sums.map(ExactSum.fromJSON);
    this.squares = o.squares.map(ExactSum.fromJSON);
    this.own = ExactSum.fromJSON(o.own);
    this.total = ExactSum.fromJSON(o.total);
  }
}

/** Per-row values of an ensemble metric: named arrays of N values (internal). */
export type EnsembleRows = (fn: string, e: EnsembleMatrix, y: Int32Array | undefined, warnings: WarningOptions) => Record<string, Float64Array>;

/**
 * Means over rows of ensemble per-row values (ensemble NLL, Gibbs NLL, the total / data / model uncertainty
 * summaries) with exact sums: O(1) memory, exact merges.
 */
export class EnsembleMeanPart implements Part {
  readonly config: unknown;
  private sums = new Map<string, ExactSum>();
  private readonly weight = new ExactSum();
  constructor(
    readonly name: string,
    private readonly rows: EnsembleRows,
    readonly needsLabels: boolean,
    private readonly single: string | undefined,
    private readonly warnings: WarningOptions,
  ) {
    this.config = { ensemble: name };
  }
  add(fn: string): void {
    fail('UM_STATE', fn, 'scores', 'be ensemble members [S, N, C] for this state');
  }
  addEnsemble(fn: string, e: EnsembleMatrix, y: Int32Array | undefined, w: Float64Array | undefined): void {
    const values = this.rows(fn, e, y, this.warnings);
    for (const [k, v] of Object.entries(values)) {
      let s = this.sums.get(k);
      if (s === undefined) this.sums.set(k, (s = new ExactSum()));
      for (let i = 0; i < v.length; i++) {
        const wi = w === undefined ? 1 : (w[i] as number);
        if (wi > 0) s.add(wi * (v[i] as number));
      }
    }
    for (let i = 0; i < e.n; i++) this.weight.add(w === undefined ? 1 : (w[i] as number));
  }
  merge(other: Part): void {
    const o = other as EnsembleMeanPart;
    for (const [k, s] of o.sums) {
      let mine = this.sums.get(k);
      if (mine === undefined) this.sums.set(k, (mine = new ExactSum()));
      mine.addSum(s);
    }
    this.weight.addSum(o.weight);
  }
  result(fn: string): unknown {
    const w = this.weight.value();
    if (!(w > 0)) fail('UM_EMPTY', fn, 'state', 'hold at least one row (call update first)');
    const out: Record<string, number> = {};
    for (const [k, s] of this.sums) out[k] = s.value() / w;
    return this.single === undefined ? out : out[this.single];
  }
  bound(): number {
    return 0;
  }
  toJSON(): unknown {
    return { weight: this.weight.toJSON(), sums: Object.fromEntries([...this.sums].map(([k, s]) => [k, s.toJSON()])) };
  }
  load(json: unknown): void {
    const j = json as { weight: ReturnType<ExactSum['toJSON']>; sums: Record<string, ReturnType<ExactSum['toJSON']>> };
    const w = ExactSum.fromJSON(j.weight);
    this.weight.partials = w.partials;
    this.weight.special = w.special;
    this.sums = new Map(Object.entries(j.sums).map(([k, s]) => [k, ExactSum.fromJSON(s)]));
  }
}
