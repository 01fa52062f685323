/**
 * Runs the @example of every public export. A line `expr; // => value` asserts that expr equals value (numbers
 * within 1e-12 relative); `expr; // ≈ value` asserts equality to the precision the value is written with.
 */
import { describe, expect, it } from 'vitest';
import { publicExports } from '../helpers/publicApi.js';
import { ENTRIES } from './entries.js';
import { runExample } from './snippets.js';

const api = publicExports(ENTRIES).filter((e) => e.tags.has('example'));

describe('documentation examples', () => {
  it('every public function and class has an example', () => {
    const missing = publicExports(ENTRIES)
      .filter((e) => e.kind !== 'variable' && !e.tags.has('example'))
      .map((e) => e.name);
    expect(missing).toEqual([]);
  });

  for (const e of api) {
    it(`${e.entry} ${e.name}`, async () => {
      const text = (e.tags.get('example') ?? []).join('\n');
      const fence = /```(?:js|ts|javascript)?\n([\s\S]*?)```/.exec(text);
      expect(fence, 'example must be a fenced code block').not.toBeNull();
      const { checks, failures } = await runExample(fence?.[1] ?? '');
      expect(checks, 'example must check at least one result with // => or // ≈').toBeGreaterThan(0);
      expect(failures).toEqual([]);
    });
  }
});
