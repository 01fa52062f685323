import { MAX_RESAMPLES } from '../bootstrap/bootstrap.js';
import { checkCount } from '../errors/checkCount.js';
import { count, record } from '../errors/checkShape.js';
import { fail } from '../errors/fail.js';
import type { ReportModel, ReportOptions } from './createReport.js';

/** The parts of a streamed model's summary that the report reads (its tables are checked by the diagrams). */
const SUMMARY = record({
  evaluation: record({ n: count, numClasses: count, config: record({}) }),
  reliability: record({}),
  uncertainty: record({}),
});

/**
 * Checks {@link createReport}'s models and options before anything is computed (internal): a non-empty list of named
 * models, known option names with values of their types and ranges, and a streamed model's summary of the expected
 * shape. Each model's labels and scores are checked where they are read, with the model's name.
 */
export function checkReportInput(fn: string, models: readonly ReportModel[], options: ReportOptions): void {
  if (!Array.isArray(models) || models.length === 0)
    fail('UM_EMPTY', fn, 'models', 'hold at least one model', { value: Array.isArray(models) ? 0 : models });
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    fail('UM_OPTION', fn, 'options', 'be an object', { value: options });
  for (const key of Object.keys(options)) {
    if (!['title', 'bins', 'preset', 'timestamp', 'onProgress', 'resamples', 'seed', 'svg'].includes(key))
      fail('UM_OPTION', fn, `options.${key}`, `not be given: ${fn} has no such option`);
  }
  if (options.bins !== undefined) checkCount(fn, 'options.bins', options.bins);
  if (options.resamples !== undefined) {
    // the bound of bootstrap and comparePaired, which the resamples go to
    checkCount(fn, 'options.resamples', options.resamples, {
      min: 2,
      max: MAX_RESAMPLES,
      why: `${MAX_RESAMPLES} resamples keep every resampled value in memory`,
    });
  }
  if (
    options.seed !== undefined &&
    (!Number.isInteger(options.seed) || (options.seed as number) < 0 || (options.seed as number) > 2 ** 32 - 1)
  ) {
    fail('UM_OPTION', fn, 'options.seed', 'be an integer in [0, 2³² − 1]', { value: options.seed });
  }
  for (const key of ['title', 'timestamp', 'preset'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'string')
      fail('UM_OPTION', fn, `options.${key}`, 'be a string', { value: options[key] });
  }
  if (options.svg !== undefined && typeof options.svg !== 'boolean')
    fail('UM_OPTION', fn, 'options.svg', 'be true or false', { value: options.svg });
  if (options.onProgress !== undefined && typeof options.onProgress !== 'function')
    fail('UM_OPTION', fn, 'options.onProgress', 'be a function', { value: options.onProgress });
  models.forEach((m, j) => {
    if (m === null || typeof m !== 'object' || typeof m.name !== 'string')
      fail('UM_OPTION', fn, 'models', 'be { name, labels, scores | members } or { name, summary }', {
        index: [j],
        value: m,
      });
    if (m.source !== undefined && typeof m.source !== 'string')
      fail('UM_OPTION', fn, `models[${j}].source`, 'be a string', { value: m.source });
    if (m.summary !== undefined) SUMMARY(fn, `models[${j}].summary`, m.summary);
  });
}
