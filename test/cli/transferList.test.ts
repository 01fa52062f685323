/** What a worker thread moves to the main thread instead of copying: whole-buffer typed arrays of a result, once. */
import { describe, expect, it } from 'vitest';
import { transferList } from '../../src/cli/transferList.js';

describe('transferList', () => {
  it('lists the memory of every whole-buffer typed array, nested in objects and arrays, each buffer once', () => {
    const a = new Float64Array(4);
    const b = new Uint8Array(3);
    const whole = new Float64Array(2);
    const result = {
      states: { s: { stores: [{ groups: [{ scores: a, outcomes: b }] }, null, 3, 'x'] } },
      collected: [[{ scores: whole, again: new Float64Array(whole.buffer) }]],
      plain: [1, 2, 3],
    };
    const got = transferList(result);
    expect(got).toHaveLength(3);
    expect(new Set(got)).toEqual(new Set([a.buffer, b.buffer, whole.buffer]));
    expect(transferList({ n: 1, list: [0.5] })).toEqual([]);
  });

  it('leaves out a view of part of a buffer, which moving would detach under the memory the worker still uses', () => {
    const scratch = new Float64Array(8);
    const result = { head: scratch.subarray(0, 3), tail: new Float64Array(scratch.buffer, 8, 7) };
    expect(transferList(result)).toEqual([]);
    const { port1, port2 } = new MessageChannel();
    port1.postMessage(result, transferList(result));
    expect(scratch.length).toBe(8);
    port1.close();
    port2.close();
  });
});
