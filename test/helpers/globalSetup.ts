import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The CLI tests run the built `um` binary as a real process, so the build must reflect the sources under test:
 * compile once before the suite (incremental work is small).
 */
export default function setup(): void {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  execFileSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', `${root}tsconfig.build.json`], {
    cwd: root,
    stdio: 'inherit',
  });
}
