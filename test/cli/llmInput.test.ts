/**
 * The LLM input summary (src/cli/llmInput.ts) on files of any length: its maxima are loops, since spreading one value
 * per row into Math.max overflows the stack past ~10⁵ rows.
 */
import { describe, expect, it } from 'vitest';
import { llmSummary } from '../../src/cli/llmInput.js';
import type { LlmRecords } from '../../src/io/readLlmResponses.js';
import type { LabelProbabilities } from '../../src/llm/labelProbabilities.js';

/** A seeded LCG in [0, 1). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** A reading of n logprob rows, every third missing a label, with seeded outside masses and bounds. */
function reading(n: number, seed: number): { records: LlmRecords; read: LabelProbabilities } {
  const r = rng(seed);
  const outside = Float64Array.from({ length: n }, () => (r() < 0.1 ? 0 : r() * 0.3));
  const bound = Float64Array.from(outside, (o) => o * r());
  const read = {
    labels: ['yes', 'no'],
    n,
    total: n,
    numClasses: 2,
    rows: Int32Array.from({ length: n }, (_x, i) => i),
    provenance: Array.from({ length: n }, () => 'logprob' as const),
    outside,
    bound,
    missing: Int32Array.from({ length: n }, (_x, i) => (i % 3 === 0 ? 1 : 0)),
    labelMass: Float64Array.from(outside, (o) => 1 - o),
    position: new Int32Array(n),
    excluded: [],
    config: { missing: 'floor' },
  } as unknown as LabelProbabilities;
  const records = { lines: Array.from({ length: n }, (_x, i) => i + 1), ids: [] } as unknown as LlmRecords;
  return { records, read };
}

describe('llmSummary', () => {
  it.each([1, 2, 999, 130_000, 400_000])('reports the largest outside mass and bound of %i rows', (n) => {
    const { records, read } = reading(n, n);
    const s = llmSummary(records, read);
    let maxOutside = 0;
    let maxBound = 0;
    for (let i = 0; i < n; i++) {
      maxOutside = Math.max(maxOutside, read.outside[i] as number);
      if (i % 3 === 0) maxBound = Math.max(maxBound, read.bound[i] as number);
    }
    expect((s.json as { outside: { max: number } }).outside.max).toBe(maxOutside);
    expect(s.lines.join('\n')).toContain(`${Math.ceil(n / 3)} row`);
    expect(s.lines.some((l) => l.includes('at most '))).toBe(true);
    expect(maxBound).toBeLessThanOrEqual(maxOutside);
  });
});
