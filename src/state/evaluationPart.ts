import type { EqualMassMethod, EqualWidthRule, DingOptions, Precision } from '../binning/types.js';
import type { CalibrationConfig, UceConfig } from '../calibration/core.js';
import { fail } from '../errors/fail.js';
import type { Evaluation } from '../evaluate/evaluate.js';
import type { ProbMatrix } from '../input/types.js';
import type { PresetName } from '../presets/presets.js';
import { resolveBrierForm } from '../scores/brierPerExample.js';
import { resolveAuc } from '../selective/aucOptions.js';
import { emitWarning, type WarningOptions } from '../warnings/warnings.js';
import { rowEntropy } from '../measures/rowEntropy.js';
import { accuracyPart, brierPart, calibrationPart, MeanPart, nllPart, RankingPart, ucePart, type Part, type SlicedPart, type StateMode } from './parts.js';

const CALIBRATION = {
  ece: { binning: 'equal-width', norm: 'l1', topLabel: true, classConditional: false },
  mce: { binning: 'equal-width', norm: 'max', topLabel: true, classConditional: false },
  rmsce: { binning: 'equal-mass', norm: 'l2', topLabel: true, classConditional: false },
  sce: { binning: 'equal-width', norm: 'l1', topLabel: false, classConditional: true },
  ace: { binning: 'equal-mass', norm: 'l1', topLabel: false, classConditional: true },
  tace: { binning: 'equal-mass', norm: 'l1', topLabel: false, classConditional: true },
  aece: { binning: 'ding', norm: 'l1', topLabel: true, classConditional: false },
  amce: { binning: 'ding', norm: 'max', topLabel: true, classConditional: false },
} as const;

type CalibrationName = keyof typeof CALIBRATION;

/** The `um metrics` set ({@link evaluate}) as one state part: every metric's part fed by one validated batch. */
export class EvaluationPart implements Part {
  readonly config: unknown;
  private readonly calibration: Record<CalibrationName, SlicedPart>;
  private readonly uce: SlicedPart;
  private readonly brier: MeanPart;
  private readonly nll: MeanPart;
  private readonly accuracy: MeanPart;
  private readonly entropy: MeanPart;
  private readonly ranking: { auroc: RankingPart; aupr: RankingPart; aurc: RankingPart; eaurc: RankingPart };
  private input: { input: string; binary: boolean; numClasses: number } | null = null;
  private readonly preset: PresetName | undefined;
  private readonly warnings: WarningOptions;
  private weighted = false;

  constructor(fn: string, options: Record<string, unknown> & WarningOptions, mode: StateMode, resolution: number) {
    const base = { preset: options.preset, bins: options.bins };
    this.preset = options.preset as PresetName | undefined;
    this.warnings = options;
    const auc = resolveAuc(fn, { preset: this.preset });
    if (auc.thresholds !== null) fail('UM_STATE', fn, 'options.preset', "have exact AUROC/AUPR in a state (this preset uses Keras' thresholded AUC)", { value: options.preset });
    const make = (name: CalibrationName) =>
      calibrationPart(fn, name === 'aece' || name === 'amce' ? { preset: options.preset } : { ...base }, CALIBRATION[name], name === 'tace' ? { threshold: 0.01 } : {}, mode, resolution);
    this.calibration = { ece: make('ece'), mce: make('mce'), rmsce: make('rmsce'), sce: make('sce'), ace: make('ace'), tace: make('tace'), aece: make('aece'), amce: make('amce') };
    this.uce = ucePart(fn, { ...base }, mode, resolution);
    this.brier = brierPart(fn, { preset: options.preset });
    this.nll = nllPart(fn, { clip: null, renormalize: false, precision: 'float64' }, options);
    this.accuracy = accuracyPart();
    this.entropy = new MeanPart({ measure: 'entropy' }, (_fn, p) => rowEntropy(p));
    this.ranking = {
      auroc: new RankingPart(fn, 'auroc', {}, mode, resolution),
      aupr: new RankingPart(fn, 'aupr', { positive: 'error' }, mode, resolution),
      aurc: new RankingPart(fn, 'aurc', { estimator: 'mean-risk' }, mode, resolution),
      eaurc: new RankingPart(fn, 'eAurc', { estimator: 'mean-risk' }, mode, resolution),
    };
    this.config = { preset: options.preset ?? 'default', bins: options.bins ?? null };
  }

  private parts(): Part[] {
    return [...Object.values(this.calibration), this.uce, this.brier, this.nll, this.accuracy, ...Object.values(this.ranking), this.entropy];
  }

  add(fn: string, p: ProbMatrix, y: Int32Array, w: Float64Array | undefined): void {
    this.input = { input: p.input, binary: p.binary, numClasses: p.numClasses };
    if (w !== undefined) this.weighted = true;
    for (const part of Object.values(this.calibration)) part.add(fn, p, y, w);
    this.uce.add(fn, p, y, w);
    this.brier.add(fn, p, y, w);
    this.nll.add(fn, p, y, w);
    this.accuracy.add(fn, p, y, w);
    this.entropy.add(fn, p, y, w);
    const whole = w === undefined || w.every((v) => Number.isInteger(v));
    this.ranking.auroc.add(fn, p, y, w);
    this.ranking.aupr.add(fn, p, y, w);
    if (!whole) fail('UM_OPTION', fn, 'weights', 'be whole numbers in an evaluate state (AURC counts repeated samples)');
    this.ranking.aurc.add(fn, p, y, w);
    this.ranking.eaurc.add(fn, p, y, w);
  }

  merge(other: Part): void {
    const o = other as EvaluationPart;
    const mine = this.parts();
    o.parts().forEach((part, k) => mine[k]?.merge(part));
    this.input ??= o.input;
    this.weighted ||= o.weighted;
  }

  result(fn: string): Evaluation {
    if (this.input === null) fail('UM_EMPTY', fn, 'state', 'hold at least one row (call update first)');
    const n = this.accuracy.total();
    const accuracy = this.accuracy.result(fn);
    let auroc: number | null = null;
    let aupr: number | null = null;
    const correct = accuracy * n;
    if (accuracy === 0 || accuracy === 1) {
      emitWarning(this.warnings, { code: 'UM_W_DEGENERATE', fn, message: `${fn}: every prediction is ${correct === 0 ? 'wrong' : 'correct'}; AUROC and AUPR are undefined (null)` });
    } else {
      auroc = this.ranking.auroc.result(fn);
      aupr = this.ranking.aupr.result(fn);
    }
    const c = this.calibration;
    const ew = c.ece.config as Extract<CalibrationConfig, { binning: 'equal-width' }>;
    const em = c.ace.config as Extract<CalibrationConfig, { binning: 'equal-mass' }>;
    const dg = c.aece.config as Extract<CalibrationConfig, { binning: 'ding' }>;
    const uceCfg = this.uce.config as UceConfig;
    const auc = resolveAuc(fn, { preset: this.preset });
    const out: Evaluation = {
      n,
      numClasses: this.input.numClasses,
      accuracy,
      ece: c.ece.result(fn),
      mce: c.mce.result(fn),
      rmsce: c.rmsce.result(fn),
      sce: c.sce.result(fn),
      ace: c.ace.result(fn),
      tace: c.tace.result(fn),
      uce: this.uce.result(fn),
      aece: c.aece.result(fn),
      amce: c.amce.result(fn),
      brier: this.brier.result(fn),
      nll: this.nll.result(fn),
      meanEntropy: this.entropy.result(fn),
      auroc,
      aupr,
      aurc: this.ranking.aurc.result(fn),
      eaurc: this.ranking.eaurc.result(fn),
      config: {
        input: this.input.input as Evaluation['config']['input'],
        binary: this.input.binary,
        preset: ew.preset,
        bins: ew.bins,
        precision: ew.precision as Precision,
        equalWidth: ew.equalWidth as EqualWidthRule,
        equalMass: em.equalMass as EqualMassMethod,
        threshold: c.ece.config === undefined ? null : (c.ece.config as { threshold: number | null }).threshold,
        taceThreshold: (c.tace.config as { threshold: number | null }).threshold,
        ding: dg.ding as DingOptions,
        uce: { classwise: uceCfg.classwise, classAverage: uceCfg.classAverage, norm: 'l1' },
        brierForm: resolveBrierForm(fn, { preset: this.preset }),
        nllClip: null,
        weighted: this.weighted,
        classwise: true,
        selective: { by: 'max-prob', auprPositive: 'error', aurcEstimator: 'mean-risk', aucThresholds: auc.thresholds, aucPrecision: auc.thresholds === null ? null : auc.precision },
      },
    };
    return out;
  }

  /** The largest bound (null if any is unknown); per metric in {@link bounds}. */
  bound(fn: string): number | null {
    const b = Object.values(this.bounds(fn));
    return b.some((x) => x === null) ? null : Math.max(0, ...(b as number[]));
  }

  /** Per metric: its bound. */
  bounds(fn: string): Record<string, number | null> {
    const out: Record<string, number | null> = { accuracy: 0, brier: 0, nll: 0, meanEntropy: 0 };
    for (const [k, part] of Object.entries(this.calibration)) out[k] = part.bound(fn);
    out.uce = this.uce.bound(fn);
    const degenerate = this.accuracy.result(fn) === 0 || this.accuracy.result(fn) === 1;
    out.auroc = degenerate ? 0 : this.ranking.auroc.bound(fn);
    out.aupr = degenerate ? 0 : this.ranking.aupr.bound(fn);
    out.aurc = this.ranking.aurc.bound(fn);
    out.eaurc = this.ranking.eaurc.bound(fn);
    return out;
  }

  toJSON(): unknown {
    return { input: this.input, weighted: this.weighted, parts: this.parts().map((p) => p.toJSON()) };
  }

  load(json: unknown): void {
    const j = json as { input: EvaluationPart['input']; weighted: boolean; parts: unknown[] };
    this.input = j.input;
    this.weighted = j.weighted;
    const parts = this.parts();
    if (j.parts.length !== parts.length) throw new Error(`expected ${parts.length} parts, got ${j.parts.length}`);
    parts.forEach((p, k) => p.load(j.parts[k]));
  }
}
