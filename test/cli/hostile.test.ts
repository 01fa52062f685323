/**
 * Every command on the table of hostile files (test/helpers/hostile.ts): exit 0, or exit 2 with one line naming
 * the file — never exit 1 (an internal error), never a hang. In-process through `main` (fast); the devices and FIFOs
 * the sequential readers read, and one device and one FIFO of those the others reject, also in a real process that
 * must exit by itself after them, killed if it outlives its time limit.
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

/**
 * The commands run one after another by `main` in one process: it says `start k` before command k and waits for a
 * line on stdin (the test starts the FIFO's writer first), prints each result, and must exit by itself once stdin
 * closes. A process start is most of what each of these commands costs (14 of them: 2 s of CPU as processes, 0.5 s as
 * one); whatever one of them leaves behind — a stream still reading, an error thrown after `main` returned — keeps the
 * process alive or makes it exit non-zero.
 */
const DRIVER = `import { createInterface } from 'node:readline';
import { main } from ${JSON.stringify(`${repoRoot}packages/core/dist/cli/main.js`)};
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
for (const [k, argv] of JSON.parse(process.argv[2]).entries()) {
  process.stdout.write(JSON.stringify({ start: k }) + '\\n');
  await lines.next();
  let stderr = '';
  const code = await main(argv, { stdout: () => {}, stderr: (t) => void (stderr += t) });
  process.stdout.write(JSON.stringify({ done: k, code, stderr }) + '\\n');
}
`;

interface ProcessRun {
  /** Each command's exit code (-1: no answer within its time limit) and stderr, in order. */
  results: { code: number; stderr: string }[];
  /** The process's own exit code (-1: killed, still alive after its time limit). */
  exit: number;
  /** What the process printed on its own stderr (a crash's stack). */
  stderr: string;
}

/** Runs `runs` in one process (see DRIVER), each FIFO fed by this one as its command starts. */
function realProcess(runs: { c: HostileCase; argv: string[] }[]): Promise<ProcessRun> {
  const driver = join(dir, 'driver.mjs');
  writeFileSync(driver, DRIVER);
  const child = spawn(process.execPath, [driver, JSON.stringify(runs.map((r) => r.argv))], {
    cwd: repoRoot,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
  const results: ProcessRun['results'] = runs.map(() => ({ code: -1, stderr: '' }));
  let timer: NodeJS.Timeout | undefined;
  // each command, and the exit after the last, within LIMIT_MS
  const limit = () => {
    clearTimeout(timer);
    timer = setTimeout(() => child.kill('SIGKILL'), LIMIT_MS);
  };
  limit();
  // the messages are handled in order, each after the one before: a FIFO's writer starts only once the previous
  // command's writer is released (two writers waiting on one FIFO would both write into its next reader)
  let chain = Promise.resolve();
  let feeding: { c: HostileCase; writer: Promise<void> | undefined } | undefined;
  const step = async (m: { start?: number; done?: number; code?: number; stderr?: string }) => {
    if (m.start !== undefined) {
      const c = (runs[m.start] as { c: HostileCase }).c;
      feeding = { c, writer: c.fifo === undefined ? undefined : feedFifo(c.file, c.fifo) };
      child.stdin.write('go\n');
    } else if (m.done !== undefined) {
      results[m.done] = { code: m.code ?? -1, stderr: m.stderr ?? '' };
      if (m.done === runs.length - 1) child.stdin.end();
      const f = feeding;
      feeding = undefined;
      if (f !== undefined) await release(f.writer, f.c);
    }
  };
  child.stdin.on('error', () => undefined); // a killed process's closed stdin: what it answered is in `results`
  let buffered = '';
  child.stdout.on('data', (d: Buffer) => {
    buffered += d.toString();
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      limit();
      // anything but the driver's messages (a command writing to the process's stdout) is shown with its stderr
      if (!line.startsWith('{"')) stderr += `stdout: ${line}\n`;
      // a step that fails (its writer's error) is shown with the process's stderr; the next steps still run, so the
      // test fails on what it reads instead of waiting for its time limit
      else
        chain = chain
          .then(() => step(JSON.parse(line) as Parameters<typeof step>[0]))
          .catch((error: unknown) => void (stderr += `test: ${String(error)}\n`));
    }
  });
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // a writer still waiting (its command never answered) is let go before the test ends
      void chain
        .then(() => (feeding === undefined ? undefined : release(feeding.writer, feeding.c)))
        .catch((error: unknown) => void (stderr += `test: ${String(error)}\n`))
        .then(() => resolve({ results, exit: signal === 'SIGKILL' ? -1 : (code ?? -1), stderr }));
    });
  });
}

function check(c: HostileCase, name: string, r: { code: number; stderr: string }): void {
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
  // error would keep a process alive though `main` returned, so each reading command also runs in a process (one for
  // all of them, which must exit by itself after the last: see DRIVER). JSON, NumPy
  // and Parquet are rejected by the same `stat` check before anything is opened (opening a FIFO without a writer would
  // block, which the in-process run of every command above times out): Parquet, whose reader opens the file a second
  // time, stands for them, as a device and as a FIFO.
  const asProcess = devices.filter((c) => /\.(csv|jsonl|parquet)$/.test(c.file));
  const runs = asProcess.flatMap((c) => {
    const sequential = !c.file.endsWith('.parquet');
    return commands(c)
      .filter((x) => (sequential ? x.name.startsWith('metrics') || x.name === 'calibrate apply' : x.name === 'metrics'))
      .map((x) => ({ c, ...x }));
  });
  let shared: Promise<ProcessRun> | undefined;
  const inOneProcess = () => (shared ??= realProcess(runs));
  for (const c of asProcess) {
    it(`${c.name} as a real process (exit code, no hang)`, async () => {
      const { results, exit, stderr } = await inOneProcess();
      // the process ends by itself, without an error, once its last command returned (-1: it was still alive
      // LIMIT_MS later, or a command never answered); a command that left something behind ran in it
      expect(exit, `${runs.map((r) => `${r.name} ${r.c.name}`).join(', ')}\n${stderr}`).toBe(0);
      runs.forEach((r, k) => {
        if (r.c === c) check(c, r.name, results[k] as ProcessRun['results'][number]);
      });
    });
  }
  it('the table has devices and FIFOs', () => {
    expect(devices.length).toBeGreaterThanOrEqual(10);
    expect(asProcess.map((c) => c.name).sort()).toEqual(
      ['fifo.csv', 'fifo.jsonl', 'fifo.parquet', 'zero.csv', 'zero.jsonl', 'zero.parquet'].sort(),
    );
  });
});
