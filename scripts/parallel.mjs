// Runs npm scripts at the same time (`node scripts/parallel.mjs typecheck:all lint`): on 2 cores the type check and
// the linter, each on one core, take the time of the longer instead of the sum. Each script's output is printed whole
// when it ends (not interleaved); the exit code is the first failure's, or 0.
//
// `--foreground NAME [ARGS…]` (npm test: the checks beside `vitest run`) runs NAME (with ARGS) with the terminal and at normal priority,
// and the other scripts at the lowest priority (nice 19), their output held until NAME ends: the checks use only the
// CPU the tests leave idle (vitest's start, a worker waiting for its last file or for a child process), so they
// neither slow the tests nor wait for them — the run takes about the tests' time, not the checks' plus the tests'.
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';

const args = process.argv.slice(2);
const f = args.indexOf('--foreground');
const foreground = f >= 0 ? args[f + 1] : undefined;
const names = f >= 0 ? args.slice(0, f) : args;
// what follows the foreground script's name is its arguments (`npm test -- test/cli` runs those files)
const extra = f >= 0 ? args.slice(f + 2) : [];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs one npm script with its output collected; resolves to its exit code and output. */
const collected = (name) =>
  new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', name], { stdio: ['ignore', 'pipe', 'pipe'] });
    // before npm starts the script's processes, which inherit the priority
    if (foreground !== undefined) {
      try {
        setPriority(child.pid, 19);
      } catch {
        // not permitted here: the checks then share the CPU evenly, as without --foreground
      }
    }
    const out = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => out.push(d));
    child.on('close', (code, signal) => {
      const text = Buffer.concat(out).toString();
      resolve({
        name,
        code: code ?? 1,
        text: code === 0 ? text : `npm run ${name} failed (${signal ?? `exit ${code}`}):\n${text}`,
      });
    });
  });

const inherited = (name) =>
  new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', name, ...(extra.length > 0 ? ['--', ...extra] : [])], {
      stdio: 'inherit',
    });
    child.on('close', (code) => resolve(code ?? 1));
  });

const runs = names.map((name) => {
  const run = collected(name);
  // without a foreground script, each output as soon as its script ends
  if (foreground === undefined) void run.then((r) => process.stdout.write(r.text));
  return run;
});
const first = foreground === undefined ? 0 : await inherited(foreground);
const results = await Promise.all(runs);
if (foreground !== undefined) for (const r of results) process.stdout.write(r.text);
process.exitCode = [first, ...results.map((r) => r.code)].find((c) => c !== 0) ?? 0;
