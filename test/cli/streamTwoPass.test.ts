import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { um } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'um-two-pass-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** mulberry32. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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

const json = async (args: string[], built = false) => {
  const r = await um([...args, '--json'], { built });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
};

describe('um metrics --stream reads a file twice for the class-wise equal-mass bins', () => {
  it('bit for bit the in-memory numbers, with any chunks and threads', async () => {
    const inMemory = await json(['metrics', csv, '--no-stream']);
    const drop = (r: Record<string, unknown>) => ({ ...r, streamed: null, config: null });
    for (const bins of ['15', '4']) {
      const base = await json(['metrics', csv, '--no-stream', '--bins', bins]);
      for (const [chunkRows, threads] of [
        ['1000', '1'],
        ['2500', '2'],
      ] as const) {
        const got = await json(
          ['metrics', csv, '--stream', '--bins', bins, '--chunk-rows', chunkRows, '--threads', threads],
          threads === '2',
        );
        expect((got.streamed as { chunks: number }).chunks).toBeGreaterThan(2);
        expect(drop(got)).toEqual(drop(base));
      }
    }
    expect(inMemory.ace).not.toBeNull();
  });
});
