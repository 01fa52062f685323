import { resolveBinning, type BinningOptions } from '../binning/options.js';
import type { FixedStructure } from '../calibration/core.js';
import { BINNING_KEYS, INPUT_KEYS, checkOptions } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import { within } from '../errors/within.js';
import { labelArray } from '../input/labelArray.js';
import { probMatrix } from '../input/probMatrix.js';
import type { InputOptions, Labels, Scores } from '../input/types.js';
import { positiveRows, weightArray } from '../input/weights.js';
import type { WarningOptions } from '../warnings/warnings.js';
import { EvaluationPart } from './evaluationPart.js';
import { resolveBrierDecomposition } from '../scores/brierDecomposition.js';
import type { ProbMatrix } from '../input/types.js';
import { rocCurve } from '../selective/rocCurve.js';
import { precisionRecallCurve } from '../selective/precisionRecallCurve.js';
import { riskCoverageCurve } from '../selective/riskCoverageCurve.js';
import { rejectionCurve } from '../selective/rejectionCurve.js';
import { accuracyAtCoverage } from '../selective/accuracyAtCoverage.js';
import { coverageAtRisk } from '../selective/coverageAtRisk.js';
import { oracleCollaborativeAccuracy } from '../selective/oracleCollaborativeAccuracy.js';
import { mmce } from '../calibration/mmce.js';
import { debiasedEce } from '../calibration/debiasedEce.js';
import { smoothEce } from '../calibration/smoothEce.js';
import { bayesianEce } from '../calibration/bayesianEce.js';
import { ensembleMatrix } from '../input/ensembleMatrix.js';
import type { EnsembleOptions, EnsembleScores } from '../input/types.js';
import { decomposeUncertainty } from '../ensemble/modelUncertainty.js';
import { meanPrediction } from '../ensemble/mcIntegrate.js';
import { nllRows } from '../scores/nllPerExample.js';
import { ENSEMBLE_KEYS } from '../errors/checkOptions.js';
import { GenericRowsPart, OodRowsPart, type GenericRowsMetric } from './genericRows.js';
import { crpsPerExample, type CrpsForecast, type CrpsOptions } from '../scores/crpsPerExample.js';
import { oodAuroc } from '../ood/oodAuroc.js';
import { fprAtTpr } from '../ood/fprAtTpr.js';
import { oodCurve } from '../ood/oodCurve.js';
import { binaryCalibrationError } from '../calibration/binaryCalibrationError.js';
import { binaryReliability } from '../calibration/binaryReliability.js';
import { binaryBrier } from '../scores/binaryBrier.js';
import { semiparametricCalibrationError } from '../calibration/semiparametricCalibrationError.js';
import { disagreement } from '../ensemble/disagreement.js';
import { doubleFault } from '../ensemble/doubleFault.js';
import { pairwiseKl } from '../ensemble/pairwiseKl.js';
import { cosineDistance } from '../ensemble/cosineDistance.js';
import { lpDistance } from '../ensemble/lpDistance.js';
import { averagePairwiseDiversity } from '../ensemble/averagePairwiseDiversity.js';
import { varianceBound } from '../ensemble/varianceBound.js';
import { evaluateEnsemble } from '../evaluate/evaluateEnsemble.js';
import { negativeWaic } from '../information/negativeWaic.js';
import { iscv } from '../information/iscv.js';
import {
  MeanPart,
  BrierDecompositionPart,
  EnsembleMeanPart,
  RowsPart,
  accuracyPart,
  brierPart,
  calibrationPart,
  nllPart,
  RankingPart,
  ReliabilityPart,
  ucePart,
  type Part,
  type StateMode,
} from './parts.js';

/** Metrics that have a mergeable state. */
export type StateMetric =
  | 'gce'
  | 'ece'
  | 'mce'
  | 'rmsce'
  | 'sce'
  | 'ace'
  | 'tace'
  | 'aece'
  | 'amce'
  | 'uce'
  | 'reliability'
  | 'brier'
  | 'nll'
  | 'accuracy'
  | 'auroc'
  | 'aupr'
  | 'aurc'
  | 'eAurc'
  | 'evaluate'
  | 'brierDecomposition'
  | 'modelUncertainty'
  | 'ensembleNll'
  | 'gibbsNll'
  | RowsMetricName
  | GenericRowsName
  | 'crps'
  | 'oodAuroc'
  | 'fprAtTpr'
  | 'oodCurve';

/** Metrics of other input shapes whose state keeps the rows (exact mode only). */
export type GenericRowsName =
  | 'binaryCalibrationError'
  | 'binaryReliability'
  | 'binaryBrier'
  | 'semiparametricCalibrationError'
  | 'disagreement'
  | 'doubleFault'
  | 'pairwiseKl'
  | 'cosineDistance'
  | 'lpDistance'
  | 'averagePairwiseDiversity'
  | 'varianceBound'
  | 'evaluateEnsemble'
  | 'negativeWaic'
  | 'iscv';

/** Metrics whose state keeps the rows (exact mode only): curves and estimators without a smaller statistic. */
export type RowsMetricName =
  | 'rocCurve'
  | 'precisionRecallCurve'
  | 'riskCoverageCurve'
  | 'rejectionCurve'
  | 'accuracyAtCoverage'
  | 'coverageAtRisk'
  | 'oracleCollaborativeAccuracy'
  | 'mmce'
  | 'debiasedEce'
  | 'smoothEce'
  | 'bayesianEce';

/** Options of {@link createState}: the metric's own options (as its function takes them) plus the state's. */
export interface StateOptions extends InputOptions, WarningOptions {
  /**
   * Order-based metrics (equal-mass and adaptive binning, AUROC, AUPR, AURC): `'exact'` (default) keeps the entries
   * they rank; `'bounded'` keeps a fine fixed grid of cells instead, in O(cells) memory, with `errorBound()`.
   */
  mode?: StateMode;
  /** Mantissa bits of the bounded grid's cells (1 … 12, default 8: relative width 2^−8 near 0 and 1). */
  cellBits?: number;
  /** Any option of the metric's function (bins, preset, norm, threshold, by, estimator, …). */
  [option: string]: unknown;
}

/** The JSON form of a state: the metric, its options and the accumulated sufficient statistics. */
export interface StateJSON {
  readonly format: 'uncertainty-metrics/state';
  readonly version: 1;
  readonly metric: StateMetric;
  readonly options: Record<string, unknown>;
  readonly numClasses: number | null;
  readonly data: unknown;
}

/** A mergeable, serializable accumulator of one metric. */
export interface MetricState<R = unknown> {
  readonly metric: StateMetric;
  readonly mode: StateMode;
  /** Classes seen (fixed by the first batch or `options.numClasses`); null before. */
  readonly numClasses: number | null;
  /**
   * Adds a batch of rows (labels and scores as the metric takes them; `batch.weights` one per row). Ensemble states
   * (`modelUncertainty`, `ensembleNll`, `gibbsNll`) take members [S, n, C] as `scores` (labels `null` for
   * `modelUncertainty`).
   */
  update(labels: Labels | null, scores: Scores | EnsembleScores, batch?: { weights?: ArrayLike<number> }): MetricState<R>;
  /** Adds another state of the same metric and configuration (throws `UM_STATE` otherwise). */
  merge(other: MetricState<R>): MetricState<R>;
  /** The metric over every row added so far. */
  result(): R;
  /** Bound on |result() − the exact one-pass value|: 0 when exact, a number in mode `'bounded'`, null when unknown. */
  errorBound(): number | null;
  toJSON(): StateJSON;
}

const STATE_KEYS = ['mode', 'cellBits', 'onWarning'] as const;

const NAMED: Record<string, { fixed: FixedStructure; defaults?: { threshold?: number | null }; keys: readonly string[] }> = {
  ece: { fixed: { binning: 'equal-width', norm: 'l1', topLabel: true, classConditional: false }, keys: [...BINNING_KEYS, 'threshold'] },
  mce: { fixed: { binning: 'equal-width', norm: 'max', topLabel: true, classConditional: false }, keys: [...BINNING_KEYS, 'threshold'] },
  rmsce: { fixed: { binning: 'equal-mass', norm: 'l2', topLabel: true, classConditional: false }, keys: [...BINNING_KEYS, 'threshold'] },
  sce: { fixed: { binning: 'equal-width', norm: 'l1', topLabel: false, classConditional: true }, keys: [...BINNING_KEYS, 'threshold'] },
  ace: { fixed: { binning: 'equal-mass', norm: 'l1', topLabel: false, classConditional: true }, keys: [...BINNING_KEYS, 'threshold'] },
  tace: { fixed: { binning: 'equal-mass', norm: 'l1', topLabel: false, classConditional: true }, defaults: { threshold: 0.01 }, keys: [...BINNING_KEYS, 'threshold'] },
  aece: { fixed: { binning: 'ding', norm: 'l1', topLabel: true, classConditional: false }, keys: ['preset', 'ding', 'precision', 'threshold'] },
  amce: { fixed: { binning: 'ding', norm: 'max', topLabel: true, classConditional: false }, keys: ['preset', 'ding', 'precision', 'threshold'] },
  gce: { fixed: {}, keys: [...BINNING_KEYS, 'threshold', 'norm', 'topLabel', 'classConditional'] },
};

/** Builds the part of a metric (internal; also used by `stateFromJSON`). */
export function partOf(fn: string, metric: StateMetric, options: StateOptions, mode: StateMode, resolution: number): Part {
  // a metric that is not a string is not looked up (a Symbol or an object without toString threw a TypeError)
  if (typeof metric !== 'string') return fail('UM_OPTION', fn, 'metric', `be one of ${STATE_METRICS.map((m) => `'${m}'`).join(', ')}`, { value: metric });
  // row-keeping states pass their options to the function at result(): weights there would be taken for every row
  // of every batch (a state's weights come with each batch); the other states reject them with all unknown keys
  for (const key of ['weights', 'sampleWeights']) {
    if (key in options) fail('UM_OPTION', fn, `options.${key}`, 'not be given: a state takes weights with each batch (update(labels, scores, { weights }))');
  }
  const named = NAMED[metric];
  if (named !== undefined) {
    checkOptions(fn, options, INPUT_KEYS, STATE_KEYS, named.keys);
    return calibrationPart(fn, options, named.fixed, named.defaults ?? {}, mode, resolution);
  }
  switch (metric) {
    case 'uce':
      checkOptions(fn, options, INPUT_KEYS, STATE_KEYS, BINNING_KEYS, ['norm', 'classwise', 'classAverage']);
      return ucePart(fn, options, mode, resolution);
    case 'reliability':
      checkOptions(fn, options, INPUT_KEYS, STATE_KEYS, BINNING_KEYS, ['measure', 'interval', 'level']);
      return new ReliabilityPart(fn, options, resolveBinning(fn, options as BinningOptions, 'equal-width'), mode, resolution);
    case 'brier':
      checkOptions(fn, options, INPUT_KEYS, STATE_KEYS, ['form', 'preset']);
      return brierPart(fn, options);
    case 'nll':
      checkOptions(fn, options, INPUT_KEYS, STATE_KEYS, ['clip', 'renormalize', 'preset', 'precision']);
      return nllPart(fn, options, options);
    case 'accuracy':
      checkOptions(fn, options, INPUT_KEYS, STATE_KEYS);
      return accuracyPart();
    case 'auroc':
    case 'aupr':
    case 'aurc':
    case 'eAurc':
      checkOptions(fn, options, INPUT_KEYS, STATE_KEYS, ['by', 'positive', 'estimator', 'thresholds', 'preset']);
      if (metric !== 'aupr' && options.positive !== undefined) fail('UM_OPTION', fn, 'options.positive', 'be given for aupr only', { value: options.positive });
      if ((metric === 'auroc' || metric === 'aupr') && options.estimator !== undefined) fail('UM_OPTION', fn, 'options.estimator', 'be given for aurc and eAurc only', { value: options.estimator });
      return new RankingPart(fn, metric, options, mode, resolution);
    case 'evaluate':
      checkOptions(fn, options, INPUT_KEYS, STATE_KEYS, ['bins', 'preset']);
      return new EvaluationPart(fn, options, mode, resolution);
    case 'modelUncertainty':
    case 'ensembleNll':
    case 'gibbsNll':
      checkOptions(fn, options, ENSEMBLE_KEYS, STATE_KEYS);
      return ensemblePart(metric, options);
    case 'crps': {
      checkOptions(fn, options, STATE_KEYS, ['estimator', 'preset']);
      const { mode: _m, cellBits: _r, onWarning: _o, ...own } = options;
      return new MeanPart({ crps: own }, () => new Float64Array(0));
    }
    case 'oodAuroc':
    case 'fprAtTpr':
    case 'oodCurve': {
      if (mode !== 'exact') fail('UM_OPTION', fn, 'options.mode', `be 'exact' for ${metric} (its state keeps the samples)`, { value: mode });
      const { mode: _m, cellBits: _r, onWarning: _o, ...own } = options;
      const f = { oodAuroc, fprAtTpr, oodCurve }[metric] as (a: unknown, b: unknown, o: Record<string, unknown>) => unknown;
      return new OodRowsPart(metric, f, own);
    }
    case 'brierDecomposition':
      checkOptions(fn, options, INPUT_KEYS, STATE_KEYS, ['preset', 'form', 'reliability', 'resolution', 'epsilon']);
      return new BrierDecompositionPart(resolveBrierDecomposition(fn, options));
    default: {
      const generic = GENERIC[metric as GenericRowsName];
      if (generic !== undefined) {
        if (mode !== 'exact') fail('UM_OPTION', fn, 'options.mode', `be 'exact' for ${metric} (its state keeps the rows)`, { value: mode });
        const { mode: _m, cellBits: _r, onWarning: _o, ...own } = options;
        return new GenericRowsPart(metric, generic, own);
      }
      const rows = ROWS[metric as RowsMetricName];
      if (rows === undefined) break;
      if (mode !== 'exact') fail('UM_OPTION', fn, 'options.mode', `be 'exact' for ${metric} (its state keeps the rows)`, { value: mode });
      const { mode: _m, cellBits: _r, input: _i, numClasses: _c, binary: _b, sumTolerance: _t, onWarning: _o, ...own } = options;
      return new RowsPart(metric, (y, p, o) => rows.fn(y, p, o), own, rows.weighted);
    }
  }
  return fail('UM_OPTION', fn, 'metric', `be one of ${STATE_METRICS.map((m) => `'${m}'`).join(', ')}`, { value: metric });
}

/** The ensemble mean states. */
function ensemblePart(metric: 'modelUncertainty' | 'ensembleNll' | 'gibbsNll', warnings: WarningOptions): EnsembleMeanPart {
  const nll = { clip: null, renormalize: false, precision: 'float64' } as const;
  if (metric === 'modelUncertainty') {
    return new EnsembleMeanPart(metric, (_fn, e) => ({ ...decomposeUncertainty(e) }), false, undefined, warnings);
  }
  if (metric === 'ensembleNll') return new EnsembleMeanPart(metric, (fn, e, y, o) => ({ nll: nllRows(fn, meanPrediction(e), y as Int32Array, nll, o) }), true, 'nll', warnings);
  return new EnsembleMeanPart(
    metric,
    (_fn, e, y) => {
      const { data, logData, numMembers: s, n, numClasses: c } = e;
      const out = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        let v = 0;
        for (let m = 0; m < s; m++) {
          const at = (m * n + i) * c + ((y as Int32Array)[i] as number);
          v -= logData === undefined ? Math.log(data[at] as number) : (logData[at] as number);
        }
        out[i] = v / s;
      }
      return { nll: out };
    },
    true,
    'nll',
    warnings,
  );
}

type Call = GenericRowsMetric['call'];
const pairs = (f: (a: ArrayLike<number>, b: ArrayLike<number>, o: Record<string, unknown>) => unknown, weighted: boolean): GenericRowsMetric => ({
  layout: 'pairs',
  labeled: true,
  weighted,
  call: ((a, b, o) => f(a as ArrayLike<number>, b as ArrayLike<number>, o)) as Call,
});
const unlabeled = (f: (m: EnsembleScores, o: Record<string, unknown>) => unknown, weighted: boolean): GenericRowsMetric => ({
  layout: 'members',
  labeled: false,
  weighted,
  call: ((_a, m, o) => f(m as EnsembleScores, o)) as Call,
});
const labeled = (f: (y: Labels, m: EnsembleScores, o: Record<string, unknown>) => unknown, weighted: boolean): GenericRowsMetric => ({
  layout: 'members',
  labeled: true,
  weighted,
  call: ((y, m, o) => f(y as Labels, m as EnsembleScores, o)) as Call,
});
const matrix = (f: (m: number[][], o: Record<string, unknown>) => unknown): GenericRowsMetric => ({ layout: 'matrix', labeled: false, weighted: true, call: ((_a, m, o) => f(m as number[][], o)) as Call });
const GENERIC: Record<GenericRowsName, GenericRowsMetric> = {
  binaryCalibrationError: pairs(binaryCalibrationError as never, true),
  binaryReliability: pairs(binaryReliability as never, true),
  binaryBrier: pairs(binaryBrier as never, true),
  semiparametricCalibrationError: { ...pairs(semiparametricCalibrationError as never, true), weightKey: 'sampleWeights' },
  disagreement: unlabeled(disagreement as never, true),
  pairwiseKl: unlabeled(pairwiseKl as never, true),
  cosineDistance: unlabeled(cosineDistance as never, true),
  lpDistance: unlabeled(lpDistance as never, true),
  averagePairwiseDiversity: unlabeled(averagePairwiseDiversity as never, true),
  doubleFault: labeled(doubleFault as never, true),
  varianceBound: labeled(varianceBound as never, true),
  evaluateEnsemble: labeled(evaluateEnsemble as never, true),
  negativeWaic: matrix(negativeWaic as never),
  iscv: matrix(iscv as never),
};

type Labeled = (labels: Int32Array, scores: ProbMatrix, options: Record<string, unknown>) => unknown;
const ROWS: Record<RowsMetricName, { fn: Labeled; weighted: boolean }> = {
  rocCurve: { fn: rocCurve as unknown as Labeled, weighted: true },
  precisionRecallCurve: { fn: precisionRecallCurve as unknown as Labeled, weighted: true },
  riskCoverageCurve: { fn: riskCoverageCurve as unknown as Labeled, weighted: true },
  rejectionCurve: { fn: rejectionCurve as unknown as Labeled, weighted: true },
  accuracyAtCoverage: { fn: accuracyAtCoverage as unknown as Labeled, weighted: true },
  coverageAtRisk: { fn: coverageAtRisk as unknown as Labeled, weighted: true },
  oracleCollaborativeAccuracy: { fn: oracleCollaborativeAccuracy as unknown as Labeled, weighted: true },
  mmce: { fn: mmce as unknown as Labeled, weighted: true },
  debiasedEce: { fn: debiasedEce as unknown as Labeled, weighted: true },
  smoothEce: { fn: smoothEce as unknown as Labeled, weighted: true },
  bayesianEce: { fn: bayesianEce as unknown as Labeled, weighted: true },
};

/** Every metric with a state. */
export const STATE_METRICS: readonly StateMetric[] = [
  'gce', 'ece', 'mce', 'rmsce', 'sce', 'ace', 'tace', 'aece', 'amce', 'uce', 'reliability', 'brier', 'nll', 'accuracy', 'brierDecomposition',
  'modelUncertainty', 'ensembleNll', 'gibbsNll',
  'auroc', 'aupr', 'aurc', 'eAurc', 'evaluate',
  'rocCurve', 'precisionRecallCurve', 'riskCoverageCurve', 'rejectionCurve', 'accuracyAtCoverage', 'coverageAtRisk', 'oracleCollaborativeAccuracy',
  'mmce', 'debiasedEce', 'smoothEce', 'bayesianEce',
  'binaryCalibrationError', 'binaryReliability', 'binaryBrier', 'semiparametricCalibrationError',
  'disagreement', 'doubleFault', 'pairwiseKl', 'cosineDistance', 'lpDistance', 'averagePairwiseDiversity', 'varianceBound', 'evaluateEnsemble',
  'negativeWaic', 'iscv', 'crps', 'oodAuroc', 'fprAtTpr', 'oodCurve',
];

/** Checks that `x` can be written as JSON (row-keeping states and options are stored so) (internal). */
function jsonData(fn: string, argument: string, x: unknown): void {
  try {
    JSON.stringify(x);
  } catch (error) {
    fail('UM_SHAPE', fn, argument, `hold only numbers, strings, arrays and plain objects (a state keeps it as JSON: ${error instanceof Error ? error.message : String(error)})`);
  }
}

/** Options as plain JSON (functions such as `onWarning` are not part of the configuration). */
function jsonOptions(options: StateOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(options)) if (typeof v !== 'function' && v !== undefined) out[k] = v;
  return out;
}

class State implements MetricState {
  readonly fn: string;
  readonly mode: StateMode;
  numClasses: number | null;
  readonly part: Part;
  private readonly resolution: number;
  constructor(
    readonly metric: StateMetric,
    readonly options: StateOptions,
  ) {
    this.fn = 'createState';
    const mode = options.mode ?? 'exact';
    if (mode !== 'exact' && mode !== 'bounded') fail('UM_OPTION', this.fn, 'options.mode', "be 'exact' or 'bounded'", { value: mode });
    const resolution = options.cellBits ?? 8;
    if (typeof resolution !== 'number' || !Number.isInteger(resolution) || resolution < 1 || resolution > 12) {
      fail('UM_OPTION', this.fn, 'options.cellBits', 'be an integer in [1, 12]', { value: resolution });
    }
    this.mode = mode;
    this.resolution = resolution;
    this.numClasses = typeof options.numClasses === 'number' ? options.numClasses : null;
    // the options are part of the state's JSON (toJSON, the merge signature): they must be JSON data
    jsonData(this.fn, 'options', jsonOptions(options));
    this.part = partOf(this.fn, metric, options, mode, resolution);
  }

  update(labels: Labels | null, scores: Scores | EnsembleScores, batch: { weights?: ArrayLike<number> } = {}): this {
    const fn = `${this.metric}.update`;
    checkOptions(fn, batch, ['weights']);
    if (this.part instanceof EnsembleMeanPart) return this.updateEnsemble(fn, labels, scores as unknown as EnsembleScores, batch);
    if (this.part instanceof OodRowsPart) {
      // kept as given and written to JSON: values JSON cannot hold are refused now, not at toJSON or result
      jsonData(fn, 'inDistribution', labels);
      jsonData(fn, 'outOfDistribution', scores);
      this.part.addSides(fn, labels, scores, (batch as { weights?: { inDistribution?: ArrayLike<number>; outOfDistribution?: ArrayLike<number> } }).weights);
      return this;
    }
    if (this.metric === 'crps') {
      const { mode: _m, cellBits: _r, onWarning: _w, ...own } = this.options;
      const values = within(fn, () => crpsPerExample(labels as ArrayLike<number>, scores as unknown as CrpsForecast, own as CrpsOptions));
      (this.part as MeanPart).addValues(values, weightArray(fn, batch.weights, values.length, true));
      return this;
    }
    if (this.part instanceof GenericRowsPart) {
      const first = labels as ArrayLike<unknown> | null;
      const n = (this.part as GenericRowsPart).name;
      if (scores === null || typeof scores !== 'object') fail('UM_SHAPE', fn, 'scores', `be the scores ${n} takes`, { value: scores });
      jsonData(fn, 'labels', labels);
      jsonData(fn, 'scores', scores);
      const rows = GENERIC[n as GenericRowsName].layout === 'members' ? ((scores as ArrayLike<ArrayLike<unknown>>)[0]?.length ?? 0) : (scores as ArrayLike<unknown>).length;
      this.part.addRows(fn, first, scores, weightArray(fn, batch.weights, rows, true));
      return this;
    }
    const { mode: _m, cellBits: _r, onWarning: _w, ...input } = this.options;
    const p0 = probMatrix(fn, scores as Scores, { ...(input as InputOptions), ...(this.numClasses === null ? {} : { numClasses: this.numClasses }) });
    if (this.numClasses !== null && p0.numClasses !== this.numClasses) {
      fail('UM_SHAPE', fn, 'scores', `have ${this.numClasses} classes like the state's earlier rows`, { value: p0.numClasses });
    }
    const y0 = labelArray(fn, labels as Labels, p0.n, p0.numClasses);
    // a batch may weigh 0 in all (it adds nothing); the state as a whole must not (result throws UM_EMPTY)
    const w0 = weightArray(fn, batch.weights, p0.n, true);
    this.numClasses = p0.numClasses;
    if (w0 !== undefined && w0.every((v) => v === 0)) return this;
    const { p, y, w } = positiveRows(p0, y0, w0);
    this.part.add(fn, p, y, w);
    return this;
  }

  private updateEnsemble(fn: string, labels: Labels | null, members: EnsembleScores, batch: { weights?: ArrayLike<number> }): this {
    const part = this.part as EnsembleMeanPart;
    const { mode: _m, cellBits: _r, onWarning: _w, ...input } = this.options;
    const e = ensembleMatrix(fn, members, { ...(input as EnsembleOptions), ...(this.numClasses === null ? {} : { numClasses: this.numClasses }) });
    const y = part.needsLabels || labels !== null ? labelArray(fn, labels as Labels, e.n, e.numClasses) : undefined;
    const w = weightArray(fn, batch.weights, e.n, true);
    this.numClasses = e.numClasses;
    part.addEnsemble(fn, e, y, w);
    return this;
  }

  /** The configuration two states must share to merge. */
  signature(): string {
    return JSON.stringify({ metric: this.metric, mode: this.mode, resolution: this.resolution, config: this.part.config, input: this.options.input ?? 'probs', binary: this.options.binary ?? null });
  }

  merge(other: MetricState): this {
    const fn = `${this.metric}.merge`;
    if (!(other instanceof State)) return fail('UM_STATE', fn, 'other', 'be a state made by createState or stateFromJSON', { value: other });
    if (other.signature() !== this.signature()) {
      fail('UM_STATE', fn, 'other', `have the same metric and configuration (${this.signature()})`, { value: other.signature() });
    }
    if (this.numClasses !== null && other.numClasses !== null && other.numClasses !== this.numClasses) {
      fail('UM_STATE', fn, 'other', `have ${this.numClasses} classes`, { value: other.numClasses });
    }
    this.part.merge(other.part);
    this.numClasses ??= other.numClasses;
    return this;
  }

  result(): unknown {
    const r = this.part.result(this.metric);
    if (this.part instanceof EvaluationPart && this.mode === 'bounded') return { ...(r as object), bounds: this.part.bounds(this.metric) };
    return r;
  }

  errorBound(): number | null {
    return this.part.bound(this.metric);
  }

  toJSON(): StateJSON {
    return { format: 'uncertainty-metrics/state', version: 1, metric: this.metric, options: jsonOptions(this.options), numClasses: this.numClasses, data: this.part.toJSON() };
  }
}

/**
 * A mergeable state of a metric: feed it batches with `update`, combine states built elsewhere (other files,
 * workers, machines) with `merge`, store it with `toJSON`/{@link stateFromJSON}, and read the metric with `result`.
 *
 * **Formula.** `result()` equals the metric's function on every row added so far (with the same options). What
 * a state keeps: fixed-edge binned metrics (ECE, MCE, SCE, UCE, `gce` with equal-width or given edges, reliability
 * tables) per slice and bin the count and exact sums Σw, Σw·s, Σw·o — O(bins × classes); Brier, NLL and accuracy
 * the exact sums Σw·v and Σw; the Brier decomposition per predicted class k the label weights, Σw·p_k· and
 * Σw·‖p‖², and Σw·p_y — O(classes²). Curves (`rocCurve`, `precisionRecallCurve`, `riskCoverageCurve`,
 * `rejectionCurve`), `accuracyAtCoverage`, `coverageAtRisk`, `oracleCollaborativeAccuracy` and the bin-free
 * estimators (`mmce`, `debiasedEce`, `smoothEce`, `bayesianEce`) keep the rows (exact mode only; their own options
 * are checked when `result()` runs them). Ensemble states take members [S, n, C] per batch and keep exact sums:
 * `ensembleNll`, `gibbsNll`, and `modelUncertainty` — the means of total, expected-data and mutual-information
 * uncertainty over rows. Metrics of other shapes keep their rows too (exact mode only; values checked at `result()`):
 * binary pairs (`binaryCalibrationError`, `binaryReliability`, `binaryBrier`, `semiparametricCalibrationError`:
 * `update(outcomes, probs)`), ensemble diversity and `evaluateEnsemble` (`update(labels | null, members [S][n][C])`),
 * and `negativeWaic`, `iscv` (`update(null, logLikelihood [n][M])`). `crps` keeps the exact sums of its per-example
 * scores (`update(observations, forecast)`); `oodAuroc`, `fprAtTpr`, `oodCurve` keep both sides' samples
 * (`update(inDistribution, outOfDistribution, { weights: { inDistribution, outOfDistribution } })`, either side may be
 * `null` in a batch). Order-based metrics (equal-mass and adaptive binning: RMSCE, ACE, TACE, AECE, AMCE;
 * AUROC, AUPR, AURC, E-AURC) keep their (score, outcome, weight) entries in mode `'exact'`, or in mode
 * `'bounded'` per slice a grid of 2·(40·2^m + 1) cells by the leading bits of min(x, 1 − x) (m = `cellBits`),
 * binned or ranked as one weighted pseudo-entry per cell.
 *
 * **Conventions.**
 * - Sums are exact (Shewchuk partials, correctly rounded at `result`), and kept entries are processed in a canonical
 *   order, so merging partial states in any grouping gives bit-identical results to one pass.
 * - `errorBound()`: 0 for exact states. Bounded ranking metrics: the exact value lies between the values with each
 *   cell's correct predictions ranked first and last; the bound is the larger distance to those. Bounded l1
 *   equal-mass errors (ACE, TACE, `gce` l1): (2/W)·Σ over bin boundaries of the larger neighbouring cell weight,
 *   averaged over classes when class-conditional. Bounded l2/max norms and Ding bins (RMSCE, AMCE, AECE): `null`
 *   (an estimate without a proven bound — use mode `'exact'` when it matters).
 * - float32 presets accumulate in float32 like their peer, which depends on row order: `UM_STATE`.
 * - Weights: `update(labels, scores, { weights })`, as every metric's `weights`.
 *
 * **References.**
 * - Shewchuk, "Adaptive Precision Floating-Point Arithmetic and Fast Robust Geometric Predicates", Discrete &
 *   Computational Geometry 18 (1997), doi:10.1007/PL00009321 (exact sums).
 * - google/uncertainty-metrics stateful `update_state`/`result` metrics.
 *
 * @param metric a {@link StateMetric}.
 * @param options the metric's options plus `mode`, `cellBits`, `onWarning` and input options.
 * @returns a {@link MetricState}.
 * @throws {UMError} `UM_OPTION` for unknown metrics or options, `UM_STATE` for a float32 preset; `update` throws
 *   like the metric; `merge` throws `UM_STATE` for another metric, configuration or number of classes.
 * @example
 * ```js
 * import { createState, ece } from 'uncertainty-metrics';
 * const a = createState('ece', { bins: 10 }).update([0, 1], [[0.9, 0.1], [0.2, 0.8]]);
 * const b = createState('ece', { bins: 10 }).update([1], [[0.6, 0.4]]);
 * a.merge(b).result(); // => 0.3
 * ```
 */
export function createState(metric: StateMetric, options: StateOptions = {}): MetricState {
  if (options === null || typeof options !== 'object') fail('UM_OPTION', 'createState', 'options', 'be an object', { value: options });
  return new State(metric, options);
}

/**
 * Restores a state from its JSON form ({@link MetricState.toJSON}), e.g. one written by another worker or machine.
 *
 * **Formula.** `stateFromJSON(s.toJSON())` holds the same sufficient statistics as `s`: its `result()` and merges are
 * bit-identical (exact sums are stored as their partials, not rounded).
 *
 * **Conventions.** The JSON holds the metric, its options (without functions) and the sufficient statistics; the
 * restored state merges with states of the same configuration. Warning handlers are not stored: pass `onWarning`.
 *
 * **References.** See {@link createState}.
 *
 * @param json a {@link StateJSON} object (or its `JSON.stringify` text).
 * @param options `onWarning`.
 * @returns the state.
 * @throws {UMError} `UM_STATE` for malformed JSON or another format or version.
 * @example
 * ```js
 * import { createState, stateFromJSON } from 'uncertainty-metrics';
 * const s = createState('brier').update([0, 1], [[0.8, 0.2], [0.4, 0.6]]);
 * stateFromJSON(JSON.stringify(s)).result(); // ≈ 0.2
 * ```
 */
export function stateFromJSON(json: StateJSON | string, options: WarningOptions = {}): MetricState {
  const fn = 'stateFromJSON';
  let j: StateJSON;
  try {
    j = typeof json === 'string' ? (JSON.parse(json) as StateJSON) : json;
  } catch (e) {
    return fail('UM_STATE', fn, 'json', 'be valid JSON', { value: (e as Error).message });
  }
  if (j === null || typeof j !== 'object' || j.format !== 'uncertainty-metrics/state') fail('UM_STATE', fn, 'json.format', "be 'uncertainty-metrics/state'", { value: (j as { format?: unknown } | null)?.format });
  if (j.version !== 1) fail('UM_STATE', fn, 'json.version', 'be 1', { value: j.version });
  checkOptions(fn, options, ['onWarning']);
  // the metric and options come from the JSON: their errors are this function's
  const state = within(fn, () => new State(j.metric, { ...j.options, ...options }), 'json');
  state.numClasses = j.numClasses;
  try {
    state.part.load(j.data);
  } catch (e) {
    fail('UM_STATE', fn, 'json.data', `hold the statistics of a '${j.metric}' state`, { value: (e as Error).message });
  }
  return state;
}
