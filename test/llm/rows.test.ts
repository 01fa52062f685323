/**
 * One logprob row (src/llm/rows.ts) on seeded top-k lists: one text twice is two tokens unless the entry repeats
 * (then refused), OpenAI's −9999 placeholder is read as not returned, `floor` never gives 0 (a returned mass reaching
 * 1 leaves sumTolerance), and a row with no label token is invalid under every policy.
 */
import { describe, expect, it } from 'vitest';
import { labelProbabilities, type LabelProbabilityOptions } from '../../src/llm/index.js';
import { failure } from '../helpers/failure.js';

/** A seeded LCG in [0, 1). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

type Entry = { token: string; logprob: number };
const chat = (top: readonly Entry[], chosen: Entry = top[0] as Entry) => ({
  choices: [{ message: { content: chosen.token }, logprobs: { content: [{ ...chosen, top_logprobs: top }] } }],
});
const YN = ['yes', 'no'];
const POOL = ['Yes', ' yes', 'YES', 'No', ' no', 'Maybe', 'Sure', 'I', 'The', '{"'];
const TOP = 'choices[0].logprobs.content[0].top_logprobs';

/** A seeded top-k list of distinct tokens whose probabilities sum to `mass` (k ≥ 1). */
function topK(r: () => number, k: number, mass: number): Entry[] {
  const tokens = [...POOL].sort(() => r() - 0.5).slice(0, k);
  const w = tokens.map(() => 0.05 + r());
  const sum = w.reduce((a, b) => a + b, 0);
  return tokens.map((token, j) => ({ token, logprob: Math.log(((w[j] as number) / sum) * mass) }));
}

describe('logprob rows', () => {
  it('one text twice: two tokens when log-probability, id or bytes differ (both count), else refused', () => {
    const r = rng(1);
    /** The same top-k list as chat (bytes), llama.cpp (id) and Gemini (tokenId) responses. */
    const shapes = (top: readonly (Entry & { id: number })[]) => [
      chat(top.map((t) => ({ token: t.token, logprob: t.logprob, bytes: [t.id] }))),
      {
        content: (top[0] as Entry).token,
        tokens_predicted: 1,
        completion_probabilities: [{ ...top[0], top_logprobs: top }],
      },
      {
        candidates: [
          {
            content: { parts: [{ text: (top[0] as Entry).token }] },
            logprobsResult: {
              chosenCandidates: [{ token: top[0]?.token, tokenId: top[0]?.id, logProbability: top[0]?.logprob }],
              topCandidates: [
                { candidates: top.map((t) => ({ token: t.token, tokenId: t.id, logProbability: t.logprob })) },
              ],
            },
          },
        ],
      },
    ];
    for (let trial = 0; trial < 200; trial++) {
      // a label token leads, so the list is the answer step whatever else it holds
      // at most .25 + .35 returned, so a second token of any entry's text keeps the sum below 1
      const base = [
        { token: 'Yes', logprob: Math.log(0.25) },
        ...topK(r, 2 + Math.floor(r() * 6), 0.1 + 0.25 * r()).filter((t) => t.token !== 'Yes'),
      ].map((t, id) => ({ ...t, id }));
      const twin = base[Math.floor(r() * base.length)] as Entry & { id: number };
      // vLLM renders ▁Yes and Yes both "Yes", byte-fallback tokens "": another token of the same text
      const other = r() < 0.5 ? { ...twin, logprob: twin.logprob - 1 - r() * 3 } : { ...twin, id: 100 + trial };
      const at = Math.floor(r() * (base.length + 1));
      // placeholders (vLLM clamps −inf to −9999 and renders many tokens "") are not returned: repeats are harmless
      const placeholder = { token: '', logprob: -9999, id: 900 };
      const two = [...base.slice(0, at), other, ...base.slice(at), placeholder, placeholder];
      const byLabel = [0, 0];
      for (const t of two) {
        const k = /^\s*y/i.test(t.token) ? 0 : /^\s*no/i.test(t.token) ? 1 : -1;
        if (k >= 0) byLabel[k] = (byLabel[k] as number) + Math.exp(t.logprob);
      }
      const read = labelProbabilities(shapes(two), YN, { missing: 'renormalize' });
      const returned = two.reduce((a, t) => a + Math.exp(t.logprob), 0);
      const total = (byLabel[0] as number) + (byLabel[1] as number);
      for (let j = 0; j < 3; j++) {
        expect(
          Math.abs((read.outside[j] as number) - Math.max(0, 1 - returned)),
          `trial ${trial} shape ${j}`,
        ).toBeLessThan(1e-12);
        expect(Math.abs((read.labelMass[j] as number) - total)).toBeLessThan(1e-12);
        expect(Math.abs((read.probs.data[2 * j] as number) - (byLabel[0] as number) / total)).toBeLessThan(1e-12);
      }
      // the same entry twice (text, log-probability and id alike) would count one token twice
      const same = [...base.slice(0, at), twin, ...base.slice(at)];
      const paths = [
        TOP,
        'completion_probabilities[0].top_logprobs',
        'candidates[0].logprobsResult.topCandidates[0].candidates',
      ];
      shapes(same).forEach((resp, j) => {
        for (const missing of ['floor', 'renormalize', 'reject'] as const) {
          const e = failure(() => labelProbabilities([chat(base), resp], YN, { missing, onInvalid: 'exclude' }));
          expect([e.code, e.details.index]).toEqual(['UM_RESPONSE', [1]]);
          expect(e.message).toBe(
            `labelProbabilities: responses[1].${paths[j]} must list each token once (the same entry twice would count twice); got ${JSON.stringify(`${JSON.stringify(twin.token)} with log-probability ${twin.logprob} twice`)}`,
          );
        }
      });
    }
  });

  it('floor: a missing label gets min(max(outside, sumTolerance), smallest top-k), never 0; −9999 is not returned', () => {
    const r = rng(2);
    for (let trial = 0; trial < 300; trial++) {
      const tol = [1e-3, 1e-6, 0.01][trial % 3] as number;
      // returned mass: 1 exactly (or up to rounding), just under 1, or well under
      const mass = [1, 1 - tol / 2, 0.3 + 0.6 * r()][Math.floor(r() * 3)] as number;
      let top = topK(r, 1 + Math.floor(r() * 6), mass);
      if (!top.some((t) => /yes/i.test(t.token)))
        top = [...top.slice(1), { token: 'Yes', logprob: (top[0] as Entry).logprob }];
      top = top.filter((t) => !/no/i.test(t.token)); // "no" is missing
      const placeholders = Array.from({ length: Math.floor(r() * 3) }, (_x, j) => ({
        token: [' no', 'No', 'Nope'][j] as string,
        logprob: j === 0 ? -9999 : -1e30,
      }));
      const opts: LabelProbabilityOptions = { sumTolerance: tol };
      const read = labelProbabilities([chat([...top, ...placeholders], top[0])], YN, opts);
      // brute force over the real entries only
      const p = top.map((t) => Math.exp(t.logprob));
      const returned = p.reduce((a, b) => a + b, 0);
      const outside = Math.max(0, 1 - returned);
      // the least likely top-k entry besides the sampled one (top[0]), unless it stands alone
      const others = top.filter((t) => t.token !== (top[0] as Entry).token).map((t) => Math.exp(t.logprob));
      const bound = Math.min(Math.max(outside, tol), ...(others.length > 0 ? others : p));
      const yes = top.filter((t) => /yes/i.test(t.token)).reduce((a, t) => a + Math.exp(t.logprob), 0);
      expect(read.missing[0]).toBe(1);
      expect(Math.abs((read.outside[0] as number) - outside)).toBeLessThan(1e-12);
      expect(Math.abs((read.bound[0] as number) - bound) / bound).toBeLessThan(1e-12);
      const [py, pn] = Array.from(read.probs.data);
      expect(pn).toBeGreaterThan(0);
      expect(Number.isFinite(read.probs.logData?.[1])).toBe(true);
      expect(Math.abs((pn as number) - bound / (yes + bound))).toBeLessThan(1e-12);
      expect(Math.abs((py as number) - yes / (yes + bound))).toBeLessThan(1e-12);
    }
  });

  it('floor with sumTolerance 0 and all the probability returned has no positive limit: the row is invalid', () => {
    const rows = [
      chat([{ token: 'Yes', logprob: 0 }]),
      chat([
        { token: 'Yes', logprob: 0 },
        { token: ' no', logprob: -9999 },
      ]),
    ];
    const read = labelProbabilities([...rows, chat([{ token: 'No', logprob: Math.log(0.5) }])], YN, {
      sumTolerance: 0,
      onInvalid: 'exclude',
    });
    expect(read.excluded.map((e) => [e.row, e.reason, e.field])).toEqual([
      [0, 'missing-label', TOP],
      [1, 'missing-label', TOP],
    ]);
    expect(read.excluded[0]?.message).toContain("must bound the labels not returned (missing: 'floor')");
  });

  it('no label among the returned tokens (a placeholder is not one) is a no-label row under every policy', () => {
    const r = rng(3);
    for (let trial = 0; trial < 100; trial++) {
      const top = topK(r, 1 + Math.floor(r() * 5), 0.2 + 0.7 * r()).filter((t) => !/yes|no/i.test(t.token));
      if (top.length === 0) continue;
      const withPlaceholder = [...top, { token: 'Yes', logprob: -9999 }];
      const rows = [
        chat(top),
        chat(withPlaceholder, top[0]),
        chat([
          { token: 'Yes', logprob: Math.log(0.6) },
          { token: 'No', logprob: Math.log(0.3) },
        ]),
      ];
      for (const missing of ['floor', 'renormalize', 'reject'] as const) {
        const read = labelProbabilities(rows, YN, { missing, position: 0, onInvalid: 'exclude' });
        expect(read.excluded.map((e) => [e.row, e.reason, e.field])).toEqual([
          [0, 'no-label', TOP],
          [1, 'no-label', TOP],
        ]);
        expect(read.n).toBe(1);
        const e = failure(() => labelProbabilities(rows, YN, { missing, position: 0 }));
        expect(e.message).toMatch(
          /^labelProbabilities: responses\[0\]\..*top_logprobs must hold a token of a label \(yes, no\); got "none" \(no-label;/,
        );
      }
    }
  });
});
