import type { ArgsDef } from 'citty';
import { UMError } from '../errors/UMError.js';
import type { ScoreKind } from '../input/types.js';
import type { PredictionData, ReadOptions } from '../io/types.js';
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

/** Read options from the input flags (shared by fit, apply and metrics). */
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
