import { formatValue } from '../errors/formatValue.js';
import { UMError } from '../errors/UMError.js';
import { isObj, list, obj } from './fields.js';
import { chat, completions, gemini, llamacpp, responses, textClassification } from './readers.js';

/**
 * The response shapes read, each from its provider's documented schema:
 * - `'chat'` — OpenAI-compatible chat completions (`choices[i].message`, `choices[i].logprobs.content[j]` with
 *   `token`, `logprob`, `top_logprobs`); also vLLM, llama.cpp's server, Ollama's OpenAI endpoint and others. Streamed
 *   `chat.completion.chunk` objects are read too (`delta` for `message`); a row's list of them is one response.
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
  /**
   * What tells apart two tokens of the same text, when the response gives it: llama.cpp's `id`, Gemini's `tokenId`
   * or the token's `bytes` (vLLM renders `▁true` and `true` both as "true", and byte-fallback tokens as "").
   */
  readonly id?: string;
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
