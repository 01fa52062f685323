import { formatValue } from '../errors/formatValue.js';
import { UMError } from '../errors/UMError.js';

/**
 * The response shapes read, each from its provider's documented schema:
 * - `'chat'` — OpenAI-compatible chat completions (`choices[i].message`, `choices[i].logprobs.content[j]` with
 *   `token`, `logprob`, `top_logprobs`); also vLLM, llama.cpp's server, Ollama's OpenAI endpoint and others.
 * - `'completions'` — the legacy completions endpoint (`choices[i].text`, `logprobs.tokens`, `token_logprobs`,
 *   `top_logprobs` as `{ token: logprob }` objects).
 * - `'responses'` — the Responses API (`output[].content[]` parts of type `output_text` with `logprobs`, or `refusal`).
 * - `'gemini'` — Gemini `generateContent` (`candidates[i].logprobsResult` with `chosenCandidates` and
 *   `topCandidates[j].candidates`, `logProbability`; `finishReason`; `promptFeedback.blockReason`).
 * - `'llamacpp'` — llama.cpp's native `/completion` (`completion_probabilities[j]` with `top_logprobs`, or `top_probs`
 *   under `post_sampling_probs`, or the older `probs: [{ tok_str, prob }]`).
 * - `'text-classification'` — Transformers.js / ONNX Runtime text-classification output, `[{ label, score }]` top-k.
 */
export type ResponseFormat = 'chat' | 'completions' | 'responses' | 'gemini' | 'llamacpp' | 'text-classification';

export const RESPONSE_FORMATS: readonly ResponseFormat[] = [
  'chat',
  'completions',
  'responses',
  'gemini',
  'llamacpp',
  'text-classification',
];

/** One token and its natural-log probability (internal). */
export interface TokenLogprob {
  readonly token: string;
  readonly logprob: number;
}

/** One generated position: the token chosen (its log-probability may be unknown) and the top-k returned (internal). */
export interface TokenStep {
  readonly chosen: { readonly token: string; readonly logprob: number | null } | null;
  readonly top: readonly TokenLogprob[];
  /** Where the step is in the response, e.g. `choices[0].logprobs.content[2]`. */
  readonly path: string;
  /** Where its top-k list is. */
  readonly topPath: string;
}

/** One generated answer of a response (a choice, a candidate) (internal). */
export interface Sample {
  readonly text: string | null;
  /** The token steps, or null when the response holds no log-probabilities. */
  readonly steps: readonly TokenStep[] | null;
  /** Why the model declined (the refusal text or finish reason), or the API error a sample of a list holds. */
  readonly refusal: { readonly field: string; readonly text: string; readonly reason: 'refusal' | 'error' } | null;
  /** Where the token steps are (or would be) in the response. */
  readonly stepsPath: string;
  /** Where the answer text is. */
  readonly textPath: string;
}

/** A response read into samples, or the reason it holds none (internal). */
export interface ParsedResponse {
  readonly format: ResponseFormat;
  readonly samples: readonly Sample[];
  /** An API error object, or a prompt blocked before any answer. */
  readonly problem: { readonly reason: 'error' | 'refusal'; readonly field: string; readonly text: string } | null;
}

/** Where errors point: the public function and the row (internal). */
export interface RowContext {
  readonly fn: string;
  readonly row: number;
  /** Where the response is inside the row when the row is a list of responses (`[2]`). */
  readonly prefix?: string;
}

/** Joins response paths: `a.b`, `a[0]` (internal). */
export function joinPath(a: string, b: string): string {
  return b === '' ? a : a === '' ? b : b.startsWith('[') ? `${a}${b}` : `${a}.${b}`;
}

/** `responses[row]…path`: where a field is, for messages (internal). */
export function wherePath(ctx: RowContext, path: string): string {
  return joinPath(joinPath(`responses[${ctx.row}]`, ctx.prefix ?? ''), path);
}

/** `fn: responses[row].path must …; got …` as `UM_RESPONSE` (internal). */
export function badField(ctx: RowContext, path: string, requirement: string, value: unknown): never {
  throw new UMError(
    'UM_RESPONSE',
    `${ctx.fn}: ${wherePath(ctx, path)} must ${requirement}; got ${formatValue(value)}`,
    {
      fn: ctx.fn,
      argument: 'responses',
      index: [ctx.row],
      value,
    },
  );
}

type Obj = Record<string, unknown>;

const isObj = (x: unknown): x is Obj => x !== null && typeof x === 'object' && !Array.isArray(x);
const at = (path: string, key: string | number): string =>
  typeof key === 'number' ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`;

function obj(ctx: RowContext, value: unknown, path: string): Obj {
  if (!isObj(value)) badField(ctx, path, 'be an object', value);
  return value;
}

function list(ctx: RowContext, value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) badField(ctx, path, 'be an array', value);
  return value;
}

/** An optional array: undefined and null are "not returned". */
function optionalList(ctx: RowContext, value: unknown, path: string): unknown[] | null {
  return value === undefined || value === null ? null : list(ctx, value, path);
}

function text(ctx: RowContext, value: unknown, path: string): string {
  if (typeof value !== 'string') badField(ctx, path, 'be a string', value);
  return value;
}

function optionalText(ctx: RowContext, value: unknown, path: string): string | null {
  return value === undefined || value === null ? null : text(ctx, value, path);
}

/** A natural-log probability: a number ≤ 0 (−Infinity is probability 0) (internal). */
export function logprob(ctx: RowContext, value: unknown, path: string): number {
  if (typeof value !== 'number' || Number.isNaN(value) || value > 0)
    badField(ctx, path, 'be a log-probability (a number ≤ 0)', value);
  return value;
}

/** A probability in [0, 1], returned as its natural log (internal). */
function probability(ctx: RowContext, value: unknown, path: string): number {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1))
    badField(ctx, path, 'be a probability in [0, 1]', value);
  return Math.log(value);
}

/** `{ token, logprob }` entries of a top-k list (chat, responses, llama.cpp). */
function topEntries(
  ctx: RowContext,
  value: unknown,
  path: string,
  tokenKey: string,
  valueKey: string,
  read: typeof logprob,
): TokenLogprob[] {
  return (optionalList(ctx, value, path) ?? []).map((e, i) => {
    const o = obj(ctx, e, at(path, i));
    const key = tokenKey === 'token' && o.token === undefined && o.tok_str !== undefined ? 'tok_str' : tokenKey;
    return {
      token: text(ctx, o[key], at(at(path, i), key)),
      logprob: read(ctx, o[valueKey], at(at(path, i), valueKey)),
    };
  });
}

/** Steps of `[{ token, logprob, top_logprobs }]` (chat `logprobs.content`, Responses `logprobs`). */
function tokenSteps(ctx: RowContext, value: unknown[], path: string): TokenStep[] {
  return value.map((e, j) => {
    const p = at(path, j);
    const o = obj(ctx, e, p);
    return {
      chosen: { token: text(ctx, o.token, at(p, 'token')), logprob: logprob(ctx, o.logprob, at(p, 'logprob')) },
      top: topEntries(ctx, o.top_logprobs, at(p, 'top_logprobs'), 'token', 'logprob', logprob),
      path: p,
      topPath: at(p, 'top_logprobs'),
    };
  });
}

function chat(ctx: RowContext, r: Obj): Sample[] {
  const choices = list(ctx, r.choices, 'choices');
  if (choices.length === 0) badField(ctx, 'choices', 'hold at least one choice', choices);
  return choices.map((c0, i) => {
    const path = at('choices', i);
    const c = obj(ctx, c0, path);
    const message = c.message === undefined || c.message === null ? {} : obj(ctx, c.message, at(path, 'message'));
    // content is a string, or (some compatible servers) an array of { type: 'text', text } parts
    let content: string | null;
    if (Array.isArray(message.content))
      content = message.content
        .map((part, k) => {
          const p = at(at(path, 'message.content'), k);
          return optionalText(ctx, obj(ctx, part, p).text, at(p, 'text')) ?? '';
        })
        .join('');
    else content = optionalText(ctx, message.content, at(path, 'message.content'));
    const lp = c.logprobs === undefined || c.logprobs === null ? null : obj(ctx, c.logprobs, at(path, 'logprobs'));
    const steps = lp === null ? null : optionalList(ctx, lp.content, at(path, 'logprobs.content'));
    const refusalText = optionalText(ctx, message.refusal, at(path, 'message.refusal'));
    const refusalTokens = lp === null ? null : optionalList(ctx, lp.refusal, at(path, 'logprobs.refusal'));
    let refusal: Sample['refusal'] = null;
    if (refusalText !== null) refusal = { field: at(path, 'message.refusal'), text: refusalText, reason: 'refusal' };
    else if (refusalTokens !== null && refusalTokens.length > 0)
      refusal = { field: at(path, 'logprobs.refusal'), text: 'refusal tokens', reason: 'refusal' };
    else if (c.finish_reason === 'content_filter')
      refusal = { field: at(path, 'finish_reason'), text: 'content_filter', reason: 'refusal' };
    return {
      text: content,
      steps: steps === null ? null : tokenSteps(ctx, steps, at(path, 'logprobs.content')),
      refusal,
      stepsPath: at(path, 'logprobs.content'),
      textPath: at(path, 'message.content'),
    };
  });
}

function completions(ctx: RowContext, r: Obj): Sample[] {
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

function responses(ctx: RowContext, r: Obj): Sample[] {
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
  };
}

function gemini(ctx: RowContext, r: Obj): Sample[] {
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

function llamacpp(ctx: RowContext, r: Obj): Sample[] {
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

function textClassification(ctx: RowContext, value: unknown[]): Sample[] {
  // a batch of one input, [[{ label, score }, …]], is read as its one row
  const inner = value.length === 1 && Array.isArray(value[0]);
  const entries = inner ? (value[0] as unknown[]) : value;
  const path = inner ? '[0]' : '';
  const top = entries.map((e, k) => {
    const p = `${path}[${k}]`;
    const o = obj(ctx, e, p);
    return { token: text(ctx, o.label, `${p}.label`), logprob: probability(ctx, o.score, `${p}.score`) };
  });
  const step = { chosen: null, top, path, topPath: path };
  return [{ text: null, steps: [step], refusal: null, stepsPath: path, textPath: path }];
}

/** The shape of a response, from its keys (internal). */
export function detectFormat(ctx: RowContext, r: unknown): ResponseFormat {
  if (Array.isArray(r)) return 'text-classification';
  if (isObj(r)) {
    if ('completion_probabilities' in r || ('content' in r && 'tokens_predicted' in r)) return 'llamacpp';
    if ('candidates' in r || 'promptFeedback' in r) return 'gemini';
    if ('output' in r || r.object === 'response') return 'responses';
    if (Array.isArray(r.choices)) {
      const first: unknown = r.choices[0];
      if (isObj(first) && 'text' in first && !('message' in first)) return 'completions';
      return 'chat';
    }
  }
  return badField(
    ctx,
    '',
    'be a response of a known shape (chat completion, completion, Responses API, Gemini, llama.cpp, text-classification [{ label, score }])',
    r,
  );
}

/** Reads one response of the given (or detected) shape (internal). */
export function parseResponse(ctx: RowContext, r: unknown, format: ResponseFormat | 'auto'): ParsedResponse {
  if (isObj(r) && r.error !== undefined && r.error !== null) {
    const e = r.error;
    const message = isObj(e) && typeof e.message === 'string' ? e.message : typeof e === 'string' ? e : 'error';
    return {
      format: format === 'auto' ? 'chat' : format,
      samples: [],
      problem: { reason: 'error', field: 'error', text: message },
    };
  }
  const f = format === 'auto' ? detectFormat(ctx, r) : format;
  if (f === 'text-classification')
    return { format: f, samples: textClassification(ctx, list(ctx, r, '')), problem: null };
  const o = obj(ctx, r, '');
  if (f === 'gemini' && (o.candidates === undefined || (Array.isArray(o.candidates) && o.candidates.length === 0))) {
    const feedback = o.promptFeedback === undefined ? null : obj(ctx, o.promptFeedback, 'promptFeedback');
    const reason = feedback?.blockReason;
    if (typeof reason === 'string')
      return {
        format: f,
        samples: [],
        problem: { reason: 'refusal', field: 'promptFeedback.blockReason', text: reason },
      };
  }
  const read = { chat, completions, responses, gemini, llamacpp }[f];
  return { format: f, samples: read(ctx, o), problem: null };
}
