import { basename, extname } from 'node:path';
import { SingleBar } from 'cli-progress';
import { defineCommand, type ArgsDef } from 'citty';
import { UMError } from '../../errors/UMError.js';
import { toEnsemble } from '../../ensemble/toEnsemble.js';
import { labelArray } from '../../input/labelArray.js';
import { toProbabilities } from '../../input/toProbabilities.js';
import { readPredictions } from '../../io/readPredictions.js';
import type { PredictionData } from '../../io/types.js';
import type { PresetName } from '../../presets/presets.js';
import { createReport, type ReportModel } from '../../report/createReport.js';
import { reportHtml } from '../../report/reportHtml.js';
import { reportJson } from '../../report/reportJson.js';
import { reportMarkdown } from '../../report/reportMarkdown.js';
import { presets } from '../../presets/presets.js';
import { guard, printWarnings } from '../guard.js';
import { checkReadFlags, inputArgs, inputOptions, readOptionsFor } from '../inputFlags.js';
import { parseIntegerFlag, type Io } from '../io.js';
import { prepareOutput, writeOutput } from '../output.js';
import { shouldStream } from './metrics.js';
import { evaluateSpec, streamStates } from '../streamStates.js';
import type { MetricState } from '../../state/createState.js';
import type { Evaluation } from '../../evaluate/evaluate.js';
import type { ReliabilityTable } from '../../calibration/reliability.js';
import { isLlmInput, llmArgs, refuseLlmFlags } from '../llmInput.js';
import { llmReportModel } from './llm.js';

export const reportArgs = {
  files: {
    type: 'positional',
    description: 'one prediction file per model (.csv, .json, .jsonl, .parquet, .npy)',
    required: true,
  },
  output: {
    type: 'string',
    alias: 'o',
    description: 'file to write (default report.html, report.json or report.md; - for stdout)',
    valueHint: 'FILE',
  },
  json: { type: 'boolean', description: 'write JSON (every number and each chart’s Vega-Lite spec) instead of HTML' },
  md: { type: 'boolean', description: 'write Markdown (metrics table and configuration) instead of HTML' },
  title: { type: 'string', description: 'title of the report', valueHint: 'TEXT' },
  bins: {
    type: 'string',
    description: 'number of bins of the binned metrics and diagrams (default 15)',
    valueHint: 'N',
  },
  preset: {
    type: 'string',
    description: `binning conventions of a peer library: ${Object.keys(presets).join(', ')}`,
    valueHint: 'NAME',
  },
  ood: {
    type: 'string',
    description: 'out-of-distribution predictions of a model, one --ood per FILE in order (adds the OoD chart)',
    valueHint: 'FILE',
  },
  resamples: {
    type: 'string',
    description:
      "bootstrap resamples of the table's intervals and the comparisons (default 200 and 1000, as um compare), and of the smooth diagram's band when fewer than 100",
    valueHint: 'N',
  },
  seed: { type: 'string', description: 'bootstrap seed (default 0)', valueHint: 'N' },
  timestamp: { type: 'boolean', description: 'print the time of the run (off by default: same input, same report)' },
  stream: {
    type: 'boolean',
    description:
      'reduce each file to mergeable states batch by batch (automatic when reading it whole would exceed --memory; the numbers equal the in-memory ones): metrics and reliability diagrams; --no-stream keeps every chart',
  },
  memory: {
    type: 'string',
    description: "memory budget of reading a file whole, in MiB (default: a quarter of the machine's memory)",
    valueHint: 'MiB',
  },
  threads: { type: 'string', description: 'with --stream: worker threads (default: every core)', valueHint: 'N' },
  'chunk-rows': { type: 'string', description: 'with --stream: rows per chunk (default 1048576)', valueHint: 'N' },
  passes: {
    type: 'string',
    description: 'with --stream: 2 reads the file twice (bounded memory), 1 once (default: as um metrics)',
    valueHint: '1|2',
  },
  ...inputArgs,
  ...llmArgs,
} satisfies ArgsDef;

/** Model names from file names: the base name without extension, made unique with a number (internal). */
export function modelNames(paths: readonly string[]): string[] {
  const base = paths.map((p) => basename(p, extname(p)));
  return base.map((b, i) =>
    base.indexOf(b) === base.lastIndexOf(b) ? b : `${b} (${base.slice(0, i + 1).filter((x) => x === b).length})`,
  );
}

function asList(v: unknown): string[] {
  if (v === undefined) return [];
  return Array.isArray(v) ? v.map(String) : [String(v)];
}

/** Runs `um report`; returns the exit code. */
export function runReport(args: Record<string, unknown>, io: Io): Promise<number> {
  const command = 'um report';
  return guard(command, io, async (context) => {
    const files = asList(args._ ?? args.files);
    if (args.json === true && args.md === true)
      throw new UMError('UM_OPTION', `${command}: give --json or --md, not both`, { fn: command, argument: '--json' });
    const oodFiles = asList(args.ood);
    if (oodFiles.length > files.length)
      throw new UMError(
        'UM_OPTION',
        `${command}: ${oodFiles.length} --ood files for ${files.length} model files; give at most one per model, in order`,
        { fn: command, argument: '--ood' },
      );
    const bins = parseIntegerFlag(command, '--bins', args.bins);
    const resamples = parseIntegerFlag(command, '--resamples', args.resamples);
    const seed = parseIntegerFlag(command, '--seed', args.seed);
    const format = args.json === true ? 'json' : args.md === true ? 'md' : 'html';
    const output = typeof args.output === 'string' ? args.output : `report.${format}`;
    // checked before any work: a report is never computed only to be lost, nor written over an input
    const out =
      output === '-' ? undefined : await prepareOutput(command, '--output', output, [files, oodFiles, args.labels]);
    const names = modelNames(files);
    const progress =
      io.progress === true
        ? new SingleBar({
            format: 'um report [{bar}] {value}/{total} {step}',
            // through io, like every other byte the command writes (an embedder's or a test's stderr gets the bar too);
            // cli-progress needs only write, isTTY and columns of its stream (its cursor moves are escape codes)
            stream: {
              isTTY: true,
              columns: io.columns ?? 80,
              write: (text: string) => {
                io.stderr(text);
                return true;
              },
            } as unknown as NodeJS.WriteStream,
            hideCursor: true,
            clearOnComplete: true,
          })
        : undefined;
    const models: ReportModel[] = [];
    const llmNotes: string[] = [];
    const llm = await Promise.all(files.map((file) => isLlmInput(args, file)));
    // the reading flags of the prediction files (and --ood's); with LLM responses, --labels is their label set
    const predictionFiles = [...files.filter((_, j) => llm[j] !== true), ...oodFiles];
    if (predictionFiles.length > 0)
      checkReadFlags(command, llm.includes(true) ? { ...args, labels: undefined } : args, predictionFiles);
    for (const [j, file] of files.entries()) {
      if (llm[j] === true) {
        // LLM responses: their label probabilities are the model; what the reading left out becomes a note
        if (oodFiles[j] !== undefined)
          throw new UMError('UM_OPTION', `${command}: --ood is not read for LLM responses (${file})`, {
            fn: command,
            argument: '--ood',
          });
        const m = await llmReportModel(command, args, file, names[j] as string, context);
        models.push(m.model);
        llmNotes.push(m.note);
        continue;
      }
      if (await shouldStream(command, { ...args, file })) {
        if (oodFiles[j] !== undefined)
          throw new UMError('UM_OPTION', `${command}: --ood needs ${file} in memory; give --no-stream`, {
            fn: command,
            argument: '--ood',
          });
        const binning: Record<string, unknown> = {};
        if (bins !== undefined) binning.bins = bins;
        if (typeof args.preset === 'string') binning.preset = args.preset;
        const streamed = await streamStates(
          command,
          file,
          args,
          {
            evaluate: evaluateSpec(args, bins, 'exact'),
            // with the per-bin intervals the diagrams and the summary read
            reliability: { metric: 'reliability', options: { ...binning, interval: 'wilson' } },
            uncertainty: { metric: 'reliability', options: { ...binning, measure: 'uncertainty', interval: 'wilson' } },
          },
          context,
        );
        const st = streamed.states;
        const summary = {
          evaluation: (st.evaluate as MetricState).result() as Evaluation,
          reliability: (st.reliability as MetricState).result() as ReliabilityTable,
          uncertainty: (st.uncertainty as MetricState).result() as ReliabilityTable,
        };
        printWarnings(io, command, streamed.warnings());
        const classes = streamed.source.classes;
        models.push({ name: names[j] as string, source: file, summary, ...(classes === undefined ? {} : { classes }) });
        continue;
      }
      const data: PredictionData = await readPredictions(file, readOptionsFor(args, file));
      context.data = data;
      const options = inputOptions(command, data, args);
      const ood =
        oodFiles[j] === undefined
          ? undefined
          : await readPredictions(oodFiles[j] as string, {
              ...readOptionsFor(args, oodFiles[j] as string),
              requireLabels: false,
            });
      if (ood !== undefined && ood.scores === undefined)
        throw new UMError(
          'UM_OPTION',
          `${command}: ${ood.path}: OoD predictions must be one model's scores, not members`,
          { fn: command, argument: '--ood' },
        );
      const { numMembers: _s, ...single } = options;
      // validate here, while errors can still point into this file
      const members =
        data.members === undefined
          ? undefined
          : toEnsemble(data.members, {
              ...(single.sumTolerance === undefined ? {} : { sumTolerance: single.sumTolerance }),
              input: data.input,
              numClasses: data.numClasses,
              numMembers: data.numMembers as number,
            });
      const scores = members === undefined ? toProbabilities(data.scores as Float64Array, single) : undefined;
      labelArray(command, data.labels, data.n, (members ?? scores)?.numClasses ?? data.numClasses);
      const body = members === undefined ? { scores: scores as NonNullable<typeof scores> } : { members };
      models.push({
        name: names[j] as string,
        source: file,
        labels: data.labels,
        ...body,
        ...(data.classes === undefined ? {} : { classes: data.classes }),
        ...(ood === undefined
          ? {}
          : { ood: { scores: ood.scores as Float64Array, options: { ...single, numClasses: ood.numClasses } } }),
      });
    }
    if (llmNotes.length === 0) refuseLlmFlags(command, args);
    context.data = undefined;
    progress?.start(1, 0, { step: '' });
    const report = await createReport(models, {
      ...(typeof args.title === 'string' ? { title: args.title } : {}),
      ...(bins === undefined ? {} : { bins }),
      ...(resamples === undefined ? {} : { resamples }),
      ...(seed === undefined ? {} : { seed }),
      ...(typeof args.preset === 'string' ? { preset: args.preset as PresetName } : {}),
      ...(args.timestamp === true ? { timestamp: new Date().toISOString() } : {}),
      // JSON and Markdown do not contain the SVG: rendering it was a tenth of the report's time, and loaded Vega
      svg: format === 'html',
      onProgress: (done, total, step) => {
        progress?.setTotal(total);
        progress?.update(done, { step });
      },
    });
    progress?.stop();
    report.notes.push(...llmNotes);
    const text = format === 'json' ? reportJson(report) : format === 'md' ? reportMarkdown(report) : reportHtml(report);
    // written once, after everything succeeded, and atomically: a failing run leaves no partial report
    if (out === undefined) io.stdout(text);
    else {
      await writeOutput(command, out, [text]);
      io.stdout(
        `${output}: ${report.models.length} model${report.models.length === 1 ? '' : 's'}, ${report.charts.length} charts${report.notes.length === 0 ? '' : `, ${report.notes.length} notes`}\n`,
      );
    }
  });
}

export const reportCommand = defineCommand({
  meta: {
    name: 'report',
    description: 'One self-contained HTML report (or --json, --md) of metrics and charts for one or more models',
  },
  args: reportArgs,
});
