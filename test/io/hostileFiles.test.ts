/**
 * Every reader (whole-file and streaming) on a table of hostile files: each is read, or rejected with a `UMError`
 * whose message names the file and the place — never another exception, never a hang (a time limit per case).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UMError } from '../../src/index.js';
import { readCalibrator, readPredictions, streamPredictions } from '../../src/io/index.js';
import { feedFifo, hostileFiles, type HostileCase } from '../helpers/hostile.js';

const dir = mkdtempSync(join(tmpdir(), 'um-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const CASES = hostileFiles(dir);

/** Runs `read`, feeding the FIFO first if the case has one; fails after `ms`. */
async function within<T>(c: HostileCase, ms: number, read: () => Promise<T>): Promise<T> {
  const feeding = c.fifo === undefined ? undefined : feedFifo(c.file, c.fifo);
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${c.name}: no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([read(), limit]);
  } finally {
    clearTimeout(timer);
    await feeding;
  }
}

async function outcome(c: HostileCase, read: () => Promise<unknown>): Promise<UMError | undefined> {
  try {
    await within(c, 10_000, read);
    return undefined;
  } catch (error) {
    if (error instanceof UMError) return error;
    throw error;
  }
}

function check(c: HostileCase, error: UMError | undefined): void {
  if (c.expect === 'ok') {
    expect(error?.message).toBeUndefined();
    return;
  }
  if (error === undefined) {
    expect(c.expect, `${c.name} was read`).toBe('any');
    return;
  }
  // one line that names the file (or the labels file it is about)
  expect(error.message).not.toMatch(/\n/);
  expect(
    [c.file, c.labels].some((f) => f !== undefined && error.message.includes(f)),
    error.message,
  ).toBe(true);
  if (c.expect !== 'any') {
    expect(error.code).toBe(c.expect.code);
    expect(error.message).toMatch(c.expect.message);
  }
}

const options = (c: HostileCase) => ({ ...(c.labels === undefined ? {} : { labels: c.labels }), ...c.options });

describe('hostile files: every reader reads them or gives one located UM error, promptly', () => {
  for (const c of CASES) {
    it(`readPredictions ${c.name}`, async () => {
      check(c, await outcome(c, () => readPredictions(c.file, options(c))));
    });
    it(`streamPredictions ${c.name}`, async () => {
      check(
        c,
        await outcome(c, async () => {
          let rows = 0;
          for await (const b of streamPredictions(c.file, { ...options(c), batchRows: 2 })) rows += b.n;
          return rows;
        }),
      );
    });
  }
  it('covers every format and kind of damage', () => {
    const names = CASES.map((c) => c.name).join(' ');
    for (const needle of [
      'quote-in-field.csv',
      'random-1.parquet',
      'bom.json',
      'latin1-header.csv',
      'scores-49-of-50.npy',
      'labels-49-of-50.npy',
      'members-cut.npy',
      'rows-negative.parquet',
      'rows-huge.parquet',
      'rows-list-fewer.parquet',
      'zero.csv',
      'fifo.jsonl',
      'fifo.npy',
      'folder.parquet',
      'unreadable.csv',
    ]) {
      expect(names).toContain(needle);
    }
  });
});

describe('a BOM is accepted in every text format, and read like the file without it', () => {
  it('CSV, JSON Lines, JSON and calibrator JSON', async () => {
    for (const ext of ['csv', 'jsonl', 'json']) {
      const withBom = await readPredictions(join(dir, `bom.${ext}`));
      expect([withBom.n, withBom.numClasses]).toEqual(ext === 'csv' ? [4, 2] : ext === 'jsonl' ? [3, 2] : [2, 2]);
      expect(withBom.columns?.[0] ?? 'p_0').toBe('p_0');
    }
    const cal = join(dir, 'bom-calibrator.json');
    writeFileSync(
      cal,
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync('test/fixtures/files/temperature.json')]),
    );
    expect((await readCalibrator(cal)).kind).toBe('temperature');
  });
});

describe('the CSV header keeps its non-ASCII names (decoded as UTF-8, never dropped)', () => {
  it('a column named in UTF-8 is a column', async () => {
    const f = join(dir, 'utf8-names.csv');
    writeFileSync(f, 'café,label,p_0,p_1,名前\nx,0,0.8,0.2,y\n');
    expect((await readPredictions(f)).ignoredColumns).toEqual(['café', '名前']);
  });
});
