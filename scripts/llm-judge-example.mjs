// Writes examples/data/llm_judge_{val,test,test_swapped}.jsonl: a simulated pairwise LLM judge (A / B / tie) whose
// truth is known, as raw OpenAI chat-completion responses with top_logprobs: 5, joined to gold labels.
// Run from the repository root: `node scripts/llm-judge-example.mjs` (deterministic: seeded, no dependency).
//
// Each pair has a quality gap d ~ N(0, 1.5²) between the answer in position A and the one in B; the gold label
// (what a careful human panel says) is drawn from q = softmax(d/2, −d/2, −1 − |d|) over (A, B, tie). The judge
// is over-confident and favours the first position: its label logits are 2.5·ln q + (0.4, 0, 0); its label mass is
// spread over spellings ("A" 85 %, " A" 15 %; "B" likewise; "tie" 70 %, "Tie" 30 %) and mixed with 4–25 % of other
// tokens ("The", "Both", "Response", …), and the response returns the 5 most likely tokens, so a label is sometimes
// missing from the top-k. A few rows are refusals or API errors. test_swapped.jsonl holds the test pairs with the
// answers exchanged (d → −d, the same position bias): `positionBias` reads the two test files.
import { writeFileSync } from 'node:fs';

/** xoshiro128** seeded by splitmix32: the same stream everywhere. */
function rng(seed) {
  let s = seed >>> 0;
  const split = () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let [a, b, c, d] = [split(), split(), split(), split()];
  const next = () => {
    const r = Math.imul(((Math.imul(b, 5) << 7) | (Math.imul(b, 5) >>> 25)) >>> 0, 9) >>> 0;
    const t = (b << 9) >>> 0;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = ((d << 11) | (d >>> 21)) >>> 0;
    return r;
  };
  const uniform = () => (next() * 2 ** 21 + (next() >>> 11)) / 2 ** 53;
  const normal = () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
  return { uniform, normal };
}

const softmax = (z) => {
  const m = Math.max(...z);
  const e = z.map((x) => Math.exp(x - m));
  const s = e.reduce((x, y) => x + y, 0);
  return e.map((x) => x / s);
};
const draw = (r, p) => {
  let u = r.uniform();
  for (let k = 0; k < p.length; k++) if ((u -= p[k]) < 0) return k;
  return p.length - 1;
};

const LABELS = ['A', 'B', 'tie'];
const SPELLINGS = [
  ['A', 0, 0.85],
  [' A', 0, 0.15],
  ['B', 1, 0.85],
  [' B', 1, 0.15],
  ['tie', 2, 0.7],
  ['Tie', 2, 0.3],
];
const OTHERS = ['The', 'Both', 'Response', 'Neither', 'Assistant', 'I', '**', 'Answer'];
const bytes = (t) => [...Buffer.from(t, 'utf8')];
const entry = (token, p) => ({ token, logprob: Number(Math.log(p).toPrecision(10)), bytes: bytes(token) });

/** One raw chat completion of the judge for a pair with quality gap `d` (position A minus position B). */
function judge(r, d, id, noise) {
  const q = softmax([d / 2, -d / 2, -1 - Math.abs(d)]);
  const judged = softmax(q.map((x, k) => 2.5 * Math.log(x) + (k === 0 ? 0.4 : 0)));
  const other = 0.04 + 0.21 * noise;
  const w = OTHERS.map(() => -Math.log(1 - r.uniform()));
  const ws = w.reduce((x, y) => x + y, 0);
  const tokens = [
    ...SPELLINGS.map(([t, k, share]) => [t, (1 - other) * judged[k] * share]),
    ...OTHERS.map((t, j) => [t, (other * w[j]) / ws]),
  ].sort((x, y) => y[1] - x[1]);
  const top = tokens.slice(0, 5).map(([t, p]) => entry(t, p));
  return {
    q,
    response: {
      id: `chatcmpl-${id}`,
      object: 'chat.completion',
      created: 1735689600,
      model: 'judge-sim-1',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: top[0].token, refusal: null },
          logprobs: { content: [{ ...top[0], top_logprobs: top }], refusal: null },
          finish_reason: 'stop',
        },
      ],
    },
  };
}

const refusal = (id) => ({
  id: `chatcmpl-${id}`,
  object: 'chat.completion',
  created: 1735689600,
  model: 'judge-sim-1',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: null, refusal: "I'm sorry, but I can't compare these responses." },
      // the refusal's tokens carry top_logprobs like content tokens (the schema requires the field)
      logprobs: { content: null, refusal: [{ ...entry("I'm", 0.93), top_logprobs: [entry("I'm", 0.93)] }] },
      finish_reason: 'stop',
    },
  ],
});

function write(name, rows) {
  writeFileSync(`examples/data/${name}.jsonl`, rows.map((x) => `${JSON.stringify(x)}\n`).join(''));
}

for (const [split, seed, n] of [
  ['val', 1, 300],
  ['test', 2, 300],
]) {
  const r = rng(seed);
  const rows = [];
  const swapped = [];
  for (let i = 0; i < n; i++) {
    const id = `${split}-${i}`;
    const d = 1.5 * r.normal();
    const noise = r.uniform();
    const forward = judge(r, d, id, noise);
    const gold = LABELS[draw(r, forward.q)];
    const refused = i % 97 === 41;
    const failed = split === 'test' && i === 150;
    const response = refused
      ? refusal(id)
      : failed
        ? { error: { message: 'The server had an error', type: 'server_error' } }
        : forward.response;
    rows.push({ id, gold, response });
    if (split === 'test') {
      // the same pair with the answers exchanged: A ↔ B in the gold label too
      const back = judge(r, -d, `${id}-swapped`, noise);
      swapped.push({ id, gold: { A: 'B', B: 'A', tie: 'tie' }[gold], response: back.response });
    }
  }
  write(`llm_judge_${split}`, rows);
  if (split === 'test') write('llm_judge_test_swapped', swapped);
}
