import { defineCommand, type ArgsDef } from 'citty';
import { evaluate, type Evaluation } from '../../evaluate/evaluate.js';
import { UMError } from '../../errors/UMError.js';
import { presets, type PresetName } from '../../presets/presets.js';
import { readPredictions } from '../../io/readPredictions.js';
import type { PredictionData } from '../../io/types.js';
import type { ScoreKind } from '../../input/types.js';
import { cliMessage } from '../errors.js';
import { formatNumber, renderTable } from '../format.js';
import { parseIntegerFlag, parseNumberFlag, type Io } from '../io.js';

/** What each reported key means, for the readable table. */
const DESCRIPTIONS: Record<string, string> = {
  accuracy: 'share of rows whose top class is the label',
  ece: 'expected calibration error (equal-width bins)',
  mce: 'maximum calibration error (equal-width bins)',
  rmsce: 'root-mean-square calibration error (equal-mass bins)',
  sce: 'static (class-wise) calibration error',
  ace: 'adaptive (class-wise, equal-mass) calibration error',
  tace: 'thresholded ACE (p > 0.01)',
  uce: 'uncertainty calibration error (normalized entropy vs error)',
  aece: 'adaptive-binning ECE (Ding et al.)',
  amce: 'adaptive-binning MCE (Ding et al.)',
};

export const metricsArgs = {
  file: { type: 'positional', description: 'predictions: .csv (label,p_0,…), .json ({labels, probs|logits}) or .npy scores', required: true },
  bins: { type: 'string', description: 'number of bins of the binned metrics (default 15)', valueHint: 'N' },
  input: { type: 'enum', options: ['probs', 'logits', 'logprobs'], description: 'what the scores are (default probs; JSON: the key present)' },
  preset: { type: 'string', description: `binning conventions of a peer library: ${Object.keys(presets).join(', ')} (default: default)`, valueHint: 'NAME' },
  labels: { type: 'string', description: 'labels .npy (with .npy scores)', valueHint: 'FILE' },
  'label-column': { type: 'string', description: 'CSV label column (default label)', valueHint: 'NAME' },
  'score-prefix': { type: 'string', description: 'CSV score column prefix, numbered from 0 (default p_)', valueHint: 'PREFIX' },
  'sum-tolerance': { type: 'string', description: 'accepted |row sum − 1| of probabilities (default 0.001)', valueHint: 'X' },
  json: { type: 'boolean', description: 'print one JSON object instead of a table' },
} satisfies ArgsDef;

/** Runs `um metrics`; returns the exit code. */
export async function runMetrics(args: Record<string, unknown>, io: Io): Promise<number> {
  const command = 'um metrics';
  let data: PredictionData | undefined;
  try {
    const bins = parseIntegerFlag(command, '--bins', args.bins);
    const sumTolerance = parseNumberFlag(command, '--sum-tolerance', args['sum-tolerance']);
    const input = args.input as ScoreKind | undefined;
    const readOptions: Parameters<typeof readPredictions>[1] = {};
    if (input !== undefined) readOptions.input = input;
    if (typeof args.labels === 'string') readOptions.labels = args.labels;
    if (typeof args['label-column'] === 'string') readOptions.labelColumn = args['label-column'];
    if (typeof args['score-prefix'] === 'string') readOptions.scorePrefix = args['score-prefix'];
    data = await readPredictions(String(args.file), readOptions);
    const options: Parameters<typeof evaluate>[2] = { input: data.input, numClasses: data.numClasses };
    if (bins !== undefined) options.bins = bins;
    if (sumTolerance !== undefined) options.sumTolerance = sumTolerance;
    if (typeof args.preset === 'string') options.preset = args.preset as PresetName;
    const result = evaluate(data.labels, data.scores, options);
    if (args.json === true) io.stdout(`${JSON.stringify(withSource(result, data), null, 2)}\n`);
    else io.stdout(`${renderEvaluation(result, data)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UMError) {
      io.stderr(`${cliMessage(command, error, data)}\n`);
      return 2;
    }
    throw error;
  }
}

function withSource(result: Evaluation, data: PredictionData): Evaluation & { config: { file: string; format: string } } {
  return { ...result, config: { ...result.config, file: data.path, format: data.format } };
}

/** The readable table of `um metrics`. */
export function renderEvaluation(r: Evaluation, data: PredictionData): string {
  const rows = (Object.keys(DESCRIPTIONS) as (keyof typeof DESCRIPTIONS)[]).map((k) => [k, formatNumber((r as unknown as Record<string, number>)[k] as number), DESCRIPTIONS[k] as string]);
  const c = r.config;
  const head = `${data.path}: ${r.n} examples, ${r.numClasses} classes, ${c.input}`;
  const conf = `bins ${c.bins} (${c.preset} preset: ${c.equalWidth.index === 'floor' ? 'b = min(⌊B·p⌋, B−1)' : `${c.equalWidth.index}/${c.equalWidth.edges}/${c.equalWidth.closed}`}, p = 1 in ${c.equalWidth.one}; equal-mass ${c.equalMass}; ${c.precision})`;
  return `${head}\n${conf}\n\n${renderTable(['metric', 'value', 'meaning'], rows)}`;
}

export const metricsCommand = defineCommand({
  meta: { name: 'metrics', description: 'Calibration metrics of one prediction file (table, or --json)' },
  args: metricsArgs,
});
