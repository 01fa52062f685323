// Runs npm scripts at the same time (`node scripts/parallel.mjs typecheck lint`): on 2 cores the type check and the
// linter, each on one core, take the time of the longer instead of the sum. Each script's output is printed whole
// when it ends (not interleaved); the exit code is the first failure's, or 0.
import { spawn } from 'node:child_process';

const names = process.argv.slice(2);
const runs = names.map(
  (name) =>
    new Promise((resolve) => {
      const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '--silent', name], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const out = [];
      child.stdout.on('data', (d) => out.push(d));
      child.stderr.on('data', (d) => out.push(d));
      child.on('close', (code, signal) => {
        const text = Buffer.concat(out).toString();
        if (code !== 0) process.stderr.write(`npm run ${name} failed (${signal ?? `exit ${code}`}):\n`);
        process.stdout.write(text);
        resolve(code ?? 1);
      });
    }),
);
const codes = await Promise.all(runs);
process.exitCode = codes.find((c) => c !== 0) ?? 0;
