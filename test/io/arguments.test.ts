/**
 * The io functions check their arguments before touching a file: paths and options of the wrong type, unknown
 * option keys, and results to format whose fields disagree — each a located UMError, never a TypeError from
 * node:fs or an allocation from a field that lies (found by the API fuzz).
 */
import { describe, expect, it } from 'vitest';
import { fitTopBinning, applyTopBinning, toProbabilities, UMError } from '../../src/index.js';
import { formatPredictions, readCalibrator, readPredictions, streamPredictions } from '../../src/io/index.js';

const GOOD = 'test/fixtures/files/good.csv';
const CAL = 'test/fixtures/files/temperature.json';
const PATHS: unknown[] = [5, {}, { length: 3 }, null, [], '', Symbol('p'), 10n, new URL('file:///tmp/x.csv')];
const OPTIONS: unknown[] = [
  null,
  5,
  'csv',
  [],
  { bogus: 1 },
  { labels: 5 },
  { members: 'yes' },
  { requireLabels: 0 },
  { labelColumn: {} },
  { scorePrefix: null },
  { batchRows: 10 },
];

async function rejection(call: () => Promise<unknown>): Promise<UMError> {
  const e = await call().then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(UMError);
  return e as UMError;
}

const drain = async (path: unknown, options?: unknown) => {
  for await (const _ of streamPredictions(path as never, options as never)) void _;
};

describe('paths and options of the wrong type', () => {
  it('readPredictions, streamPredictions, readCalibrator: a path that is not a non-empty string', async () => {
    for (const path of PATHS) {
      expect((await rejection(() => readPredictions(path as never))).message).toMatch(
        /^readPredictions: path must be a non-empty string; got /,
      );
      expect((await rejection(() => drain(path))).message).toMatch(
        /^streamPredictions: path must be a non-empty string; got /,
      );
      expect((await rejection(() => readCalibrator(path as never))).message).toMatch(
        /^readCalibrator: path must be a non-empty string; got /,
      );
    }
  });
  it('readPredictions and streamPredictions: options that are not an object, unknown keys, values of the wrong type', async () => {
    for (const options of OPTIONS) {
      // batchRows is an option of streamPredictions only
      expect((await rejection(() => readPredictions(GOOD, options as never))).message).toMatch(
        /^readPredictions: options/,
      );
      if (options !== OPTIONS.at(-1))
        expect((await rejection(() => drain(GOOD, options))).message).toMatch(/^streamPredictions: options/);
    }
    expect((await readCalibrator(CAL)).kind).toBe('temperature');
  });
});

describe('formatPredictions checks what it writes', () => {
  const p = toProbabilities([
    [0.25, 0.75],
    [0.5, 0.5],
  ]);
  const top = applyTopBinning(
    fitTopBinning(
      [0, 1, 1],
      [
        [0.9, 0.1],
        [0.3, 0.7],
        [0.6, 0.4],
      ],
      { bins: 2 },
    ),
    [
      [0.9, 0.1],
      [0.3, 0.7],
    ],
  );
  it('writes valid results', () => {
    expect(formatPredictions(p, [1, 0])).toBe('label,p_0,p_1\n1,0.25,0.75\n0,0.5,0.5\n');
    expect(formatPredictions(top).split('\n')[0]).toBe('predicted,p_top,bin');
  });
  it('rejects results whose fields lie or hold no numbers, and labels that do not fit', () => {
    const bad: [unknown, unknown, RegExp][] = [
      [
        { ...p, n: 1e9 },
        undefined,
        /^formatPredictions: result.n must be the number of rows of data \(4 values \/ 2 classes\); got 1000000000/,
      ],
      [{ ...p, n: 1.5 }, undefined, /^formatPredictions: result.n must be/],
      [{ ...p, numClasses: 0 }, undefined, /^formatPredictions: result.numClasses must be an integer ≥ 2; got 0/],
      [{ ...p, data: [0.25, 0.75, 0.5, 0.5] }, undefined, /^formatPredictions: result must be probabilities/],
      [
        { ...p, data: Float64Array.of(0.25, NaN, 0.5, 0.5) },
        undefined,
        /^formatPredictions: result.data\[1\] must be a finite number; got NaN/,
      ],
      [{ ...p, kind: 'logits' }, undefined, /^formatPredictions: result must be probabilities/],
      [
        { ...top, bin: new Int32Array(1) },
        undefined,
        /^formatPredictions: result must be probabilities or a Top-k binning prediction/,
      ],
      [
        { ...top, probability: Float64Array.of(Infinity, 0.5) },
        undefined,
        /^formatPredictions: result.probability\[0\] must be a finite number; got Infinity/,
      ],
      [null, undefined, /^formatPredictions: result must be probabilities/],
      [5, undefined, /^formatPredictions: result must be probabilities/],
      [p, [1], /^formatPredictions: labels must have one label per row \(2\); got 1/],
      [p, [1, -1], /^formatPredictions: labels\[1\] must be an integer ≥ 0; got -1/],
      [p, [1, '0'], /^formatPredictions: labels\[1\] must be an integer ≥ 0; got "0"/],
      [p, { length: 2 }, /^formatPredictions: labels must be an array of labels/],
      [p, 7, /^formatPredictions: labels must be an array of labels; got 7/],
    ];
    for (const [result, labels, message] of bad) {
      let caught: unknown;
      try {
        formatPredictions(result as never, labels as never);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(UMError);
      expect((caught as UMError).message).toMatch(message);
    }
  });
});
