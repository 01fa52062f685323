import { defineCommand, type ArgsDef } from 'citty';
import { evaluate, type Evaluation } from '../../evaluate/evaluate.js';
import { evaluateEnsemble } from '../../evaluate/evaluateEnsemble.js';
import type { UMWarning } from '../../warnings/warnings.js';
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
  brier: 'Brier score (the preset\'s form)',
  nll: 'negative log-likelihood, nats (never clipped)',
  auroc: 'AUROC of correct vs confidence (max prob)',
  aupr: 'AUPR of errors vs uncertainty (1 − max prob)',
  aurc: 'area under the risk–coverage curve (lower is better)',
  eaurc: 'AURC minus that of a perfect ranking',
  numMembers: 'ensemble members (metrics above: of their mean prediction)',
  totalUncertainty: 'mean entropy of the mean prediction, nats',
  expectedDataUncertainty: 'mean of the members\' entropies, nats',
  mutualInformation: 'model uncertainty: total − expected data, nats',
  disagreement: 'share of member pairs predicting different classes',
  gibbsNll: 'mean NLL of the members, nats',
};

export const metricsArgs = {
  file: { type: 'positional', description: 'predictions: .csv (label,p_0,…), .json ({labels, probs|logits|member_probs…}) or .npy scores [N,C] / members [S,N,C]', required: true },
  bins: { type: 'string', description: 'number of bins of the binned metrics (default 15)', valueHint: 'N' },
  input: { type: 'enum', options: ['probs', 'logits', 'logprobs'], description: 'what the scores are (default probs; JSON: the key present)' },
  preset: { type: 'string', description: `binning conventions of a peer library: ${Object.keys(presets).join(', ')} (default: default)`, valueHint: 'NAME' },
  labels: { type: 'string', description: 'labels .npy (with .npy scores)', valueHint: 'FILE' },
  'label-column': { type: 'string', description: 'CSV label column (default label)', valueHint: 'NAME' },
  'score-prefix': { type: 'string', description: 'CSV score column prefix, numbered from 0 (default p_)', valueHint: 'PREFIX' },
  'sum-tolerance': { type: 'string', description: 'accepted |row sum − 1| of probabilities (default 0.001)', valueHint: 'X' },
  members: { type: 'boolean', description: 'JSON holding a single prediction and member outputs: evaluate the members' },
  json: { type: 'boolean', description: 'print one JSON object instead of a table (non-finite numbers as the strings "Infinity", "-Infinity", "NaN")' },
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
    if (args.members === true) readOptions.members = true;
    data = await readPredictions(String(args.file), readOptions);
    const warnings: UMWarning[] = [];
    const options = { input: data.input, numClasses: data.numClasses, onWarning: (w: UMWarning) => warnings.push(w) } as Parameters<typeof evaluate>[2] & { numMembers?: number };
    if (bins !== undefined) options.bins = bins;
    if (sumTolerance !== undefined) options.sumTolerance = sumTolerance;
    if (typeof args.preset === 'string') options.preset = args.preset as PresetName;
    let result: Evaluation;
    if (data.members !== undefined && data.numMembers !== undefined) {
      result = evaluateEnsemble(data.labels, data.members, { ...options, numMembers: data.numMembers });
    } else if (data.scores !== undefined) {
      result = evaluate(data.labels, data.scores, options);
    } else {
      throw new UMError('UM_FILE_FORMAT', `${command}: ${data.path}: holds no scores`, { fn: command, file: data.path });
    }
    for (const w of warnings) io.stderr(`${command}: warning: ${w.message.replace(/^[A-Za-z]+: /, '')} [${w.code}]\n`);
    if (args.json === true) io.stdout(`${toJson(withSource(result, data, warnings))}\n`);
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

/** The JSON document: the evaluation, the warnings (code, function, message) and the config with the file read. */
function withSource(result: Evaluation, data: PredictionData, warnings: readonly UMWarning[]): Record<string, unknown> {
  const { config, ...values } = result;
  return {
    ...values,
    warnings: warnings.map((w) => ({ code: w.code, fn: w.fn, message: w.message })),
    config: { ...config, file: data.path, format: data.format },
  };
}

/**
 * JSON with non-finite numbers kept: `JSON.stringify` would print `null` for an infinite NLL, so they become the
 * strings "Infinity", "-Infinity" and "NaN" (what `Number(...)` and Python's `float(...)` parse back).
 */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v), 2);
}

/** The readable table of `um metrics`. */
export function renderEvaluation(r: Evaluation, data: PredictionData): string {
  const values = r as unknown as Record<string, number | undefined>;
  const rows = Object.keys(DESCRIPTIONS)
    .filter((k) => values[k] !== undefined)
    .map((k) => [k, k === 'numMembers' ? String(values[k]) : values[k] === null ? 'n/a' : formatNumber(values[k] as number), DESCRIPTIONS[k] as string]);
  const c = r.config;
  const members = data.numMembers === undefined ? '' : `, ${data.numMembers} members`;
  const head = `${data.path}: ${r.n} examples, ${r.numClasses} classes${members}, ${c.input}`;
  const conf = `bins ${c.bins} (${c.preset} preset: ${c.equalWidth.index === 'floor' ? 'b = min(⌊B·p⌋, B−1)' : `${c.equalWidth.index}/${c.equalWidth.edges}/${c.equalWidth.closed}`}, p = 1 in ${c.equalWidth.one}; equal-mass ${c.equalMass}; ${c.precision})`;
  return `${head}\n${conf}\n\n${renderTable(['metric', 'value', 'meaning'], rows)}`;
}

export const metricsCommand = defineCommand({
  meta: { name: 'metrics', description: 'Calibration metrics of one prediction file (table, or --json)' },
  args: metricsArgs,
});
