/**
 * The verbalizer's matching rules, verbalized confidences (a table of forms and a seeded class of generated answers
 * checked against what generated them), and sampled answers' frequencies.
 */
import { describe, expect, it } from 'vitest';
import { labelProbabilities, parseConfidence, verbalizer } from '../../src/llm/index.js';
import { verbalizerOf } from '../../src/llm/verbalizer.js';
import { createRng } from '../../src/random/rng.js';
import { failure } from '../helpers/failure.js';

const say = (text: string | null, extra: Record<string, unknown> = {}) => ({
  choices: [
    { index: 0, message: { role: 'assistant', content: text, refusal: null }, finish_reason: 'stop', ...extra },
  ],
});

describe('verbalizer', () => {
  it('matches case, leading space, SentencePiece and byte-level BPE markers', () => {
    const v = verbalizerOf('t', ['yes', 'no']);
    for (const t of ['yes', 'Yes', 'YES', ' yes', '  Yes', '\nyes', '▁Yes', 'Ġyes']) expect(v.token(t), t).toBe(0);
    for (const t of ['yes.', 'yess', 'eyes', '', ' ', 'maybe']) expect(v.token(t), t).toBe(-1);
    const strict = verbalizerOf('t', verbalizer(['yes', 'no'], { caseSensitive: true, leadingSpace: false }));
    expect([strict.token('yes'), strict.token('Yes'), strict.token(' yes')]).toEqual([0, -1, -1]);
  });
  it('a whole spelling wins over a prefix; a prefix of two labels counts for none', () => {
    const v = verbalizerOf('t', ['1', '10', 'neutral', 'negative']);
    expect([v.token('1'), v.token('10'), v.token('neu'), v.token('ne'), v.token('n')]).toEqual([0, 1, 2, -1, -1]);
    expect(verbalizerOf('t', verbalizer(['neutral', 'no'], { prefixes: false })).token('neu')).toBe(-1);
  });
  it('user variants count for their label; two labels sharing a spelling are refused', () => {
    const v = verbalizerOf('t', verbalizer(['yes', 'no'], { variants: { yes: ['sure', 'Y'], no: ['nope'] } }));
    expect([v.token('Sure'), v.token(' y'), v.token('NOPE')]).toEqual([0, 0, 1]);
    expect(failure(() => verbalizer(['yes', 'Yes'])).message).toBe(
      'verbalizer: options.variants must give each spelling to one label: "yes" stands for both "yes" and "Yes" (case is ignored)',
    );
    expect(failure(() => verbalizer(['yes', 'no'], { variants: { maybe: ['m'] } })).message).toBe(
      'verbalizer: options.variants.maybe must name a label (yes, no); got "maybe"',
    );
    expect(() => verbalizer(['yes', 'Yes'], { caseSensitive: true })).not.toThrow();
  });
  it('is plain JSON that reads back to the same matching', () => {
    const v = verbalizer(['yes', 'no'], { variants: { no: ['nah'] }, prefixes: false });
    const back = JSON.parse(JSON.stringify(v)) as typeof v;
    expect(back).toEqual(v);
    expect(verbalizerOf('t', back).token('Nah')).toBe(1);
  });
});

describe('parseConfidence', () => {
  const table: [string, number | null, object?][] = [
    ['85%', 0.85],
    ['85 %', 0.85],
    ['0.85', 0.85],
    ['.85', 0.85],
    ['85/100', 0.85],
    ['17 / 20', 0.85],
    ['Yes. Confidence: 85%', 0.85],
    ['Answer: 4\nConfidence: 0.7', 0.7],
    ['I am 90% sure. Answer: yes', 0.9],
    ['Confidence: 85', 0.85, { scale: 100 }],
    ['8 out of 10', 0.8, { scale: 10 }],
    ['Grade: 4', null],
    ['v5 of the model', null],
    ['no idea', null],
    ['', null],
    ['Probably yes — high', 0.9, { words: { high: 0.9, low: 0.2 } }],
    ['VERY LIKELY', 0.85, { words: { likely: 0.7, 'very likely': 0.85 } }],
    ['0.5 or so, version 2.0', 0.5],
    ['Confidence: 50 percent', 0.5],
    ['yes, 85 per cent', 0.85],
    ['v-2 says yes, 0.8', 0.8],
    ['Grade 4-5, confidence 90%', 0.9],
    ['on 2024-05-01: yes 0.9', 0.9],
    ['yes, -0.2', null],
  ];
  for (const [text, expected, options] of table)
    it(`${JSON.stringify(text)} → ${expected}`, () => expect(parseConfidence(text, options)).toBe(expected));
  it('a stated confidence outside [0, 1] is an error, never clipped', () => {
    for (const text of ['120%', 'Confidence: 85', 'confidence 7/5'])
      expect(failure(() => parseConfidence(text)).code, text).toBe('UM_RESPONSE');
    // a minus sign is read, never dropped: every signed form of every unit is outside [0, 1] (a bare number is a
    // confidence only after a keyword or inside [0, 1], so "yes (-0.2)" states none)
    for (const sign of ['-', '\u2212'])
      for (const form of ['20%', '0.2', '1/5', '20 percent'])
        for (const template of ['Confidence: $', 'yes ($)', 'confidence $, answer yes']) {
          const text = template.replace('$', sign + form);
          if (form === '0.2' && template === 'yes ($)') expect(parseConfidence(text)).toBe(null);
          else
            expect(failure(() => parseConfidence(text)).message).toMatch(
              /^parseConfidence: text must state a confidence in \[0, 1\]; got ".*" \(-0\.2\)$/,
            );
        }
  });
  it('a span of two values is an error: neither end nor the middle is guessed', () => {
    const ends = [
      ['70', '80%'],
      ['70%', '80%'],
      ['0.7', '0.8'],
      ['7/10', '8/10'],
    ];
    for (const [a, b] of ends)
      for (const join of ['-', ' - ', '\u2013', ' \u2014 ', ' to '])
        for (const template of ['yes ($)', 'Confidence: $', 'I would say $ that it is B']) {
          const span = `${a}${join}${b}`;
          expect(failure(() => parseConfidence(template.replace('$', span))).message, span).toBe(
            `parseConfidence: text must state one confidence, not a span; got ${JSON.stringify(span)}`,
          );
        }
    expect(failure(() => parseConfidence('Confidence: 85')).message).toBe(
      'parseConfidence: text must state a confidence in [0, 1]; got "85" (85)',
    );
  });
  it('reads the confidence and the label of generated answers (seeded class of forms and templates)', () => {
    const rng = createRng('t', 7);
    const labels = ['A', 'B', 'tie'];
    const v = verbalizer(labels, { caseSensitive: true });
    const templates = [
      (l: string, c: string) => `${l}. Confidence: ${c}`,
      (l: string, c: string) => `I pick ${l} (${c})`,
      (l: string, c: string) => `Confidence ${c}; verdict: ${l}`,
      (l: string, c: string) => `[[${l}]]\nprobability: ${c}`,
    ];
    const responses: unknown[] = [];
    const truth: [number, number][] = [];
    for (let i = 0; i < 300; i++) {
      const k = rng.integer(3);
      const pct = rng.integer(101);
      const form = rng.integer(3);
      const c = form === 0 ? `${pct}%` : form === 1 ? String(pct / 100) : `${pct}/100`;
      responses.push(
        say((templates[rng.integer(templates.length)] as (l: string, c: string) => string)(labels[k] as string, c)),
      );
      truth.push([k, pct / 100]);
    }
    const r = labelProbabilities(responses, v, { provenance: 'verbal' });
    expect(r.n).toBe(300);
    truth.forEach(([k, c], i) => {
      const p = r.probs.data[i * 3 + k] as number;
      const rest = r.probs.data[i * 3 + ((k + 1) % 3)] as number;
      expect(Math.abs(p - c), `row ${i}`).toBeLessThan(1e-12);
      expect(Math.abs(rest - (1 - c) / 2), `row ${i}`).toBeLessThan(1e-12);
    });
    expect(new Set(r.provenance)).toEqual(new Set(['verbal']));
  });
});

describe('verbal and sampled rows of labelProbabilities', () => {
  it('verbal: the named label gets the confidence; no confidence or no label is an invalid row', () => {
    const r = labelProbabilities([say('Yes — 80%'), say('No idea'), say('Maybe, 60%'), say(null)], ['yes', 'no'], {
      onInvalid: 'exclude',
    });
    expect(Array.from(r.probs.data)).toEqual([0.8, 0.19999999999999996]);
    expect(r.excluded.map((x) => [x.row, x.reason, x.field])).toEqual([
      [1, 'no-confidence', 'choices[0].message.content'],
      [2, 'no-label', 'choices[0].message.content'],
      [3, 'no-label', 'choices[0].message.content'],
    ]);
    expect(failure(() => labelProbabilities([say('No idea')], ['yes', 'no'], { provenance: 'verbal' })).message).toBe(
      `labelProbabilities: responses[0].choices[0].message.content must state a confidence (85%, 0.85, 85/100 or a mapped word); got "No idea" (no-confidence; onInvalid: 'exclude' leaves such rows out and lists them)`,
    );
  });
  it('auto provenance: a row with neither log-probabilities nor a confidence says both are missing, in every shape', () => {
    // the usual cause is a request without logprobs: every shape's answer with no token log-probabilities
    const shapes: [unknown, string, string][] = [
      [say('Yes'), 'choices[0].message.content', 'choices[0].logprobs.content'],
      [{ choices: [{ text: 'Yes', logprobs: null }] }, 'choices[0].text', 'choices[0].logprobs'],
      [
        { object: 'response', output: [{ type: 'message', content: [{ type: 'output_text', text: 'Yes' }] }] },
        'output',
        'output',
      ],
      [
        { candidates: [{ content: { parts: [{ text: 'Yes' }] } }] },
        'candidates[0].content.parts',
        'candidates[0].logprobsResult',
      ],
      [{ content: 'Yes', tokens_predicted: 1 }, 'content', 'completion_probabilities'],
    ];
    for (const [response, text, steps] of shapes) {
      const tail = `must state a confidence (85%, 0.85, 85/100 or a mapped word)`;
      expect(failure(() => labelProbabilities([response], ['yes', 'no'])).message).toBe(
        `labelProbabilities: responses[0].${text} ${tail} — or hold token log-probabilities at ${steps} (none returned: request logprobs with top_logprobs); got "Yes" (no-confidence; onInvalid: 'exclude' leaves such rows out and lists them)`,
      );
      expect(failure(() => labelProbabilities([response], ['yes', 'no'], { provenance: 'verbal' })).message).toBe(
        `labelProbabilities: responses[0].${text} ${tail}; got "Yes" (no-confidence; onInvalid: 'exclude' leaves such rows out and lists them)`,
      );
    }
  });
  it('verbal: a signed or spanned confidence is an invalid row (no-confidence), never read as one value', () => {
    const texts = ['yes (-20%)', 'no, confidence: -0.3', 'yes (70-80%)', 'no. Confidence 0.6 to 0.9', 'yes 85%'];
    const r = labelProbabilities(
      texts.map((t) => say(t)),
      ['yes', 'no'],
      { onInvalid: 'exclude' },
    );
    expect(r.excluded.map((e) => [e.row, e.reason])).toEqual([
      [0, 'no-confidence'],
      [1, 'no-confidence'],
      [2, 'no-confidence'],
      [3, 'no-confidence'],
    ]);
    expect(r.excluded[2]?.message).toMatch(/content must state one confidence, not a span; got "70-80%"/);
    expect(r.excluded[1]?.message).toMatch(/content must state a confidence in \[0, 1\]; got "-0\.3"/);
    expect(Array.from(r.probs.data)).toEqual([0.85, 0.15000000000000002]);
  });
  it('sampled: label frequencies over the answers naming one, the rest reported outside', () => {
    const k5 = {
      choices: ['yes', 'Yes!', 'no', "I can't say", 'YES'].map((t, i) => ({ index: i, message: { content: t } })),
    };
    const r = labelProbabilities([k5], ['yes', 'no']);
    expect(r.provenance).toEqual(['sampled']);
    expect(Array.from(r.probs.data)).toEqual([0.75, 0.25]);
    expect([r.outside[0], r.labelMass[0], r.missing[0]]).toEqual([0.2, 0.8, 0]);
    // a pseudocount of 1: (3 + 1) / (4 + 2)
    const smooth = labelProbabilities([k5], ['yes', 'no'], { pseudocount: 1 });
    expect(Array.from(smooth.probs.data)).toEqual([4 / 6, 2 / 6]);
    // k separate calls in one row, one of them an API error: read as 4 answers, 1 labelled as neither
    const calls = [say('yes'), say('no'), { error: { message: 'overloaded' } }, say('no')];
    const s = labelProbabilities([calls], ['yes', 'no']);
    expect([Array.from(s.probs.data), s.outside[0]]).toEqual([[1 / 3, 2 / 3], 0.25]);
    expect(failure(() => labelProbabilities([[say('hm'), say('hmm')]], ['yes', 'no'])).message).toMatch(
      /^labelProbabilities: responses\[0\] must hold an answer naming a label \(yes, no\); got "2 answers naming none"/,
    );
  });
  it('auto provenance follows each row; the counts are visible', () => {
    const lp = {
      choices: [
        {
          logprobs: {
            content: [{ token: 'no', logprob: Math.log(0.9), top_logprobs: [{ token: 'no', logprob: Math.log(0.9) }] }],
          },
        },
      ],
    };
    const r = labelProbabilities(
      [lp, say('yes, 70%'), { choices: [{ message: { content: 'yes' } }, { message: { content: 'no' } }] }],
      ['yes', 'no'],
    );
    expect(r.provenance).toEqual(['logprob', 'verbal', 'sampled']);
    expect(
      labelProbabilities([lp, say('yes, 70%')], ['yes', 'no'], { provenance: 'verbal', onInvalid: 'exclude' })
        .provenance,
    ).toEqual(['verbal']);
    expect(
      failure(() => labelProbabilities([say('yes, 70%')], ['yes', 'no'], { provenance: 'logprob' })).message,
    ).toMatch(/^labelProbabilities: responses\[0\]\.choices\[0\]\.logprobs\.content must hold token log-probabilities/);
  });
});
