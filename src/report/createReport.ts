import { reliability, type ReliabilityTable } from '../calibration/reliability.js';
import { mcIntegrate } from '../ensemble/mcIntegrate.js';
import { fail } from '../errors/fail.js';
import { within, withinAsync } from '../errors/within.js';
import { evaluate, type Evaluation } from '../evaluate/evaluate.js';
import { evaluateEnsemble } from '../evaluate/evaluateEnsemble.js';
import { toProbabilities } from '../input/toProbabilities.js';
import type { EnsembleOptions, EnsembleScores, InputOptions, Labels, ProbMatrix, Scores } from '../input/types.js';
import type { VegaLiteSpec } from '../plot/types.js';
import type { PresetName } from '../presets/presets.js';
import { VERSION } from '../version.js';
import { checkReportInput } from './reportInput.js';
import { CHART_STEPS, reportCharts, SMOOTH_RESAMPLES, type Prepared, type Streamed } from './reportCharts.js';
import { warningSink, type ReportWarning } from './reportWarnings.js';
import { reportResampling, sameRows } from './resampling.js';
import { comparisonOf, modelSummary, type ReportComparison, type ReportIntervals } from './summary.js';
import type { PairedComparison } from '../bootstrap/comparePaired.js';

/** One model of a report: its predictions (one model's scores, or ensemble members) and where they came from. */
export interface ReportModel {
  /** Name shown in tables and legends. */
  readonly name: string;
  /** Where the predictions came from (a file path), shown with the configuration. */
  readonly source?: string;
  /** N labels (required with `scores` or `members`). */
  readonly labels?: Labels;
  /**
   * Instead of labels and scores: what a streamed file was reduced to (its `evaluate` result and the confidence and
   * uncertainty reliability tables, e.g. from merged states). Charts that need every row leave such a model out, with
   * a note.
   */
  readonly summary?: {
    readonly evaluation: Evaluation;
    readonly reliability: ReliabilityTable;
    readonly uncertainty: ReliabilityTable;
  };
  /** One model's scores [N, C] (declared by `options`). */
  readonly scores?: Scores;
  /** Ensemble members [S, N, C] instead of `scores`. */
  readonly members?: EnsembleScores;
  /** How the scores are declared. */
  readonly options?: InputOptions & EnsembleOptions;
  /** Names of the classes, class 0 first (e.g. from `readPredictions`' `classes`): shown with the class count. */
  readonly classes?: readonly string[];
  /** Predictions of the same model on out-of-distribution inputs (the OoD chart). */
  readonly ood?: { readonly scores: Scores; readonly options?: InputOptions };
}

/** Options of {@link createReport}. */
export interface ReportOptions {
  /** Title of the report (default "Uncertainty report"). */
  title?: string;
  /** Bins of the binned metrics and diagrams (default: the preset's). */
  bins?: number;
  /** Compatibility preset of every binned metric (default `'default'`). */
  preset?: PresetName;
  /** A timestamp to print (none by default, so the same input gives the same report). */
  timestamp?: string;
  /**
   * Bootstrap resamples of the metric table's intervals and of the comparisons (default: 200 for the table, 1000 for
   * the comparisons — `comparePaired`'s default, so `um compare` prints the same verdicts), and of the smooth diagram's
   * band when fewer than its 100.
   */
  resamples?: number;
  /** Seed of every bootstrap (default 0). */
  seed?: number;
  /** Called after each step with (done, total, label) — for a progress bar. */
  onProgress?: (done: number, total: number, label: string) => void;
  /**
   * Render each chart to SVG (default true). `false` leaves every chart's `svg` empty and never loads Vega: for
   * {@link reportJson} and {@link reportMarkdown}, which do not contain the SVG ({@link reportHtml} refuses such a
   * report).
   */
  svg?: boolean;
}

/** One chart of a report. */
export interface ReportChart {
  readonly id: string;
  readonly title: string;
  /** What the chart shows and how to read it. */
  readonly howToRead: string;
  readonly spec: VegaLiteSpec;
  /** The rendered chart ('' when the report was made with `svg: false`). */
  readonly svg: string;
}

/** One model's results in a report. */
export interface ReportModelResult {
  readonly name: string;
  readonly source: string | null;
  readonly n: number;
  readonly numClasses: number;
  /** The model's class names (`ReportModel.classes`), or null. */
  readonly classes: readonly string[] | null;
  readonly numMembers: number | null;
  readonly evaluation: Evaluation;
}

/** A complete report: every number, every chart (with its data) and the configuration behind them. */
export interface Report {
  readonly title: string;
  /** Library version that made it. */
  readonly version: string;
  readonly timestamp: string | null;
  readonly models: ReportModelResult[];
  readonly charts: ReportChart[];
  /** Things left out and why (e.g. a chart that needs both correct and wrong predictions). */
  readonly notes: string[];
  /** Warnings of the computations, each with its model and the metric rows and charts it concerns. */
  readonly warnings: ReportWarning[];
  /** What to read first: per model a few sentences; with several models, the comparisons with the first one. */
  readonly summary: {
    readonly models: { readonly name: string; readonly lines: string[] }[];
    readonly comparisons: ReportComparison[];
  };
  /** Bootstrap intervals of the metric table, with their settings. */
  readonly intervals: ReportIntervals;
}

/**
 * Builds an uncertainty report for one or more models: every metric of {@link evaluate} (or
 * {@link evaluateEnsemble}), and every chart the data allows, each rendered to SVG with its Vega-Lite specification
 * and a short explanation — the content of `um report`.
 *
 * **Formula.** See each metric and chart: reliability diagrams of confidence (equal-width and equal-mass bins, and
 * relplot's smooth curve with its band), Guo's confidence histogram, class-wise diagrams, the diagram of normalized
 * entropy, risk–coverage, rejection, ROC and precision–recall curves, calibration error vs number of bins, metrics
 * vs temperature, and the OoD curve when OoD predictions are given.
 *
 * **Conventions.**
 * - All models must predict the same number of classes (`UM_SHAPE` otherwise). Ensembles are evaluated on their mean
 *   prediction, which every chart draws.
 * - Charts that need both correct and wrong predictions (ROC, PR) leave out models that have only one kind, and say
 *   so in `notes`; the temperature chart leaves out models whose NLL is infinite.
 * - A summary first: per model accuracy, ECE and UCE with bootstrap intervals, the direction of miscalibration and
 *   the confidence bins whose gap exceeds their 95% Wilson interval, and the NLL-optimal temperature with the ECE it
 *   gives; with several models, each later model compared with the first by {@link uncertainty-metrics!comparePaired} (class-wise errors
 *   left out; 1000 resamples unless `resamples` is given), as sentences that say only what each interval supports —
 *   `um compare first other` prints the same ones.
 * - The table's intervals: row bootstrap of every metric (200 resamples unless `resamples` is given), BCa, and for
 *   the binned calibration errors the conservative union interval (as {@link uncertainty-metrics!comparePaired}), clipped at 0.
 * - The smooth diagram's band: 100 bootstrap resamples, or `resamples` when fewer (seed `seed`). Class-wise panels: every class up to 20, else
 *   the 20 most frequent labels (the text names them); none for two classes, whose positive-class diagram comes first.
 * - `warnings`: each with its model and the metric rows and charts it concerns (an infinite NLL: the NLL row and the
 *   temperature chart; undefined AUROC/AUPR: their rows and curves), so a renderer can show it there and at the top.
 * - `svg: false` computes every chart's specification and text but renders none (`svg` is ''): JSON and Markdown
 *   output do not contain the SVG, and Vega is then not needed.
 * - Deterministic: no timestamp unless given; seeded random draws (bootstrap seed `seed`, default 0; OoD batches,
 *   seed 0).
 * - A model given as a `summary` (a streamed file reduced to states) appears in the metrics table and the reliability
 *   diagrams; the charts that need every row leave it out and `notes` says so.
 *
 * **References.** See each metric and chart.
 *
 * @param models one or more {@link ReportModel}.
 * @param options `title`, `bins`, `preset`, `resamples`, `seed`, `timestamp`, `onProgress`, `svg`.
 * @returns the {@link Report}.
 * @throws {UMError} on invalid input (located as by each metric), models with different numbers of classes, or
 *   `classes` that are not one name per class.
 * @example
 * ```js
 * import { createReport } from 'uncertainty-metrics/report';
 * const r = await createReport([{ name: 'a', labels: [0, 1, 1, 0], scores: [[0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [0.7, 0.3]] }]);
 * [r.models[0].evaluation.accuracy, r.charts.map((c) => c.id).slice(0, 2)]; // => [0.75, ['positive-class', 'smooth']]
 * ```
 */
export async function createReport(models: readonly ReportModel[], options: ReportOptions = {}): Promise<Report> {
  return made(models, options, true);
}

/**
 * {@link createReport}'s report without its charts (internal): the same checks, evaluations, intervals, summary and
 * comparisons, with `charts` empty and no chart's notes — for the tests whose subject is the summary and the intervals
 * (computing the charts' data is most of a report's work when nothing is drawn).
 */
export function reportWithoutCharts(
  models: readonly ReportModel[],
  options: Omit<ReportOptions, 'svg' | 'onProgress'> = {},
): Promise<Report> {
  return made(models, options, false);
}

async function made(models: readonly ReportModel[], options: ReportOptions, drawCharts: boolean): Promise<Report> {
  const fn = 'createReport';
  checkReportInput(fn, models, options);
  // errors of the metrics and charts computed for a model name the model (`createReport: model "b": labels[3] …`)
  return withinAsync(fn, () => build(fn, models, options, drawCharts));
}

async function build(
  fn: string,
  models: readonly ReportModel[],
  options: ReportOptions,
  drawCharts: boolean,
): Promise<Report> {
  const at = <T>(m: { name: string }, call: () => T): T => within(fn, call, `model ${JSON.stringify(m.name)}`);
  const hasOod = models.some((m) => m.ood !== undefined);
  let total = 2 * models.length + Math.max(0, models.length - 1) + CHART_STEPS + (hasOod ? 1 : 0);
  let done = 0;
  const step = (label: string) => options.onProgress?.(++done, total, label);
  const warnings: ReportWarning[] = [];
  const binning = {
    ...(options.bins === undefined ? {} : { bins: options.bins }),
    ...(options.preset === undefined ? {} : { preset: options.preset }),
  };
  const prepared: Prepared[] = [];
  const summarized: Streamed[] = [];
  const results: ReportModelResult[] = [];
  let classes: { name: string; numClasses: number } | undefined;
  for (const [j, m] of models.entries()) {
    // each model's warnings say whose they are and which rows and charts they concern
    const onWarning = warningSink(warnings, m.name);
    let evaluation: Evaluation;
    let p: ProbMatrix | undefined;
    let numMembers: number | null = null;
    if (m.summary !== undefined) {
      evaluation = m.summary.evaluation;
    } else if (m.members !== undefined) {
      const members = m.members;
      const e = at(m, () =>
        evaluateEnsemble(m.labels as Labels, members, { ...(m.options ?? {}), ...binning, onWarning }),
      );
      evaluation = e;
      numMembers = e.numMembers;
      p = at(m, () => mcIntegrate(members, m.options ?? {}));
    } else {
      const scores = m.scores;
      if (scores === undefined)
        fail('UM_OPTION', fn, 'models', 'have scores, members or a summary', { index: [j], value: m.name });
      if (m.options !== undefined && (m.options === null || typeof m.options !== 'object'))
        fail('UM_OPTION', fn, `models[${j}].options`, 'be an object', { value: m.options });
      const { numMembers: _s, ...input } = m.options ?? {};
      const q = at(m, () => toProbabilities(scores, input));
      p = q;
      evaluation = at(m, () => evaluate(m.labels as Labels, q, { ...binning, onWarning }));
    }
    if (classes !== undefined && evaluation.numClasses !== classes.numClasses) {
      fail(
        'UM_SHAPE',
        fn,
        'models',
        `predict the same classes: ${classes.name} has ${classes.numClasses}, ${m.name} has ${evaluation.numClasses}`,
        { index: [j], value: evaluation.numClasses },
      );
    }
    classes ??= { name: m.name, numClasses: evaluation.numClasses };
    if (
      m.classes !== undefined &&
      (!Array.isArray(m.classes) ||
        m.classes.length !== evaluation.numClasses ||
        m.classes.some((c) => typeof c !== 'string'))
    ) {
      fail(
        'UM_OPTION',
        fn,
        `models[${j}].classes`,
        `be ${evaluation.numClasses} class names (strings), class 0 first`,
        {
          value: m.classes,
        },
      );
    }
    const result = {
      name: m.name,
      source: m.source ?? null,
      n: evaluation.n,
      numClasses: evaluation.numClasses,
      classes: m.classes === undefined ? null : [...m.classes],
      numMembers,
      evaluation,
    };
    results.push(result);
    if (m.summary !== undefined || p === undefined)
      summarized.push({ name: m.name, result, summary: m.summary as NonNullable<ReportModel['summary']> });
    else prepared.push({ name: m.name, labels: m.labels as Labels, p, model: m, result });
    step(`evaluated ${m.name}`);
  }
  // the summary: per-bin Wilson intervals of the confidence diagram, bootstrap intervals of the table, comparisons
  const seed = options.seed ?? 0;
  const confidence = new Map(
    prepared.map((x) => [x, at(x, () => reliability(x.labels, x.p, { ...binning, interval: 'wilson' }))] as const),
  );
  const baseline = prepared.find((x) => x.result === results[0]);
  const notes: string[] = [];
  const compared = results.slice(1).flatMap((r) => {
    const x = prepared.find((q) => q.result === r);
    if (baseline !== undefined && x !== undefined && sameRows(baseline.labels, x.labels)) return [x];
    notes.push(
      `${r.name}: not compared with ${results[0]?.name ?? ''} (a paired comparison needs both in memory, on the same rows with the same labels)`,
    );
    return [];
  });
  // progress in the report's order — every model's intervals, then each comparison — as each completes
  const steps = [
    ...results.map((r) => ({ label: `intervals of ${r.name}`, done: false })),
    ...results.slice(1).map((r) => ({ label: `compared ${r.name}`, done: false })),
  ];
  let next = 0;
  const complete = (i: number) => {
    (steps[i] as { done: boolean }).done = true;
    while (steps[next]?.done === true) step((steps[next++] as { label: string }).label);
  };
  const tableStep = (r: ReportModelResult) => results.indexOf(r);
  const compareStep = (r: ReportModelResult) => results.length - 1 + results.indexOf(r);
  for (const r of results) if (!prepared.some((x) => x.result === r)) complete(tableStep(r));
  for (const r of results.slice(1)) if (!compared.some((x) => x.result === r)) complete(compareStep(r));
  const resampled = reportResampling({
    models: prepared,
    baseline,
    compared,
    binning,
    tableResamples: options.resamples ?? 200,
    compareResamples: options.resamples ?? 1000,
    seed,
    done: (what, x) => complete(what === 'table' ? tableStep(x.result) : compareStep(x.result)),
    at,
  });
  const summaries = results.map((r) => {
    const x = prepared.find((q) => q.result === r);
    const streamed = summarized.find((q) => q.result === r);
    const table = x === undefined ? null : (resampled.tables.get(x) ?? null);
    const input =
      x === undefined
        ? {
            name: r.name,
            evaluation: r.evaluation,
            reliability: (streamed as NonNullable<typeof streamed>).summary.reliability,
          }
        : {
            name: r.name,
            evaluation: r.evaluation,
            reliability: confidence.get(x) as ReliabilityTable,
            labels: x.labels,
            p: x.p,
          };
    return { name: r.name, lines: modelSummary(input, table, binning), table };
  });
  const comparisons: ReportComparison[] = compared.map((x) =>
    comparisonOf(resampled.comparisons.get(x) as PairedComparison, (baseline as Prepared).name, x.name),
  );
  notes.push(
    ...summarized.map(
      (x) =>
        `${x.name}: streamed (${x.result.n} rows in constant memory) — metrics and reliability diagrams only (with the confidence histogram); the intervals, comparisons, equal-mass, smooth and class-wise diagrams, curves, bin and temperature sweeps need every row (run without --stream)`,
    ),
  );
  const charts = !drawCharts
    ? []
    : await reportCharts({
        fn,
        prepared,
        summarized,
        binning,
        numClasses: classes?.numClasses,
        classNames: models[0]?.classes ?? null,
        confidence,
        seed,
        bandResamples: Math.min(SMOOTH_RESAMPLES, options.resamples ?? SMOOTH_RESAMPLES),
        svg: options.svg ?? true,
        hasOod,
        notes,
        step,
        grow: () => total++,
        at,
      });
  return {
    title: options.title ?? 'Uncertainty report',
    version: VERSION,
    timestamp: options.timestamp ?? null,
    models: results,
    charts,
    notes,
    warnings,
    summary: { models: summaries.map(({ name, lines }) => ({ name, lines })), comparisons },
    intervals: { resamples: options.resamples ?? 200, level: 0.95, seed, models: summaries.map((x) => x.table) },
  };
}
