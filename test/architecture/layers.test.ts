/**
 * Layers depend only downwards (ARCHITECTURE.md): every import of every source file goes to its own layer or a lower
 * one. Type-only imports count too.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';

/** From the bottom up; folders on one line share a layer. */
export const LAYERS: readonly (readonly string[])[] = [
  ['errors', 'warnings', 'random', 'version.ts'],
  ['math'],
  ['kernels'],
  ['input'],
  ['measures'],
  ['binning'],
  ['presets'],
  ['select'],
  ['accumulate'],
  ['options'],
  ['engine'],
  ['calibration', 'scores', 'selective', 'ood', 'ensemble', 'information'],
  ['calibrate', 'evaluate'],
  ['bootstrap', 'state'],
  ['index.ts'],
  ['io', 'sql', 'parallel', 'plot', 'tfjs', 'llm'],
  ['report'],
  ['cli'],
];

const src = join(repoRoot, 'src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

function layerOf(file: string): number {
  const top = relative(src, file).split('/')[0] as string;
  const i = LAYERS.findIndex((l) => l.includes(top));
  if (i < 0) throw new Error(`${relative(src, file)} is in no layer of LAYERS`);
  return i;
}

describe('the import graph follows the layers', () => {
  const all = files(src);
  it('every source folder has a layer', () => {
    for (const f of all) expect(() => layerOf(f), relative(src, f)).not.toThrow();
  });
  it('no file imports from a higher layer', () => {
    const upward: string[] = [];
    for (const f of all) {
      const text = readFileSync(f, 'utf8');
      for (const m of text.matchAll(/^(?:import|export)[^'"]*from '(\.{1,2}\/[^']+)'/gm)) {
        const target = resolve(dirname(f), (m[1] as string).replace(/\.js$/, '.ts'));
        if (layerOf(target) > layerOf(f)) upward.push(`${relative(src, f)} → ${relative(src, target)}`);
      }
    }
    expect(upward).toEqual([]);
  });
});
