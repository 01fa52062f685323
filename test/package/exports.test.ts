/**
 * The published entry points: what `import 'uncertainty-metrics'` resolves to after `npm ci` (the package links
 * itself, so this is the built dist/), and the core's purity — no Node built-ins, no dependencies.
 */
import { readFileSync } from 'node:fs';
import { VERSION } from '../../src/version.js';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as src from '../../src/index.js';
import * as srcIo from '../../src/io/index.js';
import * as srcCli from '../../src/cli/index.js';
import { repoRoot } from '../helpers/cli.js';

describe('package entry points', () => {
  it('uncertainty-metrics exports what src/index.ts exports', async () => {
    const pkg = await import('uncertainty-metrics');
    expect(Object.keys(pkg).sort()).toEqual(Object.keys(src).sort());
    expect(
      pkg.ece(
        [0, 1],
        [
          [0.9, 0.1],
          [0.2, 0.8],
        ],
      ),
    ).toBe(
      src.ece(
        [0, 1],
        [
          [0.9, 0.1],
          [0.2, 0.8],
        ],
      ),
    );
  });
  it('uncertainty-metrics/io, /cli, /plot, /report and /llm', async () => {
    expect(Object.keys(await import('uncertainty-metrics/llm')).sort()).toEqual(
      Object.keys(await import('../../src/llm/index.js')).sort(),
    );
    expect(Object.keys(await import('uncertainty-metrics/plot')).sort()).toEqual(
      Object.keys(await import('../../src/plot/index.js')).sort(),
    );
    expect(Object.keys(await import('uncertainty-metrics/report')).sort()).toEqual(
      Object.keys(await import('../../src/report/index.js')).sort(),
    );
    expect(Object.keys(await import('uncertainty-metrics/io')).sort()).toEqual(Object.keys(srcIo).sort());
    expect(Object.keys(await import('uncertainty-metrics/cli')).sort()).toEqual(Object.keys(srcCli).sort());
  });
  it('the packages declare ESM, the Node versions that require() ES modules, no core dependencies, and one version', () => {
    const read = (p: string) => JSON.parse(readFileSync(`${repoRoot}${p}`, 'utf8')) as Record<string, unknown>;
    const core = read('packages/core/package.json');
    const cli = read('packages/cli/package.json');
    const workspace = read('package.json');
    for (const pkg of [core, cli]) {
      expect(pkg.type).toBe('module');
      expect(pkg.engines).toEqual({ node: '^20.19.0 || >=22.12.0' });
      expect(pkg.license).toBe('Apache-2.0');
    }
    expect(core.dependencies).toBeUndefined();
    expect(core.bin).toBeUndefined();
    expect(cli.bin).toEqual({ um: './bin/um.js' });
    expect((cli.dependencies as Record<string, string>)['uncertainty-metrics']).toBe(core.version);
    // every optional peer of the core is optional; the CLI brings all but DuckDB
    const peers = Object.keys(core.peerDependencies as object);
    expect(Object.keys(core.peerDependenciesMeta as object)).toEqual(peers);
    for (const p of ['citty', 'cli-progress', 'csv-parse', 'csv-stringify', 'hyparquet', 'vega', 'vega-lite'])
      expect(Object.keys(cli.dependencies as object)).toContain(p);
    // the core records its version in fitted calibrators without reading package.json (no Node APIs)
    expect(VERSION).toBe(core.version);
    expect(cli.version).toBe(core.version);
    expect(workspace.private).toBe(true);
    const exports = core.exports as Record<string, Record<string, unknown>>;
    expect(Object.keys(exports['.'] ?? {})).toEqual(['import', 'require']);
    for (const sub of ['./io', './cli', './plot', './report', './sql', './tfjs', './parallel', './llm'])
      expect(Object.keys(exports[sub] ?? {})).toEqual(['types', 'default']);
  });
});

/** Every module reachable from a built file through static imports. */
function importGraph(entry: string): { files: string[]; external: string[] } {
  const seen = new Set<string>();
  const external = new Set<string>();
  const stack = [entry];
  while (stack.length > 0) {
    const file = stack.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    // the files are compacted (scripts/assemble-packages.mjs): `import{a}from"./b.js"` after a `;` or `}` as well
    for (const m of text.matchAll(
      /(?:^|[;\n}])\s*(?:import|export)(?=[\s{*])[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|[;\n}])\s*import\s*['"]([^'"]+)['"]/g,
    )) {
      const spec = (m[1] ?? m[2] ?? m[3]) as string;
      if (spec.startsWith('.')) stack.push(resolve(dirname(file), spec));
      else external.add(spec);
    }
  }
  return { files: [...seen], external: [...external] };
}

describe('the core runs in browsers', () => {
  it('dist/index.js reaches no Node built-in and no dependency', () => {
    const { files, external } = importGraph(`${repoRoot}packages/core/dist/index.js`);
    expect(files.length).toBeGreaterThan(20);
    expect(external).toEqual([]);
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      expect(text, f).not.toMatch(/\b(process|Buffer|require|__dirname)\b\s*[.(]/);
      expect(text, f).not.toMatch(/\bconsole\./);
    }
  });
  it('the io and cli entry points are the only ones that use Node', () => {
    expect(importGraph(`${repoRoot}packages/core/dist/io/index.js`).external.sort()).toEqual([
      'csv-parse',
      'csv-stringify/sync',
      'hyparquet',
      'node:buffer',
      'node:fs/promises',
      'node:path',
      'node:stream',
    ]);
  });
  it('/llm reaches no Node built-in and no dependency: it runs in browsers like the core', () => {
    const { files, external } = importGraph(`${repoRoot}packages/core/dist/llm/index.js`);
    expect(files.length).toBeGreaterThan(5);
    expect(external).toEqual([]);
    for (const f of files)
      expect(readFileSync(f, 'utf8'), f).not.toMatch(/\b(process|Buffer|require|__dirname)\b\s*[.(]/);
  });
  it('/plot and /report use Vega and Vega-Lite but no Node built-in, so they run in browsers too', () => {
    for (const entry of ['plot', 'report'])
      expect(importGraph(`${repoRoot}packages/core/dist/${entry}/index.js`).external.sort()).toEqual([
        'vega',
        'vega-lite',
      ]);
  });
});
