import { GridStore } from '../accumulate/grid.js';
import { KeptEntriesStore } from '../accumulate/keptEntries.js';
import type { SortedRun } from '../accumulate/sortedRuns.js';
import type { Store } from '../accumulate/store.js';
import type { Precision } from '../binning/types.js';
import { DEFAULT_CELL_BITS } from '../calibration/binnedStores.js';
import type { FinishContext, MetricDefinition } from '../engine/definition.js';
import { runMetric, type RunOptions } from '../engine/run.js';
import { checkOptions } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import type { Labels, Scores } from '../input/types.js';
import { signOf, type NamedMeasure } from '../select/confidence.js';
import { emitWarning, type WarningOptions } from '../warnings/warnings.js';
import { resolveAuc, thresholdedSelectiveAuc } from './aucOptions.js';
import { cellSweep, minimumAveragePrecision, roundingMargin, splitSweep } from './gridSweeps.js';
import { averagePrecision, countOnes, requireBothClasses, rocArea, type ClassNames } from './ranking.js';
import { AURC_ESTIMATORS, aurcOf, excessAurcOf, type AurcEstimator } from './riskCore.js';
import { SELECTIVE_KEYS, selectiveInput, type SelectiveData } from './selectiveInput.js';
import { sweep, type Sweep } from './sweep.js';
import type { SelectiveOptions } from './types.js';

/** The ranking metrics with a mergeable form. */
export type RankingName = 'auroc' | 'aupr' | 'aurc' | 'eAurc';

/** What a ranking metric resolved to (plain JSON). */
export interface RankingConfig {
  /** The measure ranking the predictions (`'given'`: the caller's values; functions only). */
  readonly measure: NamedMeasure | 'given';
  /** +1 when the measure is a confidence, −1 when an uncertainty. */
  readonly sign: 1 | -1;
  readonly decisionThreshold: number | null;
  /** AUROC/AUPR: Keras' thresholded approximation (T thresholds) or `null` (exact). */
  readonly thresholds: number | null;
  readonly aucPrecision: Precision;
  /** AUPR: which predictions are the positives. */
  readonly positive: 'correct' | 'error';
  /** AURC, E-AURC: the integration rule. */
  readonly estimator: AurcEstimator;
}

const KEYS: Record<RankingName, readonly string[]> = {
  auroc: ['thresholds', 'preset'],
  aupr: ['positive', 'thresholds', 'preset'],
  aurc: ['estimator'],
  eAurc: ['estimator'],
};

function resolve(name: RankingName, fn: string, options: Readonly<Record<string, unknown>>): RankingConfig {
  const by = options.by;
  let measure: RankingConfig['measure'];
  let sign: 1 | -1;
  const t = options.decisionThreshold;
  if (t !== undefined && (typeof t !== 'number' || !(t >= 0 && t < 1)))
    fail('UM_OPTION', fn, 'options.decisionThreshold', 'be a number in [0, 1)', { value: t });
  if (by !== null && typeof by === 'object') {
    measure = 'given';
    sign = 'uncertainty' in by ? -1 : 1;
  } else {
    measure = (by as NamedMeasure | undefined) ?? (t === undefined || t === 0.5 ? 'max-prob' : 'threshold-distance');
    if (!['max-prob', 'margin', 'entropy', 'normalized-entropy', 'threshold-distance'].includes(measure)) {
      fail(
        'UM_OPTION',
        fn,
        'options.by',
        `be one of 'max-prob', 'margin', 'entropy', 'normalized-entropy', 'threshold-distance' or { confidence } / { uncertainty }`,
        { value: by },
      );
    }
    sign = signOf(measure);
  }
  const auc =
    name === 'auroc' || name === 'aupr' ? resolveAuc(fn, options) : { thresholds: null, precision: 'float64' as const };
  const positive = options.positive ?? 'error';
  if (positive !== 'error' && positive !== 'correct')
    fail('UM_OPTION', fn, 'options.positive', "be 'error' or 'correct'", { value: positive });
  const estimator = options.estimator ?? 'mean-risk';
  if (typeof estimator !== 'string' || !AURC_ESTIMATORS.includes(estimator as AurcEstimator)) {
    fail('UM_OPTION', fn, 'options.estimator', `be one of ${AURC_ESTIMATORS.map((x) => `'${x}'`).join(', ')}`, {
      value: estimator,
    });
  }
  return {
    measure,
    sign,
    decisionThreshold: t ?? null,
    thresholds: auc.thresholds,
    aucPrecision: auc.precision,
    positive,
    estimator: estimator as AurcEstimator,
  };
}

const CORRECT: ClassNames = { argument: 'labels', positives: 'correct predictions', negatives: 'wrong predictions' };
const ERROR: ClassNames = { argument: 'labels', positives: 'wrong predictions', negatives: 'correct predictions' };

/**
 * The sweep of a store's sorted entries, made once for every ranking metric that reads them (AUROC, AUPR, AURC and
 * E-AURC of one `evaluate` share one store): keyed by the store's sorted columns, which it keeps until the next add.
 */
const SWEEPS = new WeakMap<SortedRun, { correct: Uint8Array; s: Sweep }>();

/** The kept pairs as selective data (for the thresholded approximation) and as a sweep. */
function keptData(store: KeptEntriesStore, cfg: RankingConfig): { d: SelectiveData; s: Sweep } {
  const e = store.sorted(0);
  let made = SWEEPS.get(e);
  if (made === undefined) {
    // a typed copy (the iterator form of Uint8Array.from reads 10^7 entries one call at a time); merged byte
    // outcomes are 0/1 already
    const correct = e.outcomes instanceof Uint8Array ? e.outcomes : new Uint8Array(e.outcomes);
    made = { correct, s: sweep(e.scores, correct, e.weights, e.unit) };
    SWEEPS.set(e, made);
  }
  const { correct, s } = made;
  const d: SelectiveData = {
    n: e.scores.length,
    correct,
    confidence: e.scores,
    sign: cfg.sign,
    measure: cfg.measure,
    ...(e.weights === undefined ? {} : { weights: e.weights, weightScale: e.unit }),
  };
  return { d, s };
}

/** Whole-number weights are required by the count-based AURC estimators. */
function requireWholeWeights(fn: string, name: RankingName, cfg: RankingConfig, s: Sweep): void {
  if (cfg.estimator === 'fd-shifts' || (name !== 'aurc' && name !== 'eAurc')) return;
  const unit = s.unit ?? 1;
  for (let b = 0; b < s.blocks; b++) {
    // (a block of huge counts may exceed float64 once unscaled: whole numbers there)
    const c = (s.count[b] as number) * unit;
    if (Number.isFinite(c) && !Number.isInteger(c))
      fail(
        'UM_OPTION',
        fn,
        'options.weights',
        'be whole numbers here (frequency weights: this metric counts repeated samples)',
      );
  }
}

/** The value of a ranking metric on a sweep (exact or thresholded). */
function valueOn(name: RankingName, fn: string, cfg: RankingConfig, s: Sweep, d?: SelectiveData): number {
  switch (name) {
    case 'auroc':
      if (cfg.thresholds === null || d === undefined) return rocArea(fn, s, CORRECT);
      requireBothClasses(fn, countOnes(d.correct), d.n, CORRECT);
      return thresholdedSelectiveAuc(fn, d, 'correct', 'roc', cfg.thresholds, cfg.aucPrecision);
    case 'aupr': {
      const names = cfg.positive === 'correct' ? CORRECT : ERROR;
      if (cfg.thresholds === null || d === undefined) return averagePrecision(fn, s, cfg.positive === 'correct', names);
      const ones = countOnes(d.correct);
      requireBothClasses(fn, cfg.positive === 'correct' ? ones : d.n - ones, d.n, names);
      return thresholdedSelectiveAuc(fn, d, cfg.positive, 'pr', cfg.thresholds, cfg.aucPrecision);
    }
    case 'aurc':
      return aurcOf(fn, s, cfg.estimator);
    case 'eAurc':
      return excessAurcOf(fn, s, cfg.estimator);
  }
}

function finishRanking(name: RankingName, cfg: RankingConfig, store: Store, ctx: FinishContext): number {
  if (store instanceof KeptEntriesStore) {
    const { d, s } = keptData(store, cfg);
    requireWholeWeights(ctx.fn, name, cfg, s);
    return valueOn(name, ctx.fn, cfg, s, d);
  }
  return valueOn(name, ctx.fn, cfg, cellSweep((store as GridStore).cellsOf(0)));
}

/** The proven bound of a ranking metric on the grid: the distance to the farther extreme order inside the cells. */
function gridBound(name: RankingName, cfg: RankingConfig, store: GridStore, ctx: FinishContext): number {
  const c = store.cellsOf(0);
  const value = valueOn(name, ctx.fn, cfg, cellSweep(c));
  const best = valueOn(name, ctx.fn, cfg, splitSweep(c, true));
  const worst = valueOn(name, ctx.fn, cfg, splitSweep(c, false));
  let lo = Math.min(best, worst);
  let hi = Math.max(best, worst);
  if (name === 'aupr') {
    // the positives-first split is the largest AP; the smallest has the positives one by one after the negatives
    const fromTop = cfg.positive === 'correct';
    hi = valueOn(name, ctx.fn, cfg, splitSweep(c, fromTop));
    lo = minimumAveragePrecision(cellSweep(c), fromTop);
  }
  return Math.max(value - lo, hi - value, 0) + roundingMargin(c);
}

/** The definition of a ranking metric (internal; the function, state and `evaluate` entry derive from it). */
export function rankingDefinition(name: RankingName): MetricDefinition<RankingConfig, number> {
  return {
    name,
    keys: ['by', 'decisionThreshold', ...KEYS[name]],
    resolve: (fn, options) => resolve(name, fn, options),
    weightRules: (cfg) =>
      (name === 'aurc' || name === 'eAurc') && cfg.estimator !== 'fd-shifts' ? { integer: true } : {},
    checkBatch: (fn, cfg, batch) => {
      if (cfg.decisionThreshold !== null && batch.p.numClasses !== 2)
        fail('UM_OPTION', fn, 'options.decisionThreshold', 'be given for two classes only', {
          value: cfg.decisionThreshold,
        });
      if (cfg.measure === 'threshold-distance' && batch.p.numClasses !== 2)
        fail('UM_OPTION', fn, 'options.by', "be 'threshold-distance' for two classes only", { value: cfg.measure });
    },
    statsMode: (cfg) => (cfg.measure === 'entropy' || cfg.measure === 'normalized-entropy' ? 2 : 0),
    requests: (fn, cfg, mode, cellBits = DEFAULT_CELL_BITS) => {
      if (cfg.measure === 'given')
        fail(
          'UM_OPTION',
          fn,
          'options.by',
          'be a named measure in a mergeable state (per-row values belong to one call)',
          { value: 'given values' },
        );
      const selection = {
        target: 'top-label',
        groupBy: 'none',
        threshold: null,
        precision: 'float64',
        measure: cfg.measure,
        decisionThreshold: cfg.decisionThreshold,
      } as const;
      if (mode === 'exact') return [{ kind: 'entries', selection }];
      // the grid covers [0, 1]: confidences there, and the negated normalized entropy shifted by 1
      const offset = cfg.measure === 'normalized-entropy' ? 1 : 0;
      const inUnit = cfg.measure !== 'entropy';
      const boundable =
        cfg.thresholds === null && (name === 'auroc' || name === 'aupr' || cfg.estimator === 'mean-risk') && inUnit;
      if (!boundable)
        fail(
          'UM_OPTION',
          fn,
          'options.mode',
          `be 'exact' for ${name} with these options: no error bound is proven on the bounded grid (it needs a measure within [0, 1] — not the entropy in nats —, exact areas and, for AURC, the mean-risk estimator)`,
          { value: mode },
        );
      return [{ kind: 'grid', selection, cellBits, offset }];
    },
    finish: (cfg, [store], ctx) => finishRanking(name, cfg, store as Store, ctx),
    bound: (cfg, [store], ctx) => (store instanceof GridStore ? gridBound(name, cfg, store, ctx) : 0),
  };
}

/**
 * A ranking metric's public function: probabilities ranked by a named measure go through the engine like every
 * metric; predicted classes (`input: 'predicted'`) or the caller's own values (`by: { confidence }`) are validated by
 * the selective input and kept in the same store, finished by the same definition (internal).
 */
export function rankingFunction(
  def: MetricDefinition<RankingConfig, number>,
  fn: string,
  labels: Labels,
  scores: Scores,
  options: SelectiveOptions & object,
): number {
  // `by` is read before the engine checks the options: null or a number must be the same located error
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    fail('UM_OPTION', fn, 'options', 'be an object', { value: options });
  const by = options.by;
  if (options.input !== 'predicted' && (by === undefined || typeof by === 'string'))
    return runMetric(def, fn, labels, scores, options as RunOptions);
  checkOptions(fn, options, SELECTIVE_KEYS, ['onWarning'], def.keys);
  const cfg = def.resolve(fn, options as Readonly<Record<string, unknown>>);
  const { by: _b, ...own } = options as Readonly<Record<string, unknown>>;
  const keep = Object.fromEntries(
    Object.entries(own).filter(([k]) => !KEYS[def.name as RankingName].includes(k) && k !== 'onWarning'),
  );
  const d = selectiveInput(fn, labels, scores, { ...keep, by } as SelectiveOptions, def.weightRules?.(cfg) ?? {});
  const store = new KeptEntriesStore(1);
  store.add([
    { scores: d.confidence, outcomes: Float64Array.from(d.correct), weights: d.weights, unit: d.weightScale ?? 1 },
  ]);
  return def.finish(cfg, [store], {
    fn,
    numClasses: 0,
    mode: 'exact',
    weighted: d.weights !== undefined,
    warn: (w) => emitWarning(options as WarningOptions, w),
  });
}
