/**
 * The built `um` binary as a real process — what only a process shows (every other CLI test calls `main` in
 * process): the exit code bin.js sets from `main`, and a reader that closes the pipe early (`um … | head`) stopping
 * it quietly. The shebang and the installed bin link are run by the README main-job tests (test/cli/metrics.test.ts,
 * test/cli/report.test.ts); signals by test/cli/output.test.ts (kill -9 mid-write); devices and FIFOs by
 * test/cli/hostile.test.ts; worker threads as processes by the files fuzz.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { repoRoot, umProcess } from '../helpers/cli.js';

describe('um as a process', () => {
  it('exits with the code of main: 0 for a result, 2 with one line for bad input or usage', () => {
    expect(umProcess(['--version'])).toMatchObject({ code: 0, stderr: '' });
    const bad = umProcess(['metrics', 'test/fixtures/files/ragged.csv']);
    expect([bad.code, bad.stdout]).toEqual([2, '']);
    expect(bad.stderr).toBe(
      'um metrics: test/fixtures/files/ragged.csv: line 3: expected 3 fields like the header, got 2\n',
    );
    const usage = umProcess([]);
    expect([usage.code, usage.stderr]).toEqual([2, '']);
    expect(usage.stdout).toMatch(/USAGE/);
  });

  it('stops quietly with exit 0 when its reader closes the pipe (um … | head)', async () => {
    // ~400 KB of calibrated probabilities on stdout: far more than a pipe buffers, so writes meet the closed pipe
    const args = [
      'calibrate',
      'apply',
      'test/fixtures/files/temperature.json',
      'examples/data/mlp_overfit_test_logits.npy',
      '--input',
      'logits',
    ];
    const child = spawn(process.execPath, [`${repoRoot}packages/core/dist/cli/bin.js`, ...args], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let first = '';
    child.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
    child.stdout.once('data', (d: Buffer) => {
      first = d.toString();
      child.stdout.destroy();
    });
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on('close', (c, s) => resolve([c, s])),
    );
    expect(first.length).toBeGreaterThan(0);
    expect([code, signal, stderr]).toEqual([0, null, '']);
  });
});
