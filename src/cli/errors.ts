import type { UMError } from '../errors/UMError.js';
import type { PredictionData } from '../io/types.js';

/** Command-line spelling of library option names in messages. */
const FLAGS: Record<string, string> = {
  'options.bins': '--bins',
  'options.preset': '--preset',
  'options.input': '--input',
  'options.sumTolerance': '--sum-tolerance',
  'options.labels': '--labels',
  'options.weights': '--weights',
  'options.level': '--ci',
  'options.resamples': '--resamples',
  'options.seed': '--seed',
};

/**
 * Rewrites a library error for the terminal: the function prefix becomes the command, option names become flags,
 * and a row/column index into the data becomes the place in the file it came from.
 */
export function cliMessage(command: string, error: UMError, data?: PredictionData): string {
  const { fn, argument, index } = error.details;
  let message = error.message.startsWith(`${fn}: `) ? error.message.slice(fn.length + 2) : error.message;
  for (const [option, flag] of Object.entries(FLAGS)) message = message.split(option).join(flag);
  if (data !== undefined && index !== undefined && index.length > 0 && argument !== undefined && error.details.file === undefined) {
    const row = index[0] as number;
    if (argument === 'labels') message = `${data.locate(row, undefined, 'labels')}: ${message}`;
    else if (argument === 'options.weights') message = `${data.locate(row)}: ${message}`;
    else if ((argument === 'probs' || argument === 'logits' || argument === 'logprobs') && (data.numMembers === undefined || index.length >= 2)) {
      // Ensemble errors index [member, row, class]; single-model errors [row, class].
      const place = data.numMembers === undefined ? data.locate(row, index[1], 'scores') : data.locate(index[1] ?? 0, index[2], 'scores', row);
      message = `${place}: ${message}`;
    }
  }
  return `${command}: ${message}`;
}
