import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { skip, SKIPPED_SUITES } from './requirements.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The first source file whose compiled dist/ file is missing or older than it (or than the compiler settings), or
 * undefined when dist/ is fresh. tsc rewrites every output, so after a build every output is newer than its source.
 */
function staleSource(): string | undefined {
  const settings = Math.max(...['tsconfig.json', 'tsconfig.build.json'].map((f) => statSync(`${root}${f}`).mtimeMs));
  for (const file of readdirSync(`${root}src`, { recursive: true }).map(String)) {
    if (!file.endsWith('.ts')) continue;
    const out = statSync(`${root}packages/core/dist/${file.slice(0, -3)}.js`, { throwIfNoEntry: false });
    if (out === undefined || out.mtimeMs < Math.max(settings, statSync(`${root}src/${file}`).mtimeMs)) return file;
  }
  return undefined;
}

/** Whether the bundled `um` (packages/cli/dist/um.js) is missing or older than a source or the bundler's settings. */
function staleBundle(): boolean {
  const bundle = statSync(`${root}packages/cli/dist/um.js`, { throwIfNoEntry: false });
  if (bundle === undefined) return true;
  const sources = readdirSync(`${root}src`, { recursive: true }).map((f) => `src/${String(f)}`);
  return ['tsup.config.ts', ...sources].some(
    (f) => f.endsWith('.ts') && statSync(`${root}${f}`).mtimeMs > bundle.mtimeMs,
  );
}

/**
 * Tests that need a process or a worker thread (the bin smoke tests, `um --stream` on threads, the parallel
 * evaluation) run the built dist/, so it must reflect the sources under test: compile when a source is newer than its
 * output (after `npm ci`, whose `prepare` builds, nothing is recompiled). Then say which optional suites this run
 * skips, and why — one line each (nothing when everything is present).
 */
export default function setup(): void {
  if (staleSource() !== undefined) {
    execFileSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', `${root}tsconfig.build.json`], {
      cwd: root,
      stdio: 'inherit',
    });
    // compacted as the build does (the package-size test measures what npm would pack)
    execFileSync(process.execPath, [`${root}scripts/assemble-packages.mjs`], { cwd: root, stdio: 'inherit' });
  }
  // the CLI package's bundled `um` (what the real-process tests run), rebuilt from the sources when older than one
  if (staleBundle()) {
    execFileSync(process.execPath, [`${root}node_modules/tsup/dist/cli-default.js`, '--silent'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, UM_BUNDLE: 'cli' },
    });
  }
  for (const [what, reason] of Object.entries(skip)) {
    if (reason !== undefined) console.log(`skipped: ${SKIPPED_SUITES[what as keyof typeof skip]} — ${reason}`);
  }
}
