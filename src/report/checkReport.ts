import { arrayOf, count, finite, orNull, record, text, type Check } from '../errors/checkShape.js';
import { fail } from '../errors/fail.js';
import type { Report } from './createReport.js';

/** A value that `JSON.stringify` can write (not undefined, no BigInt, no cycles). */
const json: Check = (fn, where, x) => {
  let written: string | undefined;
  try {
    written = JSON.stringify(x);
  } catch (error) {
    fail(
      'UM_OPTION',
      fn,
      where,
      `be plain JSON data (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
    );
  }
  if (written === undefined) fail('UM_OPTION', fn, where, 'be plain JSON data', { value: x });
};

/** A number (finite or not: the renderers print it). */
const number: Check = (fn, where, x) => {
  if (typeof x !== 'number') fail('UM_OPTION', fn, where, 'be a number', { value: x });
};

/** Per metric key: null or an interval with finite bounds. */
const INTERVAL = orNull(record({ lower: finite(), upper: finite(), method: text() }));
const intervalsByKey: Check = (fn, where, x) => {
  record({})(fn, where, x);
  for (const [k, v] of Object.entries(x as Record<string, unknown>)) INTERVAL(fn, `${where}.${k}`, v);
};

/** Every field the renderers read. */
const REPORT = record({
  title: text(),
  version: text(),
  timestamp: orNull(text()),
  models: arrayOf(
    record({
      name: text(),
      source: orNull(text()),
      n: count,
      numClasses: count,
      classes: orNull(arrayOf(text())),
      numMembers: orNull(count),
      evaluation: record({ config: json }),
    }),
  ),
  charts: arrayOf(record({ id: text(), title: text(), howToRead: text(), svg: text(), spec: record({}) })),
  notes: arrayOf(text()),
  warnings: arrayOf(
    record({
      code: text(),
      message: text(),
      model: orNull(text()),
      metrics: arrayOf(text()),
      charts: arrayOf(text()),
    }),
  ),
  summary: record({
    models: arrayOf(record({ name: text(), lines: arrayOf(text()) })),
    comparisons: arrayOf(
      record({
        a: text(),
        b: text(),
        resamples: count,
        level: number,
        seed: count,
        sentences: arrayOf(text()),
        metrics: arrayOf(record({ metric: text(), verdict: orNull(text()) })),
      }),
    ),
  }),
  intervals: record({ resamples: count, level: number, seed: count, models: arrayOf(orNull(intervalsByKey)) }),
});

/**
 * Checks a report given to a renderer (internal): the shape {@link createReport} returns, with every field the
 * renderers read of its type, and the whole JSON-writable — a damaged or hand-made report is a located
 * `UMError` (`reportHtml: report.models[0].name must be a string; got 5`), not a TypeError.
 */
export function checkReport(fn: string, report: unknown): Report {
  REPORT(fn, 'report', report);
  json(fn, 'report', report);
  return report as Report;
}
