import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, describe, expect, it } from 'vitest';
import { um } from '../helpers/cli.js';
import { mulberry32 as rng } from '../helpers/mulberry32.js';

const dir = mkdtempSync(join(tmpdir(), 'um-two-pass-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// 9 000 unweighted rows of 5 classes: half on a 1/20 grid (blocks of ties at the cuts, zeros, ones), half continuous
// with 9 decimals (as the benchmark's files)
const c = 5;
const u = rng(11);
const rows: string[] = [`label,${Array.from({ length: c }, (_, k) => `p_${k}`).join(',')}`];
for (let i = 0; i < 9000; i++) {
  const p = new Array<number>(c).fill(0);
  if (u() < 0.5) {
    let left = 20;
    for (let k = 0; k < c - 1; k++) {
      const a = Math.floor(u() * (left + 1) * 0.6);
      p[k] = a / 20;
      left -= a;
    }
    p[c - 1] = left / 20;
  } else {
    let z = 0;
    for (let k = 0; k < c; k++) z += p[k] = Math.exp(5 * u());
    for (let k = 0; k < c; k++) p[k] = (p[k] as number) / z;
  }
  rows.push(`${Math.floor(u() * c)},${p.map((x) => (Number.isInteger(x * 20) ? String(x) : x.toFixed(9))).join(',')}`);
}
const csv = join(dir, 'ties.csv');
writeFileSync(csv, `${rows.join('\n')}\n`);

/** `um … --json`; a command already run here gives its result again (the same command gives the same bits). */
const runs = new Map<string, Promise<Record<string, unknown>>>();
const json = (args: string[], built = false): Promise<Record<string, unknown>> => {
  const key = JSON.stringify(args);
  let made = runs.get(key);
  if (made === undefined) {
    made = um([...args, '--json'], { built }).then((r) => {
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as Record<string, unknown>;
    });
    runs.set(key, made);
  }
  return made;
};

describe('um metrics --stream reads a file twice for the class-wise equal-mass bins', () => {
  it('bit for bit the in-memory numbers, with any chunks and threads', async () => {
    const drop = (r: Record<string, unknown>) => ({ ...r, streamed: null, config: null });
    // the default bins (15) and 4; 3 and 4 chunks of the same 9 000 rows: each run merges more than two chunks'
    // counts and buckets the rows near the cuts of every chunk (9-chunk runs cost about 3× as much in the second pass
    // and check nothing more). Two threads once: the workers reduce the same tasks with the same code as this thread
    // (each two-thread run of two passes starts two workers per pass, about 0.9 s of CPU), and the bin count is
    // data in the task they are sent
    for (const [bins, chunkings] of [
      [
        [],
        [
          ['3000', '1'],
          ['2500', '2'],
        ],
      ],
      [
        ['--bins', '4'],
        [
          ['3000', '1'],
          ['2500', '1'],
        ],
      ],
    ] as const) {
      const base = await json(['metrics', csv, '--no-stream', ...bins]);
      expect(base.ace).not.toBeNull();
      for (const [chunkRows, threads] of chunkings) {
        const got = await json(
          ['metrics', csv, '--stream', ...bins, '--chunk-rows', chunkRows, '--threads', threads, '--passes', '2'],
          threads === '2',
        );
        expect(got.streamed).toMatchObject({ passes: 2, threads: Number(threads) });
        expect((got.streamed as { chunks: number }).chunks).toBeGreaterThan(2);
        expect(drop(got)).toEqual(drop(base));
      }
    }
  });
});

describe('--passes', () => {
  const streamed = async (args: string[]) => (await json(['metrics', csv, '--stream', ...args])).streamed;

  it('by default reads twice only chunks of at least 2^17 rows (smaller: a histogram outweighs the entries)', async () => {
    expect(await streamed(['--chunk-rows', '3000', '--threads', '1'])).toMatchObject({ passes: 1 });
    // (the run the next test compares with --passes 2: one run for both)
    expect(await streamed(['--chunk-rows', '3000', '--threads', '1', '--passes', '1'])).toMatchObject({ passes: 1 });
  });

  it('--passes 1 and 2 give the same numbers', async () => {
    const one = await json(['metrics', csv, '--stream', '--chunk-rows', '3000', '--threads', '1', '--passes', '1']);
    // (the bit-for-bit test's run of the default bins, when both run)
    const two = await json(['metrics', csv, '--stream', '--chunk-rows', '3000', '--threads', '1', '--passes', '2']);
    expect({ ...one, streamed: null }).toEqual({ ...two, streamed: null });
  });

  const weighted = join(dir, 'weighted.csv');
  writeFileSync(weighted, 'label,p_0,p_1,w\n' + '0,0.7,0.3,1\n1,0.2,0.8,2\n'.repeat(10));
  const refused: [string, string[], RegExp][] = [
    ['a value other than 1 or 2', ['--chunk-rows', '3000', '--passes', '3'], /--passes must be 1 or 2; got "3"/],
    ['a word', ['--chunk-rows', '3000', '--passes', 'two'], /--passes must be 1 or 2; got "two"/],
    ['--bounded', ['--chunk-rows', '3000', '--bounded', '--passes', '2'], /--passes 2 reads the file twice/],
    ['one chunk', ['--passes', '2'], /--passes 2 reads the file twice.*a file of one chunk/],
  ];
  for (const [what, args, message] of refused)
    it(`refuses ${what}`, async () => {
      const r = await um(['metrics', csv, '--stream', ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
    });

  it('refuses --passes 2 with a weight column', async () => {
    const r = await um(['metrics', weighted, '--weights', 'w', '--chunk-rows', '5', '--passes', '2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--passes 2 reads the file twice.*--weights/);
  });
});

describe('--passes 2 where nothing can be read twice', () => {
  // a Parquet list column named logits is logits without a flag: pass 1 must not count its softmax while pass 2
  // buckets the raw logits (that read as "the file changed")
  const g = rng(5);
  const n = 3000;
  const logits = join(dir, 'logits.parquet');
  writeFileSync(
    logits,
    Buffer.from(
      parquetWriteBuffer({
        columnData: [
          { name: 'label', data: Array.from({ length: n }, () => Math.floor(g() * 3)), type: 'INT32' },
          { name: 'logits', data: Array.from({ length: n }, () => [4 * g() - 2, 4 * g() - 2, 4 * g() - 2]) },
        ],
        rowGroupSize: 1000,
      }),
    ),
  );

  it('a Parquet logits column: --passes 2 is refused after the first read, --passes 1 gives the in-memory numbers', async () => {
    const r = await um(['metrics', logits, '--stream', '--chunk-rows', '1000', '--threads', '1', '--passes', '2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--passes 2: .* has nothing to read twice: .*it holds logits of 3 classes/);
    const one = await json(['metrics', logits, '--stream', '--chunk-rows', '1000', '--threads', '1', '--passes', '1']);
    const whole = await json(['metrics', logits, '--no-stream']);
    expect({ ...one, streamed: null, config: null }).toEqual({ ...whole, streamed: null, config: null });
  });

  it('--no-classwise leaves nothing to read twice', async () => {
    const r = await um(['metrics', csv, '--no-classwise', '--chunk-rows', '3000', '--threads', '1', '--passes', '2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/has nothing to read twice.*--no-classwise leaves them out/);
  });
});
