/**
 * `um calibrate apply` keeps everything the user gave: a CSV (JSON Lines) input comes back byte for byte except the
 * score cells (values), which hold the library's calibrated probabilities. Seeded random files with every CSV hazard
 * (quoted commas, embedded newlines, doubled quotes, unicode, empty cells, CRLF or CR line ends, BOM, blank lines,
 * score columns in any order and any quoting); the expected output is built from the same cells, independently of the
 * rewriter.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, describe, expect, it } from 'vitest';
import {
  applyCalibrator,
  fitPlatt,
  fitTemperature,
  fitTopBinning,
  type CalibratorParams,
  type ProbMatrix,
  type TopBinningPrediction,
} from '../../src/index.js';
import { readPredictions } from '../../src/io/index.js';
import { main } from '../../src/cli/main.js';
import { minstd } from '../helpers/minstd.js';
import { npy } from '../helpers/hostile.js';

const dir = mkdtempSync(join(tmpdir(), 'um-apply-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  return { code, stdout, stderr };
}

/** Cells other than scores: every quoting hazard of RFC 4180, unicode, empty. */
const TEXT = [
  'plain',
  '',
  '"a, b"',
  '"line one\nline two"',
  '"crlf\r\ninside"',
  '"say ""hi"""',
  'é名😀',
  '"  padded  "',
  '"é, 名"',
  '""',
  'x y',
];

interface Table {
  header: string[];
  /** Raw cell text, row by row; score cells are functions of their class. */
  rows: ((k: number) => string)[][];
  eol: string;
  bom: boolean;
  blank: Set<number>;
  trailing: boolean;
}

/** Builds the CSV bytes of a table, the score cells written by `score(row, k, raw)`. */
function build(t: Table, score: (i: number, k: number, raw: string) => string, extra?: (i: number) => string): string {
  const lines = [t.header.join(',') + (extra === undefined ? '' : `,${extra(-1)}`)];
  t.rows.forEach((cells, i) => {
    if (t.blank.has(i)) lines.push('');
    lines.push(
      cells
        .map((c) => c(-1))
        .map((raw, j) => (raw.startsWith('#score') ? score(i, Number(raw.slice(6)), cells[j]?.(1) as string) : raw))
        .join(',') + (extra === undefined ? '' : `,${extra(i)}`),
    );
  });
  return (t.bom ? '\ufeff' : '') + lines.join(t.eol) + (t.trailing ? t.eol : '');
}

/** A seeded table: n rows, c classes (1: binary), extra columns around the score columns, and the scores. */
function table(seed: number, c: number, logits: boolean): { t: Table; labels: number[]; scores: number[] } {
  const u = minstd(seed, 4000);
  let at = 0;
  const next = () => u[at++ % u.length] as number;
  const n = 12 + Math.floor(next() * 10);
  const columns: string[] = [...Array.from({ length: c }, (_, k) => `p_${k}`), 'y', 'id', 'text', 'note'];
  // score columns shuffled among the others
  for (let j = columns.length - 1; j > 0; j--) {
    const r = Math.floor(next() * (j + 1));
    [columns[j], columns[r]] = [columns[r] as string, columns[j] as string];
  }
  const labels: number[] = [];
  const scores: number[] = [];
  const rows: ((k: number) => string)[][] = [];
  for (let i = 0; i < n; i++) {
    const row = Array.from({ length: Math.max(c, 2) }, () => (logits ? (next() - 0.5) * 8 : next()));
    const s = logits || c === 1 ? row.slice(0, c) : row.map((x) => x / row.reduce((a, b) => a + b, 0));
    const y = Math.floor(next() * Math.max(c, 2));
    labels.push(y);
    scores.push(...s);
    const quoting = Math.floor(next() * 3);
    rows.push(
      columns.map((name) => {
        if (name.startsWith('p_')) {
          const k = Number(name.slice(2));
          const text = String(s[k]);
          const raw = quoting === 0 ? text : quoting === 1 ? `"${text}"` : ` ${text} `;
          return (mode: number) => (mode < 0 ? `#score${k}` : raw);
        }
        const v = name === 'y' ? String(y) : (TEXT[Math.floor(next() * TEXT.length)] as string);
        return () => v;
      }),
    );
  }
  const t: Table = {
    header: columns,
    rows,
    eol: (['\n', '\r\n', '\r'] as const)[Math.floor(next() * 3)] as string,
    bom: next() < 0.3,
    blank: new Set([Math.floor(next() * n)]),
    trailing: next() < 0.8,
  };
  return { t, labels, scores };
}

function calibrated(
  params: CalibratorParams,
  scores: number[],
  c: number,
  logits: boolean,
): ProbMatrix | TopBinningPrediction {
  return applyCalibrator(params, Float64Array.from(scores), {
    input: logits ? 'logits' : 'probs',
    ...(c === 1 ? { binary: true } : { numClasses: c }),
  });
}

describe('CSV round trip: everything but the score values is byte-identical', () => {
  for (let seed = 1; seed <= 24; seed++) {
    const c = [1, 2, 3, 4][seed % 4] as number;
    const logits = seed % 3 === 0 && c > 1;
    it(`seed ${seed}: ${c === 1 ? 'binary' : `${c} classes`}${logits ? ', logits' : ''}`, async () => {
      const { t, labels, scores } = table(seed, c, logits);
      const input = join(dir, `in-${seed}.csv`);
      const text = build(t, (_i, _k, raw) => raw);
      writeFileSync(input, text);
      const options = {
        input: logits ? 'logits' : 'probs',
        ...(c === 1 ? { binary: true } : { numClasses: c }),
      } as const;
      // a binary input: Platt on P(y = 1); otherwise temperature scaling
      const fitted =
        c === 1
          ? fitPlatt(labels, scores, { binary: true })
          : fitTemperature(labels, Float64Array.from(scores), options);
      const calibrator = join(dir, `cal-${seed}.json`);
      writeFileSync(calibrator, JSON.stringify(fitted));
      const flags = ['--label-column', 'y', ...(logits ? ['--input', 'logits'] : []), ...(c === 1 ? ['--binary'] : [])];
      const out = join(dir, `out-${seed}.csv`);
      const r = await run(['calibrate', 'apply', calibrator, input, ...flags, '-o', out]);
      expect([r.code, r.stderr]).toEqual([0, '']);
      const lib = calibrated(fitted, scores, c, logits) as ProbMatrix;
      const value = (i: number, k: number) =>
        c === 1 ? (lib.data[i * 2 + 1] as number) : (lib.data[i * c + k] as number);
      const expected = build(t, (i, k) => String(value(i, k)));
      expect(readFileSync(out, 'utf8')).toBe(expected);
      // stdout gives the same bytes; the output reads back as the library's values, labels unchanged
      expect((await run(['calibrate', 'apply', calibrator, input, ...flags])).stdout).toBe(expected);
      const back = await readPredictions(out, { labelColumn: 'y' });
      expect(Array.from(back.labels)).toEqual(labels);
      expect(Array.from(back.scores as Float64Array)).toEqual(
        Array.from({ length: labels.length * c }, (_, j) => value(Math.floor(j / c), j % c)),
      );
    });
  }
  it('Top-k binning adds predicted, p_top and bin at the end of each record; the rest (scores too) is unchanged', async () => {
    for (const seed of [31, 32, 33]) {
      const { t, labels, scores } = table(seed, 3, false);
      const input = join(dir, `top-${seed}.csv`);
      writeFileSync(
        input,
        build(t, (_i, _k, raw) => raw),
      );
      const params = fitTopBinning(labels, Float64Array.from(scores), { numClasses: 3, bins: 3 });
      const calibrator = join(dir, `top-${seed}.json`);
      writeFileSync(calibrator, JSON.stringify(params));
      const r = await run(['calibrate', 'apply', calibrator, input, '--label-column', 'y']);
      expect(r.code).toBe(0);
      const lib = calibrated(params, scores, 3, false) as TopBinningPrediction;
      const cells = (i: number) =>
        i < 0 ? 'predicted,p_top,bin' : `${lib.predicted[i]},${lib.probability[i]},${lib.bin[i]}`;
      expect(r.stdout).toBe(build(t, (_i, _k, raw) => raw, cells));
    }
  });
});

describe('JSON Lines round trip: each line kept but for its score value (under "probs")', () => {
  it('keys in any order, nested values, escapes and unicode are untouched', async () => {
    const u = minstd(5, 400);
    const rows = Array.from({ length: 10 }, (_, i) => ({
      y: i % 3,
      z: [0, 1, 2].map((k) => ((u[i * 3 + k] as number) - 0.5) * 6),
    }));
    const extras = [
      '"id": 7',
      '"text": "a \\"quoted\\" line, é名😀\\n"',
      '"meta": {"logits": [1, 2], "k": null}',
      '"tags": ["x", {"y": [1]}]',
    ];
    const line = (r: (typeof rows)[number], i: number, logits: string) => {
      const parts = [
        `"label": ${r.y}`,
        `"logits" :  ${logits}`,
        extras[i % 4] as string,
        extras[(i + 1) % 4] as string,
      ];
      const order = [2, 0, 1, 3].map((j) => parts[(j + i) % 4] as string);
      return `{ ${order.join(', ')} }`;
    };
    const eol = ['\r\n', '\n', '\r'];
    const text = (f: (i: number) => string) =>
      '\ufeff' + rows.map((r, i) => line(r, i, f(i)) + (eol[i % 3] as string)).join('') + '\n';
    const input = join(dir, 'in.jsonl');
    writeFileSync(
      input,
      text((i) => `[${(rows[i] as (typeof rows)[number]).z.join(', ')}]`),
    );
    const labels = rows.map((r) => r.y);
    const scores = rows.flatMap((r) => r.z);
    const params = fitTemperature(labels, Float64Array.from(scores), { input: 'logits', numClasses: 3 });
    const calibrator = join(dir, 'cal.json');
    writeFileSync(calibrator, JSON.stringify(params));
    const r = await run(['calibrate', 'apply', calibrator, input, '--input', 'logits']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const lib = calibrated(params, scores, 3, true) as ProbMatrix;
    const expected = text((i) => `[${Array.from(lib.data.subarray(i * 3, i * 3 + 3)).join(',')}]`).replace(
      /"logits" :/g,
      '"probs" :',
    );
    expect(r.stdout).toBe(expected);
    // the nested "logits" key inside "meta" is not the score key and stays
    expect(r.stdout).toContain('"meta": {"logits": [1, 2], "k": null}');
  });
});

describe('other inputs become a new CSV: the label column keeps its name (Parquet), other columns are named in a note', () => {
  it('NumPy, JSON and Parquet', async () => {
    const probs = [0.9, 0.1, 0.2, 0.8, 0.6, 0.4];
    const labels = [0, 1, 1];
    const params = fitTemperature(labels, Float64Array.from(probs), { numClasses: 2 });
    const calibrator = join(dir, 'cal2.json');
    writeFileSync(calibrator, JSON.stringify(params));
    const lib = calibrated(params, probs, 2, false) as ProbMatrix;
    const body = (name: string) =>
      `${name},p_0,p_1\n${labels.map((y, i) => `${y},${lib.data[2 * i]},${lib.data[2 * i + 1]}`).join('\n')}\n`;
    writeFileSync(join(dir, 's.npy'), npy([3, 2], probs));
    writeFileSync(join(dir, 'l.npy'), npy([3], labels, '<i8'));
    expect(
      (await run(['calibrate', 'apply', calibrator, join(dir, 's.npy'), '--labels', join(dir, 'l.npy')])).stdout,
    ).toBe(body('label'));
    writeFileSync(
      join(dir, 'd.json'),
      JSON.stringify({
        labels,
        probs: [
          [0.9, 0.1],
          [0.2, 0.8],
          [0.6, 0.4],
        ],
        ids: [1, 2, 3],
      }),
    );
    const j = await run(['calibrate', 'apply', calibrator, join(dir, 'd.json')]);
    expect([j.stdout, j.stderr]).toEqual([
      body('label'),
      `um calibrate apply: note: ${join(dir, 'd.json')}: ids is not copied (only CSV and JSON Lines inputs are written back with every column)\n`,
    ]);
    const pq = join(dir, 'd.parquet');
    writeFileSync(
      pq,
      Buffer.from(
        parquetWriteBuffer({
          columnData: [
            { name: 'id', data: ['a', 'b', 'c'] },
            { name: 'target', data: labels, type: 'INT32' },
            { name: 'p_0', data: [0.9, 0.2, 0.6], type: 'DOUBLE' },
            { name: 'p_1', data: [0.1, 0.8, 0.4], type: 'DOUBLE' },
          ],
        }),
      ),
    );
    const p = await run(['calibrate', 'apply', calibrator, pq, '--label-column', 'target']);
    expect([p.stdout, p.stderr]).toEqual([
      body('target'),
      `um calibrate apply: note: ${pq}: id is not copied (only CSV and JSON Lines inputs are written back with every column)\n`,
    ]);
  });
});

describe('what cannot be written back is exit 2 before anything is written', () => {
  it('an -o of another format, an appended name already present, a "probs" key beside "logits"', async () => {
    const csv = join(dir, 'x.csv');
    writeFileSync(csv, 'label,p_0,p_1,bin\n0,0.9,0.1,a\n1,0.3,0.7,b\n');
    const temp = join(dir, 'cal3.json');
    writeFileSync(temp, JSON.stringify(fitTemperature([0, 1], Float64Array.of(0.9, 0.1, 0.3, 0.7), { numClasses: 2 })));
    const top = join(dir, 'top3.json');
    writeFileSync(
      top,
      JSON.stringify(fitTopBinning([0, 1], Float64Array.of(0.9, 0.1, 0.3, 0.7), { numClasses: 2, bins: 1 })),
    );
    const jsonl = join(dir, 'both.jsonl');
    writeFileSync(jsonl, '{"label":0,"logits":[1,0],"probs":[0.7,0.3]}\n');
    const cases: [string[], RegExp][] = [
      [
        ['calibrate', 'apply', temp, csv, '-o', join(dir, 'o.json')],
        / -o \S+o\.json: the output is CSV \(the input \S+x\.csv with its scores calibrated\); give a \.csv name\n$/,
      ],
      [
        ['calibrate', 'apply', temp, jsonl, '--input', 'logits', '-o', join(dir, 'o.csv')],
        /the output is JSON Lines .*; give a \.jsonl name\n$/,
      ],
      [
        ['calibrate', 'apply', top, csv],
        /x\.csv: already has column bin; the Top-k binning output adds predicted, p_top, bin — rename them first\n$/,
      ],
      [
        ['calibrate', 'apply', temp, jsonl, '--input', 'logits'],
        /both\.jsonl: line 1: has both "logits" and "probs"; the calibrated "probs" would replace the given ones — remove them first\n$/,
      ],
    ];
    for (const [argv, message] of cases) {
      const r = await run(argv);
      expect([r.code, r.stdout], argv.join(' ')).toEqual([2, '']);
      expect(r.stderr).toMatch(message);
    }
  });
});
