/**
 * Judges as classification: the pairwise and graded label sets, and the position-bias metric checked against a
 * brute-force computation on seeded pairs judged in both orders (ties, excluded rows, a biased and a fair judge).
 */
import { describe, expect, it } from 'vitest';
import { accuracy } from '../../src/index.js';
import { goldLabels, judgeVerbalizer, labelProbabilities, positionBias } from '../../src/llm/index.js';
import { createRng } from '../../src/random/rng.js';
import { failure } from '../helpers/failure.js';

/** A chat response whose answer token offers the given label probabilities. */
function judged(labels: readonly string[], p: readonly number[]): unknown {
  const top = labels.map((t, k) => ({ token: t, logprob: Math.log(p[k] as number) }));
  const best = top.reduce((a, b) => (b.logprob > a.logprob ? b : a));
  return { choices: [{ message: { content: best.token }, logprobs: { content: [{ ...best, top_logprobs: top }] } }] };
}

function softmax(z: number[]): number[] {
  const m = Math.max(...z);
  const e = z.map((x) => Math.exp(x - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
}

describe('judgeVerbalizer', () => {
  it('pairwise A/B/tie (case-sensitive: the article "a" is no answer), graded 1…5', () => {
    const v = judgeVerbalizer('pairwise');
    expect([v.labels, v.caseSensitive, v.prefixes]).toEqual([['A', 'B', 'tie'], true, false]);
    expect(judgeVerbalizer('pairwise', { tie: false }).labels).toEqual(['A', 'B']);
    expect(judgeVerbalizer('graded').labels).toEqual(['1', '2', '3', '4', '5']);
    expect(judgeVerbalizer('graded', { min: 0, max: 10 }).labels.length).toBe(11);
    const r = labelProbabilities(
      [{ choices: [{ message: { content: 'After a careful look, A is better. Confidence: 0.8' } }] }],
      judgeVerbalizer('pairwise'),
    );
    expect(Array.from(r.probs.data)).toEqual([0.8, 0.09999999999999998, 0.09999999999999998]);
  });
  it('graded scores are a five-class problem every metric reads', () => {
    const grades = [
      [0.1, 0.1, 0.2, 0.5, 0.1],
      [0.05, 0.05, 0.1, 0.2, 0.6],
    ];
    const r = labelProbabilities(
      grades.map((p) => judged(['1', '2', '3', '4', '5'], p)),
      judgeVerbalizer('graded'),
    );
    expect(accuracy(goldLabels(r, ['4', '4']), r.probs)).toBe(0.5);
  });
  it('rejects bad kinds and scales naming the option', () => {
    expect(failure(() => judgeVerbalizer('ranked' as 'graded')).message).toBe(
      "judgeVerbalizer: kind must be 'pairwise' or 'graded'; got \"ranked\"",
    );
    expect(failure(() => judgeVerbalizer('graded', { min: 3, max: 3 })).message).toMatch(
      /^judgeVerbalizer: options\.max must be an integer in \(min, min \+ 100\]/,
    );
    expect(failure(() => judgeVerbalizer('pairwise', { variants: { C: ['c'] } })).message).toMatch(
      /^judgeVerbalizer: options\.variants\.C must name a label/,
    );
  });
});

describe('positionBias', () => {
  /** The brute-force reading of the definition, pairs by response index. */
  function reference(f: number[][], s: number[][], keptF: Set<number>, keptS: Set<number>) {
    let first = 0;
    let second = 0;
    let consistent = 0;
    let n = 0;
    const d: number[] = [];
    const arg = (p: number[]) => p.indexOf(Math.max(...p));
    f.forEach((pf, i) => {
      const ps = s[i] as number[];
      if (!keptF.has(i) || !keptS.has(i)) return;
      n++;
      first += ((pf[0] as number) + (ps[0] as number)) / 2;
      second += ((pf[1] as number) + (ps[1] as number)) / 2;
      d.push(((pf[0] as number) + (ps[0] as number) - (pf[1] as number) - (ps[1] as number)) / 2);
      const back = [1, 0, 2][arg(ps)] as number;
      if (arg(pf) === back) consistent++;
    });
    const bias = first / n - second / n;
    const sd = Math.sqrt(d.reduce((x, y) => x + (y - bias) ** 2, 0) / (n - 1));
    return { n, bias, consistency: consistent / n, standardError: sd / Math.sqrt(n) };
  }

  for (const [name, lean] of [
    ['a judge that favours the first position', 1.2],
    ['a position-blind judge', 0],
  ] as const) {
    it(`${name}: equals the brute-force definition (seeded pairs, exact ties, excluded rows)`, () => {
      const rng = createRng('t', lean === 0 ? 3 : 4);
      const labels = ['A', 'B', 'tie'];
      const f: number[][] = [];
      const s: number[][] = [];
      const fr: unknown[] = [];
      const sr: unknown[] = [];
      for (let i = 0; i < 400; i++) {
        const quality = rng.normal();
        const tie = rng.normal() - 1;
        // the same pair: quality of the answer in position A is +quality forward and −quality swapped
        const pf = i % 25 === 0 ? [0.4, 0.4, 0.2] : softmax([quality + lean, -quality, tie]);
        const ps = i % 25 === 0 ? [0.4, 0.4, 0.2] : softmax([-quality + lean, quality, tie]);
        f.push(pf);
        s.push(ps);
        fr.push(i % 37 === 5 ? { choices: [{ message: { refusal: 'no' } }] } : judged(labels, pf));
        sr.push(i % 41 === 7 ? { error: { message: 'timeout' } } : judged(labels, ps));
      }
      const v = judgeVerbalizer('pairwise');
      const forward = labelProbabilities(fr, v, { onInvalid: 'exclude' });
      const swapped = labelProbabilities(sr, v, { onInvalid: 'exclude' });
      const got = positionBias(forward, swapped);
      const want = reference(f, s, new Set(forward.rows), new Set(swapped.rows));
      expect(got.n).toBe(want.n);
      expect(got.unpaired).toBe(forward.n + swapped.n - 2 * want.n);
      for (const k of ['bias', 'consistency', 'standardError'] as const)
        expect(Math.abs((got[k] as number) - want[k]), k).toBeLessThan(1e-12);
      if (lean === 0) {
        // symmetric in both orders: every pair's preference for the first position is 0 (to rounding)
        expect(Math.abs(got.bias)).toBeLessThan(1e-12);
        expect(got.consistency).toBeGreaterThan(0.9);
      } else {
        expect(got.bias).toBeGreaterThan(0.2);
        expect(got.firstBoth).toBeGreaterThan(got.secondBoth);
      }
    });
  }

  it('names the labels of the positions, refuses other label sets and disjoint rows', () => {
    const yes = labelProbabilities([judged(['yes', 'no'], [0.7, 0.3])], ['yes', 'no']);
    expect(positionBias(yes, yes, { first: 'yes', second: 'no' }).bias).toBeCloseTo(0.4, 12);
    expect(failure(() => positionBias(yes, yes)).message).toBe(
      'positionBias: options.first must name a label (yes, no); got "A"',
    );
    const ab = labelProbabilities([judged(['A', 'B'], [0.7, 0.3])], ['A', 'B']);
    expect(failure(() => positionBias(ab, yes)).message).toBe(
      'positionBias: swapped must have the labels of forward (A, B); got "yes, no"',
    );
    expect(failure(() => positionBias(ab, { probs: [] } as never)).message).toMatch(
      /^positionBias: swapped must be label probabilities/,
    );
    const one = positionBias(ab, ab);
    expect([one.n, one.standardError]).toEqual([1, null]);
  });

  it('refuses reads of different numbers of responses: pairs match by index, a shifted file pairs other pairs', () => {
    const rng = createRng('t', 9);
    const v = judgeVerbalizer('pairwise');
    for (let trial = 0; trial < 20; trial++) {
      const n = 2 + rng.integer(30);
      const m = rng.uniform() < 0.5 ? n : 2 + rng.integer(40);
      const rows = (k: number) =>
        Array.from({ length: k }, () => judged(['A', 'B', 'tie'], softmax([rng.normal(), rng.normal(), -1])));
      // a refusal at the end of the longer file: the kept rows alone would still overlap
      const swappedRows = [...rows(m - 1), { choices: [{ message: { refusal: 'no' } }] }];
      const forward = labelProbabilities(rows(n), v);
      const swapped = labelProbabilities(swappedRows, v, { onInvalid: 'exclude' });
      if (m === n) {
        expect(positionBias(forward, swapped).n).toBe(Math.min(n, m - 1));
        continue;
      }
      const e = failure(() => positionBias(forward, swapped));
      expect([e.code, e.message]).toEqual([
        'UM_SHAPE',
        `positionBias: swapped must hold one response per pair of forward (${n} responses read): the i-th response of each judges the same pair; got "${m} responses read"`,
      ]);
    }
  });
});
