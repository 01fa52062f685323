/** What a worker thread moves to the main thread instead of copying: every typed array's memory in a result, once. */
import { describe, expect, it } from 'vitest';
import { transferList } from '../../src/cli/streamWorker.js';

describe('transferList', () => {
  it('lists the memory of every typed array, nested in objects and arrays, each buffer once', () => {
    const a = new Float64Array(4);
    const b = new Uint8Array(3);
    const shared = new ArrayBuffer(16);
    const result = {
      states: { s: { stores: [{ groups: [{ scores: a, outcomes: b }] }, null, 3, 'x'] } },
      collected: [[{ scores: new Float64Array(shared, 0, 1), sums: new Float64Array(shared, 8, 1) }]],
      plain: [1, 2, 3],
    };
    const got = transferList(result);
    expect(got).toHaveLength(3);
    expect(new Set(got)).toEqual(new Set([a.buffer, b.buffer, shared]));
    expect(transferList({ n: 1, list: [0.5] })).toEqual([]);
  });
});
