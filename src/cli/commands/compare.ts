import { defineCommand, type ArgsDef } from 'citty';
import type { BootstrapMethod } from '../../bootstrap/bootstrap.js';
import { comparePaired, type ComparePairedOptions } from '../../bootstrap/comparePaired.js';
import { UMError } from '../../errors/UMError.js';
import { toProbabilities } from '../../input/toProbabilities.js';
import { readPredictions } from '../../io/readPredictions.js';
import type { PredictionData } from '../../io/types.js';
import type { PresetName } from '../../presets/presets.js';
import { classCount, formatNumber, renderTable } from '../format.js';
import { guard } from '../guard.js';
import { checkReadFlags, inputArgs, inputOptions, readOptionsFor } from '../inputFlags.js';
import { parseIntegerFlag, type Io } from '../io.js';
import { verdictSentences } from '../../report/verdicts.js';
import { ciOptions, toJson } from './metrics.js';
import { modelNames } from './report.js';

export const compareArgs = {
  a: { type: 'positional', description: 'predictions of model A', required: true },
  b: { type: 'positional', description: 'predictions of model B on the same rows and labels', required: true },
  bins: { type: 'string', description: 'number of bins of the binned metrics (default 15)', valueHint: 'N' },
  preset: {
    type: 'string',
    description: 'binning conventions of a peer library (default: default)',
    valueHint: 'NAME',
  },
  ...inputArgs,
  ci: { type: 'string', description: 'level of the paired bootstrap intervals (default 0.95)', valueHint: 'LEVEL' },
  resamples: { type: 'string', description: 'bootstrap resamples (default 1000)', valueHint: 'N' },
  seed: { type: 'string', description: 'bootstrap seed (default 0)', valueHint: 'N' },
  json: { type: 'boolean', description: 'print one JSON object instead of a table' },
} satisfies ArgsDef;

/** Checks that both files hold the same labels (and weights) row by row. */
function sameRows(command: string, a: PredictionData, b: PredictionData): void {
  if (a.n !== b.n)
    throw new UMError(
      'UM_SHAPE',
      `${command}: ${b.path} has ${b.n} rows; ${a.path} has ${a.n} (compare needs the same rows)`,
      { fn: command, argument: 'b', value: b.n },
    );
  for (let i = 0; i < a.n; i++) {
    if (a.labels[i] !== b.labels[i]) {
      throw new UMError(
        'UM_SHAPE',
        `${command}: ${b.locate(i, undefined, 'labels')}: label ${b.labels[i]} differs from ${a.locate(i, undefined, 'labels')} (${a.labels[i]}); compare needs the same labels in the same order`,
        { fn: command, argument: 'b', index: [i], value: b.labels[i] },
      );
    }
    if ((a.weights?.[i] ?? 1) !== (b.weights?.[i] ?? 1))
      throw new UMError('UM_SHAPE', `${command}: ${b.locate(i)}: weight differs from ${a.path}`, {
        fn: command,
        argument: 'b',
        index: [i],
      });
  }
}

/** How each row's interval was computed, in the header's words (internal). */
const METHOD_NAMES: Record<BootstrapMethod, string> = {
  bca: 'BCa',
  union: 'union',
  basic: 'basic',
  percentile: 'percentile',
};

/** Runs `um compare`: reads both files, calls {@link uncertainty-metrics!comparePaired}, prints its result; returns the exit code. */
export function runCompare(args: Record<string, unknown>, io: Io): Promise<number> {
  const command = 'um compare';
  return guard(command, io, async (context) => {
    const bins = parseIntegerFlag(command, '--bins', args.bins);
    const ci = ciOptions(command, { ...args, ci: args.ci ?? '0.95' }) as {
      level: number;
      resamples: number;
      seed: number;
    };
    checkReadFlags(command, args, [String(args.a), String(args.b)]);
    const a = await readPredictions(String(args.a), readOptionsFor(args, String(args.a)));
    context.data = a;
    const b = await readPredictions(String(args.b), readOptionsFor(args, String(args.b)));
    context.data = b;
    if (a.scores === undefined || b.scores === undefined)
      throw new UMError(
        'UM_OPTION',
        `${command}: compares one model's scores per file (ensemble files: average them first)`,
        { fn: command },
      );
    sameRows(command, a, b);
    // each file's scores are validated against its own kind (and located in its own file on error)
    const probs = (d: PredictionData) => {
      context.data = d;
      const { numMembers: _, ...input } = inputOptions(command, d, args);
      return toProbabilities(d.scores as Float64Array, input);
    };
    const pa = probs(a);
    const pb = probs(b);
    context.data = a;
    const options: ComparePairedOptions = { ...ci, onWarning: () => {} };
    if (bins !== undefined) options.bins = bins;
    if (typeof args.preset === 'string') options.preset = args.preset as PresetName;
    if (a.weights !== undefined) options.weights = a.weights;
    const r = comparePaired(a.labels, pa, pb, options);
    if (args.json === true) {
      io.stdout(
        `${toJson({ a: a.path, b: b.path, ...(a.classes === undefined ? {} : { classes: a.classes }), ...r })}\n`,
      );
      return;
    }
    const f = (x: number | null) => (x === null ? 'n/a' : formatNumber(x));
    const table = renderTable(
      ['metric', 'A', 'B', 'B − A', `${ci.level * 100}% CI of B − A`, 'interval', 'verdict'],
      r.metrics.map((m) => [
        m.metric,
        f(m.a),
        f(m.b),
        f(m.difference),
        m.lower === null ? 'n/a' : `${f(m.lower)} … ${f(m.upper)}`,
        METHOD_NAMES[m.method],
        m.verdict ?? '',
      ]),
    );
    // the sentences of the report's comparison (`um report A B`), with the models named as the report names them
    const [nameA, nameB] = modelNames([a.path, b.path]) as [string, string];
    const verdicts = verdictSentences(r, nameA, nameB)
      .map((l) => `- ${l}`)
      .join('\n');
    io.stdout(
      `A = ${a.path}\nB = ${b.path}\n${r.n} examples${a.classes === undefined ? '' : `, ${classCount(a.numClasses, a.classes)}`}; paired bootstrap, ${r.resamples} resamples, seed ${r.seed}; BCa intervals, conservative union intervals for binned errors\n\n${table}\n\nVerdicts (read from the intervals; as in um report):\n${verdicts}\n`,
    );
  });
}

export const compareCommand = defineCommand({
  meta: {
    name: 'compare',
    description: 'Every metric of two models on the same labels, with paired bootstrap intervals of the differences',
  },
  args: compareArgs,
});
