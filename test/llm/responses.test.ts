/* eslint-disable no-sparse-arrays -- arrays with holes are bad inputs under test */
/**
 * Label probabilities from every response shape (test/fixtures/llm/, written to the providers' schemas): summed
 * variants, labels missing from the top-k under each policy, empty top_logprobs, the answer at a later position,
 * refusals and blocked prompts, and every malformed field named by row and path.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  labelProbabilities,
  positionBias,
  verbalizer,
  type LabelProbabilityOptions,
  type Verbalizer,
} from '../../src/llm/index.js';
import { failure } from '../helpers/failure.js';
import { repoRoot } from '../helpers/cli.js';

const fixture = (name: string): unknown[] =>
  JSON.parse(readFileSync(`${repoRoot}test/fixtures/llm/${name}.json`, 'utf8')) as unknown[];
const YN = ['yes', 'no'];

/** Probabilities, outside mass and bound of one response. */
function one(r: unknown, labels: readonly string[] | Verbalizer = YN, options: LabelProbabilityOptions = {}) {
  const p = labelProbabilities([r], labels, options);
  return {
    probs: Array.from(p.probs.data),
    outside: p.outside[0] as number,
    bound: p.bound[0] as number,
    missing: p.missing[0] as number,
    labelMass: p.labelMass[0] as number,
    position: p.position[0] as number,
  };
}

function close(actual: readonly number[], expected: readonly number[], tol = 1e-12): void {
  expect(actual.length).toBe(expected.length);
  actual.forEach((a, i) =>
    expect(Math.abs(a - (expected[i] as number)), `[${i}] ${a} vs ${expected[i]}`).toBeLessThan(tol),
  );
}

describe('OpenAI chat completions', () => {
  const chat = fixture('chat');
  it('sums the variants of a label and reports the non-label and outside mass', () => {
    // Yes .6 + " yes" .1 = .7, No .2, Maybe .05 (no label): returned .95, outside .05, bound min(.05, .05)
    const r = one(chat[0]);
    close(r.probs, [0.7 / 0.9, 0.2 / 0.9]);
    close([r.outside, r.bound, r.labelMass], [0.05, 0.05, 0.9]);
    expect([r.missing, r.position]).toEqual([0, 0]);
  });
  it('a label missing from the top-k: floor gives it the bound, renormalize 0, reject refuses the row', () => {
    // Yes .8 + "Y" .04 (first token of yes) = .84; Sure .1; outside .06; bound min(.06, .04) = .04
    const floor = one(chat[1]);
    close(floor.probs, [0.84 / 0.88, 0.04 / 0.88]);
    close([floor.outside, floor.bound], [0.06, 0.04]);
    expect(floor.missing).toBe(1);
    close(one(chat[1], YN, { missing: 'renormalize' }).probs, [1, 0]);
    const e = failure(() => labelProbabilities([chat[1]], YN, { missing: 'reject' }));
    expect(e.code).toBe('UM_RESPONSE');
    expect(e.message).toBe(
      "labelProbabilities: responses[0].choices[0].logprobs.content[0].top_logprobs must hold a token of every label (missing: 'reject'); got \"none of no\" (missing-label; onInvalid: 'exclude' leaves such rows out and lists them)",
    );
    const kept = labelProbabilities(chat.slice(0, 2), YN, { missing: 'reject', onInvalid: 'exclude' });
    expect([kept.n, kept.total, Array.from(kept.rows)]).toEqual([1, 2, [0]]);
    expect(kept.excluded.map((x) => [x.row, x.reason])).toEqual([[1, 'missing-label']]);
  });
  it('empty top_logprobs: only the chosen token is known, every other token shares the rest', () => {
    // No .7 chosen, nothing else returned: outside .3, bound .3 (no top-k to bound it further)
    const r = one(chat[2]);
    close(r.probs, [0.3, 0.7]);
    close([r.outside, r.bound], [0.3, 0.3]);
    expect(() => labelProbabilities([chat[2]], YN, { missing: 'renormalize' })).not.toThrow();
    close(one(chat[2], YN, { missing: 'renormalize' }).probs, [0, 1]);
  });
  it('finds the answer after a JSON preamble, or reads the position given', () => {
    const r = one(chat[3]);
    expect(r.position).toBe(4);
    close(r.probs, [0.08 / 0.98, 0.9 / 0.98]);
    // position 0 ('{"') offers no label: nothing is known of either, an invalid row under every policy
    for (const missing of ['floor', 'renormalize', 'reject'] as const)
      expect(failure(() => labelProbabilities([chat[3]], YN, { position: 0, missing })).message).toMatch(
        /^labelProbabilities: responses\[0\]\.choices\[0\]\.logprobs\.content\[0\]\.top_logprobs must hold a token of a label \(yes, no\); got "none" \(no-label;/,
      );
    expect(failure(() => labelProbabilities([chat[3]], YN, { position: 9 })).message).toMatch(
      /responses\[0\]\.choices\[0\]\.logprobs\.content must hold a token at position 9; got "6 tokens"/,
    );
  });
  it('a refusal is an error naming the field, or an excluded row', () => {
    const e = failure(() => labelProbabilities(chat, YN));
    expect(e.message).toMatch(
      /^labelProbabilities: responses\[4\]\.choices\[0\]\.message\.refusal must be an answer; got "I'm sorry, I can't assist with that\." \(refusal;/,
    );
    expect(e.details.index).toEqual([4]);
    const r = labelProbabilities(chat, YN, { onInvalid: 'exclude' });
    expect(r.excluded).toEqual([
      expect.objectContaining({ row: 4, reason: 'refusal', field: 'choices[0].message.refusal' }),
    ]);
    expect([r.n, r.total]).toEqual([4, 5]);
  });
  it('multi-token labels: the first token counts when it starts one label only', () => {
    const lp = (t: string, p: number) => ({ token: t, logprob: Math.log(p) });
    const resp = (top: [string, number][]) => ({
      choices: [
        {
          logprobs: {
            content: [
              { ...lp(top[0]?.[0] as string, top[0]?.[1] as number), top_logprobs: top.map(([t, p]) => lp(t, p)) },
            ],
          },
        },
      ],
    });
    // pos .5 + Pos .1 → positive .6; neg .3 → negative; returned .9, bound .1
    close(
      one(
        resp([
          ['pos', 0.5],
          ['neg', 0.3],
          ['Pos', 0.1],
        ]),
        ['positive', 'negative'],
      ).probs,
      [0.6 / 0.9, 0.3 / 0.9],
    );
    // "ne" starts both negative and neutral: it counts for neither (the first label token is "pos")
    const three = one(
      resp([
        ['pos', 0.5],
        ['ne', 0.3],
        ['neutral', 0.1],
      ]),
      ['positive', 'negative', 'neutral'],
    );
    close(three.probs, [0.5 / 0.7, 0.1 / 0.7, 0.1 / 0.7]);
    close([three.bound, three.labelMass], [0.1, 0.6]);
    // without prefixes "pos" and "neg" are no labels: positive .1 (whole), negative ≤ bound .1
    const off = one(
      resp([
        ['pos', 0.5],
        ['neg', 0.3],
        ['positive', 0.1],
      ]),
      verbalizer(['positive', 'negative'], { prefixes: false }),
    );
    close(off.probs, [0.5, 0.5]);
    close([off.bound, off.labelMass], [0.1, 0.1]);
  });
});

describe('the other shapes', () => {
  it('legacy completions: top_logprobs as { token: logprob }', () => {
    // " Yes" .6 + " yes" .05 = .65, " No" .3: returned .95
    const r = one(fixture('completions')[0]);
    close(r.probs, [0.65 / 0.95, 0.3 / 0.95]);
    close([r.outside, r.bound], [0.05, 0.05]);
  });
  it('Responses API: output_text logprobs, refusal parts, and an answer cut by the content filter', () => {
    const [resp, refused, filtered, truncated] = fixture('responses');
    // incomplete for content_filter is a withheld answer (as chat's finish_reason); for max_output_tokens it is read
    const read = labelProbabilities([filtered, truncated], YN, { onInvalid: 'exclude' });
    expect(read.excluded.map((x) => [x.row, x.reason, x.field])).toEqual([[0, 'refusal', 'incomplete_details.reason']]);
    close(Array.from(read.probs.data), [0.15 / 0.95, 0.8 / 0.95]);
    // No .55 + NO .02 = .57, Yes .4: returned .97, outside .03, bound .02
    const r = one(resp);
    close(r.probs, [0.4 / 0.97, 0.57 / 0.97]);
    close([r.outside, r.bound], [0.03, 0.02]);
    expect(failure(() => one(refused)).message).toMatch(
      /responses\[0\]\.output\[0\]\.content\[0\]\.refusal must be an answer; got "I can't help with that\."/,
    );
  });
  it('Gemini: logprobsResult, blocked prompts, safety stops, and proto3 zeros left out', () => {
    const [ok, blocked, safety, sure] = fixture('gemini');
    // yes .7 + Yes .03 = .73, no .25
    const r = one(ok);
    close(r.probs, [0.73 / 0.98, 0.25 / 0.98]);
    close([r.outside, r.bound], [0.02, 0.02]);
    const read = labelProbabilities([ok, blocked, safety, sure], YN, { onInvalid: 'exclude' });
    expect(read.excluded.map((x) => [x.row, x.reason, x.field])).toEqual([
      [1, 'refusal', 'promptFeedback.blockReason'],
      [2, 'refusal', 'candidates[0].finishReason'],
    ]);
    // logProbability left out = 0: "no" has probability 1, nothing is outside to within sumTolerance, yes ≤ 1e-3
    close(Array.from(read.probs.data).slice(2), [0.001 / 1.001, 1 / 1.001]);
    close([read.outside[1] as number, read.bound[1] as number], [0, 0.001]);
  });
  it('llama.cpp: top_logprobs, post-sampling top_probs, the old probs form, and the float minimum for 0', () => {
    const r = labelProbabilities(fixture('llamacpp'), YN);
    // .5 + .1 vs .3 | .375 vs .625 (returned 1: bound sumTolerance) | .15 vs .8 | .9 vs the float minimum −3.4e38,
    // read as not returned (below OpenAI's −9999 placeholder): "no" is missing and gets the bound .1
    close(Array.from(r.probs.data), [0.6 / 0.9, 0.3 / 0.9, 0.375, 0.625, 0.15 / 0.95, 0.8 / 0.95, 0.9, 0.1]);
    close(Array.from(r.outside), [0.1, 0, 0.05, 0.1]);
    close(Array.from(r.bound), [0.1, 0.001, 0.05, 0.1]);
    expect(Array.from(r.missing)).toEqual([0, 0, 0, 1]);
  });
  it('text-classification: whole label names, top-k truncation bounded, a batch of one', () => {
    const labels = ['positive', 'negative', 'neutral'];
    const r = labelProbabilities(fixture('text-classification'), labels);
    // top-2 of a softmax: neutral ≤ min(1 − .98, .08) = .02
    close(Array.from(r.probs.data), [0.9, 0.08, 0.02, 0.2, 0.7, 0.1]);
    close(Array.from(r.bound), [0.02, 0.001]);
    expect(Array.from(r.missing)).toEqual([1, 0]);
    // a label is matched whole: "POS" is not the start of "positive" here
    const partial = labelProbabilities(
      [
        [
          { label: 'POS', score: 0.9 },
          { label: 'negative', score: 0.1 },
        ],
      ],
      ['positive', 'negative'],
    );
    // the scores sum to 1: positive, not returned, is bounded by sumTolerance (never 0 under floor)
    close(Array.from(partial.probs.data), [0.001 / 0.101, 0.1 / 0.101]);
  });
  it('detects the shape row by row, and reads a declared one', () => {
    const all = [
      fixture('chat')[0],
      fixture('completions')[0],
      fixture('responses')[0],
      fixture('gemini')[0],
      fixture('llamacpp')[0],
    ];
    expect(labelProbabilities(all, YN).n).toBe(5);
    expect(failure(() => labelProbabilities([fixture('gemini')[0]], YN, { format: 'chat' })).message).toBe(
      'labelProbabilities: responses[0].choices must be an array; got undefined',
    );
  });
});

/** A valid chat response with one field replaced (`path` of keys and indices). */
function broken(path: (string | number)[], value: unknown): unknown {
  const r = JSON.parse(JSON.stringify(fixture('chat')[0])) as Record<string, unknown>;
  let o = r as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) o = o[k] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (value === undefined) Reflect.deleteProperty(o, last);
  else o[last] = value;
  return r;
}

describe('malformed entries are UM_RESPONSE naming the row and field, whatever onInvalid says', () => {
  const step = ['choices', 0, 'logprobs', 'content', 0];
  const rows: [string, (string | number)[], unknown, string][] = [
    [
      'a string log-probability',
      [...step, 'top_logprobs', 1, 'logprob'],
      'abc',
      'top_logprobs[1].logprob must be a log-probability (a number ≤ 0); got "abc"',
    ],
    [
      'a positive log-probability',
      [...step, 'logprob'],
      0.5,
      'logprob must be a log-probability (a number ≤ 0); got 0.5',
    ],
    [
      'NaN',
      [...step, 'top_logprobs', 0, 'logprob'],
      NaN,
      'top_logprobs[0].logprob must be a log-probability (a number ≤ 0); got NaN',
    ],
    [
      'a missing token',
      [...step, 'top_logprobs', 2, 'token'],
      undefined,
      'top_logprobs[2].token must be a string; got undefined',
    ],
    ['a number token', [...step, 'token'], 7, 'token must be a string; got 7'],
    [
      'a top-k entry that is not an object',
      [...step, 'top_logprobs', 0],
      'Yes',
      'top_logprobs[0] must be an object; got "Yes"',
    ],
    [
      'top_logprobs not an array',
      [...step, 'top_logprobs'],
      {},
      'top_logprobs must be an array; got a value of type object',
    ],
    ['a step that is not an object', [...step], null, ' must be an object; got null'],
  ];
  for (const [what, path, value, tail] of rows) {
    it(what, () => {
      for (const onInvalid of ['error', 'exclude'] as const) {
        const e = failure(() => labelProbabilities([fixture('chat')[0], broken(path, value)], YN, { onInvalid }));
        expect(e.code).toBe('UM_RESPONSE');
        expect(e.message).toBe(
          `labelProbabilities: responses[1].choices[0].logprobs.content[0]${tail.startsWith(' ') ? '' : '.'}${tail}`,
        );
        expect(e.details.index).toEqual([1]);
      }
    });
  }
  it('top-k probabilities summing past 1', () => {
    const e = failure(() => labelProbabilities([broken([...step, 'top_logprobs', 3, 'logprob'], Math.log(0.3))], YN));
    expect(e.message).toMatch(
      /^labelProbabilities: responses\[0\]\.choices\[0\]\.logprobs\.content\[0\]\.top_logprobs must hold probabilities summing to at most 1 \(tolerance 0\.001\); got 1\.19999/,
    );
  });
  it('an unknown shape, an empty choices list, a non-array text-classification entry', () => {
    expect(failure(() => labelProbabilities([{ foo: 1 }], YN)).message).toMatch(
      /^labelProbabilities: responses\[0\] must be a response of a known shape/,
    );
    expect(failure(() => labelProbabilities([{ choices: [] }], YN)).message).toBe(
      'labelProbabilities: responses[0].choices must hold at least one choice; got []',
    );
    expect(failure(() => labelProbabilities([[{ label: 'yes', score: 1.5 }]], YN)).message).toBe(
      'labelProbabilities: responses[0][0].score must be a probability in [0, 1]; got 1.5',
    );
  });
  it('an API error object is an invalid row (error), not a malformed one', () => {
    const r = labelProbabilities(
      [fixture('chat')[0], { error: { message: 'Rate limit reached', type: 'requests' } }],
      YN,
      {
        onInvalid: 'exclude',
      },
    );
    expect(r.excluded.map((x) => [x.row, x.reason, x.field])).toEqual([[1, 'error', 'error']]);
  });
});

describe('sparse arrays and forged results are named errors (classes the fuzzer found)', () => {
  it('a hole in labels, variants, a top-k list or a row of k responses', () => {
    const holes: [() => unknown, RegExp][] = [
      [
        () => labelProbabilities([fixture('chat')[0]], ['yes', , 'no'] as string[]),
        /verbalizer\[1\] must be a non-empty string; got undefined/,
      ],
      [
        () => verbalizer(YN, { variants: { yes: [, 'y'] as string[] } }),
        /options\.variants\.yes\[0\] must hold non-empty strings; got undefined/,
      ],
      [
        () =>
          labelProbabilities(
            [broken(['choices', 0, 'logprobs', 'content', 0, 'top_logprobs'], [, { token: 'No', logprob: -1 }])],
            YN,
          ),
        /top_logprobs\[0\] must be an object; got undefined/,
      ],
      [
        () => labelProbabilities([[fixture('chat')[0], , fixture('chat')[0]]], YN, { provenance: 'sampled' }),
        /responses\[0\]\[1\] must be a response of a known shape \(.*\); got undefined/,
      ],
    ];
    for (const [call, message] of holes) {
      const e = failure(call);
      expect(e.code === 'UM_OPTION' || e.code === 'UM_RESPONSE', e.message).toBe(true);
      expect(e.message).toMatch(message);
    }
  });
  it('a result whose fields disagree with its matrix (numClasses 1e15 ran for ever) is refused at once', () => {
    const read = labelProbabilities([fixture('chat')[0]], YN);
    for (const forged of [
      { ...read, numClasses: 1e15 },
      { ...read, rows: Int32Array.from([5]) },
      { ...read, provenance: [1] },
    ])
      expect(failure(() => positionBias(forged as never, read)).message).toMatch(
        /^positionBias: forward must be label probabilities/,
      );
  });
});
