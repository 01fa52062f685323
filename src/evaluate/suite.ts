import type { BinningConfig } from '../options/binning.js';
import { calibrationDefinition, takesBins, type CalibrationMember } from '../calibration/calibrationError.js';
import type { ResolvedCalibration, ResolvedUce } from '../calibration/options.js';
import { UCE } from '../calibration/uce.js';
import type { Member, Outcome } from '../engine/computation.js';
import type { MetricDefinition, StateMode } from '../engine/definition.js';
import type { Suite, SuiteContext } from '../engine/suite.js';
import { fail } from '../errors/fail.js';
import type { UMError } from '../errors/UMError.js';
import type { BrierForm, PresetName } from '../presets/presets.js';
import { ACCURACY, TOTAL_WEIGHT } from '../scores/accuracy.js';
import { BRIER } from '../scores/brier.js';
import { MEAN_ENTROPY } from '../scores/meanEntropy.js';
import { NLL } from '../scores/nll.js';
import { DEFINITION as AUPR } from '../selective/aupr.js';
import { DEFINITION as AUROC } from '../selective/auroc.js';
import { DEFINITION as AURC } from '../selective/aurc.js';
import { DEFINITION as EAURC } from '../selective/eAurc.js';
import type { RankingConfig } from '../selective/rankingDefinition.js';
import type { Evaluation, EvaluationConfig } from './types.js';

/** The options of the `evaluate` suite that change a number. */
export interface SuiteOptions {
  bins?: number;
  preset?: PresetName;
  classwise?: boolean;
}

type Entry = {
  key: string;
  def: MetricDefinition;
  options: (o: SuiteOptions) => Record<string, unknown>;
  classwise?: true;
};

const binned = (m: CalibrationMember, classwise = false): Entry => ({
  key: m,
  def: calibrationDefinition(m) as MetricDefinition,
  options: (o) => ({ preset: o.preset, ...(takesBins(m) ? { bins: o.bins } : {}) }),
  ...(classwise ? { classwise: true as const } : {}),
});

/**
 * The metrics of `evaluate` (and `um metrics`), in their order, each with the options it takes from the suite's — the
 * one list every form of the suite runs (internal).
 */
export const EVALUATE_ENTRIES: readonly Entry[] = [
  { key: 'n', def: TOTAL_WEIGHT as MetricDefinition, options: () => ({}) },
  { key: 'accuracy', def: ACCURACY as MetricDefinition, options: () => ({}) },
  binned('ece'),
  binned('mce'),
  binned('rmsce'),
  binned('sce', true),
  binned('ace', true),
  binned('tace', true),
  { key: 'uce', def: UCE as MetricDefinition, options: (o) => ({ preset: o.preset, bins: o.bins }) },
  binned('aece'),
  binned('amce'),
  { key: 'brier', def: BRIER as MetricDefinition, options: (o) => ({ preset: o.preset }) },
  // the NLL of `evaluate` is never clipped: an exact 0 gives Infinity and a warning, under every preset
  {
    key: 'nll',
    def: NLL as MetricDefinition,
    options: () => ({ clip: null, renormalize: false, precision: 'float64' }),
  },
  { key: 'meanEntropy', def: MEAN_ENTROPY as MetricDefinition, options: () => ({}) },
  { key: 'auroc', def: AUROC as MetricDefinition, options: (o) => ({ preset: o.preset }) },
  { key: 'aupr', def: AUPR as MetricDefinition, options: (o) => ({ preset: o.preset, positive: 'error' }) },
  { key: 'aurc', def: AURC as MetricDefinition, options: () => ({ estimator: 'mean-risk' }) },
  { key: 'eaurc', def: EAURC as MetricDefinition, options: () => ({ estimator: 'mean-risk' }) },
];

/** The keys of the metrics that bin all N·C probabilities (left out with `classwise: false`). */
export const CLASSWISE_KEYS = new Set(EVALUATE_ENTRIES.filter((e) => e.classwise === true).map((e) => e.key));

const defined = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** Members the suite leaves out, with the reason (bounded mode: no proven bound). */
const UNBOUNDED = new WeakMap<Member[], string[]>();

function members(fn: string, options: Readonly<Record<string, unknown>>, mode: StateMode): Member[] {
  const o = options as SuiteOptions;
  if (o.classwise !== undefined && typeof o.classwise !== 'boolean')
    fail('UM_OPTION', fn, 'options.classwise', 'be true or false', { value: o.classwise });
  const out: Member[] = [];
  const skipped: string[] = [];
  for (const e of EVALUATE_ENTRIES) {
    if (o.classwise === false && e.classwise === true) continue;
    const config = e.def.resolve(fn, defined(e.options(o)));
    if (mode === 'bounded') {
      try {
        e.def.requests(fn, config, mode);
      } catch {
        skipped.push(e.key);
        continue;
      }
    }
    out.push({ key: e.key, def: e.def, config });
  }
  UNBOUNDED.set(out, skipped);
  return out;
}

/** A member's value, or null for the outcomes the suite reports as null (with the warning saying why). */
function valueOrNull(key: string, outcome: Outcome | undefined, nulls: Map<string, UMError>): number | null {
  if (outcome === undefined) return null;
  if ('value' in outcome) return outcome.value as number;
  const e = outcome.error;
  const tolerated =
    (e.code === 'UM_SINGLE_CLASS' && (key === 'auroc' || key === 'aupr')) ||
    (e.code === 'UM_OPTION' && e.details.argument === 'options.weights') ||
    e.code === 'UM_EMPTY';
  if (!tolerated || key === 'n' || key === 'accuracy') throw e;
  nulls.set(key, e);
  return null;
}

function warnNulls(
  fn: string,
  nulls: Map<string, UMError>,
  accuracy: number,
  context: SuiteContext,
  skipped: readonly string[],
): void {
  const keys = [...nulls.keys()];
  // only the members computed (the SQL finisher has no AUPR)
  const single = ['auroc', 'aupr'].filter((k) => nulls.get(k)?.code === 'UM_SINGLE_CLASS').map((k) => k.toUpperCase());
  if (single.length > 0) {
    context.warn({
      code: 'UM_W_DEGENERATE',
      fn,
      message: `${fn}: every prediction is ${accuracy === 0 ? 'wrong' : 'correct'}; ${single.join(' and ')} ${single.length === 1 ? 'is' : 'are'} undefined (null)`,
      // the keys of the metrics a warning concerns, so a report can show it next to them
      details: { metrics: single.map((k) => k.toLowerCase()) },
    });
  }
  if (keys.some((k) => nulls.get(k)?.details.argument === 'options.weights')) {
    context.warn({
      code: 'UM_W_WEIGHTS',
      fn,
      message: `${fn}: AURC and E-AURC average the risk over whole numbers of kept predictions and need whole-number weights; they are null`,
      details: { metrics: keys.filter((k) => nulls.get(k)?.details.argument === 'options.weights') },
    });
  }
  for (const k of keys.filter((x) => nulls.get(x)?.code === 'UM_EMPTY')) {
    context.warn({
      code: 'UM_W_EMPTY',
      fn,
      message: `${fn}: ${k} has nothing to compute on (${(nulls.get(k) as UMError).message.replace(/^[^:]*: /, '')}); it is null`,
      details: { metrics: [k] },
    });
  }
  if (skipped.length > 0) {
    context.warn({
      code: 'UM_W_BOUNDED',
      fn,
      message: `${fn}: ${skipped.join(', ')} ${skipped.length === 1 ? 'has' : 'have'} no proven error bound on the bounded grid and ${skipped.length === 1 ? 'is' : 'are'} null (use the exact mode for ${skipped.length === 1 ? 'it' : 'them'})`,
      details: { metrics: [...skipped] },
    });
  }
}

/** The configuration of a list of members without the batch's part, made once per list (a bootstrap reuses one). */
const CONFIGS = new WeakMap<readonly Member[], Omit<EvaluationConfig, 'input' | 'binary' | 'weighted'>>();

function configOf(
  list: readonly Member[],
  classwise: boolean,
  weighted: boolean,
  input: EvaluationConfig['input'],
  binary: boolean,
): EvaluationConfig {
  let known = CONFIGS.get(list);
  if (known === undefined) CONFIGS.set(list, (known = membersConfig(list, classwise)));
  // a fresh object per result (callers may change theirs), in the order of the keys of EvaluationConfig
  const { preset, bins, precision, equalWidth, equalMass, threshold, taceThreshold, ding, uce, brierForm, nllClip } =
    known;
  return {
    input,
    binary,
    preset,
    bins,
    precision,
    equalWidth,
    equalMass,
    threshold,
    taceThreshold,
    ding: { ...ding },
    uce: { ...uce },
    brierForm,
    nllClip,
    weighted,
    classwise: known.classwise,
    selective: { ...known.selective },
  };
}

function membersConfig(
  list: readonly Member[],
  classwise: boolean,
): Omit<EvaluationConfig, 'input' | 'binary' | 'weighted'> {
  const cfg = (key: string) => list.find((m) => m.key === key)?.config;
  const ece = cfg('ece') as ResolvedCalibration;
  const ace = (cfg('ace') ??
    calibrationDefinition('ace').resolve('evaluate', {
      preset: ece.config.preset,
      bins: (ece.config as { bins: number }).bins,
    })) as ResolvedCalibration;
  const aece = (cfg('aece') ??
    calibrationDefinition('aece').resolve('evaluate', { preset: ece.config.preset })) as ResolvedCalibration;
  const tace = (cfg('tace') ??
    calibrationDefinition('tace').resolve('evaluate', {
      preset: ece.config.preset,
      bins: (ece.config as { bins: number }).bins,
    })) as ResolvedCalibration;
  const uce = cfg('uce') as ResolvedUce;
  const auroc = cfg('auroc') as RankingConfig;
  const ew = ece.config as Extract<BinningConfig, { binning: 'equal-width' }>;
  return {
    preset: ew.preset,
    bins: ew.bins,
    precision: ew.precision,
    equalWidth: ew.equalWidth,
    equalMass: (ace.config as Extract<BinningConfig, { binning: 'equal-mass' }>).equalMass,
    threshold: ece.threshold,
    taceThreshold: tace.threshold,
    ding: (aece.config as Extract<BinningConfig, { binning: 'ding' }>).ding,
    uce: { classwise: uce.classwise, classAverage: uce.classAverage, norm: 'l1' },
    brierForm: (cfg('brier') as { form: BrierForm }).form,
    nllClip: null,
    classwise,
    selective: {
      by: 'max-prob',
      auprPositive: 'error',
      aurcEstimator: 'mean-risk',
      aucThresholds: auroc.thresholds,
      aucPrecision: auroc.thresholds === null ? null : auroc.aucPrecision,
    },
  };
}

/** The `evaluate` suite: every metric of `um metrics` from one set of stores (internal). */
export const EVALUATE: Suite<Evaluation> = {
  name: 'evaluate',
  keys: ['bins', 'preset', 'classwise'],
  members,
  // whole-number weights are not required: AURC and E-AURC are null (with a warning) when some are fractional
  weightRules: () => ({ finiteTotal: 'evaluate reports n, the total weight' }),
  assemble: (outcomes, context) => {
    const { computation } = context;
    const fn = context.fn;
    const nulls = new Map<string, UMError>();
    const value = (key: string) => valueOrNull(key, outcomes.get(key), nulls);
    const classwise = computation.members.some((m) => m.key === 'sce');
    const accuracy = value('accuracy') as number;
    const out: Evaluation = {
      n: value('n') as number,
      numClasses: computation.numClasses ?? 0,
      accuracy,
      ece: value('ece') as number,
      mce: value('mce') as number,
      rmsce: value('rmsce') as number,
      sce: value('sce'),
      ace: value('ace'),
      tace: value('tace'),
      uce: value('uce') as number,
      aece: value('aece') as number,
      amce: value('amce') as number,
      brier: value('brier') as number,
      nll: value('nll') as number,
      meanEntropy: value('meanEntropy') as number,
      auroc: value('auroc'),
      aupr: value('aupr'),
      aurc: value('aurc'),
      eaurc: value('eaurc'),
      config: configOf(
        computation.members,
        classwise,
        computation.weighted,
        computation.input.input,
        computation.input.binary,
      ),
    };
    warnNulls(fn, nulls, accuracy, context, UNBOUNDED.get(computation.members as Member[]) ?? []);
    if (computation.mode === 'bounded') {
      const bounds: Record<string, number | null> = {};
      for (const [k, b] of computation.bounds(context.warn)) if (k !== 'n') bounds[k] = nulls.has(k) ? 0 : b;
      out.bounds = bounds;
    }
    return out;
  },
};
