/**
 * evaluateParallel (from the built dist/, whose workers run dist/parallel/rowStatsWorker.js) equals evaluate bit for
 * bit, whatever the number of threads, with and without a SharedArrayBuffer input; bad input rejects with the same
 * typed, located errors.
 */
import { describe, expect, it } from 'vitest';
import { evaluate, UMError } from '../../packages/core/dist/index.js';
import { evaluateParallel } from '../../packages/core/dist/parallel/index.js';
import { uniforms } from '../helpers/minstd.js';

function matrix(
  seed: number,
  n: number,
  c: number,
  f32: boolean,
  shared = false,
): { labels: Int32Array; p: Float32Array | Float64Array } {
  const u = uniforms(seed, n * (c + 1));
  const buffer = shared ? new SharedArrayBuffer(n * c * (f32 ? 4 : 8)) : new ArrayBuffer(n * c * (f32 ? 4 : 8));
  const p = f32 ? new Float32Array(buffer) : new Float64Array(buffer);
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    labels[i] = Math.floor((u[n * c + i] as number) * c);
    let z = 0;
    for (let k = 0; k < c; k++) z += p[i * c + k] = Math.exp(4 * (u[i * c + k] as number) + (k === labels[i] ? 1 : 0));
    for (let k = 0; k < c; k++) p[i * c + k] = (p[i * c + k] as number) / z;
  }
  return { labels, p };
}

async function rejection(promise: Promise<unknown>): Promise<UMError> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof UMError) return e;
    throw e;
  }
  throw new Error('expected a rejection');
}

describe('evaluateParallel', () => {
  for (const f32 of [false, true]) {
    for (const [n, c] of [
      [6000, 10],
      [3000, 37],
    ] as const) {
      it(`${f32 ? 'float32' : 'float64'} ${n} × ${c}: every number equals evaluate's, for 1, 2 and 3 threads`, async () => {
        const { labels, p } = matrix(n + c, n, c, f32);
        const one = evaluate(labels, p, { numClasses: c });
        for (const threads of [1, 2, 3])
          expect(await evaluateParallel(labels, p, { numClasses: c, threads })).toEqual(one);
        const shared = matrix(n + c, n, c, f32, true);
        expect(
          await evaluateParallel(shared.labels, shared.p, { numClasses: c, threads: 2, classwise: false }),
        ).toEqual(evaluate(labels, p, { numClasses: c, classwise: false }));
      });
    }
  }
  it("an invalid entry in a worker's rows rejects with the error evaluate throws (named evaluateParallel)", async () => {
    const { labels, p } = matrix(5, 6000, 4, false);
    p[5000 * 4 + 2] = 1.2;
    const e = await rejection(evaluateParallel(labels, p, { numClasses: 4, threads: 3 }));
    expect(e.code).toBe('UM_PROB_RANGE');
    expect(e.message).toBe('evaluateParallel: probs[5000][2] must be in [0, 1]; got 1.2');
  });
  const bad: [string, () => Promise<unknown>, string, RegExp][] = [
    [
      'threads 0',
      () => evaluateParallel([0], new Float64Array([1, 0]), { numClasses: 2, threads: 0 }),
      'UM_OPTION',
      /^evaluateParallel: options.threads must be an integer in \[1, 1024\]; got 0/,
    ],
    [
      'nested arrays',
      () => evaluateParallel([0], [[1, 0]] as unknown as Float64Array, { numClasses: 2 }),
      'UM_OPTION',
      /^evaluateParallel: scores must be a flat Float32Array or Float64Array/,
    ],
    [
      'logits',
      () => evaluateParallel([0], new Float64Array([1, 0]), { numClasses: 2, input: 'logits' }),
      'UM_OPTION',
      /^evaluateParallel: options.input must be 'probs'/,
    ],
    [
      'no numClasses',
      () => evaluateParallel([0], new Float64Array([1, 0])),
      'UM_OPTION',
      /^evaluateParallel: options.numClasses must be given/,
    ],
    [
      'an unknown option',
      () => evaluateParallel([0], new Float64Array([1, 0]), { numClasses: 2, thread: 2 } as never),
      'UM_OPTION',
      /^evaluateParallel: options.thread must not be given/,
    ],
  ];
  for (const [what, call, code, message] of bad) {
    it(`rejects ${what} with ${code}`, async () => {
      const e = await rejection(call());
      expect(e.code).toBe(code);
      expect(e.message).toMatch(message);
    });
  }
});
