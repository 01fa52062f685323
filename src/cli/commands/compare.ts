import { defineCommand, type ArgsDef } from 'citty';
import { bootstrap, type BootstrapInterval } from '../../bootstrap/bootstrap.js';
import { UMError } from '../../errors/UMError.js';
import { evaluate, type Evaluation } from '../../evaluate/evaluate.js';
import { METRICS } from '../../evaluate/metricInfo.js';
import { readPredictions } from '../../io/readPredictions.js';
import type { PredictionData } from '../../io/types.js';
import type { PresetName } from '../../presets/presets.js';
import { formatNumber, renderTable } from '../format.js';
import { guard } from '../guard.js';
import { inputArgs, inputOptions, readOptionsOf } from '../inputFlags.js';
import { parseIntegerFlag, type Io } from '../io.js';
import { ciOptions, toJson } from './metrics.js';

export const compareArgs = {
  a: { type: 'positional', description: 'predictions of model A', required: true },
  b: { type: 'positional', description: 'predictions of model B on the same rows and labels', required: true },
  bins: { type: 'string', description: 'number of bins of the binned metrics (default 15)', valueHint: 'N' },
  preset: { type: 'string', description: 'binning conventions of a peer library (default: default)', valueHint: 'NAME' },
  ...inputArgs,
  ci: { type: 'string', description: 'level of the paired bootstrap intervals (default 0.95)', valueHint: 'LEVEL' },
  resamples: { type: 'string', description: 'bootstrap resamples (default 1000)', valueHint: 'N' },
  seed: { type: 'string', description: 'bootstrap seed (default 0)', valueHint: 'N' },
  json: { type: 'boolean', description: 'print one JSON object instead of a table' },
} satisfies ArgsDef;

const KEYS = Object.keys(METRICS).filter((k) => k !== 'numMembers');

/** The metrics of B minus those of A, under the same frequency weights (internal). */
function differences(a: Evaluation, b: Evaluation): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const k of KEYS) {
    const x = (a as unknown as Record<string, unknown>)[k];
    const y = (b as unknown as Record<string, unknown>)[k];
    if (x === undefined) continue;
    out[k] = typeof x === 'number' && typeof y === 'number' ? y - x : null;
  }
  return out;
}

/** Checks that both files hold the same labels (and weights) row by row. */
function sameRows(command: string, a: PredictionData, b: PredictionData): void {
  if (a.n !== b.n) throw new UMError('UM_SHAPE', `${command}: ${b.path} has ${b.n} rows; ${a.path} has ${a.n} (compare needs the same rows)`, { fn: command, argument: 'b', value: b.n });
  for (let i = 0; i < a.n; i++) {
    if (a.labels[i] !== b.labels[i]) {
      throw new UMError('UM_SHAPE', `${command}: ${b.locate(i, undefined, 'labels')}: label ${b.labels[i]} differs from ${a.locate(i, undefined, 'labels')} (${a.labels[i]}); compare needs the same labels in the same order`, { fn: command, argument: 'b', index: [i], value: b.labels[i] });
    }
    if ((a.weights?.[i] ?? 1) !== (b.weights?.[i] ?? 1)) throw new UMError('UM_SHAPE', `${command}: ${b.locate(i)}: weight differs from ${a.path}`, { fn: command, argument: 'b', index: [i] });
  }
}

/** Runs `um compare`; returns the exit code. */
export function runCompare(args: Record<string, unknown>, io: Io): Promise<number> {
  const command = 'um compare';
  return guard(command, io, async (context) => {
    const bins = parseIntegerFlag(command, '--bins', args.bins);
    const ci = ciOptions(command, { ...args, ci: args.ci ?? '0.95' }) as { level: number; resamples: number; seed: number };
    const a = await readPredictions(String(args.a), readOptionsOf(args));
    context.data = a;
    const b = await readPredictions(String(args.b), readOptionsOf(args));
    context.data = b;
    if (a.scores === undefined || b.scores === undefined) throw new UMError('UM_OPTION', `${command}: compares one model's scores per file (ensemble files: average them first)`, { fn: command });
    sameRows(command, a, b);
    const common: { bins?: number; preset?: PresetName } = {};
    if (bins !== undefined) common.bins = bins;
    if (typeof args.preset === 'string') common.preset = args.preset as PresetName;
    const { numMembers: _a, ...inA } = inputOptions(command, a, args);
    const { numMembers: _b, ...inB } = inputOptions(command, b, args);
    const run = (d: PredictionData, input: typeof inA, w?: Float64Array) => {
      context.data = d;
      return evaluate(d.labels, d.scores as Float64Array, { ...input, ...common, onWarning: () => {}, ...(w === undefined ? (d.weights === undefined ? {} : { weights: d.weights }) : { weights: w }) });
    };
    const ea = run(a, inA);
    const eb = run(b, inB);
    context.data = undefined;
    const boot = bootstrap(a.n, (w) => differences(run(a, inA, w), run(b, inB, w)), { ...ci, ...(a.weights === undefined ? {} : { weights: a.weights }) });
    const intervals = boot.intervals as Record<string, BootstrapInterval>;
    const rows = KEYS.filter((k) => k in intervals).map((k) => {
      const x = (ea as unknown as Record<string, number | null>)[k] ?? null;
      const y = (eb as unknown as Record<string, number | null>)[k] ?? null;
      const i = intervals[k] as BootstrapInterval;
      const excludesZero = i.lower !== null && i.upper !== null && (i.lower > 0 || i.upper < 0);
      return { metric: k, a: x, b: y, difference: i.estimate, lower: i.lower, upper: i.upper, standardError: i.standardError, significant: excludesZero, better: METRICS[k]?.better ?? null };
    });
    if (args.json === true) {
      io.stdout(`${toJson({ a: a.path, b: b.path, n: ea.n, level: ci.level, resamples: ci.resamples, seed: ci.seed, method: 'paired percentile bootstrap', metrics: rows })}\n`);
      return;
    }
    const f = (x: number | null) => (x === null ? 'n/a' : formatNumber(x));
    const table = renderTable(
      ['metric', 'A', 'B', 'B − A', `${ci.level * 100}% CI of B − A`, ''],
      rows.map((r) => [r.metric, f(r.a), f(r.b), f(r.difference), r.lower === null ? 'n/a' : `${f(r.lower)} … ${f(r.upper)}`, r.significant ? (r.better === null ? '*' : (r.difference as number) > 0 === (r.better === 'higher') ? 'B better' : 'A better') : '']),
    );
    io.stdout(`A = ${a.path}\nB = ${b.path}\n${ea.n} examples; paired percentile bootstrap, ${ci.resamples} resamples, seed ${ci.seed}\n\n${table}\n`);
  });
}

export const compareCommand = defineCommand({
  meta: { name: 'compare', description: 'Every metric of two models on the same labels, with paired bootstrap intervals of the differences' },
  args: compareArgs,
});
