import type { ArgsDef } from 'citty';
import { bootstrap, type BootstrapInterval } from '../../bootstrap/bootstrap.js';
import { UMError } from '../../errors/UMError.js';
import { evaluate } from '../../evaluate/evaluate.js';
import { METRICS } from '../../evaluate/metricInfo.js';
import { applyLlmCalibrator, fitLlmCalibrator, type LlmCalibratorParams } from '../../llm/calibrator.js';
import type { LabelProbabilities } from '../../llm/labelProbabilities.js';
import type { PresetName } from '../../presets/presets.js';
import type { ReportModel } from '../../report/createReport.js';
import type { UMWarning } from '../../warnings/warnings.js';
import type { CommandContext } from '../guard.js';
import { printWarnings } from '../guard.js';
import { parseIntegerFlag, parseNumberFlag, type Io } from '../io.js';
import {
  asData,
  goldOf,
  llmSummary,
  located,
  readLlm,
  readLlmCalibratorFile,
  readRecords,
  type LlmInput,
} from '../llmInput.js';
import { prepareOutput, writeOutput, type Output } from '../output.js';
import { describeCalibrator } from './calibrate.js';
import { ciOptions, renderEvaluation, toJson } from './metrics.js';

/** `um calibrate fit` flags of LLM responses only. */
export const llmFitArgs = {
  'allow-mixed': {
    type: 'boolean',
    description:
      'LLM responses: fit across rows of different provenance (log-probabilities, verbal, sampled), which is refused by default',
  },
} satisfies ArgsDef;

/** Flags that read or shape the responses: an LLM calibrator holds its own reading. */
const READING_FLAGS = ['labels', 'verbalizer', 'response-format', 'missing', 'provenance', 'position', 'pseudocount'];

function usage(command: string, flag: string, message: string): UMError {
  return new UMError('UM_OPTION', `${command}: ${message}`, { fn: command, argument: flag });
}

/** Reads the responses of FILE — with the stored reading of an LLM calibrator when `--calibration` gives one. */
async function readWith(
  command: string,
  args: Record<string, unknown>,
  file: string,
  calibrator: LlmCalibratorParams | null,
  requireGold: boolean,
): Promise<LlmInput> {
  if (calibrator === null) return readLlm(command, args, file, requireGold);
  for (const f of READING_FLAGS)
    if (args[f] !== undefined)
      throw usage(command, `--${f}`, `--${f}: the LLM calibrator reads responses as at fitting; leave the flag out`);
  const records = await readRecords(command, args, file);
  let read: LabelProbabilities;
  try {
    read = applyLlmCalibrator(calibrator, records.responses, {
      ...(args['on-invalid'] === undefined ? {} : { onInvalid: args['on-invalid'] as 'error' | 'exclude' }),
    });
  } catch (error) {
    throw located(command, records, error);
  }
  const labels = goldOf(command, records, read, requireGold);
  return { records, read, labels, data: asData(records, read, labels) };
}

/** `um metrics` on LLM responses: the evaluate suite on the label probabilities, and what the reading left out. */
export async function llmMetrics(
  command: string,
  args: Record<string, unknown>,
  io: Io,
  context: CommandContext,
  bins: number | undefined,
): Promise<void> {
  for (const f of ['stream', 'bounded', 'exact', 'threads', 'chunk-rows', 'passes', 'memory'])
    if (args[f] !== undefined && args[f] !== false)
      throw usage(command, `--${f}`, `--${f}: LLM responses are read in memory`);
  let calibrator: LlmCalibratorParams | null = null;
  if (typeof args.calibration === 'string') {
    calibrator = await readLlmCalibratorFile(command, args.calibration);
    if (calibrator === null)
      throw usage(
        command,
        '--calibration',
        `--calibration ${args.calibration}: LLM responses take an LLM calibrator (um calibrate fit on responses stores how they are read)`,
      );
  }
  const input = await readWith(command, args, String(args.file), calibrator, true);
  context.data = input.data;
  const warnings: UMWarning[] = [];
  const common: { bins?: number; preset?: PresetName; classwise?: boolean; onWarning: (w: UMWarning) => void } = {
    onWarning: (w) => warnings.push(w),
  };
  if (bins !== undefined) common.bins = bins;
  if (args.classwise === false) common.classwise = false;
  if (typeof args.preset === 'string') common.preset = args.preset as PresetName;
  const result = evaluate(input.labels, input.read.probs, common);
  const ci = ciOptions(command, args);
  let intervals: Record<string, BootstrapInterval> | undefined;
  if (ci !== undefined) {
    const r = bootstrap(
      input.read.n,
      (w) => evaluate(input.labels, input.read.probs, { ...common, onWarning: () => {}, weights: w }) as never,
      ci,
    );
    intervals = Object.fromEntries(
      Object.entries(r.intervals as Record<string, BootstrapInterval>).filter(([k]) => k in METRICS),
    );
  }
  printWarnings(io, command, warnings);
  const summary = llmSummary(input.records, input.read);
  const calibration =
    calibrator === null ? undefined : { file: String(args.calibration), kind: calibrator.calibrator.kind };
  if (args.json === true) {
    const { config, ...values } = result;
    io.stdout(
      `${toJson({
        ...values,
        warnings: warnings.map((w) => ({ code: w.code, fn: w.fn, message: w.message })),
        config: {
          ...config,
          file: input.records.path,
          format: 'jsonl',
          classes: input.read.labels,
          ...(calibration === undefined ? {} : { calibration }),
        },
        llm: summary.json,
        ...(intervals === undefined ? {} : { intervals }),
      })}\n`,
    );
  } else
    io.stdout(`${renderEvaluation(result, input.data, calibration?.file, intervals)}\n\n${summary.lines.join('\n')}\n`);
}

/** A model of `um report` from LLM responses, and the note on what the reading left out. */
export async function llmReportModel(
  command: string,
  args: Record<string, unknown>,
  file: string,
  name: string,
  context: CommandContext,
): Promise<{ model: ReportModel; note: string }> {
  const input = await readLlm(command, args, file, true);
  context.data = input.data;
  return {
    model: { name, source: file, labels: input.labels, scores: input.read.probs, classes: input.read.labels },
    note: `${name}: ${llmSummary(input.records, input.read).lines.join('; ')}.`,
  };
}

const METHODS = { temperature: 'temperature', histogram: 'histogram', isotonic: 'isotonic' } as const;

/** `um calibrate fit` on LLM responses: an LLM calibrator storing the reading, written to `out`. */
export async function llmFit(
  command: string,
  args: Record<string, unknown>,
  io: Io,
  context: CommandContext,
  out: Output,
): Promise<void> {
  const method = METHODS[args.method as keyof typeof METHODS] as (typeof METHODS)[keyof typeof METHODS] | undefined;
  if (method === undefined)
    throw usage(
      command,
      '--method',
      `--method ${String(args.method)}: LLM responses take temperature, histogram or isotonic`,
    );
  const flags: Record<string, string> = { bounds: 'temperature', bins: 'histogram', binning: 'histogram' };
  for (const f of ['objective', 'score', 'top', 'delta'])
    if (args[f] !== undefined) throw usage(command, `--${f}`, `--${f} does not apply to --method ${method}`);
  for (const [f, m] of Object.entries(flags))
    if (args[f] !== undefined && m !== method)
      throw usage(command, `--${f}`, `--${f} does not apply to --method ${method}`);
  const input = await readLlm(command, args, String(args.file), true);
  context.data = input.data;
  const warnings: UMWarning[] = [];
  const bins = parseIntegerFlag(command, '--bins', args.bins);
  let bounds: [number, number] | undefined;
  if (typeof args.bounds === 'string') {
    const parts = args.bounds.split(',');
    if (parts.length !== 2)
      throw usage(command, '--bounds', `--bounds must be MIN,MAX; got ${JSON.stringify(args.bounds)}`);
    bounds = [
      parseNumberFlag(command, '--bounds', parts[0]) as number,
      parseNumberFlag(command, '--bounds', parts[1]) as number,
    ];
  }
  let params: LlmCalibratorParams;
  try {
    params = fitLlmCalibrator(input.records.gold, input.read, {
      method,
      onWarning: (w) => warnings.push(w),
      ...(args['allow-mixed'] === true ? { allowMixed: true } : {}),
      ...(bins === undefined ? {} : { bins }),
      ...(args.binning === undefined ? {} : { binning: args.binning as 'equal-width' | 'equal-mass' }),
      ...(bounds === undefined ? {} : { bounds }),
    });
  } catch (error) {
    const e = located(command, input.records, error);
    throw e instanceof UMError
      ? new UMError(e.code, e.message.replace(/allowMixed: true/, '--allow-mixed'), e.details)
      : e;
  }
  await writeOutput(command, out, [`${JSON.stringify(params, null, 2)}\n`], 'the fitted calibrator was not saved');
  printWarnings(io, command, warnings);
  const r = params.reading;
  io.stdout(
    `LLM calibrator: labels ${r.verbalizer.labels.join(', ')}; ${params.provenance} rows; missing labels: ${r.missing}; format ${r.format}; answer position ${r.position}\n` +
      `${describeCalibrator(params.calibrator, input.read.labels)}\n${llmSummary(input.records, input.read).lines.join('\n')}\nwritten to ${out.path}\n`,
  );
}

/** `um calibrate apply` with an LLM calibrator: one JSON line per response — its calibrated probabilities, or why none. */
export async function llmApply(
  command: string,
  args: Record<string, unknown>,
  io: Io,
  context: CommandContext,
  calibrator: LlmCalibratorParams,
): Promise<void> {
  const file = String(args.file);
  const output = typeof args.output === 'string' && args.output !== '-' ? args.output : undefined;
  const out =
    output === undefined
      ? undefined
      : await prepareOutput(command, '--output', output, [args.calibrator, file, args.gold]);
  const input = await readWith(command, args, file, calibrator, false);
  context.data = input.data;
  const { records, read } = input;
  const byRow = new Map<number, string>();
  read.rows.forEach((i, j) => {
    const probs = Object.fromEntries(
      read.labels.map((l, k) => [l, read.probs.data[j * read.numClasses + k] as number]),
    );
    const best = read.labels.reduce((a, l) => ((probs[l] as number) > (probs[a] as number) ? l : a));
    byRow.set(i, JSON.stringify({ id: records.ids[i], label: best, probs }));
  });
  for (const e of read.excluded)
    byRow.set(e.row, JSON.stringify({ id: records.ids[e.row], excluded: e.reason, field: e.field }));
  const lines = records.responses.map((_r, i) => `${byRow.get(i) as string}\n`);
  if (out === undefined) for (const l of lines) io.stdout(l);
  else {
    await writeOutput(command, out, lines);
    io.stdout(
      `${read.n} calibrated predictions${read.excluded.length === 0 ? '' : ` and ${read.excluded.length} excluded rows`} written to ${out.path}\n`,
    );
  }
}
