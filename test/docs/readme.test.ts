/** The README stays true: its library snippets run, its outputs are what the code prints, its tables are complete. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as um from '../../src/index.js';
import * as plot from '../../src/plot/index.js';
import { repoRoot, um as runUm } from '../helpers/cli.js';
import { publicExports } from '../helpers/publicApi.js';

const readme = readFileSync(`${repoRoot}README.md`, 'utf8');
const blocks = [...readme.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1] as string, code: m[2] as string }));

const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<void>;

/** Runs a README TypeScript block (JavaScript syntax) with the core's and /plot's exports in scope; returns console output. */
async function run(code: string): Promise<string[]> {
  const out: string[] = [];
  const body = code.replace(/^import .*$/gm, '');
  const scope = { ...um, ...plot };
  const fn = new AsyncFunction('__um', 'console', `const { ${Object.keys(scope).join(', ')} } = __um;\n${body}`);
  await fn(scope, { log: (...a: unknown[]) => out.push(a.map(String).join(' ')) });
  return out;
}

describe('README', () => {
  it('every TypeScript block runs against the library', async () => {
    const ts = blocks.filter((b) => b.lang === 'ts');
    expect(ts.length).toBeGreaterThanOrEqual(4);
    for (const b of ts) await run(b.code);
  });
  it('the error example prints what the comment says', async () => {
    const b = blocks.find((x) => x.lang === 'ts' && x.code.includes('UMError'));
    const printed = await run(b?.code ?? '');
    const comment = /\/\/ (UM_\w+ .*)$/m.exec(b?.code ?? '')?.[1];
    expect(printed).toEqual([comment]);
  });
  it('the recalibration and metrics tables list every public function', () => {
    const table = readme.slice(readme.indexOf('## Recalibration'), readme.indexOf('Presets ('));
    const functions = publicExports({ 'uncertainty-metrics': 'src/index.ts' }).filter((e) => e.kind === 'function').map((e) => e.name);
    const infrastructure = new Set(['toProbabilities', 'toEnsemble', 'assignBins', 'binStatistics', 'setWarningHandler']);
    const missing = functions.filter((f) => !infrastructure.has(f) && !table.includes(`\`${f}\``));
    expect(missing).toEqual([]);
  });
  it('the preset table lists every preset', () => {
    for (const name of Object.keys(um.presets)) expect(readme).toContain(`| \`${name}\` |`);
  });
  it('the CLI examples on bundled data run, in order, in a scratch directory', async () => {
    const lines = blocks.filter((b) => b.lang === 'sh').flatMap((b) => b.code.split('\n')).filter((l) => l.startsWith('npx um ') && l.includes('examples/data/'));
    expect(lines.length).toBeGreaterThanOrEqual(7);
    const dir = mkdtempSync(join(tmpdir(), 'um-readme-'));
    symlinkSync(`${repoRoot}examples`, join(dir, 'examples'));
    for (const line of lines) {
      const args = line.replace(/#.*$/, '').trim().split(/\s+/).slice(2);
      expect((await runUm(args, { cwd: dir })).code, line).toBe(0);
    }
    expect(existsSync(join(dir, 'calibrated.csv'))).toBe(true);
    rmSync(dir, { recursive: true });
  });
  it('the calibration table is what scripts/calibration-table.mjs prints', () => {
    const r = spawnSync(process.execPath, [`${repoRoot}scripts/calibration-table.mjs`], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const block = /<!-- calibration-table:start -->\n([\s\S]*?)\n<!-- calibration-table:end -->/.exec(readme)?.[1];
    expect(block).toBe(r.stdout.trimEnd());
  });
});
