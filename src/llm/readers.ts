import {
  at,
  isObj,
  list,
  logprob,
  obj,
  optionalList,
  optionalText,
  probability,
  text,
  tokenId,
  tokenSteps,
  topEntries,
  type Obj,
} from './fields.js';
import { badField, type RowContext, type Sample, type TokenLogprob, type TokenStep } from './responses.js';

// One reader per response shape, each from its provider's documented schema (see ResponseFormat) (internal).

export function chat(ctx: RowContext, r: Obj): Sample[] {
  const choices = list(ctx, r.choices, 'choices');
  if (choices.length === 0) badField(ctx, 'choices', 'hold at least one choice', choices);
  return choices.map((c0, i) => chatChoice(ctx, obj(ctx, c0, at('choices', i)), at('choices', i)));
}

/** One choice of a chat completion, or of a streamed chunk (whose message is its `delta`) (internal). */
function chatChoice(ctx: RowContext, c: Obj, path: string): Sample {
  const key = c.message === undefined && c.delta !== undefined ? 'delta' : 'message';
  const message = c[key] === undefined || c[key] === null ? {} : obj(ctx, c[key], at(path, key));
  // content is a string, or (some compatible servers) an array of { type: 'text', text } parts
  let content: string | null;
  if (Array.isArray(message.content))
    content = list(ctx, message.content, at(path, `${key}.content`))
      .map((part, k) => {
        const p = at(at(path, `${key}.content`), k);
        return optionalText(ctx, obj(ctx, part, p).text, at(p, 'text')) ?? '';
      })
      .join('');
  else content = optionalText(ctx, message.content, at(path, `${key}.content`));
  const lp = c.logprobs === undefined || c.logprobs === null ? null : obj(ctx, c.logprobs, at(path, 'logprobs'));
  const steps = lp === null ? null : optionalList(ctx, lp.content, at(path, 'logprobs.content'));
  const refusalText = optionalText(ctx, message.refusal, at(path, `${key}.refusal`));
  const refusalTokens = lp === null ? null : optionalList(ctx, lp.refusal, at(path, 'logprobs.refusal'));
  let refusal: Sample['refusal'] = null;
  if (refusalText !== null) refusal = { field: at(path, `${key}.refusal`), text: refusalText, reason: 'refusal' };
  else if (refusalTokens !== null && refusalTokens.length > 0)
    refusal = { field: at(path, 'logprobs.refusal'), text: 'refusal tokens', reason: 'refusal' };
  else if (c.finish_reason === 'content_filter')
    refusal = { field: at(path, 'finish_reason'), text: 'content_filter', reason: 'refusal' };
  return {
    text: content,
    steps: steps === null ? null : tokenSteps(ctx, steps, at(path, 'logprobs.content')),
    refusal,
    stepsPath: at(path, 'logprobs.content'),
    textPath: at(path, `${key}.content`),
  };
}

/** A streamed chat completion chunk (`object: 'chat.completion.chunk'`, choices holding a `delta`) (internal). */
export function isChunk(x: unknown): boolean {
  if (!isObj(x)) return false;
  const first: unknown = Array.isArray(x.choices) ? x.choices[0] : undefined;
  return x.object === 'chat.completion.chunk' || (isObj(first) && 'delta' in first && !('message' in first));
}

/**
 * The chunks of one streamed chat completion, as its answers: per choice `index`, the deltas' text and token
 * log-probabilities concatenated in order (each step keeps the path of its chunk); a chunk without choices (the usage
 * chunk) adds nothing; an error chunk is an answer that failed (internal).
 */
export function chatStream(ctx: RowContext, chunks: readonly unknown[]): Sample[] {
  const merged = new Map<number, Sample>();
  for (let j = 0; j < chunks.length; j++) {
    const chunk = obj(ctx, chunks[j], `[${j}]`);
    if (chunk.error !== undefined && chunk.error !== null) {
      // a stream that ends in an error is one answer that failed, whatever its chunks held before
      const e = chunk.error;
      const text = isObj(e) && typeof e.message === 'string' ? e.message : typeof e === 'string' ? e : 'error';
      const field = `[${j}].error`;
      return [
        { text: null, steps: null, refusal: { field, text, reason: 'error' }, stepsPath: field, textPath: field },
      ];
    }
    if (!isChunk(chunk))
      badField(ctx, `[${j}]`, 'be a chunk of the same stream (object: chat.completion.chunk)', chunk);
    list(ctx, chunk.choices, `[${j}].choices`).forEach((ch0, i) => {
      const path = `[${j}].choices[${i}]`;
      const ch = obj(ctx, ch0, path);
      const index = ch.index ?? i;
      if (typeof index !== 'number' || !Number.isInteger(index) || index < 0)
        badField(ctx, at(path, 'index'), 'be a choice index (an integer ≥ 0)', index);
      const next = chatChoice(ctx, ch, path);
      const prev = merged.get(index);
      if (prev === undefined) merged.set(index, next);
      else
        merged.set(index, {
          text: prev.text === null ? next.text : next.text === null ? prev.text : prev.text + next.text,
          steps: prev.steps === null ? next.steps : next.steps === null ? prev.steps : [...prev.steps, ...next.steps],
          refusal: prev.refusal ?? next.refusal,
          stepsPath: prev.steps === null ? next.stepsPath : prev.stepsPath,
          textPath: prev.text === null ? next.textPath : prev.textPath,
        });
    });
  }
  if (merged.size === 0)
    badField(ctx, '', 'hold a chunk with a choice (a stream of no answer)', `${chunks.length} chunks`);
  return [...merged].sort((a, b) => a[0] - b[0]).map(([, sample]) => sample);
}

export function completions(ctx: RowContext, r: Obj): Sample[] {
  const choices = list(ctx, r.choices, 'choices');
  if (choices.length === 0) badField(ctx, 'choices', 'hold at least one choice', choices);
  return choices.map((c0, i) => {
    const path = at('choices', i);
    const c = obj(ctx, c0, path);
    const lp = c.logprobs === undefined || c.logprobs === null ? null : obj(ctx, c.logprobs, at(path, 'logprobs'));
    let steps: TokenStep[] | null = null;
    if (lp !== null) {
      const p = at(path, 'logprobs');
      const tokens = list(ctx, lp.tokens, at(p, 'tokens'));
      const values = list(ctx, lp.token_logprobs, at(p, 'token_logprobs'));
      const tops = optionalList(ctx, lp.top_logprobs, at(p, 'top_logprobs'));
      if (values.length !== tokens.length)
        badField(ctx, at(p, 'token_logprobs'), `hold one value per token (${tokens.length})`, values);
      if (tops !== null && tops.length !== tokens.length)
        badField(ctx, at(p, 'top_logprobs'), `hold one entry per token (${tokens.length})`, tops);
      steps = tokens.map((t, j) => {
        const v = values[j];
        const tp = at(at(p, 'top_logprobs'), j);
        const top = tops?.[j];
        const entries =
          top === undefined || top === null
            ? []
            : Object.entries(obj(ctx, top, tp)).map(([token, x]) => ({
                token,
                logprob: logprob(ctx, x, `${tp}[${JSON.stringify(token)}]`),
              }));
        return {
          chosen: {
            token: text(ctx, t, at(at(p, 'tokens'), j)),
            logprob: v === null ? null : logprob(ctx, v, at(at(p, 'token_logprobs'), j)),
          },
          top: entries,
          path: at(at(p, 'tokens'), j),
          topPath: tp,
        };
      });
    }
    const refusal =
      c.finish_reason === 'content_filter'
        ? { field: at(path, 'finish_reason'), text: 'content_filter', reason: 'refusal' as const }
        : null;
    return {
      text: optionalText(ctx, c.text, at(path, 'text')),
      steps,
      refusal,
      stepsPath: at(path, 'logprobs'),
      textPath: at(path, 'text'),
    };
  });
}

export function responses(ctx: RowContext, r: Obj): Sample[] {
  const output = list(ctx, r.output, 'output');
  let content: string | null = null;
  let steps: TokenStep[] | null = null;
  let refusal: Sample['refusal'] = null;
  output.forEach((item0, i) => {
    const item = obj(ctx, item0, at('output', i));
    if (item.type !== 'message') return; // reasoning, tool calls: no answer text
    const parts = list(ctx, item.content, at(at('output', i), 'content'));
    parts.forEach((part0, k) => {
      const path = at(at(at('output', i), 'content'), k);
      const part = obj(ctx, part0, path);
      if (part.type === 'refusal')
        refusal ??= {
          field: at(path, 'refusal'),
          text: text(ctx, part.refusal, at(path, 'refusal')),
          reason: 'refusal',
        };
      if (part.type !== 'output_text') return;
      content = (content ?? '') + text(ctx, part.text, at(path, 'text'));
      const lp = optionalList(ctx, part.logprobs, at(path, 'logprobs'));
      if (lp !== null) steps = [...(steps ?? []), ...tokenSteps(ctx, lp, at(path, 'logprobs'))];
    });
  });
  // an answer cut by the content filter is withheld, as chat's finish_reason content_filter
  const incomplete =
    r.incomplete_details === undefined || r.incomplete_details === null
      ? null
      : obj(ctx, r.incomplete_details, 'incomplete_details');
  if (refusal === null && incomplete?.reason === 'content_filter')
    refusal = { field: 'incomplete_details.reason', text: 'content_filter', reason: 'refusal' };
  return [{ text: content, steps, refusal, stepsPath: 'output', textPath: 'output' }];
}

/** Gemini's finish reasons that withhold the answer. */
const BLOCKED = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
]);

/** A Gemini candidate token; proto3 JSON leaves out default values, so a missing logProbability is 0 (internal). */
function geminiToken(ctx: RowContext, value: unknown, path: string): TokenLogprob {
  const o = obj(ctx, value, path);
  return {
    token: o.token === undefined ? '' : text(ctx, o.token, at(path, 'token')),
    logprob: o.logProbability === undefined ? 0 : logprob(ctx, o.logProbability, at(path, 'logProbability')),
    ...tokenId(o),
  };
}

export function gemini(ctx: RowContext, r: Obj): Sample[] {
  const candidates = list(ctx, r.candidates, 'candidates');
  if (candidates.length === 0) badField(ctx, 'candidates', 'hold at least one candidate', candidates);
  return candidates.map((c0, i) => {
    const path = at('candidates', i);
    const c = obj(ctx, c0, path);
    const content = c.content === undefined ? null : obj(ctx, c.content, at(path, 'content'));
    const parts = content === null ? null : optionalList(ctx, content.parts, at(path, 'content.parts'));
    // thought summaries are not the answer
    const answer = parts?.map((p, k) => {
      const part = obj(ctx, p, at(at(path, 'content.parts'), k));
      return part.thought === true
        ? ''
        : (optionalText(ctx, part.text, at(at(at(path, 'content.parts'), k), 'text')) ?? '');
    });
    const lr = c.logprobsResult === undefined ? null : obj(ctx, c.logprobsResult, at(path, 'logprobsResult'));
    let steps: TokenStep[] | null = null;
    if (lr !== null) {
      const p = at(path, 'logprobsResult');
      const chosen = optionalList(ctx, lr.chosenCandidates, at(p, 'chosenCandidates')) ?? [];
      const tops = optionalList(ctx, lr.topCandidates, at(p, 'topCandidates')) ?? [];
      if (tops.length !== 0 && tops.length !== chosen.length)
        badField(ctx, at(p, 'topCandidates'), `hold one entry per chosen candidate (${chosen.length})`, tops);
      steps = chosen.map((t, j) => {
        const tp = at(at(p, 'topCandidates'), j);
        const top = tops[j] === undefined ? null : obj(ctx, tops[j], tp);
        const list0 = top === null ? [] : (optionalList(ctx, top.candidates, at(tp, 'candidates')) ?? []);
        return {
          chosen: geminiToken(ctx, t, at(at(p, 'chosenCandidates'), j)),
          top: list0.map((e, k) => geminiToken(ctx, e, at(at(tp, 'candidates'), k))),
          path: at(at(p, 'chosenCandidates'), j),
          topPath: at(tp, 'candidates'),
        };
      });
    }
    const finish = c.finishReason;
    const refusal =
      typeof finish === 'string' && BLOCKED.has(finish)
        ? { field: at(path, 'finishReason'), text: finish, reason: 'refusal' as const }
        : null;
    return {
      text: answer === undefined ? null : answer.join(''),
      steps,
      refusal,
      stepsPath: at(path, 'logprobsResult'),
      textPath: at(path, 'content.parts'),
    };
  });
}

export function llamacpp(ctx: RowContext, r: Obj): Sample[] {
  const probs = optionalList(ctx, r.completion_probabilities, 'completion_probabilities');
  const steps = probs?.map((e0, j): TokenStep => {
    const p = at('completion_probabilities', j);
    const e = obj(ctx, e0, p);
    if (e.probs !== undefined) {
      // the format before December 2024: { content, probs: [{ tok_str, prob }] }
      const top = topEntries(ctx, e.probs, at(p, 'probs'), 'tok_str', 'prob', probability);
      const token = text(ctx, e.content, at(p, 'content'));
      return {
        chosen: { token, logprob: top.find((t) => t.token === token)?.logprob ?? null },
        top,
        path: p,
        topPath: at(p, 'probs'),
      };
    }
    const post = e.top_probs !== undefined || e.prob !== undefined; // post_sampling_probs: probabilities
    const key = post ? 'top_probs' : 'top_logprobs';
    return {
      chosen: {
        token: text(ctx, e.token, at(p, 'token')),
        logprob: post ? probability(ctx, e.prob, at(p, 'prob')) : logprob(ctx, e.logprob, at(p, 'logprob')),
      },
      top: topEntries(ctx, e[key], at(p, key), 'token', post ? 'prob' : 'logprob', post ? probability : logprob),
      path: p,
      topPath: at(p, key),
    };
  });
  return [
    {
      text: optionalText(ctx, r.content, 'content'),
      steps: steps ?? null,
      refusal: null,
      stepsPath: 'completion_probabilities',
      textPath: 'content',
    },
  ];
}

export function textClassification(ctx: RowContext, value: unknown[]): Sample[] {
  // a batch of one input, [[{ label, score }, …]], is read as its one row
  const inner = value.length === 1 && Array.isArray(value[0]);
  const entries = inner ? Array.from(value[0] as unknown[]) : value;
  const path = inner ? '[0]' : '';
  const top = entries.map((e, k) => {
    const p = `${path}[${k}]`;
    const o = obj(ctx, e, p);
    return { token: text(ctx, o.label, `${p}.label`), logprob: probability(ctx, o.score, `${p}.score`) };
  });
  const step = { chosen: null, top, path, topPath: path };
  return [{ text: null, steps: [step], refusal: null, stepsPath: path, textPath: path }];
}
