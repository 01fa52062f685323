import { badField, type RowContext, type TokenLogprob, type TokenStep } from './responses.js';

/** Field readers of raw responses: each names the row and path of a bad value (`UM_RESPONSE`) (internal). */
export type Obj = Record<string, unknown>;

export const isObj = (x: unknown): x is Obj => x !== null && typeof x === 'object' && !Array.isArray(x);
export const at = (path: string, key: string | number): string =>
  typeof key === 'number' ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`;

export function obj(ctx: RowContext, value: unknown, path: string): Obj {
  if (!isObj(value)) badField(ctx, path, 'be an object', value);
  return value;
}

export function list(ctx: RowContext, value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) badField(ctx, path, 'be an array', value);
  // holes of a sparse array become undefined entries, which the readers reject by position
  return Array.from(value);
}

/** An optional array: undefined and null are "not returned". */
export function optionalList(ctx: RowContext, value: unknown, path: string): unknown[] | null {
  return value === undefined || value === null ? null : list(ctx, value, path);
}

export function text(ctx: RowContext, value: unknown, path: string): string {
  if (typeof value !== 'string') badField(ctx, path, 'be a string', value);
  return value;
}

export function optionalText(ctx: RowContext, value: unknown, path: string): string | null {
  return value === undefined || value === null ? null : text(ctx, value, path);
}

/** A natural-log probability: a number ≤ 0 (−Infinity is probability 0) (internal). */
export function logprob(ctx: RowContext, value: unknown, path: string): number {
  if (typeof value !== 'number' || Number.isNaN(value) || value > 0)
    badField(ctx, path, 'be a log-probability (a number ≤ 0)', value);
  return value;
}

/** A probability in [0, 1], returned as its natural log (internal). */
export function probability(ctx: RowContext, value: unknown, path: string): number {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1))
    badField(ctx, path, 'be a probability in [0, 1]', value);
  return Math.log(value);
}

/** What tells a token apart from another of the same text: its `id`, Gemini's `tokenId` or its `bytes` (internal). */
export function tokenId(o: Obj): { id?: string } {
  if (typeof o.id === 'number' || typeof o.id === 'string') return { id: `id ${o.id}` };
  if (typeof o.tokenId === 'number') return { id: `id ${o.tokenId}` };
  if (Array.isArray(o.bytes)) return { id: `bytes ${o.bytes.join(',')}` };
  return {};
}

/** `{ token, logprob }` entries of a top-k list (chat, responses, llama.cpp). */
export function topEntries(
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
      ...tokenId(o),
    };
  });
}

/** Steps of `[{ token, logprob, top_logprobs }]` (chat `logprobs.content`, Responses `logprobs`). */
export function tokenSteps(ctx: RowContext, value: unknown[], path: string): TokenStep[] {
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
