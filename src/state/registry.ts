import { bayesianEce, type BayesianEceOptions } from '../calibration/bayesianEce.js';
import { binaryCalibrationError } from '../calibration/binaryCalibrationError.js';
import { binaryReliability } from '../calibration/binaryReliability.js';
import { calibrationDefinition } from '../calibration/calibrationError.js';
import { debiasedEce, type DebiasedEceOptions } from '../calibration/debiasedEce.js';
import { mmce, type MmceOptions } from '../calibration/mmce.js';
import { RELIABILITY } from '../calibration/reliability.js';
import { semiparametricCalibrationError } from '../calibration/semiparametricCalibrationError.js';
import { smoothEce, type SmoothEceOptions } from '../calibration/smoothEce.js';
import { UCE } from '../calibration/uce.js';
import type { MetricDefinition } from '../engine/definition.js';
import { rowsDefinition, type RowsFunction } from '../engine/rowsDefinition.js';
import { single, type Suite } from '../engine/suite.js';
import { averagePairwiseDiversity } from '../ensemble/averagePairwiseDiversity.js';
import { cosineDistance } from '../ensemble/cosineDistance.js';
import { disagreement } from '../ensemble/disagreement.js';
import { doubleFault } from '../ensemble/doubleFault.js';
import { gibbsNllRows, warnInfiniteGibbs } from '../ensemble/gibbsNll.js';
import { lpDistance } from '../ensemble/lpDistance.js';
import { meanPrediction } from '../ensemble/mcIntegrate.js';
import { decomposeUncertainty } from '../ensemble/modelUncertainty.js';
import { pairwiseKl } from '../ensemble/pairwiseKl.js';
import { varianceBound } from '../ensemble/varianceBound.js';
import { evaluateEnsemble } from '../evaluate/evaluateEnsemble.js';
import { EVALUATE } from '../evaluate/suite.js';
import { ENSEMBLE_KEYS } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import { within } from '../errors/within.js';
import { iscv } from '../information/iscv.js';
import { negativeWaic } from '../information/negativeWaic.js';
import { ensembleMatrix } from '../input/ensembleMatrix.js';
import { labelArray } from '../input/labelArray.js';
import type { EnsembleOptions, EnsembleScores, Labels } from '../input/types.js';
import { fprAtTpr, type FprAtTprOptions } from '../ood/fprAtTpr.js';
import { oodAuroc } from '../ood/oodAuroc.js';
import { oodCurve, type OodCurveOptions } from '../ood/oodCurve.js';
import type { OodInput, OodOptions } from '../ood/oodInput.js';
import { ACCURACY } from '../scores/accuracy.js';
import { binaryBrier } from '../scores/binaryBrier.js';
import { BRIER } from '../scores/brier.js';
import { BRIER_DECOMPOSITION } from '../scores/brierDecomposition.js';
import { crpsPerExample, type CrpsForecast, type CrpsOptions } from '../scores/crpsPerExample.js';
import { NLL } from '../scores/nll.js';
import { nllRows } from '../scores/nllPerExample.js';
import { accuracyAtCoverage, type AccuracyAtCoverageOptions } from '../selective/accuracyAtCoverage.js';
import { DEFINITION as AUPR } from '../selective/aupr.js';
import { DEFINITION as AUROC } from '../selective/auroc.js';
import { DEFINITION as AURC } from '../selective/aurc.js';
import { coverageAtRisk, type CoverageAtRiskOptions } from '../selective/coverageAtRisk.js';
import { DEFINITION as EAURC } from '../selective/eAurc.js';
import {
  oracleCollaborativeAccuracy,
  type OracleCollaborativeOptions,
} from '../selective/oracleCollaborativeAccuracy.js';
import { precisionRecallCurve } from '../selective/precisionRecallCurve.js';
import { rejectionCurve, type RejectionCurveOptions } from '../selective/rejectionCurve.js';
import { riskCoverageCurve } from '../selective/riskCoverageCurve.js';
import { rocCurve } from '../selective/rocCurve.js';
import type { AurcOptions } from '../selective/aurc.js';
import type { SelectiveOptions } from '../selective/types.js';
import type { WarningOptions } from '../warnings/warnings.js';
import { EngineState } from './engineState.js';
import { ShapedState, type Shape } from './shapedState.js';
import type { StateOptions } from './types.js';

/** How the state of one metric is made: from a suite of definitions, or from a shape of another input. */
export type StateFactory<R> =
  { readonly kind: 'engine'; readonly suite: Suite<R> } | { readonly kind: 'shaped'; readonly shape: Shape<R> };

const engine = <R>(def: MetricDefinition<unknown, R>): StateFactory<R> => ({ kind: 'engine', suite: single(def) });

/** A ranking or curve function of labelled probabilities, recomputed on the kept rows (named measures only). */
function rows<R>(name: string, keys: readonly string[], compute: RowsFunction<R>): StateFactory<R> {
  const def = rowsDefinition(name, keys, compute);
  return {
    kind: 'engine',
    suite: single({
      ...def,
      resolve: (fn, options) => {
        if (options.by !== undefined && typeof options.by !== 'string')
          fail(
            'UM_OPTION',
            fn,
            'options.by',
            'be a named measure in a mergeable state (per-row values belong to one call)',
            { value: options.by },
          );
        return def.resolve(fn, options);
      },
    }),
  };
}

const SELECTIVE = ['by', 'decisionThreshold'] as const;
const pairsShape = <R>(
  call: (a: number[], b: number[] | Float32Array, o: Record<string, unknown>) => R,
  keys: readonly string[],
  extra: { weightKey?: string; keepsFloat32?: boolean } = {},
): StateFactory<R> => ({
  kind: 'shaped',
  shape: {
    kind: 'rows',
    layout: 'pairs',
    labeled: true,
    keys,
    ...extra,
    call: (a, b, o) => call(a as number[], b as number[] | Float32Array, o),
  },
});
const membersShape = <R>(
  labeled: boolean,
  call: (y: number[] | null, m: number[][][], o: Record<string, unknown>) => R,
  keys: readonly string[],
): StateFactory<R> => ({
  kind: 'shaped',
  shape: { kind: 'rows', layout: 'members', labeled, keys, call: (a, b, o) => call(a, b as number[][][], o) },
});
const matrixShape = <R>(
  call: (m: number[][], o: Record<string, unknown>) => R,
  keys: readonly string[],
): StateFactory<R> => ({
  kind: 'shaped',
  shape: { kind: 'rows', layout: 'matrix', labeled: false, keys, call: (_a, b, o) => call(b as number[][], o) },
});
const oodShape = <R>(
  call: (a: OodInput, b: OodInput, o: Record<string, unknown>) => R,
  keys: readonly string[],
): StateFactory<R> => ({
  kind: 'shaped',
  shape: { kind: 'ood', keys, call: (a, b, o) => call(a as OodInput, b as OodInput, o) },
});

/** Per-row values of an ensemble metric from validated members (and labels where it needs them). */
function ensembleMeans<R>(
  labeled: boolean,
  values: (fn: string, e: ReturnType<typeof ensembleMatrix>, y: Int32Array | undefined) => Record<string, Float64Array>,
  finish: (fn: string, means: Record<string, number>, options: WarningOptions) => R,
): StateFactory<R> {
  return {
    kind: 'shaped',
    shape: {
      kind: 'means',
      keys: [...ENSEMBLE_KEYS],
      values: (fn, first, second, options) => {
        const e = ensembleMatrix(fn, second as EnsembleScores, options as EnsembleOptions);
        const y =
          labeled || (first !== null && first !== undefined)
            ? labelArray(fn, first as Labels, e.n, e.numClasses)
            : undefined;
        if (labeled && y === undefined) fail('UM_SHAPE', fn, 'labels', 'be given', { value: first });
        return { values: values(fn, e, y), n: e.n };
      },
      finish,
    },
  };
}

const NLL_EXACT = { clip: null, renormalize: false, precision: 'float64' } as const;

/**
 * Every metric with a mergeable state, by name — the typed registry `createState` and `stateFromJSON` read (own
 * keys only). Labelled-probability metrics come from their definitions (the same stores their functions use); metrics
 * of other shapes keep their rows or exact sums of their per-row values (internal).
 */
export const STATE_REGISTRY = {
  gce: engine(calibrationDefinition('gce')),
  ece: engine(calibrationDefinition('ece')),
  mce: engine(calibrationDefinition('mce')),
  rmsce: engine(calibrationDefinition('rmsce')),
  sce: engine(calibrationDefinition('sce')),
  ace: engine(calibrationDefinition('ace')),
  tace: engine(calibrationDefinition('tace')),
  aece: engine(calibrationDefinition('aece')),
  amce: engine(calibrationDefinition('amce')),
  uce: engine(UCE),
  reliability: engine(RELIABILITY),
  accuracy: engine(ACCURACY),
  brier: engine(BRIER),
  nll: engine(NLL),
  brierDecomposition: engine(BRIER_DECOMPOSITION),
  auroc: engine(AUROC),
  aupr: engine(AUPR),
  aurc: engine(AURC),
  eAurc: engine(EAURC),
  evaluate: { kind: 'engine', suite: EVALUATE } as StateFactory<ReturnType<typeof EVALUATE.assemble>>,
  rocCurve: rows('rocCurve', SELECTIVE, (y, p, o) => rocCurve(y, p, o as SelectiveOptions)),
  precisionRecallCurve: rows('precisionRecallCurve', [...SELECTIVE, 'positive'], (y, p, o) =>
    precisionRecallCurve(y, p, o as SelectiveOptions),
  ),
  riskCoverageCurve: rows('riskCoverageCurve', [...SELECTIVE, 'estimator'], (y, p, o) =>
    riskCoverageCurve(y, p, o as AurcOptions),
  ),
  rejectionCurve: rows('rejectionCurve', [...SELECTIVE, 'thresholds'], (y, p, o) =>
    rejectionCurve(y, p, o as RejectionCurveOptions),
  ),
  accuracyAtCoverage: rows('accuracyAtCoverage', [...SELECTIVE, 'coverage'], (y, p, o) =>
    accuracyAtCoverage(y, p, {
      ...(o as SelectiveOptions),
      coverage: o.coverage as AccuracyAtCoverageOptions['coverage'],
    }),
  ),
  coverageAtRisk: rows('coverageAtRisk', [...SELECTIVE, 'risk'], (y, p, o) =>
    coverageAtRisk(y, p, { ...(o as SelectiveOptions), risk: o.risk as CoverageAtRiskOptions['risk'] }),
  ),
  oracleCollaborativeAccuracy: rows(
    'oracleCollaborativeAccuracy',
    [...SELECTIVE, 'fraction', 'bins', 'preset'],
    (y, p, o) => oracleCollaborativeAccuracy(y, p, o as OracleCollaborativeOptions),
  ),
  mmce: rows('mmce', ['target', 'weighted', 'kernelWidth'], (y, p, o) => mmce(y, p, o as MmceOptions)),
  debiasedEce: rows(
    'debiasedEce',
    ['preset', 'bins', 'binning', 'equalWidth', 'equalMass', 'ding', 'precision', 'mode', 'smallBins'],
    (y, p, o) => debiasedEce(y, p, o as DebiasedEceOptions),
  ),
  smoothEce: rows('smoothEce', ['target', 'bandwidth', 'eps'], (y, p, o) => smoothEce(y, p, o as SmoothEceOptions)),
  bayesianEce: rows('bayesianEce', ['target', 'bins', 'samples', 'seed', 'quantiles', 'preset'], (y, p, o) =>
    bayesianEce(y, p, o as BayesianEceOptions),
  ),
  binaryCalibrationError: pairsShape(
    (a, b, o) => binaryCalibrationError(a, b, o),
    ['preset', 'bins', 'binning', 'equalWidth', 'equalMass', 'ding', 'precision', 'norm', 'event', 'threshold'],
    { keepsFloat32: true },
  ),
  binaryReliability: pairsShape(
    (a, b, o) => binaryReliability(a, b, o),
    ['preset', 'bins', 'binning', 'equalWidth', 'equalMass', 'ding', 'precision', 'event', 'interval', 'level'],
    { keepsFloat32: true },
  ),
  binaryBrier: pairsShape((a, b, o) => binaryBrier(a, b, o), ['event']),
  semiparametricCalibrationError: pairsShape(
    (a, b, o) => semiparametricCalibrationError(a, b, o),
    ['folds', 'bootstrap', 'bandwidths', 'seed', 'level'],
    { weightKey: 'sampleWeights' },
  ),
  disagreement: membersShape(false, (_y, m, o) => disagreement(m, o), [...ENSEMBLE_KEYS]),
  pairwiseKl: membersShape(false, (_y, m, o) => pairwiseKl(m, o), [...ENSEMBLE_KEYS]),
  cosineDistance: membersShape(false, (_y, m, o) => cosineDistance(m, o), [...ENSEMBLE_KEYS]),
  lpDistance: membersShape(false, (_y, m, o) => lpDistance(m, o), [...ENSEMBLE_KEYS, 'p']),
  averagePairwiseDiversity: membersShape(false, (_y, m, o) => averagePairwiseDiversity(m, o), [...ENSEMBLE_KEYS]),
  doubleFault: membersShape(true, (y, m, o) => doubleFault(y as number[], m, o), [...ENSEMBLE_KEYS]),
  varianceBound: membersShape(true, (y, m, o) => varianceBound(y as number[], m, o), [...ENSEMBLE_KEYS]),
  evaluateEnsemble: membersShape(true, (y, m, o) => evaluateEnsemble(y as number[], m, o), [
    ...ENSEMBLE_KEYS,
    'bins',
    'preset',
    'classwise',
  ]),
  negativeWaic: matrixShape((m, o) => negativeWaic(m, o), []),
  iscv: matrixShape((m, o) => iscv(m, o), []),
  oodAuroc: oodShape((a, b, o) => oodAuroc(a, b, o as OodOptions), ['by', 'decisionThreshold']),
  fprAtTpr: oodShape((a, b, o) => fprAtTpr(a, b, o as FprAtTprOptions), ['by', 'decisionThreshold', 'tpr']),
  oodCurve: oodShape(
    (a, b, o) => oodCurve(a, b, o as OodCurveOptions),
    ['by', 'decisionThreshold', 'batchSize', 'repeats', 'seed'],
  ),
  modelUncertainty: ensembleMeans(
    false,
    (_fn, e) => ({ ...decomposeUncertainty(e) }),
    (_fn, m) => ({
      total: m.total as number,
      expectedData: m.expectedData as number,
      mutualInformation: m.mutualInformation as number,
    }),
  ),
  ensembleNll: ensembleMeans(
    true,
    (fn, e, y) => ({ nll: nllRows(fn, meanPrediction(e), y as Int32Array, NLL_EXACT, { onWarning: () => {} }) }),
    (_fn, m) => m.nll as number,
  ),
  gibbsNll: ensembleMeans(
    true,
    (_fn, e, y) => ({ nll: gibbsNllRows(e, y as Int32Array) }),
    (fn, m, o) => {
      warnInfiniteGibbs(fn, m.nll as number, o);
      return m.nll as number;
    },
  ),
  crps: {
    kind: 'shaped',
    shape: {
      kind: 'means',
      keys: ['estimator', 'preset'],
      values: (fn, first, second, options) => {
        const v = within(fn, () =>
          crpsPerExample(first as ArrayLike<number>, second as CrpsForecast, options as CrpsOptions),
        );
        return { values: { crps: v }, n: v.length };
      },
      finish: (_fn, m) => m.crps as number,
    },
  } as StateFactory<number>,
} satisfies Record<string, StateFactory<unknown>>;

/** Metrics with a mergeable state. */
export type StateMetric = keyof typeof STATE_REGISTRY;

/** The result type of a metric's state. */
export type StateResult<M extends StateMetric> = (typeof STATE_REGISTRY)[M] extends StateFactory<infer R> ? R : never;

/** Every metric with a state, in registry order. */
export const STATE_METRICS = Object.keys(STATE_REGISTRY) as StateMetric[];

/** Makes the state of a registered metric (`metric` checked against the registry's own keys). */
export function makeState(
  fn: string,
  metric: unknown,
  options: StateOptions,
): EngineState<unknown> | ShapedState<unknown> {
  if (typeof metric !== 'string' || !Object.prototype.hasOwnProperty.call(STATE_REGISTRY, metric)) {
    return fail('UM_OPTION', fn, 'metric', `be one of ${STATE_METRICS.map((m) => `'${m}'`).join(', ')}`, {
      value: metric,
    });
  }
  // a state's weights come with each batch: as an option they would be kept (row-keeping states pass their options to
  // the function at result()) and applied to whatever rows the batches brought
  for (const key of ['weights', 'sampleWeights']) {
    if (key in options)
      fail(
        'UM_OPTION',
        fn,
        `options.${key}`,
        'not be given: a state takes weights with each batch (update(labels, scores, { weights }))',
      );
  }
  // the options are part of the state's JSON (toJSON, the merge signature): what JSON cannot hold is refused now
  try {
    JSON.stringify(options, (_k, v: unknown) => (typeof v === 'function' ? undefined : v));
  } catch (error) {
    fail(
      'UM_OPTION',
      fn,
      'options',
      `hold only numbers, strings, arrays and plain objects (a state keeps them as JSON: ${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const factory = STATE_REGISTRY[metric as StateMetric] as StateFactory<unknown>;
  return factory.kind === 'engine'
    ? new EngineState(metric, factory.suite, options)
    : new ShapedState(metric, factory.shape, options);
}
