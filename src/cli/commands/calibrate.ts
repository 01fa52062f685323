import { extname } from 'node:path';
import { defineCommand, type ArgsDef } from 'citty';
import { applyCalibrator } from '../../calibrate/applyCalibrator.js';
import { fitHistogramBinning } from '../../calibrate/fitHistogramBinning.js';
import { fitIsotonic } from '../../calibrate/fitIsotonic.js';
import { fitMcTemperature } from '../../calibrate/fitMcTemperature.js';
import { fitPlatt } from '../../calibrate/fitPlatt.js';
import { fitTemperature } from '../../calibrate/fitTemperature.js';
import { fitTopBinning } from '../../calibrate/fitTopBinning.js';
import type { CalibratorParams } from '../../calibrate/parseCalibrator.js';
import type { TopScore } from '../../calibrate/topScore.js';
import { UMError } from '../../errors/UMError.js';
import { openInput, readWhole } from '../../io/fileError.js';
import { calibratedColumns, calibratedTable, rewriteCsv, rewriteJsonl } from '../../io/writeCalibrated.js';
import { readCalibrator } from '../../io/readCalibrator.js';
import { readPredictions } from '../../io/readPredictions.js';
import type { PredictionData } from '../../io/types.js';
import type { UMWarning } from '../../warnings/warnings.js';
import { guard, printWarnings } from '../guard.js';
import { classCount, formatNumber, renderTable } from '../format.js';
import { checkReadFlags, inputArgs, inputOptions, readOptionsFor } from '../inputFlags.js';
import { parseIntegerFlag, parseNumberFlag, type Io } from '../io.js';
import { prepareOutput, writeOutput } from '../output.js';
import { isLlmInput, llmArgs, readLlmCalibratorFile, refuseLlmFlags } from '../llmInput.js';
import { llmApply, llmFit, llmFitArgs } from './llm.js';

/** `--method` names and the library function each wires to. */
const METHODS = ['temperature', 'mc-temperature', 'platt', 'histogram', 'isotonic', 'top1'] as const;
type Method = (typeof METHODS)[number];

/** Flags each method accepts beyond the input flags (others are rejected, never ignored). */
const METHOD_FLAGS: Record<Method, readonly string[]> = {
  temperature: ['bounds'],
  'mc-temperature': ['bounds', 'objective'],
  platt: [],
  histogram: ['bins', 'binning'],
  isotonic: [],
  top1: ['bins', 'score', 'top', 'delta', 'regularize'],
};

export const fitArgs = {
  method: { type: 'enum', options: [...METHODS], description: 'calibrator to fit', required: true },
  file: {
    type: 'positional',
    description: 'validation predictions, in any of the input formats below (members [S, N, C] for mc-temperature)',
    required: true,
  },
  output: {
    type: 'string',
    alias: 'o',
    description: 'calibrator file to write (JSON)',
    valueHint: 'FILE',
    required: true,
  },
  ...inputArgs,
  ...llmArgs,
  ...llmFitArgs,
  bounds: {
    type: 'string',
    description: 'temperature search interval T_min,T_max (default 0.001,1000)',
    valueHint: 'MIN,MAX',
  },
  objective: {
    type: 'enum',
    options: ['predictive', 'mean-nll'],
    description: 'mc-temperature objective (default predictive)',
  },
  bins: { type: 'string', description: 'histogram / top1: number of bins (default 15)', valueHint: 'N' },
  binning: {
    type: 'enum',
    options: ['equal-width', 'equal-mass'],
    description: 'histogram: bin construction (default equal-width)',
  },
  score: {
    type: 'enum',
    options: ['max-prob', 'margin', 'entropy', 'normalized-entropy', 'neg-log-max-prob', 'neg-log-top-k'],
    description: 'top1: uncertainty score to bin (default max-prob)',
  },
  top: { type: 'string', description: 'top1: k of the Top-k event (default 1)', valueHint: 'K' },
  delta: { type: 'string', description: 'top1: δ of the per-bin Hoeffding interval (default 0.05)', valueHint: 'X' },
  regularize: {
    type: 'boolean',
    description: 'top1: regularise bins towards the accuracy (default true; --no-regularize)',
    default: true,
  },
} satisfies ArgsDef;

export const applyArgs = {
  calibrator: { type: 'positional', description: 'calibrator file from um calibrate fit', required: true },
  file: { type: 'positional', description: 'predictions to calibrate (labels optional)', required: true },
  output: {
    type: 'string',
    alias: 'o',
    description:
      'file to write (default: stdout): a CSV or JSON Lines input with its scores calibrated, every other column kept; a new CSV for other inputs',
    valueHint: 'FILE',
  },
  ...inputArgs,
  ...llmArgs,
} satisfies ArgsDef;

function given(args: Record<string, unknown>, flag: string): boolean {
  if (flag === 'regularize') return args.regularize === false;
  return args[flag] !== undefined;
}

/** Fits the calibrator `method` on the data (pure wiring; internal). */
function fit(
  command: string,
  method: Method,
  data: PredictionData,
  args: Record<string, unknown>,
  onWarning: (w: UMWarning) => void,
): CalibratorParams {
  for (const flag of ['bounds', 'objective', 'bins', 'binning', 'score', 'top', 'delta', 'regularize']) {
    if (given(args, flag) && !METHOD_FLAGS[method].includes(flag)) {
      throw new UMError(
        'UM_OPTION',
        `${command}: --${flag === 'regularize' ? 'no-regularize' : flag} does not apply to --method ${method}`,
        { fn: command, argument: `--${flag}` },
      );
    }
  }
  const input = inputOptions(command, data, args);
  const needsMembers = method === 'mc-temperature';
  if (needsMembers !== (data.members !== undefined)) {
    throw new UMError(
      'UM_OPTION',
      needsMembers
        ? `${command}: --method mc-temperature needs stacked members [S, N, C] (a 3-D .npy or JSON member_logits); ${data.path} holds one model`
        : `${command}: ${data.path} holds ensemble members; use --method mc-temperature (or give the averaged prediction)`,
      { fn: command, argument: '--method' },
    );
  }
  const { numMembers: _s, ...single } = input;
  const scores = (data.scores ?? data.members) as Float64Array | Float32Array;
  const bins = parseIntegerFlag(command, '--bins', args.bins);
  switch (method) {
    case 'temperature':
      return fitTemperature(data.labels, scores, { ...single, ...boundsOf(command, args), onWarning });
    case 'mc-temperature':
      return fitMcTemperature(data.labels, scores, {
        input: input.input,
        numClasses: data.numClasses,
        numMembers: data.numMembers as number,
        ...(input.sumTolerance === undefined ? {} : { sumTolerance: input.sumTolerance }),
        ...(args.objective === undefined ? {} : { objective: args.objective as 'predictive' | 'mean-nll' }),
        ...boundsOf(command, args),
        onWarning,
      });
    case 'platt':
      return fitPlatt(data.labels, scores, single);
    case 'histogram':
      return fitHistogramBinning(data.labels, scores, {
        ...single,
        ...(bins === undefined ? {} : { bins }),
        ...(args.binning === undefined ? {} : { binning: args.binning as 'equal-width' | 'equal-mass' }),
      });
    case 'isotonic':
      return fitIsotonic(data.labels, scores, single);
    case 'top1': {
      const top = parseIntegerFlag(command, '--top', args.top);
      const delta = parseNumberFlag(command, '--delta', args.delta);
      return fitTopBinning(data.labels, scores, {
        ...single,
        ...(bins === undefined ? {} : { bins }),
        ...(args.score === undefined ? {} : { score: args.score as Exclude<TopScore, object> }),
        ...(top === undefined ? {} : { top }),
        ...(delta === undefined ? {} : { delta }),
        regularize: args.regularize !== false,
      });
    }
  }
}

function boundsOf(command: string, args: Record<string, unknown>): { bounds?: [number, number] } {
  if (args.bounds === undefined) return {};
  const parts = String(args.bounds).split(',');
  if (parts.length !== 2)
    throw new UMError('UM_OPTION', `${command}: --bounds must be MIN,MAX; got ${JSON.stringify(String(args.bounds))}`, {
      fn: command,
      argument: '--bounds',
    });
  return {
    bounds: [
      parseNumberFlag(command, '--bounds', parts[0]) as number,
      parseNumberFlag(command, '--bounds', parts[1]) as number,
    ],
  };
}

/** The human summary printed after fitting. */
export function describeCalibrator(p: CalibratorParams, classes?: readonly string[]): string {
  const head = `${p.kind} calibrator fitted on ${p.fittedOn.n} examples, ${classCount(p.fittedOn.numClasses, classes)} (${p.fittedOn.input}${p.fittedOn.numMembers === undefined ? '' : `, ${p.fittedOn.numMembers} members`})`;
  switch (p.kind) {
    case 'temperature':
    case 'mc-temperature': {
      const d = p.diagnostics;
      const objective = p.kind === 'mc-temperature' ? `, objective ${p.objective}` : '';
      return `${head}\nT = ${p.temperature}${objective}\nNLL ${formatNumber(d.nllBefore)} at T = 1 → ${formatNumber(d.nllAfter)}; ${d.evaluations} evaluations, ${d.converged ? 'converged' : 'NOT converged'}${d.atBound === null ? '' : `; at the ${d.atBound} bound of [${d.bounds.join(', ')}]`}`;
    }
    case 'platt':
      return `${head}\nP(y = 1) = 1 / (1 + exp(${p.a}·f + ${p.b})), f = log-odds\n${p.diagnostics.iterations} Newton iterations, ${p.diagnostics.converged ? 'converged' : 'NOT converged'}, loss ${formatNumber(p.diagnostics.loss)}`;
    case 'histogram-binning':
      return `${head}\n${p.histograms.length} histogram(s), ${p.binning}, ${(p.histograms[0]?.values.length ?? 0).toString()} bins`;
    case 'isotonic':
      return `${head}\n${p.maps.length} map(s), ${p.maps.map((m) => m.x.length).join(', ')} breakpoints`;
    case 'top-binning': {
      const rows = p.bins.map((b, i) => [
        String(i),
        `${formatNumber(b.range[0])} … ${formatNumber(b.range[1])}`,
        String(b.count),
        formatNumber(b.probability),
        `${formatNumber(b.interval[0])} … ${formatNumber(b.interval[1])}`,
      ]);
      return `${head}\nTop-${p.top} event, score ${p.score} (${p.direction}), accuracy ${formatNumber(p.accuracy)}, EOR ${p.eor === null ? 'n/a' : formatNumber(p.eor)}\n\n${renderTable(['bin', 'score range', 'count', 'P(top)', `Hoeffding ${1 - p.delta}`], rows)}`;
    }
  }
}

/** Runs `um calibrate fit`; returns the exit code. */
export function runCalibrateFit(args: Record<string, unknown>, io: Io): Promise<number> {
  const command = 'um calibrate fit';
  return guard(command, io, async (context) => {
    // checked before fitting: a fit is never computed only to be lost
    const out = await prepareOutput(command, '--output', String(args.output), [args.file, args.labels]);
    if (await isLlmInput(args, args.file)) return llmFit(command, args, io, context, out);
    refuseLlmFlags(command, args);
    checkReadFlags(command, args, [String(args.file)]);
    const data = await readPredictions(String(args.file), readOptionsFor(args, String(args.file)));
    context.data = data;
    const warnings: UMWarning[] = [];
    const params = fit(command, args.method as Method, data, args, (w) => warnings.push(w));
    await writeOutput(command, out, [`${JSON.stringify(params, null, 2)}\n`], 'the fitted calibrator was not saved');
    printWarnings(io, command, warnings);
    io.stdout(`${describeCalibrator(params, data.classes)}\nwritten to ${String(args.output)}\n`);
  });
}

/** The output format of `um calibrate apply`: the input's for CSV and JSON Lines (rewritten), else a new CSV. */
function applyFormat(file: string): 'csv' | 'jsonl' | 'table' {
  const ext = extname(file).toLowerCase();
  return ext === '.csv' ? 'csv' : ext === '.jsonl' || ext === '.ndjson' ? 'jsonl' : 'table';
}

/**
 * Runs `um calibrate apply`; returns the exit code. A CSV or JSON Lines input is written back with only the scores
 * replaced (every other byte kept); other inputs become a new CSV of the label and the calibrated probabilities.
 */
export function runCalibrateApply(args: Record<string, unknown>, io: Io): Promise<number> {
  const command = 'um calibrate apply';
  return guard(command, io, async (context) => {
    const llm = await readLlmCalibratorFile(command, String(args.calibrator));
    if (llm !== null) return llmApply(command, args, io, context, llm);
    refuseLlmFlags(command, args);
    const file = String(args.file);
    const format = applyFormat(file);
    const output = typeof args.output === 'string' && args.output !== '-' ? args.output : undefined;
    const out =
      output === undefined
        ? undefined
        : await prepareOutput(command, '--output', output, [args.calibrator, args.file, args.labels]);
    if (output !== undefined) {
      const wrote = { csv: '.csv', jsonl: '.jsonl', table: '.csv' }[format];
      const ext = extname(output).toLowerCase();
      if (
        ['.csv', '.json', '.jsonl', '.ndjson', '.parquet', '.npy'].includes(ext) &&
        ext !== wrote &&
        !(format === 'jsonl' && ext === '.ndjson')
      ) {
        throw new UMError(
          'UM_OPTION',
          `${command}: --output ${output}: the output is ${format === 'jsonl' ? 'JSON Lines' : 'CSV'} (${format === 'table' ? 'a new CSV' : `the input ${file} with its scores calibrated`}); give a ${wrote} name`,
          { fn: command, argument: '--output' },
        );
      }
    }
    // its bytes are read twice (the predictions, then the bytes copied around the new scores): not a FIFO
    if (format !== 'table')
      await (
        await openInput(command, file, false, 'its bytes are copied into the output, which needs a regular file')
      ).close();
    const params = await readCalibrator(String(args.calibrator));
    checkReadFlags(command, args, [file]);
    const data = await readPredictions(file, { ...readOptionsFor(args, file), requireLabels: false });
    context.data = data;
    const result = applyTo(command, params, data, args);
    context.data = undefined;
    const values = calibratedColumns(result, data.numClasses);
    let chunks: string[];
    if (format === 'table') {
      if (data.ignoredColumns !== undefined && data.ignoredColumns.length > 0 && io.quiet !== true) {
        io.stderr(
          `${command}: note: ${file}: ${data.ignoredColumns.join(', ')} ${data.ignoredColumns.length === 1 ? 'is' : 'are'} not copied (only CSV and JSON Lines inputs are written back with every column)\n`,
        );
      }
      chunks = [
        calibratedTable(
          values,
          data.hasLabels ? data.labels : undefined,
          data.format === 'parquet' ? ((args['label-column'] as string | undefined) ?? 'label') : 'label',
          data.classes,
        ),
      ];
    } else {
      const bytes = await readWhole(command, file);
      chunks =
        format === 'csv'
          ? rewriteCsv(command, file, bytes, data, values)
          : rewriteJsonl(command, file, bytes, data, values);
    }
    if (out !== undefined) {
      await writeOutput(command, out, chunks);
      io.stdout(`${data.n} calibrated predictions written to ${out.path}\n`);
    } else for (const chunk of chunks) io.stdout(chunk);
  });
}

/** Applies a calibrator to the data read (shared with `um metrics --calibration`). */
export function applyTo(
  command: string,
  params: CalibratorParams,
  data: PredictionData,
  args: Record<string, unknown>,
): ReturnType<typeof applyCalibrator> {
  const input = inputOptions(command, data, args);
  if ((params.kind === 'mc-temperature') !== (data.members !== undefined)) {
    throw new UMError(
      'UM_CALIBRATOR',
      params.kind === 'mc-temperature'
        ? `${command}: the mc-temperature calibrator needs stacked members [S, N, C]; ${data.path} holds one model`
        : `${command}: ${data.path} holds ensemble members; a ${params.kind} calibrator takes one model's scores`,
      { fn: command, argument: 'file' },
    );
  }
  if (params.kind === 'mc-temperature') return applyCalibrator(params, data.members as Float64Array, input);
  const { numMembers: _s, ...single } = input;
  return applyCalibrator(params, data.scores as Float64Array, single);
}

export const calibrateFitCommand = defineCommand({
  meta: { name: 'fit', description: 'Fit a calibrator on validation predictions and write it as JSON' },
  args: fitArgs,
});
export const calibrateApplyCommand = defineCommand({
  meta: { name: 'apply', description: 'Apply a calibrator file to predictions and write calibrated CSV' },
  args: applyArgs,
});
export const calibrateCommand = defineCommand({
  meta: {
    name: 'calibrate',
    description: 'Fit and apply calibrators (temperature, mc-temperature, platt, histogram, isotonic, top1)',
  },
  subCommands: { fit: calibrateFitCommand, apply: calibrateApplyCommand },
});
