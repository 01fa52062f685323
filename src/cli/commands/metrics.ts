import { defineCommand, type ArgsDef } from 'citty';
import { evaluate, type Evaluation } from '../../evaluate/evaluate.js';
import { evaluateEnsemble } from '../../evaluate/evaluateEnsemble.js';
import { METRICS } from '../../evaluate/metricInfo.js';
import type { UMWarning } from '../../warnings/warnings.js';
import { UMError } from '../../errors/UMError.js';
import { presets, type PresetName } from '../../presets/presets.js';
import { readPredictions } from '../../io/readPredictions.js';
import type { PredictionData } from '../../io/types.js';
import { guard, printWarnings } from '../guard.js';
import { formatNumber, renderTable } from '../format.js';
import { parseIntegerFlag, type Io } from '../io.js';
import { inputArgs, inputOptions, readOptionsOf } from '../inputFlags.js';
import { applyTo } from './calibrate.js';
import { readCalibrator } from '../../io/readCalibrator.js';
import { topBinningReport, type TopBinningReport } from '../../calibrate/topBinningReport.js';
import type { ProbMatrix } from '../../input/types.js';

export const metricsArgs = {
  file: { type: 'positional', description: 'predictions: .csv (label,p_0,…), .json ({labels, probs|logits|member_probs…}) or .npy scores [N,C] / members [S,N,C]', required: true },
  bins: { type: 'string', description: 'number of bins of the binned metrics (default 15)', valueHint: 'N' },
  preset: { type: 'string', description: `binning conventions of a peer library: ${Object.keys(presets).join(', ')} (default: default)`, valueHint: 'NAME' },
  ...inputArgs,
  calibration: { type: 'string', description: 'calibrator file (um calibrate fit): report the metrics after calibration', valueHint: 'FILE' },
  json: { type: 'boolean', description: 'print one JSON object instead of a table (non-finite numbers as the strings "Infinity", "-Infinity", "NaN")' },
} satisfies ArgsDef;

/** Runs `um metrics`; returns the exit code. */
export function runMetrics(args: Record<string, unknown>, io: Io): Promise<number> {
  const command = 'um metrics';
  return guard(command, io, async (context) => {
    const bins = parseIntegerFlag(command, '--bins', args.bins);
    const data = await readPredictions(String(args.file), readOptionsOf(args));
    context.data = data;
    const warnings: UMWarning[] = [];
    const onWarning = (w: UMWarning) => warnings.push(w);
    const common: { bins?: number; preset?: PresetName; onWarning: typeof onWarning } = { onWarning };
    if (bins !== undefined) common.bins = bins;
    if (typeof args.preset === 'string') common.preset = args.preset as PresetName;
    const input = inputOptions(command, data, args);
    let result: Evaluation;
    let calibration: { file: string; kind: string } | undefined;
    if (typeof args.calibration === 'string') {
      const params = await readCalibrator(args.calibration);
      calibration = { file: args.calibration, kind: params.kind };
      if (params.kind === 'top-binning') {
        const { numMembers: _s, ...single } = input;
        const report = topBinningReport(params, data.labels, data.scores as Float64Array, single);
        if (args.json === true) io.stdout(`${toJson({ ...report, config: { calibration, file: data.path, format: data.format } })}\n`);
        else io.stdout(`${renderTopReport(report, data, calibration.file)}\n`);
        return;
      }
      const calibrated = applyTo(command, params, data, args) as ProbMatrix;
      result = evaluate(data.labels, calibrated, common);
    } else if (data.members !== undefined && data.numMembers !== undefined) {
      result = evaluateEnsemble(data.labels, data.members, { ...input, ...common, numMembers: data.numMembers });
    } else if (data.scores !== undefined) {
      const { numMembers: _s, ...single } = input;
      result = evaluate(data.labels, data.scores, { ...single, ...common });
    } else {
      throw new UMError('UM_FILE_FORMAT', `${command}: ${data.path}: holds no scores`, { fn: command, file: data.path });
    }
    printWarnings(io, command, warnings);
    if (args.json === true) io.stdout(`${toJson(withSource(result, data, warnings, calibration))}\n`);
    else io.stdout(`${renderEvaluation(result, data, calibration?.file)}\n`);
  });
}

/** The JSON document: the evaluation, the warnings (code, function, message) and the config with the file read. */
function withSource(result: Evaluation, data: PredictionData, warnings: readonly UMWarning[], calibration?: { file: string; kind: string }): Record<string, unknown> {
  const { config, ...values } = result;
  return {
    ...values,
    warnings: warnings.map((w) => ({ code: w.code, fn: w.fn, message: w.message })),
    config: { ...config, file: data.path, format: data.format, ...(calibration === undefined ? {} : { calibration }) },
  };
}

/** The readable report of `um metrics --calibration` with a Top-k binning calibrator. */
function renderTopReport(r: TopBinningReport, data: PredictionData, file: string): string {
  const rows = r.bins.map((b, i) => [
    String(i),
    String(b.count),
    b.frequency === null ? 'n/a' : formatNumber(b.frequency),
    formatNumber(b.probability),
    b.interval === null ? 'n/a' : `${formatNumber(b.interval[0])} … ${formatNumber(b.interval[1])}`,
  ]);
  const d = (x: { score: number; uncertainty: number; resolution: number; calibration: number }) =>
    `${formatNumber(x.score)} = ${formatNumber(x.uncertainty)} − ${formatNumber(x.resolution)} + ${formatNumber(x.calibration)}`;
  return [
    `${data.path}: ${r.n} examples, Top-${r.top} calibrated by ${file}; Top-${r.top} accuracy ${formatNumber(r.accuracy)}`,
    '',
    renderTable(['bin', 'count', 'test rate', 'calibrated', `Hoeffding ${1 - r.delta}`], rows),
    '',
    `ECE (test vs calibration, eq. 5)   ${formatNumber(r.ece)}`,
    `EOR (expected odds ratio)          ${r.eor === null ? 'n/a' : formatNumber(r.eor)}`,
    `AUROC                              ${r.auroc === null ? 'n/a' : formatNumber(r.auroc)}`,
    `Brier = uncertainty − resolution + calibration   ${d(r.brier)}`,
    `NLL   = uncertainty − resolution + calibration   ${d(r.nll)}`,
  ].join('\n');
}

/**
 * JSON with non-finite numbers kept: `JSON.stringify` would print `null` for an infinite NLL, so they become the
 * strings "Infinity", "-Infinity" and "NaN" (what `Number(...)` and Python's `float(...)` parse back).
 */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v), 2);
}

/** The readable table of `um metrics`. */
export function renderEvaluation(r: Evaluation, data: PredictionData, calibration?: string): string {
  const values = r as unknown as Record<string, number | undefined>;
  const rows = Object.entries(METRICS)
    .filter(([k]) => values[k] !== undefined)
    .map(([k, info]) => [k, k === 'numMembers' ? String(values[k]) : values[k] === null ? 'n/a' : formatNumber(values[k] as number), info.meaning]);
  const c = r.config;
  const members = data.numMembers === undefined ? '' : `, ${data.numMembers} members`;
  const head = `${data.path}: ${r.n} examples, ${r.numClasses} classes${members}, ${c.input}${calibration === undefined ? '' : `, calibrated by ${calibration}`}`;
  const conf = `bins ${c.bins} (${c.preset} preset: ${c.equalWidth.index === 'floor' ? 'b = min(⌊B·p⌋, B−1)' : `${c.equalWidth.index}/${c.equalWidth.edges}/${c.equalWidth.closed}`}, p = 1 in ${c.equalWidth.one}; equal-mass ${c.equalMass}; ${c.precision})`;
  return `${head}\n${conf}\n\n${renderTable(['metric', 'value', 'meaning'], rows)}`;
}

export const metricsCommand = defineCommand({
  meta: { name: 'metrics', description: 'Calibration metrics of one prediction file (table, or --json)' },
  args: metricsArgs,
});
