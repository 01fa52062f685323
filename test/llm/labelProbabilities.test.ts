/**
 * Rows holding several answers (src/llm/labelProbabilities.ts): a list of responses or n > 1 choices is read as
 * samples (every answer counted) or, under an explicit logprob/verbal provenance, refused — never cut to its first.
 */
import { describe, expect, it } from 'vitest';
import { labelProbabilities } from '../../src/llm/index.js';
import { failure } from '../helpers/failure.js';

/** A seeded LCG in [0, 1). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

const YN = ['yes', 'no'];
/** An answer with token log-probabilities (p on its token, 1 − p on the other label). */
const scored = (t: string, p: number) => {
  const other = t === 'yes' ? 'no' : 'yes';
  const top = [
    { token: t, logprob: Math.log(p) },
    { token: other, logprob: Math.log(1 - p) },
  ];
  return {
    message: { content: `${t} (${Math.round(p * 100)}%)` },
    logprobs: { content: [{ ...top[0], top_logprobs: top }] },
  };
};

describe('rows of several answers', () => {
  it('are read as samples, every answer counted, in both forms (a list of responses, n choices)', () => {
    const r = rng(5);
    for (let trial = 0; trial < 60; trial++) {
      const k = 2 + Math.floor(r() * 6);
      const answers = Array.from({ length: k }, () => scored(r() < 0.5 ? 'yes' : 'no', 0.55 + 0.4 * r()));
      const yes = answers.filter((a) => a.message.content.startsWith('yes')).length;
      const asList = answers.map((a) => ({ choices: [a] }));
      const asChoices = { choices: answers };
      const read = labelProbabilities([asList, asChoices], YN, { pseudocount: 0.5 });
      expect(read.provenance).toEqual(['sampled', 'sampled']);
      const expected = [(yes + 0.5) / (k + 1), (k - yes + 0.5) / (k + 1)];
      const got = Array.from(read.probs.data);
      got.forEach((x, j) => expect(Math.abs(x - (expected[j % 2] as number))).toBeLessThan(1e-12));
      for (const provenance of ['logprob', 'verbal'] as const) {
        const e = failure(() =>
          labelProbabilities([answers.map((a) => ({ choices: [a] })), asChoices], YN, { provenance }),
        );
        expect([e.code, e.details.index]).toEqual(['UM_RESPONSE', [0]]);
        expect(e.message).toBe(
          `labelProbabilities: responses[0] must hold one answer for provenance: '${provenance}' (read several as samples with provenance: 'sampled'); got "${k} answers"`,
        );
        const second = failure(() => labelProbabilities([{ choices: [answers[0]] }, asChoices], YN, { provenance }));
        expect(second.details.index).toEqual([1]);
      }
    }
  });
  it('a single answer keeps its provenance', () => {
    const read = labelProbabilities([{ choices: [scored('yes', 0.8)] }, [{ choices: [scored('no', 0.7)] }]], YN);
    expect(read.provenance).toEqual(['logprob', 'logprob']);
    expect(Array.from(read.probs.data).map((x) => +x.toFixed(12))).toEqual([0.8, 0.2, 0.3, 0.7]);
  });
});
