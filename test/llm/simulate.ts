/**
 * A seeded over-confident LLM judge with known truth: each row has true label probabilities q (gold ~ q); the judge's
 * label distribution is softmax(s · ln q) (s > 1: over-confident), spread over label spellings and mixed with
 * non-label tokens; the response returns the top-k tokens in the OpenAI chat shape. The full token distribution is
 * kept, so tests can check what the top-k left out.
 */
import { createRng, type Rng } from '../../src/random/rng.js';

export const JUDGE_LABELS = ['A', 'B', 'tie'] as const;

/** The tokens of the simulated vocabulary: label spellings (with their share of the label's mass), then others. */
export const SPELLINGS: readonly { token: string; label: number; share: number }[] = [
  { token: 'A', label: 0, share: 0.85 },
  { token: ' A', label: 0, share: 0.15 },
  { token: 'B', label: 1, share: 0.85 },
  { token: ' B', label: 1, share: 0.15 },
  { token: 'tie', label: 2, share: 0.7 },
  { token: 'Tie', label: 2, share: 0.3 },
];
export const OTHER_TOKENS: readonly string[] = Array.from({ length: 20 }, (_x, i) => `other${i}`);

export interface SimulatedRow {
  /** True label probabilities (the distribution gold was drawn from). */
  readonly q: readonly number[];
  readonly gold: number;
  /** The judge's probability of every token: SPELLINGS, then OTHER_TOKENS. */
  readonly tokens: readonly number[];
  readonly response: unknown;
}

function dirichlet(rng: Rng, alpha: readonly number[]): number[] {
  const g = alpha.map((a) => rng.gamma(a));
  const s = g.reduce((x, y) => x + y, 0);
  return g.map((x) => x / s);
}

function draw(rng: Rng, p: readonly number[]): number {
  let u = rng.uniform();
  for (let k = 0; k < p.length; k++) {
    u -= p[k] as number;
    if (u < 0) return k;
  }
  return p.length - 1;
}

/** `n` rows of a judge with sharpness `s`, returning the `topK` most likely tokens. */
export function simulateJudge(seed: number, n: number, s = 3, topK = 5): SimulatedRow[] {
  const rng = createRng('simulateJudge', seed);
  const rows: SimulatedRow[] = [];
  for (let i = 0; i < n; i++) {
    const q = dirichlet(rng, [1.2, 1.2, 0.6]);
    const gold = draw(rng, q);
    const z = q.map((x) => s * Math.log(x));
    const m = Math.max(...z);
    const e = z.map((x) => Math.exp(x - m));
    const se = e.reduce((x, y) => x + y, 0);
    const judged = e.map((x) => x / se);
    const other = 0.02 + 0.3 * rng.uniform();
    const split = dirichlet(
      rng,
      OTHER_TOKENS.map(() => 0.5),
    );
    const tokens = [
      ...SPELLINGS.map((t) => (1 - other) * (judged[t.label] as number) * t.share),
      ...split.map((x) => other * x),
    ];
    const names = [...SPELLINGS.map((t) => t.token), ...OTHER_TOKENS];
    const order = tokens.map((_p, k) => k).sort((a, b) => (tokens[b] as number) - (tokens[a] as number));
    const top = order
      .slice(0, topK)
      .map((k) => ({ token: names[k] as string, logprob: Math.log(tokens[k] as number) }));
    const chosen = top[0] as { token: string; logprob: number };
    const response = {
      id: `chatcmpl-sim-${i}`,
      object: 'chat.completion',
      model: 'simulated-judge',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: chosen.token, refusal: null },
          logprobs: { content: [{ ...chosen, bytes: null, top_logprobs: top }], refusal: null },
          finish_reason: 'stop',
        },
      ],
    };
    rows.push({ q, gold, tokens, response });
  }
  return rows;
}
