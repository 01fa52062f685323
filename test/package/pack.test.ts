/**
 * The packages as a user installs them: both are packed with `npm pack` (from the built packages/core/dist), installed
 * from the tarballs into fresh projects (the core offline: it has no dependencies; the CLI's dependencies from npm's
 * cache where it has them), and
 * used — `import` and `require` of the core, the core's size and dependency count, `um --version` from the CLI
 * package, the typed error for Vega when it is not installed, and the types under every TypeScript resolution.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';

/** A command's stdout; it fails with its stderr. Asynchronous: the installs and attw run side by side. */
const run = (command: string, args: string[], cwd: string): Promise<string> =>
  new Promise((resolve, reject) =>
    execFile(command, args, { cwd, encoding: 'utf8', maxBuffer: 256 << 20 }, (error, stdout, stderr) =>
      error === null ? resolve(stdout) : reject(new Error(`${command} ${args.join(' ')}: ${error.message}\n${stderr}`)),
    ),
  );
const npm = (args: string[], cwd: string): Promise<string> => run('npm', args, cwd);
const node = (code: string, cwd: string) =>
  spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd, encoding: 'utf8' });

/** Bytes of every file under `dir`. */
function bytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? bytes(path) : statSync(path).size;
  }
  return total;
}

let work: string;
let coreTarball: string;
let cliTarball: string;
let coreProject: string;
let cliProject: string;

async function project(
  name: string,
  tarballs: string[],
  network: '--offline' | '--prefer-offline',
): Promise<{ dir: string; output: string }> {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true }));
  const output = await npm(['install', network, '--no-audit', '--no-fund', '--loglevel=warn', ...tarballs], dir);
  return { dir, output };
}

/** Started together once both tarballs exist: the two installs and attw wait mostly on files and processes. */
let coreInstall: Promise<{ dir: string; output: string }>;
let cliInstall: Promise<{ dir: string; output: string }>;
let attwReport: Promise<string>;
/** The promise, with its rejection left to whoever awaits it (not reported as unhandled before then). */
const later = <T>(p: Promise<T>): Promise<T> => {
  p.catch(() => undefined);
  return p;
};

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'um-pack-'));
  // both workspaces in one npm run (the same tarballs as `npm pack` in each package's directory)
  const packed = JSON.parse(
    await npm(
      ['pack', '--ignore-scripts', '--json', '--pack-destination', work, '-w', 'packages/core', '-w', 'packages/cli'],
      repoRoot,
    ),
  ) as { name: string; filename: string }[];
  const tarball = (name: string) => join(work, packed.find((p) => p.name === name)?.filename as string);
  coreTarball = tarball('uncertainty-metrics');
  cliTarball = tarball('uncertainty-metrics-cli');
  coreInstall = later(project('core-user', [coreTarball], '--offline'));
  // its dependencies' metadata may not be in npm's cache (`npm ci` caches tarballs only): the registry fills the gaps
  cliInstall = later(project('cli-user', [coreTarball, cliTarball], '--prefer-offline'));
  attwReport = later(attw(coreTarball));
}, 120_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the core package, installed alone', () => {
  let installOutput = '';
  beforeAll(async () => {
    const p = await coreInstall;
    coreProject = p.dir;
    installOutput = p.output;
  }, 120_000);

  it('brings no other package, installs under 2 MB and runs no script', () => {
    expect(readdirSync(join(coreProject, 'node_modules')).filter((n) => !n.startsWith('.'))).toEqual([
      'uncertainty-metrics',
    ]);
    // issue 18's bound; the CommonJS declarations carry no doc comments (tsconfig.cjs.json) to stay within it
    expect(bytes(join(coreProject, 'node_modules', 'uncertainty-metrics'))).toBeLessThan(2_000_000);
    expect(installOutput).not.toMatch(/install-scripts|prepare/);
  });

  it('ships its licence and changelog, and no source maps', () => {
    const files = readdirSync(join(coreProject, 'node_modules', 'uncertainty-metrics'));
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'CHANGELOG.md', 'README.md', 'package.json', 'dist']));
    const maps = execFileSync('find', [join(coreProject, 'node_modules', 'uncertainty-metrics'), '-name', '*.map'], {
      encoding: 'utf8',
    });
    expect(maps).toBe('');
  });

  /**
   * The core used as a user would, in one process (each `node` start costs ~0.15 s of CPU; the four uses were four
   * processes): `require` first (before any ES module of the package is loaded, as in a CommonJS process; through `createRequire`, which resolves with the same `require` condition as a
   * CommonJS file), `require` of an ES-module entry point, and a chart rendered without Vega installed.
   */
  const USES = `import { createRequire } from 'node:module';
const require = createRequire(process.cwd() + '/user.cjs');
const out = {};
const cjs = require('uncertainty-metrics');
out.cjs = cjs.ece([0, 1], [[0.9, 0.1], [0.2, 0.8]]);
out.cjsError = typeof cjs.UMError;
out.requiredEsm = typeof require('uncertainty-metrics/plot').reliabilityDiagram;
const esm = await import('uncertainty-metrics');
out.esm = esm.ece([0, 1], [[0.9, 0.1], [0.2, 0.8]]);
const { renderSvg, rocChart } = await import('uncertainty-metrics/plot');
const spec = rocChart(esm.rocCurve([0, 1, 1, 0], [[0.9, 0.1], [0.2, 0.8], [0.3, 0.7], [0.4, 0.6]]));
try { await renderSvg(spec); out.vega = 'rendered'; } catch (e) { out.vega = e.code + ' ' + e.message; }
console.log(JSON.stringify(out));`;
  let used: { stdout: string; stderr: string } | undefined;
  const uses = () => {
    used ??= node(USES, coreProject);
    expect(used.stderr).toBe('');
    return JSON.parse(used.stdout) as Record<string, unknown>;
  };

  it('is imported and required, with the same functions', () => {
    const r = uses();
    expect(typeof r.esm).toBe('number');
    expect([r.cjs, r.cjsError]).toEqual([r.esm, 'function']);
    // an ES-module entry point is required through Node's require(esm)
    expect(r.requiredEsm).toBe('function');
  });

  it('renders charts only with Vega: without it, UM_DEPENDENCY names the packages to install', () => {
    expect(uses().vega).toBe(
      "UM_DEPENDENCY renderSvg: needs the package 'vega', which is not installed (npm install vega vega-lite)",
    );
  });
});

describe('the CLI package', () => {
  beforeAll(async () => {
    cliProject = (await cliInstall).dir;
  }, 120_000);

  it('gives a working um in one install', () => {
    const bin = join(cliProject, 'node_modules', '.bin', 'um');
    expect(execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const r = spawnSync(bin, ['metrics', join(repoRoot, 'examples/data/logreg_test.csv'), '--json'], {
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    expect((JSON.parse(r.stdout) as { n: number }).n).toBe(2000);
  });
});

/**
 * attw's JSON report on the core tarball. Its verdict depends only on the tarball and on attw (and the TypeScript it
 * bundles): it is kept in node_modules/.cache/attw/ under a hash of the tarball (npm pack is reproducible) and of
 * package-lock.json, and attw runs for any other tarball or lock (3 s of CPU and 5 s of wall time, beside the installs).
 */
async function attw(tarball: string): Promise<string> {
  const key = createHash('sha256')
    .update(readFileSync(tarball))
    .update(readFileSync(join(repoRoot, 'package-lock.json')))
    .digest('hex');
  const out = join(repoRoot, 'node_modules', '.cache', 'attw', `${key}.json`);
  if (!existsSync(out)) {
    // through a file: attw exits before a large piped output is flushed
    const fresh = join(work, 'attw.json');
    await run(
      'sh',
      ['-c', `"${join(repoRoot, 'node_modules', '.bin', 'attw')}" "${tarball}" --format json > "${fresh}"; true`],
      work,
    );
    JSON.parse(readFileSync(fresh, 'utf8')); // a complete report, or the test fails here without caching it
    mkdirSync(dirname(out), { recursive: true });
    copyFileSync(fresh, out);
  }
  return readFileSync(out, 'utf8');
}

describe('the types', () => {
  it('resolve under node10, node16 (ESM and CommonJS) and bundler: the core entry without any problem, the ES-module entries as ES modules', async () => {
    const report = JSON.parse(await attwReport) as {
      analysis: { problems: { kind: string; entrypoint: string; resolutionKind: string }[] };
    };
    const problems = report.analysis.problems.map((p) => `${p.entrypoint} ${p.resolutionKind} ${p.kind}`);
    // `./cli/bin` is the script behind `um` (no types, no API); the ES-module entry points are require()d by Node
    // ≥ 20.19, which TypeScript's node16 mode (before `module: node20`) does not model
    const expected = ['./io', './cli', './plot', './report', './sql', './tfjs', './parallel', './llm'].map(
      (e) => `${e} node16-cjs CJSResolvesToESM`,
    );
    expect(problems.filter((p) => !p.startsWith('./cli/bin ')).sort()).toEqual(expected.sort());
  });
});
