/**
 * The jackknife's evaluation (evaluate without the binned errors) gives evaluate's own numbers, bit for bit, and
 * throws exactly where evaluate throws — on the weightings a jackknife and a bootstrap make and on the edge cases of
 * weights (zeros, fractions, a class left out, one row left).
 */
import { describe, expect, it } from 'vitest';
import { evaluate, type Evaluation } from '../../src/index.js';
import { BINNED, JACKKNIFE_EVALUATE } from '../../src/bootstrap/jackknifeSuite.js';
import { prepareSuite } from '../../src/engine/suite.js';
import { uniforms } from '../helpers/minstd.js';
import { randomProbs } from '../helpers/data.js';

const quiet = () => undefined;

/** evaluate's result or the message it throws. */
function attempt(call: () => Evaluation): Record<string, unknown> | string {
  try {
    return call() as unknown as Record<string, unknown>;
  } catch (e) {
    return (e as Error).message;
  }
}

describe('JACKKNIFE_EVALUATE', () => {
  it('every number but the binned errors is evaluate’s, and it throws where evaluate throws', () => {
    let compared = 0;
    let nulls = 0;
    let thrown = 0;
    for (const [seed, n, c, round, options] of [
      [1, 120, 3, undefined, {}],
      [2, 90, 4, 10, { bins: 5 }], // ties and exact zeros
      [3, 60, 2, 20, { preset: 'sklearn' as const }],
      [4, 150, 5, undefined, { classwise: false }],
    ] as const) {
      const { labels, probs } = randomProbs(seed, n, c, round);
      const jack = prepareSuite(JACKKNIFE_EVALUATE, 'evaluate', labels, probs, { ...options, classwise: false });
      const u = uniforms(seed + 50, n);
      const weightings: number[][] = [
        labels.map(() => 1),
        labels.map((_, i) => (i % 7 === 3 ? 0 : 1)), // a jackknife group left out
        labels.map((_, i) => Math.floor((u[i] as number) * 3)), // resample-like counts with zeros
        labels.map((_, i) => 0.25 + (u[i] as number)), // fractional: AURC and E-AURC are null
        labels.map((y) => (y === 0 ? 1 : 0)), // one class only: AUROC, AUPR null, or every prediction wrong
        labels.map((y, i) => (y === labels[0] && i === 0 ? 2 : 0)), // one row left
        labels.map(() => 0), // nothing left: evaluate throws
      ];
      for (const w of weightings) {
        const expected = attempt(() => evaluate(labels, probs, { ...options, weights: w, onWarning: quiet }));
        const got = attempt(() => jack(w, quiet));
        if (typeof expected === 'string') {
          expect(got).toBe(expected);
          thrown++;
          continue;
        }
        expect(typeof got, String(got)).toBe('object');
        for (const [k, v] of Object.entries(expected)) {
          if (k === 'config') continue;
          if (BINNED.has(k)) expect((got as Record<string, unknown>)[k], k).toBeNull();
          else expect(Object.is((got as Record<string, unknown>)[k], v), `${seed} ${k}: ${String(v)}`).toBe(true);
          if (v === null && !BINNED.has(k)) nulls++;
          compared++;
        }
      }
    }
    // the edge cases are reached: undefined numbers (null) and evaluations that throw
    expect([compared > 300, nulls > 4, thrown]).toEqual([true, true, 4]);
  });
});
