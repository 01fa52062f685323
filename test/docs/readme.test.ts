/**
 * The README stays true for a newcomer: its library snippets run and their checked lines hold, its CLI examples run on
 * the bundled data, its table names only real exports, its links resolve, and it speaks no insider language.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/index.js';
import { repoRoot } from '../helpers/cli.js';
import { ENTRIES } from './entries.js';
import { MODULES, runExample } from './snippets.js';

const readme = readFileSync(`${repoRoot}README.md`, 'utf8');
const blocks = [...readme.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({
  lang: m[1] as string,
  code: m[2] as string,
}));
const transpile = (body: string) =>
  ts.transpileModule(body, { compilerOptions: { target: ts.ScriptTarget.ES2022 } }).outputText;

/** Runs a README block with what it prints collected, not printed (passing tests print nothing). */
async function runCollecting(
  code: string,
): Promise<{ run: Awaited<ReturnType<typeof runExample>>; printed: string[] }> {
  const printed: string[] = [];
  const log = console.log;
  console.log = (...a: unknown[]) => void printed.push(a.map(String).join(' '));
  try {
    return { run: await runExample(code, transpile), printed };
  } finally {
    console.log = log;
  }
}

describe('README', () => {
  it('every TypeScript block runs against the library and its checked lines hold', async () => {
    const code = blocks.filter((b) => b.lang === 'ts').map((b) => b.code);
    expect(code.length).toBeGreaterThanOrEqual(2);
    let checks = 0;
    for (const c of code) {
      const { run } = await runCollecting(c);
      expect(run.failures, c).toEqual([]);
      checks += run.checks;
    }
    expect(checks).toBeGreaterThanOrEqual(4);
  });

  it('the error example prints what the comment says', async () => {
    const b = blocks.find((x) => x.lang === 'ts' && x.code.includes('UMError'));
    const { printed } = await runCollecting(b?.code ?? '');
    expect(printed).toEqual([/\/\/ (UM_\w+ .*)$/m.exec(b?.code ?? '')?.[1]]);
  });

  it('the CLI examples on bundled data run, in order', async () => {
    const lines = blocks
      .filter((b) => b.lang === 'sh')
      .flatMap((b) => b.code.split('\n'))
      .filter((l) => l.startsWith('npx um ') && l.includes('examples/data/'));
    expect(lines.length).toBeGreaterThanOrEqual(4);
    const scratch = mkdtempSync(join(tmpdir(), 'um-readme-'));
    try {
      for (const line of lines) {
        // inputs from the repository, outputs in a scratch directory
        const args = line
          .replace(/#.*$/, '')
          .trim()
          .split(/\s+/)
          .slice(2)
          .map((w) =>
            w.startsWith('examples/')
              ? `${repoRoot}${w}`
              : /^[\w-]+\.(csv|json|html|md)$/.test(w)
                ? join(scratch, w)
                : w,
          );
        let out = '';
        expect(
          await main(args, { stdout: (t) => void (out += t), stderr: (t) => void (out += t) }),
          `${line}\n${out}`,
        ).toBe(0);
      }
      expect(existsSync(join(scratch, 'calib.json'))).toBe(true);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 60_000);

  it('the main job is the command .ci/run runs', () => {
    const ci = readFileSync(`${repoRoot}.ci/run`, 'utf8');
    const job = /^npx --no-install um (report .*) -o "\$out\/report.html"$/m.exec(ci)?.[1];
    expect(job).toBeDefined();
    expect(readme).toContain(`npm ci && npx um ${job} -o report.html`);
  });

  it('the "which function" table names only real exports', async () => {
    const table = readme.slice(readme.indexOf('## Which function do I want?'), readme.indexOf('## Speed'));
    const exported = new Set<string>();
    for (const entry of Object.keys(ENTRIES))
      for (const name of Object.keys(await (MODULES[entry] as () => Promise<object>)())) exported.add(name);
    const named = [...table.matchAll(/\| `(\w+)`|, `(\w+)`|\/ `(\w+)`/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
    expect(named.length).toBeGreaterThanOrEqual(15);
    expect(named.filter((n) => !exported.has(n))).toEqual([]);
  });

  it('links every guide, and every relative link resolves', () => {
    for (const g of [
      'choosing-a-calibration-metric',
      'evaluating-from-the-command-line',
      'calibrating-and-saving',
      'streaming-and-sql',
      'training-with-tensorflow',
    ]) {
      expect(readme).toContain(`(docs/guides/${g}.md)`);
    }
    const broken = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
      .map((m) => m[1] as string)
      .filter((t) => !/^[a-z]+:/.test(t) && !existsSync(`${repoRoot}${t}`));
    expect(broken).toEqual([]);
  });

  it('shows the speed table bench/e2e/run.mjs renders from bench/results.json (npm run bench measures it)', () => {
    const env = { ...process.env };
    delete env.BENCH_OUT; // the renderer reads bench/results.json unless told otherwise
    const r = spawnSync(process.execPath, [`${repoRoot}bench/e2e/run.mjs`, '--render', '--readme'], {
      env,
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    const block = /<!-- speed:start -->\n([\s\S]*?)\n<!-- speed:end -->/.exec(readme)?.[1];
    expect(block).toBe(r.stdout.trimEnd());
    expect(block).toMatch(/^Measured \d{4}-\d{2}-\d{2} on \d+ × .+ \| \*\*\d+\.\d{2}×\*\* \|/s);
  });

  it('speaks to a newcomer: no insider references', () => {
    expect(readme).not.toMatch(/seed \d{3}|issue \d+|the performance issue|targets not met/i);
  });
});
