import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamPredictions } from '../../src/io/index.js';
import { um } from '../helpers/cli.js';
import { exampleCsv } from '../helpers/data.js';

const dir = mkdtempSync(join(tmpdir(), 'um-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const d = exampleCsv('mlp_overfit_test');
// 2 copies in a different order per copy (repeated rows: ties across chunks), with whole-number weights 1–3: 4000 rows
// in 4 chunks of CHUNK rows, the last partial (and as many Parquet row groups). 10 000 rows (5 copies) cost ~2.5× the
// CPU per run and took no path these do not.
const labels: number[] = [];
const probs: number[][] = [];
const weights: number[] = [];
for (let r = 0; r < 2; r++) {
  for (let j = 0; j < d.labels.length; j++) {
    const i = (j * (2 * r + 1) + r) % d.labels.length;
    labels.push(d.labels[i] as number);
    probs.push(d.probs[i] as number[]);
    weights.push(1 + ((i + r) % 3));
  }
}
const c = 10;
/** Rows per chunk of the chunked runs (and per Parquet row group): 4 chunks. */
const CHUNK = 1100;
const header = ['label', ...Array.from({ length: c }, (_, k) => `p_${k}`), 'w'].join(',');
const csvText = `${header}\n${labels.map((y, i) => [y, ...(probs[i] as number[]), weights[i]].join(',')).join('\n')}\n`;
const csv = join(dir, 'preds.csv');
writeFileSync(csv, csvText);

function npy(path: string, dtype: string, shape: number[], bytes: Buffer): void {
  let h = `{'descr': '${dtype}', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  while ((10 + h.length + 1) % 64 !== 0) h += ' ';
  h += '\n';
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1;
  head[7] = 0;
  head.writeUInt16LE(h.length, 8);
  writeFileSync(path, Buffer.concat([head, Buffer.from(h, 'latin1'), bytes]));
}
const scoresNpy = join(dir, 'scores.npy');
const labelsNpy = join(dir, 'labels.npy');
npy(scoresNpy, '<f8', [labels.length, c], Buffer.from(Float64Array.from(probs.flat()).buffer));
npy(labelsNpy, '<i8', [labels.length], Buffer.from(BigInt64Array.from(labels.map(BigInt)).buffer));
const parquet = join(dir, 'preds.parquet');
writeFileSync(
  parquet,
  Buffer.from(
    parquetWriteBuffer({
      columnData: [
        { name: 'label', data: labels, type: 'INT32' },
        ...Array.from({ length: c }, (_, k) => ({
          name: `p_${k}`,
          data: probs.map((r) => r[k] as number),
          type: 'DOUBLE' as const,
        })),
        { name: 'w', data: weights, type: 'DOUBLE' },
      ],
      rowGroupSize: CHUNK,
    }),
  ),
);
const jsonl = join(dir, 'preds.jsonl');
writeFileSync(jsonl, labels.map((y, i) => JSON.stringify({ label: y, probs: probs[i], w: weights[i] })).join('\n'));

/** `um … --json` in this process; `built` for runs on worker threads (more than one chunk and thread). */
const json = async (args: string[], built = false) => {
  const r = await um([...args, '--json'], { built });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, number | null | Record<string, number | null>>;
};
const KEYS = [
  'accuracy',
  'ece',
  'mce',
  'rmsce',
  'sce',
  'ace',
  'tace',
  'uce',
  'aece',
  'amce',
  'brier',
  'nll',
  'auroc',
  'aupr',
  'aurc',
  'eaurc',
];

type Json = Awaited<ReturnType<typeof json>>;

/** A command's result, run once for the tests that read it (the same command gives the same bits). */
const once = (args: string[]): (() => Promise<Json>) => {
  let made: Promise<Json> | undefined;
  return () => (made ??= json(args));
};
/** The CSV read whole (what every streamed result is compared with; `--no-stream` so that it cannot be streamed). */
const inMemoryCsv = once(['metrics', csv, '--no-stream']);
const inMemoryWeighted = once(['metrics', csv, '--weights', 'w']);
/** The CSV streamed in CHUNK-row chunks on this thread (the bit-for-bit test and the streamed report read it). */
const streamedCsv = once(['metrics', csv, '--stream', '--chunk-rows', String(CHUNK), '--threads', '1']);

describe('um metrics --stream', () => {
  let whole: Json;
  let weighted: Json;
  beforeAll(async () => {
    whole = await inMemoryCsv();
    weighted = await inMemoryWeighted();
  });

  it('reads every format batch by batch: the concatenation is the whole file', async () => {
    const total = probs.flat().reduce((a, b) => a + b, 0);
    for (const [file, extra] of [
      [csv, {}],
      [jsonl, {}],
      [parquet, {}],
      [scoresNpy, { labels: labelsNpy }],
    ] as const) {
      let n = 0;
      let sum = 0;
      let batches = 0;
      for await (const b of streamPredictions(file, { ...extra, batchRows: 1024 })) {
        expect(b.firstRow).toBe(n);
        n += b.n;
        batches++;
        for (let j = 0; j < (b.scores as Float64Array).length; j++) sum += (b.scores as Float64Array)[j] as number;
      }
      expect(n).toBe(labels.length);
      // Parquet batches follow its row groups (CHUNK rows here); the others are exactly batchRows long
      expect(batches).toBe(file === parquet ? Math.ceil(labels.length / CHUNK) : Math.ceil(labels.length / 1024));
      expect(Math.abs(sum - total)).toBeLessThan(1e-6);
    }
  });

  it('--exact equals the in-memory numbers in every format (≤ 1e-12 relative)', async () => {
    for (const args of [[csv], [jsonl], [parquet], [scoresNpy, '--labels', labelsNpy]]) {
      const r = await json(['metrics', ...args, '--stream', '--exact']);
      for (const k of KEYS)
        expect(Math.abs((r[k] as number) - (whole[k] as number)), `${args[0]} ${k}`).toBeLessThanOrEqual(
          1e-12 * Math.abs(whole[k] as number),
        );
    }
  });

  it('with --weights equals the in-memory weighted numbers', async () => {
    const r = await json(['metrics', csv, '--weights', 'w', '--stream', '--exact']);
    for (const k of KEYS)
      expect(Math.abs((r[k] as number) - (weighted[k] as number)), k).toBeLessThanOrEqual(
        1e-12 * Math.abs(weighted[k] as number),
      );
    expect(weighted.n).toBe(weights.reduce((a, b) => a + b, 0));
    expect(weighted.ece).not.toBe(whole.ece);
  });

  it('--bounded: every metric within its proven bound, the others n/a with a warning', async () => {
    for (const args of [[csv], [parquet]]) {
      const r = await json(['metrics', ...args, '--stream', '--bounded']);
      const bounds = r.bounds as Record<string, number | null>;
      for (const k of KEYS) {
        const b = bounds[k];
        if (b === undefined) {
          // no proven bound on the grid: not estimated
          expect(r[k], k).toBeNull();
          continue;
        }
        expect(b, k).not.toBeNull();
        expect(Math.abs((r[k] as number) - (whole[k] as number)), `${k} ± ${b}`).toBeLessThanOrEqual(b as number);
      }
      expect(bounds.ece).toBe(0);
      expect(bounds.auroc).toBeGreaterThan(0);
      expect((r.warnings as unknown as { code: string }[]).map((w) => w.code)).toContain('UM_W_BOUNDED');
    }
  });

  it('exact by default, bit for bit the in-memory numbers, with any chunks and threads', async () => {
    for (const args of [[csv], [parquet], [scoresNpy, '--labels', labelsNpy]]) {
      const one = await (args[0] === csv
        ? streamedCsv()
        : json(['metrics', ...args, '--stream', '--chunk-rows', String(CHUNK), '--threads', '1']));
      // 2 threads for 4 chunks: each thread reduces several and they arrive out of order, as with more threads (a
      // third thread only added a worker start, half a second of CPU, per format)
      const two = await json(['metrics', ...args, '--stream', '--chunk-rows', String(CHUNK), '--threads', '2'], true);
      expect((one.streamed as Record<string, number>).chunks).toBeGreaterThanOrEqual(3);
      expect({ ...two, streamed: null }).toEqual({ ...one, streamed: null });
      expect((two.streamed as Record<string, number>).threads).toBe(2);
      const inMemory = await (args[0] === csv ? inMemoryCsv() : json(['metrics', ...args, '--no-stream']));
      for (const k of KEYS) expect(one[k], k).toBe(inMemory[k]);
    }
  });

  it('an error in a later chunk is located in the file', async () => {
    const lines = csvText.split('\n');
    // line 2801: row 2799, in the third of four chunks
    lines[2800] = lines[2800]?.replace(/^\d+,[^,]*,/, (m) => m.replace(/,[^,]*,$/, ',1.5,')) ?? '';
    const bad = join(dir, 'range.csv');
    writeFileSync(bad, lines.join('\n'));
    const r = await um(['metrics', bad, '--stream', '--chunk-rows', String(CHUNK), '--threads', '2'], { built: true });
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(
      /um metrics: .*range\.csv: line 2801, column 2 \("p_0"\): probs\[\d+\]\[0\] must be in \[0, 1\]; got 1\.5/,
    );
  });

  it('a corrupt row midway exits 2 with its line and column, and prints no result', async () => {
    const lines = csvText.split('\n');
    lines[2800] = lines[2800]?.replace(/,[^,]*,/, ',0.1x,') ?? '';
    const bad = join(dir, 'corrupt.csv');
    writeFileSync(bad, lines.join('\n'));
    const r = await um(['metrics', bad, '--stream']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /um metrics: .*corrupt\.csv: line 2801, column 2 \("p_0"\): expected a number; got "0\.1x"/,
    );
  });

  it('a truncated file exits 2 with its position, and prints no result', async () => {
    const cut = join(dir, 'truncated.csv');
    writeFileSync(cut, csvText.slice(0, Math.floor(csvText.length * 0.6)));
    const r = await um(['metrics', cut, '--stream']);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(
      /truncated\.csv: line \d+: expected 12 fields like the header, got \d+|truncated\.csv: line \d+.*row sums|truncated\.csv: line \d+/,
    );

    const bytes = readFileSync(scoresNpy);
    const cutNpy = join(dir, 'truncated.npy');
    writeFileSync(cutNpy, bytes.subarray(0, 128 + 80 * 1321 + 17));
    const n = await um(['metrics', cutNpy, '--labels', labelsNpy, '--stream']);
    expect([n.code, n.stdout]).toEqual([2, '']);
    expect(n.stderr).toMatch(
      /truncated\.npy: byte 105825: is truncated: its header declares shape \[4000, 10\] \(320128 bytes\), the file has 105825; row 1321 is cut off/,
    );

    const pq = readFileSync(parquet);
    const cutPq = join(dir, 'truncated.parquet');
    writeFileSync(cutPq, Buffer.concat([pq.subarray(0, Math.floor(pq.length / 2)), pq.subarray(pq.length - 8)]));
    const p = await um(['metrics', cutPq, '--stream']);
    expect([p.code, p.stdout]).toEqual([2, '']);
    expect(p.stderr).toMatch(/truncated\.parquet: (is not a readable Parquet file|rows \d+…\d+ cannot be read)/);
  });
});

describe('um report --stream', () => {
  it('reduces the file to states: the metrics and reliability diagrams, other charts left out with a note', async () => {
    const out = join(dir, 'report.json');
    const r = await um(
      ['report', csv, '--stream', '--chunk-rows', String(CHUNK), '--threads', '2', '--json', '-o', out],
      {
        built: true,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(out, 'utf8')) as {
      models: { n: number; evaluation: Record<string, number> }[];
      charts: { id: string; spec: { datasets?: Record<string, unknown[]> } }[];
      notes: string[];
    };
    // on one thread, in this process: threads give the same bits (the test above); the report ran on two
    const metrics = await streamedCsv();
    for (const k of KEYS) expect(report.models[0]?.evaluation[k], k).toBe(metrics[k]);
    // the confidence histogram reads the same table as the diagram
    expect(report.charts.map((c) => c.id)).toEqual(['reliability', 'histogram', 'uncertainty']);
    expect(report.notes[0]).toMatch(
      /preds: streamed \(4000 rows in constant memory\) — metrics and reliability diagrams only/,
    );
    // a streamed report next to an in-memory one: both in the table, the curves for the in-memory one (2 resamples:
    // the mix is the subject, not the in-memory model's intervals)
    const mixed = join(dir, 'mixed.json');
    const args = [
      '--json',
      '-o',
      mixed,
      '--chunk-rows',
      String(CHUNK),
      '--stream',
      '--resamples',
      '2',
      '--threads',
      '1',
    ];
    expect((await um(['report', csv, 'examples/data/logreg_test.csv', ...args])).code).toBe(0);
    const m = JSON.parse(readFileSync(mixed, 'utf8')) as { models: unknown[]; charts: { id: string }[] };
    expect(m.models.length).toBe(2);
  });
});

describe('um metrics --engine duckdb', () => {
  let whole: Json;
  beforeAll(async () => {
    whole = await inMemoryCsv();
  });
  it('CSV, Parquet and a query give the in-memory numbers (≤ 1e-9 relative)', async () => {
    for (const args of [[csv], [parquet], ['--query', `SELECT * FROM read_parquet('${parquet}')`]]) {
      const r = await json(['metrics', '--engine', 'duckdb', ...args]);
      for (const k of ['accuracy', 'ece', 'mce', 'sce', 'uce', 'brier', 'nll', 'auroc']) {
        expect(Math.abs((r[k] as number) - (whole[k] as number)), `${args.join(' ')} ${k}`).toBeLessThanOrEqual(
          1e-9 * Math.abs(whole[k] as number),
        );
      }
    }
  });
  it('weights through SQL equal the in-memory weighted numbers', async () => {
    const weighted = await inMemoryWeighted();
    const r = await json(['metrics', '--engine', 'duckdb', csv, '--weights', 'w']);
    for (const k of ['accuracy', 'ece', 'sce', 'uce', 'brier', 'nll', 'auroc'])
      expect(Math.abs((r[k] as number) - (weighted[k] as number)), k).toBeLessThanOrEqual(
        1e-9 * Math.abs(weighted[k] as number),
      );
  });
  it('refuses what it cannot do (exit 2)', async () => {
    const r = await um(['metrics', '--engine', 'duckdb', csv, '--preset', 'sklearn']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--preset is not available with --engine/);
  });
});
