import type { ArgsDef } from 'citty';
import { UMError } from '../errors/UMError.js';
import type { ScoreKind } from '../input/types.js';
import type { PredictionData, ReadOptions } from '../io/types.js';
import { extname } from 'node:path';
import { FORMATS, OPTION_FORMATS } from '../io/readSpec.js';
import { FLAGS } from './errors.js';
import { parseNumberFlag } from './io.js';

/** Flags that say how to read a prediction file and what its scores are (shared by every command). */
export const inputArgs = {
  input: {
    type: 'enum',
    options: ['probs', 'logits', 'logprobs'],
    description: 'what the scores are (default probs; JSON: the key present)',
  },
  labels: {
    type: 'string',
    description: 'labels .npy (with .npy scores); with LLM responses, the label set, e.g. yes,no',
    valueHint: 'FILE|LIST',
  },
  'label-column': { type: 'string', description: 'CSV label column (default label)', valueHint: 'NAME' },
  'score-prefix': {
    type: 'string',
    description:
      'CSV and Parquet score column prefix: <PREFIX>0, <PREFIX>1, … (default p_); with --classes, <PREFIX><name> (default none)',
    valueHint: 'PREFIX',
  },
  classes: {
    type: 'string',
    description:
      'class names, class 0 first, comma-separated (e.g. cat,dog): the labels are these names (any other label is an error naming its row) and score columns may be named after them (cat, dog) instead of numbered; the names are kept in the output. CSV, JSON, JSON Lines, Parquet',
    valueHint: 'NAMES',
  },
  'sum-tolerance': {
    type: 'string',
    description: 'accepted |row sum − 1| of probabilities (default 0.001)',
    valueHint: 'X',
  },
  members: { type: 'boolean', description: 'JSON holding a single prediction and member outputs: read the members' },
  binary: { type: 'boolean', description: 'one score per row: P(y = 1) (or one logit with --input logits)' },
  weights: {
    type: 'string',
    description: 'column (CSV, Parquet) or key (JSON Lines) of sample weights',
    valueHint: 'COLUMN',
  },
} satisfies ArgsDef;

/**
 * The names of `--classes cat,dog`: split at commas, blanks around a name dropped (a CSV reader trims its cells
 * too). The reader checks them (at least two, distinct, none empty), naming the flag.
 */
export function classList(text: string): string[] {
  return text.split(',').map((name) => name.trim());
}

/**
 * Refuses a reading flag that applies to none of the files a command reads (`um metrics preds.csv --labels L.npy`
 * printed the metrics of the CSV's own labels, --labels silently ignored); with several files (`um compare`,
 * `um report`) a flag needs only one file it applies to — {@link readOptionsFor} gives each file its own.
 */
export function checkReadFlags(command: string, args: Record<string, unknown>, paths: readonly string[]): void {
  const all = readOptionsOf(args);
  for (const [key, formats] of Object.entries(OPTION_FORMATS) as [keyof ReadOptions, readonly string[]][]) {
    if (all[key] === undefined) continue;
    // an unknown extension is the reader's error, named there
    if (paths.some((path) => formatOf(path) === undefined || formats.includes(formatOf(path) as string))) continue;
    const flag = FLAGS[key] ?? key;
    const which = paths.length === 1 ? `${paths[0]} is not one` : `none of ${paths.join(', ')} is one`;
    throw new UMError(
      'UM_OPTION',
      `${command}: ${flag} applies to ${formats.map((f) => `.${f}`).join(', ')} files; ${which}`,
      { fn: command, argument: flag, value: all[key] },
    );
  }
}

/** The read options of one file: the flags that apply to its format (see {@link checkReadFlags}). */
export function readOptionsFor(args: Record<string, unknown>, path: string): ReadOptions {
  const all = readOptionsOf(args);
  const format = formatOf(path);
  if (format === undefined) return all;
  const kept = Object.entries(all).filter(
    ([key]) => !(key in OPTION_FORMATS) || OPTION_FORMATS[key as keyof typeof OPTION_FORMATS].some((f) => f === format),
  );
  return Object.fromEntries(kept) as ReadOptions;
}

function formatOf(path: string): string | undefined {
  return FORMATS[extname(path).toLowerCase()];
}

/** Read options from the input flags, whatever the file (the reader rejects one its format does not read). */
export function readOptionsOf(args: Record<string, unknown>): ReadOptions {
  const o: ReadOptions = {};
  if (args.input !== undefined) o.input = args.input as ScoreKind;
  if (typeof args.labels === 'string') o.labels = args.labels;
  if (typeof args['label-column'] === 'string') o.labelColumn = args['label-column'];
  if (typeof args['score-prefix'] === 'string') o.scorePrefix = args['score-prefix'];
  if (args.members === true) o.members = true;
  if (typeof args.weights === 'string') o.weightColumn = args.weights;
  if (typeof args.classes === 'string') o.classes = classList(args.classes);
  return o;
}

/** Input options of the library from the data read and the flags. */
export function inputOptions(
  command: string,
  data: PredictionData,
  args: Record<string, unknown>,
): { input: ScoreKind; numClasses?: number; binary?: boolean; sumTolerance?: number; numMembers?: number } {
  const sumTolerance = parseNumberFlag(command, '--sum-tolerance', args['sum-tolerance']);
  const binary = args.binary === true;
  if (binary && data.numClasses !== 1) {
    throw new UMError(
      'UM_OPTION',
      `${command}: --binary needs one score column per row; ${data.path} has ${data.numClasses}`,
      { fn: command, argument: '--binary' },
    );
  }
  const o: { input: ScoreKind; numClasses?: number; binary?: boolean; sumTolerance?: number; numMembers?: number } = {
    input: data.input,
  };
  if (binary) o.binary = true;
  else o.numClasses = data.numClasses;
  if (sumTolerance !== undefined) o.sumTolerance = sumTolerance;
  if (data.numMembers !== undefined) o.numMembers = data.numMembers;
  return o;
}
