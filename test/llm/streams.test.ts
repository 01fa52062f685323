/**
 * Streamed chat completions (src/llm/readers.ts, chatStream): a row holding the chunks of one stream is that one
 * response — seeded responses split into chunks as OpenAI streams them (a role chunk, one chunk per token, the
 * finish chunk, the usage chunk without choices; n > 1 choices interleaved) read exactly as the whole responses.
 */
import { describe, expect, it } from 'vitest';
import { labelProbabilities, type LabelProbabilityOptions } from '../../src/llm/index.js';
import { createRng, type Rng } from '../../src/random/rng.js';
import { failure } from '../helpers/failure.js';

const YN = ['yes', 'no'];
const WORDS = ['Yes', ' yes', 'No', ' no', 'I', ' think', ' (', '80', '%)', 'Maybe', '.', ' Confidence', ':', ' 0.7'];

type Step = { token: string; logprob: number; bytes: number[]; top_logprobs: { token: string; logprob: number }[] };

/** One seeded answer: its token steps (each with a top-k) and finish reason. */
function answer(rng: Rng): { steps: Step[]; finish: string } {
  const steps = Array.from({ length: 1 + rng.integer(6) }, () => {
    const tokens = [...WORDS].sort(() => rng.uniform() - 0.5).slice(0, 1 + rng.integer(4));
    const w = tokens.map(() => 0.05 + rng.uniform());
    const mass = (0.5 + 0.5 * rng.uniform()) / w.reduce((a, b) => a + b, 0);
    const top = tokens.map((token, k) => ({ token, logprob: Math.log((w[k] as number) * mass) }));
    return { ...(top[0] as { token: string; logprob: number }), bytes: [], top_logprobs: top };
  });
  return { steps, finish: rng.uniform() < 0.8 ? 'stop' : 'length' };
}

/** The whole response of n answers. */
function whole(answers: { steps: Step[]; finish: string }[]) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    choices: answers.map((a, index) => ({
      index,
      message: { role: 'assistant', content: a.steps.map((s) => s.token).join(''), refusal: null },
      logprobs: { content: a.steps, refusal: null },
      finish_reason: a.finish,
    })),
  };
}

/** The same answers as OpenAI streams them, the choices' chunks interleaved at random. */
function chunks(rng: Rng, answers: { steps: Step[]; finish: string }[]) {
  const chunk = (choice: object) => ({ id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [choice] });
  const queues = answers.map((a, index) => [
    chunk({ index, delta: { role: 'assistant', content: '', refusal: null }, logprobs: null, finish_reason: null }),
    ...a.steps.map((s) =>
      chunk({ index, delta: { content: s.token }, logprobs: { content: [s], refusal: null }, finish_reason: null }),
    ),
    chunk({ index, delta: {}, logprobs: null, finish_reason: a.finish }),
  ]);
  const out: object[] = [];
  while (queues.some((q) => q.length > 0)) {
    const live = queues.filter((q) => q.length > 0);
    out.push((live[rng.integer(live.length)] as object[]).shift() as object);
  }
  // stream_options.include_usage: a last chunk without choices
  out.push({ id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [], usage: { total_tokens: 9 } });
  return out;
}

describe('streamed chat completions', () => {
  it('the chunks of one stream read exactly as the whole response (seeded, 1–3 choices, every provenance)', () => {
    const rng = createRng('t', 31);
    const full: unknown[] = [];
    const streamed: unknown[] = [];
    for (let i = 0; i < 200; i++) {
      const answers = Array.from({ length: rng.uniform() < 0.7 ? 1 : 2 + rng.integer(2) }, () => answer(rng));
      full.push(whole(answers));
      streamed.push(chunks(rng, answers));
    }
    const options: LabelProbabilityOptions[] = [
      { onInvalid: 'exclude' },
      { onInvalid: 'exclude', provenance: 'verbal' },
      { onInvalid: 'exclude', provenance: 'sampled', pseudocount: 1 },
    ];
    for (const o of options) {
      // rows of several answers under an explicit logprob/verbal provenance are errors in both forms alike
      const single =
        o.provenance === 'verbal' ? full.filter((r) => (r as { choices: unknown[] }).choices.length === 1) : full;
      const keep = single.map((r) => full.indexOf(r));
      const a = labelProbabilities(single, YN, o);
      const b = labelProbabilities(
        keep.map((i) => streamed[i]),
        YN,
        o,
      );
      expect(a.n).toBeGreaterThan(4);
      expect(Array.from(b.probs.data)).toEqual(Array.from(a.probs.data));
      expect([b.provenance, Array.from(b.rows), Array.from(b.position)]).toEqual([
        a.provenance,
        Array.from(a.rows),
        Array.from(a.position),
      ]);
      expect([Array.from(b.outside), Array.from(b.bound)]).toEqual([Array.from(a.outside), Array.from(a.bound)]);
      expect(b.excluded.map((e) => e.reason)).toEqual(a.excluded.map((e) => e.reason));
    }
  });

  it('names the chunk of a bad field; an error chunk is a failed answer; a foreign entry is refused', () => {
    const step = { token: 'yes', logprob: -0.1, top_logprobs: [{ token: 'yes', logprob: -0.1 }] };
    const c = (content: unknown) => ({
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta: { content: 'yes' }, logprobs: { content } }],
    });
    expect(failure(() => labelProbabilities([[c([step]), c([{ ...step, logprob: 2 }])]], YN)).message).toBe(
      'labelProbabilities: responses[0][1].choices[0].logprobs.content[0].logprob must be a log-probability (a number ≤ 0); got 2',
    );
    const failed = labelProbabilities([[c([step])], [c([step]), { error: { message: 'stream interrupted' } }]], YN, {
      onInvalid: 'exclude',
    });
    expect(failed.excluded.map((e) => [e.row, e.reason, e.field])).toEqual([[1, 'error', '[1].error']]);
    expect(failure(() => labelProbabilities([[c([step]), { choices: [{ message: {} }] }]], YN)).message).toMatch(
      /^labelProbabilities: responses\[0\]\[1\] must be a chunk of the same stream \(object: chat\.completion\.chunk\)/,
    );
    const lone = labelProbabilities([c([step])], YN);
    expect([lone.n, lone.provenance]).toEqual([1, ['logprob']]);
  });
});
