import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, describe, expect, it } from 'vitest';
import { readPredictions, streamPredictions, type ReadOptions } from '../../src/io/index.js';
import { UMError } from '../../src/index.js';
import { uniforms } from '../helpers/minstd.js';

const dir = mkdtempSync(join(tmpdir(), 'um-classes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function failure(path: string, options: ReadOptions): Promise<UMError> {
  try {
    await readPredictions(path, options);
  } catch (e) {
    if (e instanceof UMError) return e;
    throw e;
  }
  throw new Error(`${path} was read without error`);
}

/** Name pools with the traps of string labels: digits naming other classes, look-alikes, non-ASCII, inner blanks. */
const POOLS: string[][] = [
  ['cat', 'dog'],
  ['1', '0'], // label "1" is class 0: read as a number it would be class 1
  ['2', '10', '1'],
  ['setosa', 'versicolor', 'virginica'],
  ['chat', 'chien', 'oiseau', 'poisson'],
  ['Cat', 'cat', 'CAT'], // case matters
  ['a b', 'a', 'b'],
  ['négatif', 'positif'],
];

interface Case {
  names: string[];
  labels: number[]; // class indices
  probs: number[][];
}

/** A seeded data set: N rows of random labels and probabilities (some ties, some exact 0 and 1). */
function makeCase(seed: number, names: string[]): Case {
  const c = names.length;
  const n = 5 + Math.floor((uniforms(seed, 1)[0] as number) * 60);
  const u = uniforms(seed + 1, n * (c + 1));
  const labels: number[] = [];
  const probs: number[][] = [];
  for (let i = 0; i < n; i++) {
    labels.push(Math.floor((u[i * (c + 1)] as number) * c));
    const raw = Array.from({ length: c }, (_, k) => Math.round((u[i * (c + 1) + 1 + k] as number) * 4) / 4);
    const total = raw.reduce((a, b) => a + b, 0);
    probs.push(total === 0 ? raw.map((_, k) => (k === 0 ? 1 : 0)) : raw.map((x) => x / total));
  }
  return { names, labels, probs };
}

/** A permutation of 0..c−1 from the seed: the order of the score columns in a header (never the class order). */
function shuffled(seed: number, c: number): number[] {
  const order = Array.from({ length: c }, (_, k) => k);
  const u = uniforms(seed + 7, c);
  for (let k = c - 1; k > 0; k--) {
    const j = Math.floor((u[k] as number) * (k + 1));
    [order[k], order[j]] = [order[j] as number, order[k] as number];
  }
  return order;
}

const csvCell = (s: string) => (/[",\s]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

/** The files of one case, in every format that takes names, with the score columns named or numbered. */
function writeAll(t: Case, seed: number): { path: string; options: ReadOptions }[] {
  const c = t.names.length;
  const order = shuffled(seed, c);
  const files: { path: string; options: ReadOptions }[] = [];
  const csv = (name: string, header: string[]) => {
    const lines = [['id', 'label', ...order.map((k) => header[k] as string)].map(csvCell).join(',')];
    t.labels.forEach((y, i) =>
      lines.push([String(i), csvCell(t.names[y] as string), ...order.map((k) => String(t.probs[i]?.[k]))].join(',')),
    );
    const path = join(dir, `${seed}-${name}.csv`);
    writeFileSync(path, `${lines.join('\n')}\n`);
    return path;
  };
  files.push({ path: csv('named', t.names), options: { classes: t.names } });
  files.push({
    path: csv(
      'prefixed',
      t.names.map((x) => `p_${x}`),
    ),
    options: { classes: t.names, scorePrefix: 'p_' },
  });
  files.push({
    path: csv(
      'numbered',
      t.names.map((_, k) => `p_${k}`),
    ),
    options: { classes: t.names },
  });
  const json = join(dir, `${seed}.json`);
  writeFileSync(json, JSON.stringify({ labels: t.labels.map((y) => t.names[y]), probs: t.probs }));
  files.push({ path: json, options: { classes: t.names } });
  const jsonl = join(dir, `${seed}.jsonl`);
  writeFileSync(jsonl, t.labels.map((y, i) => JSON.stringify({ label: t.names[y], probs: t.probs[i] })).join('\n'));
  files.push({ path: jsonl, options: { classes: t.names } });
  const columns = (header: string[]) => [
    { name: 'label', data: t.labels.map((y) => t.names[y] as string), type: 'STRING' as const },
    ...order.map((k) => ({
      name: header[k] as string,
      data: t.probs.map((r) => r[k] as number),
      type: 'DOUBLE' as const,
    })),
  ];
  const named = join(dir, `${seed}-named.parquet`);
  writeFileSync(named, Buffer.from(parquetWriteBuffer({ columnData: columns(t.names) })));
  files.push({ path: named, options: { classes: t.names } });
  const numbered = join(dir, `${seed}-numbered.parquet`);
  writeFileSync(numbered, Buffer.from(parquetWriteBuffer({ columnData: columns(t.names.map((_, k) => `p_${k}`)) })));
  files.push({ path: numbered, options: { classes: t.names } });
  return files;
}

describe('class names (options.classes)', () => {
  it('maps string labels and class-named score columns to class order in every format, on seeded data', async () => {
    let checked = 0;
    for (let seed = 1; seed <= 24; seed++) {
      const t = makeCase(seed * 101, POOLS[seed % POOLS.length] as string[]);
      for (const { path, options } of writeAll(t, seed)) {
        if (path.includes('prefixed') && t.names.some((x) => /^\d+$/.test(x))) {
          // p_1, p_0 named after classes "1", "0" are also numbered columns, in the other order: which is meant is ambiguous
          expect((await failure(path, options)).message).toMatch(
            /named after options\.classes and numbered ones .*ambiguous/,
          );
          checked++;
          continue;
        }
        const d = await readPredictions(path, options);
        // the reference is the generator: label i is class t.labels[i], score k of row i is t.probs[i][k]
        expect([path, Array.from(d.labels)]).toEqual([path, t.labels]);
        expect([path, Array.from(d.scores ?? [])]).toEqual([path, t.probs.flat()]);
        expect(d.classes).toEqual(t.names);
        // streamed in small batches: the same rows, every batch carrying the names
        const labels: number[] = [];
        for await (const b of streamPredictions(path, { ...options, batchRows: 4 })) {
          expect(b.classes).toEqual(t.names);
          labels.push(...b.labels);
        }
        expect(labels).toEqual(t.labels);
        checked++;
      }
    }
    expect(checked).toBe(24 * 7);
  });

  it('a numeric label matches the name that is its decimal text, never its value', async () => {
    const json = join(dir, 'numeric.json');
    writeFileSync(
      json,
      JSON.stringify({
        labels: [7, 3, '3', 7],
        probs: [
          [0.1, 0.9],
          [0.8, 0.2],
          [0.6, 0.4],
          [0.5, 0.5],
        ],
      }),
    );
    expect(Array.from((await readPredictions(json, { classes: ['7', '3'] })).labels)).toEqual([0, 1, 1, 0]);
    // "7.0" is not the text of a name: labels are names, compared exactly
    const csv = join(dir, 'numeric.csv');
    writeFileSync(csv, 'label,p_0,p_1\n7,0.5,0.5\n7.0,0.5,0.5\n');
    expect((await failure(csv, { classes: ['7', '3'] })).message).toBe(
      `readPredictions: ${csv}: line 3, column 1 ("label"): label "7.0" is not one of options.classes (7, 3)`,
    );
  });

  it('an unknown label is UM_LABEL naming its row (line) and value, in every format', async () => {
    for (let seed = 1; seed <= 8; seed++) {
      const t = makeCase(seed * 37, POOLS[seed % POOLS.length] as string[]);
      const bad = Math.floor((uniforms(seed, 1)[0] as number) * t.labels.length);
      const names = [...t.names];
      // the file holds a label outside the declared names at row `bad`
      const files = writeAll({ ...t, names: t.names.map((x, k) => (k === t.labels[bad] ? `${x}?` : x)) }, 1000 + seed);
      for (const { path } of files) {
        const e = await failure(path, { classes: names, ...(path.includes('prefixed') ? { scorePrefix: 'p_' } : {}) });
        if (path.includes('named') || path.includes('prefixed')) {
          // the score column of the renamed class is missing too: the header is read first
          expect(e.code).toBe('UM_FILE_FORMAT');
          continue;
        }
        const place = path.endsWith('.csv')
          ? `line ${bad + 2}, column 2 ("label")`
          : path.endsWith('.jsonl')
            ? `line ${bad + 1}, "label"`
            : path.endsWith('.json')
              ? `"labels[${bad}]"`
              : `row ${bad}, column "label"`;
        expect([path, e.code, e.message]).toEqual([
          path,
          'UM_LABEL',
          `readPredictions: ${path}: ${place}: label ${JSON.stringify(`${names[t.labels[bad] as number]}?`)} is not one of options.classes (${names.join(', ')})`,
        ]);
        expect(e.details.file).toBe(path);
      }
    }
  });

  it('rejects bad names and files that do not fit them', async () => {
    const csv = join(dir, 'cd.csv');
    writeFileSync(csv, 'label,cat,dog\ncat,0.9,0.1\n');
    const options: [unknown, RegExp][] = [
      ['cat,dog', /options\.classes must be an array of class names/],
      [['cat'], /options\.classes must name between 2 and 1048576 classes; got 1/],
      [[], /must name between 2/],
      [['cat', 'cat'], /options\.classes\[1\] must be distinct \("cat" is class 0 and class 1\)/],
      [['cat', ''], /options\.classes\[1\] must be non-empty strings/],
      [['cat', 3], /options\.classes\[1\] must be non-empty strings; got 3/],
    ];
    for (const [classes, message] of options) {
      const e = await failure(csv, { classes } as ReadOptions);
      expect([e.code, e.message]).toEqual(['UM_OPTION', expect.stringMatching(message)]);
    }
    expect((await failure('examples/data/test_labels.npy', { classes: ['a', 'b'] })).message).toMatch(
      /NumPy labels are class indices/,
    );
    const cases: [string, string[], RegExp][] = [
      [
        'label,cat,dog,p_0,p_1\ncat,0.9,0.1,0.9,0.1\n',
        ['cat', 'dog'],
        /named after options\.classes and numbered ones \(p_0, p_1\); which are the scores is ambiguous/,
      ],
      [
        'label,cat,p_0,p_1\ncat,0.9,0.9,0.1\n',
        ['cat', 'dog'],
        /named after some of options\.classes but not "dog" \(class 1\)/,
      ],
      ['label,cat,dog,cat\ncat,0.9,0.1,0.5\n', ['cat', 'dog'], /score column "cat" appears twice/],
      [
        'label,cat,dog\ncat,0.9,0.1\n',
        ['label', 'cat', 'dog'],
        /the column "label" cannot be both a class's scores and the label column/,
      ],
      [
        'label,p_0,p_1,p_2\ncat,0.5,0.25,0.25\n',
        ['cat', 'dog'],
        /has 3 scores per row, but options\.classes names 2 classes/,
      ],
      [
        'label,x,y\ncat,0.5,0.5\n',
        ['cat', 'dog'],
        /must have score columns named after the classes \(cat, dog, …\) or numbered p_0, p_1, …/,
      ],
    ];
    for (const [text, classes, message] of cases) {
      writeFileSync(csv, text);
      expect((await failure(csv, { classes })).message).toMatch(message);
    }
    // a JSON row of another length than the names
    const json = join(dir, 'count.json');
    writeFileSync(json, JSON.stringify({ labels: ['cat'], probs: [[0.2, 0.3, 0.5]] }));
    expect((await failure(json, { classes: ['cat', 'dog'] })).message).toMatch(
      /has 3 scores per row, but options\.classes names 2 classes/,
    );
  });

  it('string labels without names say what to give (and a binary file takes two names)', async () => {
    const csv = join(dir, 'strings.csv');
    writeFileSync(csv, 'label,p_0\ndog,0.8\ncat,0.3\n');
    expect((await failure(csv, {})).message).toMatch(
      /line 2, column 1 \("label"\): expected a number \(string labels need options\.classes\); got "dog"/,
    );
    const jsonl = join(dir, 'strings.jsonl');
    writeFileSync(jsonl, '{"label": "dog", "probs": [0.8]}\n');
    expect((await failure(jsonl, {})).message).toMatch(
      /"label" must be a number \(string labels need options\.classes\)/,
    );
    // one column, P(y = 1): the second name is the positive class
    const d = await readPredictions(csv, { classes: ['cat', 'dog'] });
    expect([d.numClasses, Array.from(d.labels)]).toEqual([1, [1, 0]]);
  });
});
