/**
 * The mass outside the top-k and its bound (src/llm/rows.ts) against seeded full token distributions, in the top-k
 * layouts servers produce: OpenAI's (the k most likely, the sampled token apart when it is not among them) and
 * vLLM's (the sampled token first, in place of the k-th most likely). Every token left out must be at most the
 * bound, and every label left out at most min(outside, s × bound) with s its tokens in the vocabulary.
 */
import { describe, expect, it } from 'vitest';
import { labelProbabilities } from '../../src/llm/index.js';
import { createRng, type Rng } from '../../src/random/rng.js';

const LABELS = ['yes', 'no'];
/** Label tokens in many forms (case, leading space, SentencePiece ▁, first tokens), then tokens of no label. */
const VOCAB = [
  ...['Yes', 'yes', ' yes', 'YES', ' Yes', '▁Yes', 'Y', ' y', 'ye', 'No', 'no', ' no', 'NO', ' No', '▁no', 'N', ' n'],
  ...Array.from({ length: 40 }, (_x, i) => `w${i}`),
];

/** The label a token stands for, by the definition (whole spelling, else the start of exactly one label), or −1. */
function labelOf(token: string): number {
  const t = token.replace(/^[\s\u2581]+/u, '').toLowerCase();
  const whole = LABELS.indexOf(t);
  if (whole >= 0 || t === '') return whole;
  const starts = LABELS.flatMap((l, k) => (l.length > t.length && l.startsWith(t) ? [k] : []));
  return starts.length === 1 ? (starts[0] as number) : -1;
}

/** A heavy-tailed distribution over VOCAB with near-ties: Dirichlet weights, some copied from a neighbour. */
function distribution(rng: Rng): number[] {
  const w = VOCAB.map(() => rng.gamma(0.3));
  for (let j = 1; j < w.length; j++) if (rng.uniform() < 0.1) w[j] = (w[j - 1] as number) * (1 + 1e-12);
  const s = w.reduce((a, b) => a + b, 0);
  return w.map((x) => x / s);
}

type Entry = { token: string; logprob: number };
const entry = (p: readonly number[], j: number): Entry => ({
  token: VOCAB[j] as string,
  logprob: Math.log(p[j] as number),
});

/** One response in a layout; the sampled token is drawn from the tail half of the time (the adversarial case). */
function response(rng: Rng, p: readonly number[], k: number, layout: 'openai' | 'vllm') {
  const order = p.map((_x, j) => j).sort((a, b) => (p[b] as number) - (p[a] as number));
  const sampled = rng.uniform() < 0.5 ? (order[0] as number) : (order[k + rng.integer(VOCAB.length - k)] as number);
  const inTop = order.slice(0, k).includes(sampled);
  const listed =
    layout === 'openai'
      ? order.slice(0, k)
      : inTop
        ? [sampled, ...order.slice(0, k).filter((j) => j !== sampled)]
        : [sampled, ...order.slice(0, k - 1)];
  const chosen = entry(p, sampled);
  return {
    returned: new Set([...listed, sampled]),
    body: {
      choices: [
        {
          message: { content: chosen.token },
          logprobs: { content: [{ ...chosen, top_logprobs: listed.map((j) => entry(p, j)) }] },
        },
      ],
    },
  };
}

describe('the bound on what the top-k left out', () => {
  for (const layout of ['openai', 'vllm'] as const)
    it(`${layout} layout: every token left out ≤ bound, every label left out ≤ min(outside, s × bound)`, () => {
      const rng = createRng('t', layout === 'openai' ? 11 : 12);
      let checkedLabels = 0;
      let aboveBound = 0;
      for (const k of [2, 3, 5, 8]) {
        const rows = Array.from({ length: 150 }, () => {
          const p = distribution(rng);
          return { p, ...response(rng, p, k, layout) };
        });
        // the label tokens may all be missing from a row: such rows are invalid, and left out of this check
        const read = labelProbabilities(
          rows.map((r) => r.body),
          LABELS,
          { onInvalid: 'exclude', sumTolerance: 1e-9 },
        );
        read.rows.forEach((i, j) => {
          const { p, returned } = rows[i] as (typeof rows)[number];
          const bound = read.bound[j] as number;
          const left = p.reduce((s, x, t) => s + (returned.has(t) ? 0 : x), 0);
          expect(Math.abs(left - (read.outside[j] as number)), `k ${k} row ${i}`).toBeLessThan(1e-12);
          p.forEach((x, t) => {
            if (!returned.has(t)) expect(x, `k ${k} row ${i} ${VOCAB[t]}`).toBeLessThanOrEqual(bound * (1 + 1e-12));
          });
          for (let label = 0; label < LABELS.length; label++) {
            const tokens = VOCAB.flatMap((_t, t) => (labelOf(VOCAB[t] as string) === label ? [t] : []));
            if (tokens.some((t) => returned.has(t))) continue;
            const mass = tokens.reduce((s, t) => s + (p[t] as number), 0);
            checkedLabels++;
            if (mass > bound) aboveBound++;
            const limit = Math.min(read.outside[j] as number, tokens.length * bound);
            expect(mass, `k ${k} row ${i} label ${LABELS[label]}`).toBeLessThanOrEqual(limit * (1 + 1e-12));
          }
        });
      }
      expect(checkedLabels).toBeGreaterThan(100);
      // the bound is per token: a label of several tokens can hold more than it (hence s × bound)
      expect(aboveBound).toBeGreaterThan(0);
    });
});
