import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatPredictions, readPredictions, type PredictionData } from '../../src/io/index.js';
import { applyTopBinning, fitTopBinning, toProbabilities, UMError } from '../../src/index.js';

const F = (name: string) => `test/fixtures/files/${name}`;

/** The single-model scores of a read file (fails the test when the file held members). */
function scoresOf(d: PredictionData): Float64Array | Float32Array {
  if (d.scores === undefined) throw new Error(`${d.path} has no single-model scores`);
  return d.scores;
}

async function failure(path: string, options?: Parameters<typeof readPredictions>[1]): Promise<UMError> {
  try {
    await readPredictions(path, options);
  } catch (e) {
    if (e instanceof UMError) return e;
    throw e;
  }
  throw new Error(`${path} was read without error`);
}

describe('CSV', () => {
  it('finds the label and p_k columns in any order, skips empty lines, lists ignored columns', async () => {
    const d = await readPredictions(F('good.csv'));
    expect([d.n, d.numClasses, d.format, d.input]).toEqual([4, 3, 'csv', 'probs']);
    expect(Array.from(d.labels)).toEqual([0, 1, 2, 0]);
    expect(Array.from(scoresOf(d))).toEqual([0.8, 0.1, 0.1, 0.2, 0.7, 0.1, 0.3, 0.3, 0.4, 0.5, 0.25, 0.25]);
    expect(d.columns).toEqual(['p_0', 'p_1', 'p_2']);
    expect(d.ignoredColumns).toEqual(['id']);
    // row 2 is on line 5 (the blank line 4 is skipped); p_1 is the 2nd field
    expect(d.locate(2, 1)).toBe('test/fixtures/files/good.csv: line 5, column 2 ("p_1")');
    expect(d.locate(2, undefined, 'labels')).toBe('test/fixtures/files/good.csv: line 5, column 3 ("label")');
  });
  it('other column names are selectable', async () => {
    const d = await readPredictions(F('renamed.csv'), { labelColumn: 'y', scorePrefix: 'prob_a' });
    expect(Array.from(d.labels)).toEqual([0, 1]);
    expect(d.ignoredColumns).toEqual(['label']);
  });
  it('reads the bundled MNIST example', async () => {
    const d = await readPredictions('examples/data/mlp_overfit_test.csv');
    expect([d.n, d.numClasses]).toEqual([2000, 10]);
  });
  const BAD: [string, string, RegExp][] = [
    [
      'ragged.csv',
      'UM_FILE_FORMAT',
      /^readPredictions: test\/fixtures\/files\/ragged.csv: line 3: expected 3 fields like the header, got 2$/,
    ],
    [
      'nonnumeric.csv',
      'UM_FILE_FORMAT',
      /^readPredictions: test\/fixtures\/files\/nonnumeric.csv: line 4, column 2 \("p_0"\): expected a number; got "abc"$/,
    ],
    ['emptycell.csv', 'UM_FILE_FORMAT', /line 3, column 2 \("p_0"\): empty cell; got ""$/],
    [
      'nolabel.csv',
      'UM_FILE_FORMAT',
      /line 1: the header must have a "label" column \(choose another with --label-column\); got "y,p_0,p_1"$/,
    ],
    ['gap.csv', 'UM_FILE_FORMAT', /line 1: score columns must be numbered p_0 … p_1 without gaps; p_1 is missing$/],
    ['headeronly.csv', 'UM_EMPTY', /headeronly.csv: has a header but no data rows$/],
    ['empty.csv', 'UM_FILE_FORMAT', /empty.csv: is empty \(expected a header line\)$/],
    ['unclosed.csv', 'UM_FILE_FORMAT', /unclosed.csv: line \d+, column \d+: a quoted field is never closed/],
    ['missing.csv', 'UM_FILE_NOT_FOUND', /^readPredictions: test\/fixtures\/files\/missing.csv: no such file$/],
  ];
  for (const [file, code, message] of BAD) {
    it(`rejects ${file}`, async () => {
      const e = await failure(F(file));
      expect(e.code).toBe(code);
      expect(e.message).toMatch(message);
      expect(e.details.file).toBe(F(file));
    });
  }
});

describe('JSON', () => {
  it('reads {labels, probs}', async () => {
    const d = await readPredictions(F('good.json'));
    expect([d.n, d.numClasses, d.input]).toEqual([4, 3, 'probs']);
    expect(d.locate(1, 2)).toBe('test/fixtures/files/good.json: "probs[1][2]"');
  });
  it('the key declares the kind: {labels, logits}', async () => {
    const d = await readPredictions(F('logits.json'));
    expect(d.input).toBe('logits');
    expect(Array.from(scoresOf(d))).toEqual([2, -1, 0.5, 0.1, 1.5, -3]);
  });
  it('with both keys, probs unless --input says otherwise', async () => {
    expect((await readPredictions(F('both.json'))).input).toBe('probs');
    expect(scoresOf(await readPredictions(F('both.json'), { input: 'logits' }))[0]).toBe(2);
  });
  it('rejects a truncated file with line and column', async () => {
    const e = await failure(F('truncated.json'));
    expect(e.code).toBe('UM_FILE_FORMAT');
    expect(e.message).toMatch(
      /^readPredictions: test\/fixtures\/files\/truncated.json: line \d+, column \d+: is not valid JSON/,
    );
  });
  it('rejects a declared key that is absent', async () => {
    const e = await failure(F('good.json'), { input: 'logits' });
    expect(e.message).toMatch(/has no "logits" key \(declared input logits; present: probs\)/);
  });
  it('rejects rows of different lengths', async () => {
    const e = await failure(F('nokey.json'), { input: 'probs' });
    expect(e.message).toMatch(/has no "probs" key/);
  });
});

describe('NumPy', () => {
  it('keeps float32 scores as a Float32Array and reads int64 labels', async () => {
    const d = await readPredictions(F('scores_f32.npy'), { labels: F('labels_i64.npy') });
    expect(d.scores).toBeInstanceOf(Float32Array);
    expect([d.n, d.numClasses]).toEqual([6, 4]);
    expect(Array.from(d.labels)).toEqual([0, 1, 2, 3, 0, 1]);
  });
  it('transposes Fortran-ordered arrays into row-major order', async () => {
    const c = await readPredictions(F('scores_f64.npy'), { labels: F('labels_i32.npy') });
    const f = await readPredictions(F('scores_fortran.npy'), { labels: F('labels_i32.npy') });
    expect(Array.from(scoresOf(f))).toEqual(Array.from(scoresOf(c)));
    expect(Array.from(scoresOf(c).slice(0, 4))).toEqual(
      Array.from(scoresOf(await readPredictions(F('scores_f32.npy'), { labels: F('labels_i32.npy') })).slice(0, 4)),
    );
  });
  const BAD: [string, Parameters<typeof readPredictions>[1], RegExp][] = [
    ['scores_f32.npy', {}, /holds only scores; give the labels .npy with --labels/],
    ['scores_int.npy', { labels: F('labels_i32.npy') }, /must hold little-endian float32 or float64 scores; got "<i4"/],
    [
      'scores_4d.npy',
      { labels: F('labels_i32.npy') },
      /must have shape \[N, C\] \(one model\) or \[S, N, C\] \(ensemble members\); got "\[2, 2, 2, 2\]"/,
    ],
    [
      'scores_3d.npy',
      { labels: F('labels_i32.npy') },
      /labels_i32.npy: must hold one label per row of .*scores_3d.npy \(2\); got 6/,
    ],
    ['notnpy.npy', { labels: F('labels_i32.npy') }, /is not a NumPy .npy array/],
    [
      'scores_f32.npy',
      { labels: F('labels_short.npy') },
      /labels_short.npy: must hold one label per row of .*scores_f32.npy \(6\); got 3/,
    ],
  ];
  for (const [file, options, message] of BAD) {
    it(`rejects ${file} ${JSON.stringify(options)}`, async () => {
      const e = await failure(F(file), options);
      expect(e.code).toBe('UM_FILE_FORMAT');
      expect(e.message).toMatch(message);
    });
  }
});

describe('ensemble members', () => {
  const M = JSON.parse(readFileSync(F('members.json'), 'utf8')) as { labels: number[]; member_probs: number[][][] };
  it('reads JSON member_probs [S][N][C] member-major into members, with no single scores', async () => {
    const d = await readPredictions(F('members.json'));
    expect([d.n, d.numClasses, d.numMembers, d.input, d.scores]).toEqual([6, 3, 3, 'probs', undefined]);
    expect(Array.from(d.members ?? [])).toEqual(M.member_probs.flat(2));
    expect(d.locate(4, 2, 'scores', 1)).toBe(`${F('members.json')}: "member_probs[1][4][2]"`);
  });
  it('reads a 3-D NumPy array as members, identical to the JSON', async () => {
    const d = await readPredictions(F('members_f64.npy'), { labels: F('members_labels.npy') });
    expect([d.n, d.numClasses, d.numMembers]).toEqual([6, 3, 3]);
    expect(Array.from(d.members ?? [])).toEqual(M.member_probs.flat(2));
    expect(Array.from(d.labels)).toEqual(M.labels);
    expect(d.locate(4, 2, 'scores', 1)).toBe(`${F('members_f64.npy')}: member 1, row 4, column 2`);
  });
  it('a JSON file with both reads the single prediction unless members is asked for', async () => {
    const single = await readPredictions(F('members_both.json'));
    expect([single.numMembers, single.scores?.length]).toEqual([undefined, 18]);
    const members = await readPredictions(F('members_both.json'), { members: true });
    expect([members.numMembers, members.members?.length, members.scores]).toEqual([3, 54, undefined]);
  });
  it('a ragged member row or a non-number names its JSON path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'um-io-'));
    const ragged = join(dir, 'ragged.json');
    writeFileSync(
      ragged,
      JSON.stringify({
        labels: [0, 1],
        member_probs: [
          [
            [0.5, 0.5],
            [0.5, 0.5],
          ],
          [[0.5, 0.5], [1]],
        ],
      }),
    );
    expect((await failure(ragged)).message).toBe(
      `readPredictions: ${ragged}: "member_probs[1][1]" must be an array of 2 numbers like row 0; got [1]`,
    );
    const text = join(dir, 'text.json');
    writeFileSync(text, JSON.stringify({ labels: [0], member_logits: [[[0, 1]], [[0, 'x']]] }));
    expect((await failure(text)).message).toBe(
      `readPredictions: ${text}: "member_logits[1][0][1]" must be a number; got "x"`,
    );
    rmSync(dir, { recursive: true });
  });
  it('members: true on a file without member keys is an error', async () => {
    const e = await failure(F('good.json'), { members: true });
    expect([e.code, e.message]).toEqual([
      'UM_FILE_FORMAT',
      `readPredictions: ${F('good.json')}: has no member_probs, member_logits or member_logprobs key`,
    ]);
  });
});

describe('unlabeled files (requireLabels: false)', () => {
  it('CSV without the label column, JSON without labels and NumPy without --labels are read with hasLabels false', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'um-io-'));
    const csv = join(dir, 'u.csv');
    writeFileSync(csv, 'p_0,p_1\n0.2,0.8\n0.6,0.4\n');
    const json = join(dir, 'u.json');
    writeFileSync(json, JSON.stringify({ logits: [[0, 1]] }));
    const a = await readPredictions(csv, { requireLabels: false });
    expect([a.hasLabels, a.n, a.labels.length, Array.from(scoresOf(a))]).toEqual([false, 2, 0, [0.2, 0.8, 0.6, 0.4]]);
    const b = await readPredictions(json, { requireLabels: false });
    expect([b.hasLabels, b.input, b.n]).toEqual([false, 'logits', 1]);
    const c = await readPredictions(F('scores_f32.npy'), { requireLabels: false });
    expect([c.hasLabels, c.n, c.locate(2, 1)]).toEqual([false, 6, `${F('scores_f32.npy')}: row 2, column 1`]);
    // labelled files still report their labels
    expect((await readPredictions(F('good.csv'), { requireLabels: false })).hasLabels).toBe(true);
    // and by default labels are required
    expect((await failure(csv)).message).toMatch(/the header must have a "label" column/);
    rmSync(dir, { recursive: true });
  });
});

describe('JSON Lines and Parquet', () => {
  const dir = mkdtempSync(join(tmpdir(), 'um-io-'));
  it('JSON Lines: one object per line, blank lines skipped, errors give the line', async () => {
    const f = join(dir, 'a.jsonl');
    writeFileSync(f, '{"label": 1, "logits": [0, 2]}\n\n{"label": 0, "logits": [1, -1]}\n');
    const d = await readPredictions(f);
    expect([d.format, d.input, d.n, d.numClasses, Array.from(d.labels), Array.from(scoresOf(d))]).toEqual([
      'jsonl',
      'logits',
      2,
      2,
      [1, 0],
      [0, 2, 1, -1],
    ]);
    expect(d.locate(1, 1)).toBe(`${f}: line 3, "logits[1]"`);
    const bad: [string, RegExp][] = [
      [
        '{"label": 0, "probs": [0.5, 0.5]}\n{"label": 1, "probs": [1]}',
        /: line 2: "probs" must have 2 numbers like the first line; got 1$/,
      ],
      [
        '{"label": 0, "probs": [0.5, 0.5], "logits": [0, 0]}',
        /: line 1: has probs and logits; choose one with --input$/,
      ],
      ['{"probs": [0.5, 0.5]}', /: line 1: "label" must be a number; got undefined$/],
      ['[0.5, 0.5]', /: line 1: must hold an object \{label, probs \| logits \| logprobs\}; got \[0\.5, 0\.5\]$/],
      ['\n\n', /has no data lines$/],
    ];
    for (const [text, message] of bad) {
      writeFileSync(f, text);
      expect((await failure(f)).message).toMatch(message);
    }
  });
  it('Parquet: a list column or numbered columns, INT64 labels, errors give the row', async () => {
    const list = join(dir, 'list.parquet');
    writeFileSync(
      list,
      Buffer.from(
        parquetWriteBuffer({
          columnData: [
            { name: 'label', data: [1, 0], type: 'INT32' },
            {
              name: 'logits',
              data: [
                [0, 2],
                [1, -1],
              ],
            },
          ],
        }),
      ),
    );
    const d = await readPredictions(list);
    expect([d.format, d.input, d.n, Array.from(d.labels), Array.from(scoresOf(d))]).toEqual([
      'parquet',
      'logits',
      2,
      [1, 0],
      [0, 2, 1, -1],
    ]);
    const cols = join(dir, 'cols.parquet');
    writeFileSync(
      cols,
      Buffer.from(
        parquetWriteBuffer({
          columnData: [
            { name: 'y', data: [1n, 0n], type: 'INT64' },
            { name: 'p_1', data: [0.8, 0.3], type: 'DOUBLE' },
            { name: 'p_0', data: [0.2, 0.7], type: 'DOUBLE' },
          ],
        }),
      ),
    );
    const e = await readPredictions(cols, { labelColumn: 'y' });
    expect([e.columns, Array.from(e.labels), Array.from(scoresOf(e))]).toEqual([
      ['p_0', 'p_1'],
      [1, 0],
      [0.2, 0.8, 0.7, 0.3],
    ]);
    expect(e.locate(1, 1)).toBe(`${cols}: row 1, column "p_1"`);
    expect((await failure(cols)).message).toMatch(/must have a "label" column \(choose another with --label-column\)/);
    const gap = join(dir, 'gap.parquet');
    writeFileSync(
      gap,
      Buffer.from(
        parquetWriteBuffer({
          columnData: [
            { name: 'label', data: [0], type: 'INT32' },
            { name: 'p_0', data: [0.5], type: 'DOUBLE' },
            { name: 'p_2', data: [0.5], type: 'DOUBLE' },
          ],
        }),
      ),
    );
    expect((await failure(gap)).message).toMatch(/score columns must be numbered p_0 … without gaps; p_1 is missing/);
    expect((await failure(F('notparquet.parquet'))).message).toMatch(/is not a readable Parquet file/);
  });
});

describe('formatPredictions', () => {
  it('writes probabilities with shortest round-trip numbers, and Top-k predictions', () => {
    const p = toProbabilities([
      [0.1, 0.9],
      [1 / 3, 2 / 3],
    ]);
    expect(formatPredictions(p)).toBe('p_0,p_1\n0.1,0.9\n0.3333333333333333,0.6666666666666666\n');
    const t = fitTopBinning(
      [0, 1],
      [
        [0.9, 0.1],
        [0.2, 0.8],
      ],
      { bins: 1, regularize: false },
    );
    expect(formatPredictions(applyTopBinning(t, [[0.9, 0.1]]), [0])).toBe('label,predicted,p_top,bin\n0,0,1,0\n');
  });
});

describe('formats and options', () => {
  it('rejects an unknown extension', async () => {
    expect((await failure('README.md')).message).toMatch(
      /README.md: has an unknown extension; expected .csv, .json, .jsonl, .parquet or .npy/,
    );
  });
  it('rejects an unknown input kind', async () => {
    expect((await failure(F('good.csv'), { input: 'probabilities' as never })).code).toBe('UM_OPTION');
  });
  it('reports a directory', async () => {
    const e = await failure('test/fixtures', { format: 'json' });
    expect(e.code).toBe('UM_FILE_READ');
  });
});
