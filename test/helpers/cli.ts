import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.js';
import { setWarningHandler } from '../../src/index.js';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export interface UmResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** What a real process would print on its stderr for a library warning that reached the global handler. */
const asProcessWould = (stderr: (t: string) => void) => (w: { message: string; code: string }) =>
  stderr(`${w.message} [${w.code}]\n`);

/**
 * Runs `um` in this process: `main(argv, io)` from the sources (or from the built dist/ with `built`, whose
 * `--stream` worker threads load dist/cli/streamWorker.js — the sources have no .js worker to start), from the
 * repository root or `cwd`. Starting a process costs ~0.5 s of CPU a call; this costs what the command does.
 *
 * The result is what the binary would give: a library warning that bypasses the command's `onWarning` and reaches the
 * global handler (a real process prints it through `console.warn`) is appended to stderr, so tests that expect an
 * empty stderr still catch it. The working directory and the global handler are restored after the call.
 */
export async function um(args: readonly string[], options: { cwd?: string; built?: boolean } = {}): Promise<UmResult> {
  let stdout = '';
  let stderr = '';
  const io = { stdout: (t: string) => void (stdout += t), stderr: (t: string) => void (stderr += t) };
  const run =
    options.built === true
      ? ((await import('../../packages/core/dist/cli/main.js')) as { main: typeof main }).main
      : main;
  const distWarnings =
    options.built === true
      ? ((await import('../../packages/core/dist/index.js')) as { setWarningHandler: typeof setWarningHandler })
          .setWarningHandler
      : setWarningHandler;
  const previous = distWarnings(asProcessWould(io.stderr));
  const cwd = process.cwd();
  const target = resolve(options.cwd ?? repoRoot);
  if (target !== cwd) process.chdir(target);
  try {
    const code = await run(args, io);
    return { code, stdout, stderr };
  } finally {
    if (target !== cwd) process.chdir(cwd);
    distWarnings(previous);
  }
}

/**
 * Runs the built `um` binary as a separate process from the repository root (or `cwd`): only for what a process
 * alone shows — the exit code set by bin.js, the shebang and the installed bin link, stdin/stdout pipes, signals,
 * devices and FIFOs that could keep a process alive.
 */
export function umProcess(args: readonly string[], options: { bin?: string; cwd?: string } = {}): UmResult {
  // the CLI package's `um` (the bundled command users install), as its bin link runs it
  const bin = options.bin ?? `${repoRoot}packages/cli/bin/um.js`;
  const r = spawnSync(bin.endsWith('.js') ? process.execPath : bin, bin.endsWith('.js') ? [bin, ...args] : [...args], {
    cwd: options.cwd ?? repoRoot,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  if (r.error !== undefined) throw r.error;
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
