import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPredictions, streamPredictions } from '../../src/io/readPredictions.js';
import { OPTION_FORMATS } from '../../src/io/readSpec.js';
import type { ReadOptions } from '../../src/io/types.js';
import { UMError } from '../../src/index.js';
import { um } from '../helpers/cli.js';

// A reading option that the file's format does not read used to be ignored: `um metrics preds.csv --labels L.npy`
// printed the metrics of the CSV's own labels and exited 0.

const fixtures = 'test/fixtures/files';
let dir: string;
/** One file of every format, each holding the same 4 rows of 3 classes. */
const files: Record<string, string> = {};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'um-readflags-'));
  files.csv = `${fixtures}/good.csv`;
  files.json = `${fixtures}/good.json`;
  files.npy = `${fixtures}/scores_f64.npy`;
  files.jsonl = join(dir, 'preds.jsonl');
  writeFileSync(files.jsonl, '{"label": 0, "probs": [0.8, 0.1, 0.1]}\n{"label": 1, "probs": [0.2, 0.7, 0.1]}\n');
  files.parquet = join(dir, 'preds.parquet');
  writeFileSync(
    files.parquet,
    Buffer.from(
      parquetWriteBuffer({
        columnData: [
          { name: 'label', data: [0, 1], type: 'INT32' },
          {
            name: 'probs',
            data: [
              [0.8, 0.1, 0.1],
              [0.2, 0.7, 0.1],
            ],
          },
        ],
      }),
    ),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A value of each option that would be read if the format took it. */
const VALUES: Record<keyof typeof OPTION_FORMATS, unknown> = {
  labels: `${fixtures}/labels_i64.npy`,
  labelColumn: 'label',
  scorePrefix: 'p_',
  weightColumn: 'w',
  members: true,
  classes: ['a', 'b', 'c'],
};

/** The flag of each option, with its value on the command line. */
const FLAGS: Record<keyof typeof OPTION_FORMATS, string[]> = {
  labels: ['--labels', `${fixtures}/labels_i64.npy`],
  labelColumn: ['--label-column', 'label'],
  scorePrefix: ['--score-prefix', 'p_'],
  weightColumn: ['--weights', 'w'],
  members: ['--members'],
  classes: ['--classes', 'a,b,c'],
};

describe('reading options a format does not read', () => {
  it('readPredictions and streamPredictions reject each one for every other format, naming it', async () => {
    let rejected = 0;
    for (const [format, path] of Object.entries(files)) {
      for (const [key, formats] of Object.entries(OPTION_FORMATS) as [
        keyof typeof OPTION_FORMATS,
        readonly string[],
      ][]) {
        if (formats.includes(format)) continue;
        const options = { [key]: VALUES[key] } as ReadOptions;
        const whole = await readPredictions(path, options).catch((x: unknown) => x);
        const streamed = await streamPredictions(path, options)
          .next()
          .catch((x: unknown) => x);
        for (const [fn, e] of [
          ['readPredictions', whole],
          ['streamPredictions', streamed],
        ] as const) {
          expect(e, `${key} on ${format}`).toBeInstanceOf(UMError);
          expect((e as UMError).code).toBe('UM_OPTION');
          expect((e as UMError).message).toContain(`${fn}: options.${key} must be left out for ${path}`);
        }
        rejected++;
      }
    }
    // 6 options, each refused by the formats it does not list
    expect(rejected).toBe(5 * 6 - Object.values(OPTION_FORMATS).reduce((s, f) => s + f.length, 0));
  });

  it('um metrics refuses a flag its file does not read, naming the flag and the file (exit 2, nothing printed)', async () => {
    for (const [format, path] of Object.entries(files)) {
      for (const [key, formats] of Object.entries(OPTION_FORMATS) as [
        keyof typeof OPTION_FORMATS,
        readonly string[],
      ][]) {
        if (formats.includes(format)) continue;
        const flag = FLAGS[key];
        for (const stream of [[], ['--stream']]) {
          const r = await um(['metrics', path, ...flag, ...stream]);
          expect([r.code, r.stdout], `${flag[0]} on ${format} ${stream.join('')}`).toEqual([2, '']);
          expect(r.stderr).toContain(`um metrics: ${flag[0]} applies to `);
          expect(r.stderr).toContain(`; ${path} is not one`);
        }
      }
    }
  });

  it('with several files, a flag needs one file it applies to, and reaches only those', async () => {
    const npy = files.npy as string;
    const csv = files.csv as string;
    // --labels goes to the NumPy scores, not to the CSV beside them
    const both = await um(['compare', npy, csv, '--labels', `${fixtures}/labels_i64.npy`, '--resamples', '20']);
    expect(both.stderr).not.toContain('applies to');
    expect(both.stderr).not.toContain('--labels');
    const none = await um(['compare', csv, files.json as string, '--labels', `${fixtures}/labels_i64.npy`]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(`um compare: --labels applies to .npy files; none of ${csv}, ${files.json} is one`);
    const report = await um(['report', csv, '--labels', `${fixtures}/labels_i64.npy`, '-o', '-', '--md']);
    expect([report.code, report.stdout]).toEqual([2, '']);
    expect(report.stderr).toContain(`um report: --labels applies to .npy files; ${csv} is not one`);
  });

  it('um calibrate fit and apply refuse them too', async () => {
    const csv = files.csv as string;
    const out = join(dir, 'cal.json');
    const fit = await um(['calibrate', 'fit', '--method', 'temperature', csv, '--labels', 'x.npy', '-o', out]);
    expect(fit.code).toBe(2);
    expect(fit.stderr).toContain(`um calibrate fit: --labels applies to .npy files; ${csv} is not one`);
    const apply = await um(['calibrate', 'apply', `${fixtures}/temperature.json`, csv, '--members']);
    expect(apply.code).toBe(2);
    expect(apply.stderr).toContain(`um calibrate apply: --members applies to .json, .npy files; ${csv} is not one`);
  });
});
