/**
 * Every public function and class documents a one-line summary, the formula, its conventions, references, each
 * parameter, the return value, what it throws, and an example (which examples.test.ts runs).
 */
import { describe, expect, it } from 'vitest';
import { publicExports } from '../helpers/publicApi.js';
import { ENTRIES } from './entries.js';

const api = publicExports(ENTRIES);

describe('public API documentation', () => {
  it('finds the public exports', () => {
    expect(api.map((e) => e.name)).toContain('ece');
    expect(api.length).toBeGreaterThan(20);
  });

  for (const e of api) {
    it(`${e.entry} ${e.name} (${e.file})`, () => {
      const problems: string[] = [];
      const firstLine = e.summary.split('\n')[0]?.trim() ?? '';
      if (firstLine.length < 10) problems.push('a one-line summary');
      if (e.kind !== 'variable') {
        for (const section of ['**Formula.**', '**Conventions.**', '**References.**']) {
          if (!e.summary.includes(section)) problems.push(`a ${section} section`);
        }
        if (!e.tags.has('example')) problems.push('an @example');
        if (e.kind === 'function') {
          if (!e.tags.has('returns')) problems.push('@returns');
          if (!e.tags.has('throws')) problems.push('@throws');
          const documented = new Set((e.tags.get('param') ?? []).map((t) => t.split(/\s/)[0]));
          for (const p of e.params) if (!documented.has(p)) problems.push(`@param ${p}`);
        }
      }
      expect(problems, `${e.name} lacks`).toEqual([]);
    });
  }
});
