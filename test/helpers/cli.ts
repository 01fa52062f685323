import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** Runs the built `um` binary as a separate process from the repository root (or `cwd`). */
export function um(args: string[], options: { bin?: string; cwd?: string } = {}): { code: number; stdout: string; stderr: string } {
  const bin = options.bin ?? `${repoRoot}packages/core/dist/cli/bin.js`;
  const r = spawnSync(bin.endsWith('.js') ? process.execPath : bin, bin.endsWith('.js') ? [bin, ...args] : args, {
    cwd: options.cwd ?? repoRoot,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  if (r.error !== undefined) throw r.error;
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
