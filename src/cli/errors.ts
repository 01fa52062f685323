import type { UMError } from '../errors/UMError.js';
import type { PredictionData } from '../io/types.js';

/**
 * Command-line spelling of every library option the commands pass, as messages name them (`options.sumTolerance`,
 * or a bare `sumTolerance` in a hint). Options the CLI sets from the data say what they are instead of a flag.
 */
export const FLAGS: Record<string, string> = {
  bins: '--bins',
  preset: '--preset',
  input: '--input',
  sumTolerance: '--sum-tolerance',
  binary: '--binary',
  labels: '--labels',
  labelColumn: '--label-column',
  classes: '--classes',
  scorePrefix: '--score-prefix',
  weights: '--weights',
  weightColumn: '--weights',
  members: '--members',
  classwise: '--classwise',
  level: '--ci',
  resamples: '--resamples',
  seed: '--seed',
  mode: '--exact',
  bounds: '--bounds',
  objective: '--objective',
  binning: '--binning',
  score: '--score',
  top: '--top',
  delta: '--delta',
  regularize: '--regularize',
  title: '--title',
  threads: '--threads',
  numClasses: 'the number of score columns',
  numMembers: 'the number of members',
};

/** Library phrases that tell a caller of a function what to pass, and what a command-line user types instead. */
const PHRASES: [RegExp, string][] = [
  [/declare input: 'logits' or 'logprobs'/g, 'give --input logits or --input logprobs'],
  [/input: '(\w+)'/g, '--input $1'],
  [/binary: true/g, '--binary'],
  [/pass clip to bound it/g, "the library's clip option bounds it"],
];

/** Rewrites library option names in a message to the flags the user typed (internal; errors and warnings). */
export function flagWords(message: string): string {
  let m = message;
  for (const [pattern, text] of PHRASES) m = m.replace(pattern, text);
  // `options.x` anywhere; a bare camelCase option name only as a whole word (plain words such as "bins" stay)
  m = m.replace(/\boptions\.([A-Za-z]+)/g, (whole, name: string) => FLAGS[name] ?? whole);
  for (const [name, flag] of Object.entries(FLAGS))
    if (/[A-Z]/.test(name)) m = m.replace(new RegExp(`\\b${name}\\b`, 'g'), flag);
  return m;
}

/**
 * Rewrites a library error for the terminal: the function prefix becomes the command, option names become flags,
 * and a row/column index into the data becomes the place in the file it came from.
 */
export function cliMessage(command: string, error: UMError, data?: PredictionData): string {
  const { fn, argument, index } = error.details;
  let message = error.message.startsWith(`${fn}: `) ? error.message.slice(fn.length + 2) : error.message;
  message = flagWords(message);
  if (
    data !== undefined &&
    index !== undefined &&
    index.length > 0 &&
    argument !== undefined &&
    error.details.file === undefined
  ) {
    const row = index[0] as number;
    if (argument === 'labels') message = `${data.locate(row, undefined, 'labels')}: ${message}`;
    else if (argument === 'options.weights') message = `${data.locate(row)}: ${message}`;
    else if (
      (argument === 'probs' || argument === 'logits' || argument === 'logprobs') &&
      (data.numMembers === undefined || index.length >= 2)
    ) {
      // Ensemble errors index [member, row, class]; single-model errors [row, class].
      const place =
        data.numMembers === undefined
          ? data.locate(row, index[1], 'scores')
          : data.locate(index[1] ?? 0, index[2], 'scores', row);
      message = `${place}: ${message}`;
    }
  }
  return `${command}: ${message}`;
}
