/**
 * Every command on the table of hostile files (test/helpers/hostile.ts): exit 0, or exit 2 with one line naming
 * the file — never exit 1 (an internal error), never a hang. In-process through `main` (fast); the devices and FIFOs
 * the sequential readers read, and one device and one FIFO of those the others reject, also as real processes, killed
 * if they outlive their time limit.
 */
import { spawn } from 'node:child_process';
import { constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fitTemperature } from '../../src/index.js';
import { main } from '../../src/cli/main.js';
import { repoRoot } from '../helpers/cli.js';
import { feedFifo, hostileFiles, type HostileCase } from '../helpers/hostile.js';

const dir = mkdtempSync(join(tmpdir(), 'um-hostile-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const CASES = hostileFiles(dir);
const GOOD = 'test/fixtures/files/good.csv';
const CAL = join(dir, 'cal2.json');
writeFileSync(
  CAL,
  JSON.stringify(fitTemperature([0, 1, 1], Float64Array.of(0.8, 0.2, 0.3, 0.7, 0.4, 0.6), { numClasses: 2 })),
);
const LIMIT_MS = 15_000;

/** Every command, reading the case's file (and labels). */
function commands(c: HostileCase): { name: string; argv: string[] }[] {
  const labels = c.labels === undefined ? [] : ['--labels', c.labels];
  const weights = c.options?.weightColumn === undefined ? [] : ['--weights', c.options.weightColumn];
  const out = (ext: string) => ['-o', join(dir, `out-${c.name}.${ext}`)];
  const applyOut = c.file.endsWith('.jsonl') ? 'jsonl' : 'csv';
  return [
    { name: 'metrics', argv: ['metrics', c.file, ...labels, ...weights] },
    { name: 'metrics --stream', argv: ['metrics', c.file, ...labels, ...weights, '--stream', '--threads', '1'] },
    // 2 resamples (compare's 20): reading the file is the subject, not the intervals
    { name: 'report', argv: ['report', c.file, ...labels, ...weights, '--md', ...out('md'), '--resamples', '2'] },
    {
      name: 'calibrate fit',
      argv: ['calibrate', 'fit', '--method', 'temperature', c.file, ...labels, ...weights, ...out('json')],
    },
    { name: 'calibrate apply', argv: ['calibrate', 'apply', CAL, c.file, ...labels, ...weights, ...out(applyOut)] },
    { name: 'compare', argv: ['compare', c.file, GOOD, ...labels, ...weights, '--resamples', '20'] },
  ];
}

async function inProcess(c: HostileCase, argv: string[]): Promise<{ code: number; stderr: string; ms: number }> {
  let stderr = '';
  const start = Date.now();
  const feeding = c.fifo === undefined ? undefined : feedFifo(c.file, c.fifo);
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<number>((resolve) => {
    timer = setTimeout(() => resolve(-1), LIMIT_MS);
  });
  const code = await Promise.race([main(argv, { stdout: () => {}, stderr: (t) => void (stderr += t) }), limit]);
  clearTimeout(timer);
  await release(feeding, c);
  return { code, stderr, ms: Date.now() - start };
}

/**
 * A command that rejects a FIFO without opening it leaves its writer waiting in `open` (a thread of libuv's pool):
 * open it for reading here to let the writer finish. Without blocking, so that there is nothing to wait for: a
 * non-blocking open for reading returns at once whether or not a writer is there (a blocking one would wait for a
 * writer that has already left), and a waiting writer's few bytes fit in the pipe's buffer until it closes.
 */
async function release(feeding: Promise<void> | undefined, c: HostileCase): Promise<void> {
  if (feeding === undefined) return;
  const h = await open(c.file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    await feeding;
  } finally {
    await h.close();
  }
}

function realProcess(c: HostileCase, argv: string[]): Promise<{ code: number; stderr: string; ms: number }> {
  const start = Date.now();
  const child = spawn(process.execPath, [`${repoRoot}packages/cli/bin/um.js`, ...argv], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
  const feeding = c.fifo === undefined ? undefined : feedFifo(c.file, c.fifo);
  const timer = setTimeout(() => child.kill('SIGKILL'), LIMIT_MS);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      void release(feeding, c).then(() =>
        resolve({ code: signal === 'SIGKILL' ? -1 : (code ?? -1), stderr, ms: Date.now() - start }),
      );
    });
  });
}

function check(c: HostileCase, name: string, r: { code: number; stderr: string; ms: number }): void {
  const what = `${name} ${c.name}: ${r.stderr}`;
  expect(r.code, `${what} (-1: no answer within ${LIMIT_MS} ms)`).not.toBe(-1);
  expect([0, 2], what).toContain(r.code);
  if (r.code === 2) {
    expect(r.stderr, what).toMatch(/^um [a-z ]+: [^\n]+\n$/);
    if (typeof c.expect === 'object' && name !== 'compare')
      expect(
        [c.file, c.labels].some((f) => f !== undefined && r.stderr.includes(f)),
        what,
      ).toBe(true);
  }
  if (typeof c.expect === 'object') expect(r.code, what).toBe(2);
  if (c.expect === 'ok' && name === 'metrics') expect(r.code, what).toBe(0);
}

describe('every command on every hostile file: exit 0 or one located line with exit 2, promptly', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      for (const { name, argv } of commands(c)) {
        check(c, name, await inProcess(c, argv));
      }
    });
  }
  const devices = CASES.filter((c) => c.device === true);
  // The sequential readers (CSV, JSON Lines) open a device or a FIFO and read it: a stream left reading after an
  // error would keep a process alive though `main` returned, so each reading command runs as a process. JSON, NumPy
  // and Parquet are rejected by the same `stat` check before anything is opened (opening a FIFO without a writer would
  // block, which the in-process run of every command above times out): Parquet, whose reader opens the file a second
  // time, stands for them, as a device and as a FIFO.
  const asProcess = devices.filter((c) => /\.(csv|jsonl|parquet)$/.test(c.file));
  for (const c of asProcess) {
    const sequential = !c.file.endsWith('.parquet');
    it(`${c.name} as a real process (exit code, no hang)`, async () => {
      for (const { name, argv } of commands(c).filter((x) =>
        sequential ? x.name.startsWith('metrics') || x.name === 'calibrate apply' : x.name === 'metrics',
      ))
        check(c, name, await realProcess(c, argv));
    });
  }
  it('the table has devices and FIFOs', () => {
    expect(devices.length).toBeGreaterThanOrEqual(10);
    expect(asProcess.map((c) => c.name).sort()).toEqual(
      ['fifo.csv', 'fifo.jsonl', 'fifo.parquet', 'zero.csv', 'zero.jsonl', 'zero.parquet'].sort(),
    );
  });
});
