import { binaryReliability } from '../calibration/binaryReliability.js';
import { classwiseReliability } from '../calibration/classwiseReliability.js';
import { reliability, type ReliabilityTable } from '../calibration/reliability.js';
import { smoothReliability } from '../calibration/smoothReliability.js';
import { UMError } from '../errors/UMError.js';
import { relabel } from '../errors/within.js';
import type { Evaluation } from '../evaluate/evaluate.js';
import type { Labels, ProbMatrix } from '../input/types.js';
import { toProbabilities } from '../input/toProbabilities.js';
import { oodCurve } from '../ood/oodCurve.js';
import type { OodInput } from '../ood/oodInput.js';
import { binSweep } from '../plot/binSweep.js';
import { binSweepChart } from '../plot/binSweepChart.js';
import { classwiseReliabilityChart } from '../plot/classwiseReliabilityChart.js';
import { confidenceHistogram } from '../plot/confidenceHistogram.js';
import { oodChart } from '../plot/oodChart.js';
import { precisionRecallChart } from '../plot/precisionRecallChart.js';
import { rejectionChart } from '../plot/rejectionChart.js';
import { reliabilityDiagram } from '../plot/reliabilityDiagram.js';
import { renderSvg } from '../plot/renderSvg.js';
import { riskCoverageChart } from '../plot/riskCoverageChart.js';
import { rocChart } from '../plot/rocChart.js';
import { smoothReliabilityChart } from '../plot/smoothReliabilityChart.js';
import { temperatureChart } from '../plot/temperatureChart.js';
import { temperatureSweep } from '../plot/temperatureSweep.js';
import type { Named, VegaLiteSpec } from '../plot/types.js';
import type { PresetName } from '../presets/presets.js';
import { nll } from '../scores/nll.js';
import { precisionRecallCurve } from '../selective/precisionRecallCurve.js';
import { rejectionCurve } from '../selective/rejectionCurve.js';
import { riskCoverageCurve } from '../selective/riskCoverageCurve.js';
import { rocCurve } from '../selective/rocCurve.js';
import type { ReportChart, ReportModel, ReportModelResult } from './createReport.js';
import { HOW, howClasswise, howEqualMass, howHistogram, howReliability, howSmooth } from './howToRead.js';

/** A model whose rows are in memory (internal). */
export interface Prepared {
  readonly name: string;
  readonly labels: Labels;
  readonly p: ProbMatrix;
  readonly result: ReportModelResult;
  readonly model: ReportModel;
}

/** A model given as its streamed summary (internal). */
export interface Streamed {
  readonly name: string;
  readonly result: ReportModelResult;
  readonly summary: {
    readonly evaluation: Evaluation;
    readonly reliability: ReliabilityTable;
    readonly uncertainty: ReliabilityTable;
  };
}

/** What the charts are drawn from (internal). */
export interface ChartContext {
  readonly fn: string;
  readonly prepared: readonly Prepared[];
  readonly summarized: readonly Streamed[];
  readonly binning: { readonly bins?: number; readonly preset?: PresetName };
  readonly numClasses: number | undefined;
  /** The first model's class names, if declared. */
  readonly classNames: readonly string[] | null;
  /** The confidence tables (with Wilson intervals) the summary read too. */
  readonly confidence: ReadonlyMap<Prepared, ReliabilityTable>;
  readonly seed: number;
  /** Resamples of the smooth diagram's band. */
  readonly bandResamples: number;
  /** Whether to render each chart to SVG (otherwise `svg` is ''). */
  readonly svg: boolean;
  /** Whether any model came with OoD predictions. */
  readonly hasOod: boolean;
  readonly notes: string[];
  /** One more step of the progress (after each chart). */
  readonly step: (label: string) => void;
  /** One more step in the total (the positive-class diagram). */
  readonly grow: () => void;
  /** Runs a model's computation with its name in errors. */
  readonly at: <T>(m: { name: string }, call: () => T) => T;
}

/** Progress steps of {@link reportCharts} besides the positive-class diagram and the OoD chart (internal). */
export const CHART_STEPS = 12;

/**
 * Resamples of the smooth diagram's band: half relplot's 200, which keeps the report's main job fast — fewer when the
 * report's `resamples` is smaller (one option sets how long every bootstrap of the report runs).
 */
export const SMOOTH_RESAMPLES = 100;

/** Most class panels; a task with more classes shows its most frequent ones. */
export const MAX_CLASS_PANELS = 20;

/**
 * The classes of the class-wise panels (internal): all up to {@link MAX_CLASS_PANELS}, otherwise the most frequent
 * labels (ties: the lower index), in class order.
 */
export function panelClasses(labels: Labels, numClasses: number): number[] {
  const counts = new Float64Array(numClasses);
  for (let i = 0; i < labels.length; i++) {
    const k = Number(labels[i]);
    counts[k] = (counts[k] as number) + 1;
  }
  const all = Array.from({ length: numClasses }, (_, k) => k);
  if (numClasses <= MAX_CLASS_PANELS) return all;
  return all
    .sort((a, b) => (counts[b] as number) - (counts[a] as number) || a - b)
    .slice(0, MAX_CLASS_PANELS)
    .sort((a, b) => a - b);
}

/** Every chart the data allows, rendered, in the report's order (internal; see createReport). */
export async function reportCharts(ctx: ChartContext): Promise<ReportChart[]> {
  const { fn, prepared, summarized, binning, notes, step, at } = ctx;
  const charts: ReportChart[] = [];
  const tables = (measure: 'reliability' | 'uncertainty') =>
    summarized.map((x) => ({ name: x.name, data: x.summary[measure] }));
  const series = <T>(
    compute: (x: Prepared) => T,
    skip?: (x: Prepared, error: UMError) => string | undefined,
  ): Named<T>[] =>
    prepared.flatMap((x) => {
      try {
        return [{ name: x.name, data: compute(x) }];
      } catch (error) {
        const why = error instanceof UMError ? skip?.(x, error) : undefined;
        if (why === undefined) throw relabel(fn, error, `model ${JSON.stringify(x.name)}`);
        notes.push(why);
        return [];
      }
    });
  const add = async (id: string, title: string, howToRead: string, spec: VegaLiteSpec | undefined) => {
    if (spec !== undefined) charts.push({ id, title, howToRead, spec, svg: ctx.svg ? await renderSvg(spec) : '' });
    step(title);
  };
  const drawn = (spec: VegaLiteSpec) => (spec.usermeta as { drawn: unknown }).drawn;
  const oneClass = (x: Prepared, e: UMError) =>
    e.code === 'UM_SINGLE_CLASS'
      ? `${x.name}: left out of the ROC and precision–recall charts (${e.message.replace(/^\w+: /, '')})`
      : undefined;
  const withRows = <T>(chart: (s: Named<T>[]) => VegaLiteSpec, items: Named<T>[]) =>
    items.length === 0 ? undefined : chart(items);
  // relplot's curve: of P(y = 1) beside the positive-class diagram for two classes, else of the confidence
  const binary = ctx.numClasses === 2 && prepared.length > 0;
  const addSmooth = async () => {
    const target = binary ? 'positive-class' : 'top-label';
    const smooth = series((x) =>
      smoothReliability(x.labels, x.p, { target, resamples: ctx.bandResamples, seed: ctx.seed }),
    );
    await add(
      'smooth',
      `Smooth reliability diagram (${binary ? 'positive class, ' : ''}smECE)`,
      howSmooth(smooth.length, ctx.bandResamples, binary),
      withRows(smoothReliabilityChart, smooth),
    );
  };
  // two classes (--binary among them): first the positive-class diagram every scikit-learn user knows
  if (binary) {
    ctx.grow();
    const positive = series((x) =>
      binaryReliability(
        Array.from(x.labels, Number),
        Array.from({ length: x.p.n }, (_, i) => x.p.data[2 * i + 1] as number),
        { ...binning, interval: 'wilson' },
      ),
    );
    const spec = reliabilityDiagram(positive);
    await add(
      'positive-class',
      'Reliability diagram (positive class, P(y = 1))',
      howReliability(drawn(spec), 'probability'),
      spec,
    );
    await addSmooth();
  }
  const confidence = [...series((x) => ctx.confidence.get(x) as ReliabilityTable), ...tables('reliability')];
  const confidenceSpec = reliabilityDiagram(confidence);
  await add(
    'reliability',
    'Reliability diagram (confidence)',
    howReliability(drawn(confidenceSpec), 'confidence'),
    confidenceSpec,
  );
  const equalMass = series((x) =>
    reliability(x.labels, x.p, { ...binning, binning: 'equal-mass', interval: 'wilson' }),
  );
  await add(
    'reliability-equal-mass',
    'Reliability diagram (confidence, equal-mass bins)',
    howEqualMass(equalMass.length),
    withRows(reliabilityDiagram, equalMass),
  );
  if (!binary) await addSmooth();
  await add('histogram', 'Confidence histogram', howHistogram(confidence.length), confidenceHistogram(confidence));
  const first = prepared[0];
  // two classes: the positive-class diagram is the class-wise one (class 0's panel is its mirror image)
  if (first !== undefined && ctx.numClasses !== undefined && ctx.numClasses > 2) {
    const classes = panelClasses(first.labels, ctx.numClasses);
    const items = series((x) => classwiseReliability(x.labels, x.p, { ...binning, interval: 'wilson', classes }));
    const names = classes.map((k) => ctx.classNames?.[k] ?? `class ${k}`);
    await add(
      'classwise',
      'Class-wise reliability diagrams',
      howClasswise(items.length, names, ctx.numClasses),
      classwiseReliabilityChart(items, {
        width: 200,
        height: 200,
        ...(ctx.classNames === null ? {} : { classNames: ctx.classNames }),
      }),
    );
  } else step('Class-wise reliability diagrams');
  const uncertaintySpec = reliabilityDiagram([
    ...series((x) => reliability(x.labels, x.p, { ...binning, measure: 'uncertainty', interval: 'wilson' })),
    ...tables('uncertainty'),
  ]);
  await add(
    'uncertainty',
    'Reliability diagram (uncertainty)',
    howReliability(drawn(uncertaintySpec), 'uncertainty'),
    uncertaintySpec,
  );
  await add(
    'risk-coverage',
    'Risk–coverage curve',
    HOW.riskCoverage,
    withRows(
      riskCoverageChart,
      series((x) => riskCoverageCurve(x.labels, x.p)),
    ),
  );
  await add(
    'rejection',
    'Rejection curve',
    HOW.rejection,
    withRows(
      rejectionChart,
      series((x) => rejectionCurve(x.labels, x.p)),
    ),
  );
  await add(
    'roc',
    'ROC curve of correctness',
    HOW.roc,
    withRows(
      rocChart,
      series((x) => rocCurve(x.labels, x.p), oneClass),
    ),
  );
  await add(
    'pr',
    'Precision–recall curve of errors',
    HOW.pr,
    withRows(
      precisionRecallChart,
      series((x) => precisionRecallCurve(x.labels, x.p), oneClass),
    ),
  );
  await add(
    'bins',
    'Calibration error vs number of bins',
    HOW.bins,
    withRows(
      binSweepChart,
      series((x) => binSweep(x.labels, x.p, binning.preset === undefined ? {} : { preset: binning.preset })),
    ),
  );
  const finite = prepared.filter((x) => {
    const ok = Number.isFinite(nll(x.labels, x.p, { onWarning: () => undefined }));
    if (!ok)
      notes.push(
        `${x.name}: left out of the temperature chart (a label has probability exactly 0, so the NLL is infinite at every temperature)`,
      );
    return ok;
  });
  await add(
    'temperature',
    'Metrics vs temperature',
    HOW.temperature,
    finite.length === 0
      ? undefined
      : temperatureChart(finite.map((x) => ({ name: x.name, data: temperatureSweep(x.labels, x.p) }))),
  );
  if (ctx.hasOod) {
    const items = prepared.flatMap((x) => {
      const o = x.model.ood;
      if (o === undefined) return [];
      const out = at(x, () => toProbabilities(o.scores, o.options ?? {}));
      const batch = Math.min(100, x.p.n, out.n);
      return [
        {
          name: x.name,
          data: at(x, () => oodCurve(x.p as OodInput, out as OodInput, { batchSize: batch, repeats: 10, seed: 0 })),
        },
      ];
    });
    await add('ood', 'Out-of-distribution detection', HOW.ood, items.length === 0 ? undefined : oodChart(items));
  }
  return charts;
}
