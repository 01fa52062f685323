/**
 * `main(argv, io)` run again and again in one process (as every CLI test and an embedder runs it) leaves nothing
 * behind and writes only through `io`: the global warning handler, process.exitCode, the working directory and the
 * process's listeners are as before, and nothing reaches the console or the process's streams directly — on results,
 * warnings, bad input and usage, for every command.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { setWarningHandler, type UMWarning } from '../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'um-main-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const F = (name: string) => `test/fixtures/files/${name}`;
const D = 'examples/data/';

/** Every command, on results, warnings, bad input and usage. */
const RUNS: string[][] = [
  ['metrics', `${D}logreg_test.csv`],
  ['metrics', F('good.csv'), '--json', '--ci', '0.9', '--resamples', '5'],
  ['metrics', F('members_zero.json')], // a warning (infinite Gibbs NLL)
  ['metrics', `${D}logreg_test.csv`, '--stream', '--threads', '1', '--bounded'], // a warning (bounded estimates)
  ['metrics', '--engine', 'duckdb', F('good.csv')],
  ['metrics', F('ragged.csv')],
  ['metrics', F('missing.csv')],
  ['compare', F('good.csv'), F('good.csv'), '--resamples', '5'],
  ['report', F('good.csv'), '--md', '-o', '-'],
  ['report', F('good.csv'), '-o', join(dir, 'r.html')],
  [
    'calibrate',
    'fit',
    '--method',
    'temperature',
    `${D}gnb_raw_val_logits.npy`,
    '--labels',
    `${D}val_labels.npy`,
    '--input',
    'logits',
    '-o',
    join(dir, 't.json'),
  ], // a bound warning
  ['calibrate', 'apply', join(dir, 't.json'), `${D}gnb_raw_test_logits.npy`, '--input', 'logits'],
  ['calibrate'],
  ['--help'],
  [],
];

const EVENTS = [
  'exit',
  'beforeExit',
  'warning',
  'uncaughtException',
  'unhandledRejection',
  'SIGINT',
  'SIGTERM',
  'SIGPIPE',
] as const;
const listeners = () => [
  ...EVENTS.map((e) => process.listenerCount(e)),
  ...(['error', 'drain', 'close'] as const).flatMap((e) => [
    process.stdout.listenerCount(e),
    process.stderr.listenerCount(e),
  ]),
];

describe('main in process', () => {
  it('leaves the process as it found it and writes only through io', async () => {
    const global: UMWarning[] = [];
    const previous = setWarningHandler((w) => global.push(w));
    const spies = [
      vi.spyOn(process.stdout, 'write'),
      vi.spyOn(process.stderr, 'write'),
      ...(['log', 'warn', 'error', 'info', 'debug'] as const).map((m) => vi.spyOn(console, m)),
    ];
    const before = { exitCode: process.exitCode, cwd: process.cwd(), listeners: listeners() };
    const codes: number[] = [];
    let stderr = '';
    try {
      for (const argv of RUNS) codes.push(await main(argv, { stdout: () => {}, stderr: (t) => void (stderr += t) }));
    } finally {
      for (const s of spies) s.mockRestore();
      setWarningHandler(previous);
    }
    expect(codes).toEqual([0, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 0, 2, 0, 2]);
    // the warnings went to io, none to the global handler
    expect(stderr.match(/\[UM_W_\w+\]/g)?.length).toBeGreaterThanOrEqual(3);
    expect(global).toEqual([]);
    expect(spies.map((s) => s.mock.calls.length)).toEqual(spies.map(() => 0));
    expect({ exitCode: process.exitCode, cwd: process.cwd(), listeners: listeners() }).toEqual(before);
  });
});
