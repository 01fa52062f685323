import { checkOptions } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import { UMError } from '../errors/UMError.js';
import { toProbabilities } from '../input/toProbabilities.js';
import type { ProbMatrix } from '../input/types.js';
import {
  badField,
  joinPath,
  parseResponse,
  RESPONSE_FORMATS,
  type ParsedResponse,
  type ResponseFormat,
  type Sample,
} from './responses.js';
import {
  logprobRow,
  sampledRow,
  verbalRow,
  invalid,
  type InvalidReason,
  type InvalidRow,
  type MissingPolicy,
  type Provenance,
  type RowResult,
  type RowSettings,
} from './rows.js';
import { chatStream, isChunk } from './readers.js';
import { confidenceConfig, type ConfidenceConfig, type ConfidenceOptions } from './verbal.js';
import { verbalizerOf, type Verbalizer } from './verbalizer.js';

/** Options of {@link labelProbabilities}. */
export interface LabelProbabilityOptions {
  /** The response shape (default `'auto'`: recognised row by row from its keys). */
  format?: ResponseFormat | 'auto';
  /**
   * Where the probabilities come from (default `'auto'`: `'sampled'` when the row holds several answers, else
   * `'logprob'` when it holds token log-probabilities, else `'verbal'`).
   */
  provenance?: Provenance | 'auto';
  /** The generated token that holds the answer: an index, or `'label'` (default): the first label token. */
  position?: 'label' | number;
  /**
   * Labels none of whose tokens were returned (default `'floor'`). Sampled rows: `'reject'` refuses a row that never
   * sampled a label; otherwise such a label gets its frequency (0 unless `pseudocount` > 0).
   */
  missing?: MissingPolicy;
  /** Rows that give no probabilities — refusals, errors, no label, no confidence (default `'error'`). */
  onInvalid?: 'error' | 'exclude';
  /** How verbalized confidences are read (see {@link parseConfidence}). */
  confidence?: ConfidenceOptions;
  /** Added to every label's count of sampled answers (default 0). */
  pseudocount?: number;
  /** Largest accepted excess of the returned probabilities over 1 (default 1e-3: float32 servers round). */
  sumTolerance?: number;
}

/** How responses were read: plain JSON, stored with calibrators so that `apply` reads the same way. */
export interface LabelReading {
  readonly verbalizer: Verbalizer;
  readonly format: ResponseFormat | 'auto';
  readonly provenance: Provenance | 'auto';
  readonly position: 'label' | number;
  readonly missing: MissingPolicy;
  readonly onInvalid: 'error' | 'exclude';
  readonly confidence: ConfidenceConfig;
  readonly pseudocount: number;
  readonly sumTolerance: number;
}

/** A response left out under `onInvalid: 'exclude'`. */
export interface ExcludedRow {
  /** Index of the response. */
  readonly row: number;
  readonly reason: InvalidReason;
  /** The field of the response that shows it (e.g. `choices[0].message.refusal`). */
  readonly field: string;
  /** The message an error would have had. */
  readonly message: string;
}

/** Label probabilities read from responses, with everything the responses left unknown. */
export interface LabelProbabilities {
  /** The label set, class order. */
  readonly labels: readonly string[];
  /** Rows kept (responses that gave probabilities). */
  readonly n: number;
  /** Responses read. */
  readonly total: number;
  readonly numClasses: number;
  /** Validated probabilities [n, C] with their exact log-probabilities: every metric and calibrator takes them. */
  readonly probs: ProbMatrix;
  /** The response index of each kept row. */
  readonly rows: Int32Array;
  /** Where each row's probabilities come from. */
  readonly provenance: readonly Provenance[];
  /** Per row: the probability mass of tokens not returned, 1 − Σ returned (sampled: the answers naming no label). */
  readonly outside: Float64Array;
  /**
   * Per row: every token not returned has probability ≤ this — min(max(`outside`, `sumTolerance`), the smallest
   * top-k probability besides the sampled token's): a rest below `sumTolerance` cannot be told from rounding. A
   * bound per token: a label none of whose tokens was returned holds at most min(`outside`, s × bound), s the number
   * of vocabulary tokens the verbalizer reads as that label.
   */
  readonly bound: Float64Array;
  /** Per row: labels none of whose tokens were returned (sampled: never sampled). */
  readonly missing: Int32Array;
  /** Per row: the returned probability on label tokens, before renormalisation (sampled: labelled answers). */
  readonly labelMass: Float64Array;
  /** Per row: the generated position read (−1 for verbal and sampled rows). */
  readonly position: Int32Array;
  /** Responses left out, in order, with the reason (only under `onInvalid: 'exclude'`). */
  readonly excluded: readonly ExcludedRow[];
  /** How the responses were read. */
  readonly config: LabelReading;
  /** The calibrator kind applied to `probs` (set by `applyLlmCalibrator`). */
  readonly calibrated?: string;
}

/** The options of a reading (besides the verbalizer): what a calibrator stores so that `apply` reads alike. */
export const READING_KEYS = [
  'format',
  'provenance',
  'position',
  'missing',
  'onInvalid',
  'confidence',
  'pseudocount',
  'sumTolerance',
] as const;

function oneOf<T extends string>(fn: string, name: string, value: unknown, choices: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !choices.includes(value as T))
    fail('UM_OPTION', fn, name, `be one of ${choices.map((c) => `'${c}'`).join(', ')}`, { value });
  return value as T;
}

/** Validates the options into a reading (internal; shared with the LLM calibrator's validation). */
export function readingOf(
  fn: string,
  verbalizer: unknown,
  options: unknown,
  prefix = 'options',
  verbalizerArg = 'verbalizer',
): LabelReading {
  const v = verbalizerOf(fn, verbalizer, verbalizerArg).verbalizer;
  checkOptions(fn, options, READING_KEYS);
  const o = (options ?? {}) as Record<string, unknown>;
  const format = oneOf(fn, `${prefix}.format`, o.format, ['auto', ...RESPONSE_FORMATS], 'auto');
  const provenance = oneOf(fn, `${prefix}.provenance`, o.provenance, ['auto', 'logprob', 'verbal', 'sampled'], 'auto');
  const position = o.position ?? 'label';
  if (
    position !== 'label' &&
    !(typeof position === 'number' && Number.isInteger(position) && position >= 0 && position <= 2 ** 20)
  )
    fail('UM_OPTION', fn, `${prefix}.position`, "be 'label' or an integer in [0, 2^20]", { value: position });
  const missing = oneOf(fn, `${prefix}.missing`, o.missing, ['renormalize', 'floor', 'reject'], 'floor');
  const onInvalid = oneOf(fn, `${prefix}.onInvalid`, o.onInvalid, ['error', 'exclude'], 'error');
  const pseudocount = o.pseudocount ?? 0;
  if (typeof pseudocount !== 'number' || !Number.isFinite(pseudocount) || pseudocount < 0)
    fail('UM_OPTION', fn, `${prefix}.pseudocount`, 'be a finite number ≥ 0', { value: pseudocount });
  const sumTolerance = o.sumTolerance ?? 1e-3;
  if (typeof sumTolerance !== 'number' || !(sumTolerance >= 0 && sumTolerance < 1))
    fail('UM_OPTION', fn, `${prefix}.sumTolerance`, 'be a number in [0, 1)', { value: sumTolerance });
  const confidence = confidenceConfig(fn, `${prefix}.confidence`, o.confidence);
  return { verbalizer: v, format, provenance, position, missing, onInvalid, confidence, pseudocount, sumTolerance };
}

/**
 * Several raw responses in one row (k separate calls, read as k samples), not a `[{ label, score }]` list: decided by
 * the first entry, so that every other entry (a hole, a foreign value) is read — and rejected — as a response.
 */
function isResponseList(r: unknown): r is unknown[] {
  const first: unknown = Array.isArray(r) ? r[0] : undefined;
  return (
    first !== null && typeof first === 'object' && !Array.isArray(first) && !('label' in first) && !('score' in first)
  );
}

/** A sample of the `j`-th response of a list row, its paths made relative to the row (internal). */
function relocate(sample: Sample, j: number): Sample {
  const at = `[${j}]`;
  return {
    ...sample,
    stepsPath: joinPath(at, sample.stepsPath),
    textPath: joinPath(at, sample.textPath),
    refusal: sample.refusal === null ? null : { ...sample.refusal, field: joinPath(at, sample.refusal.field) },
  };
}

/** The samples of a parsed response; an error or a blocked prompt is one sample that declined (internal). */
function samplesOf(p: ParsedResponse): readonly Sample[] {
  if (p.problem === null) return p.samples;
  const { field, text, reason } = p.problem;
  return [{ text: null, steps: null, refusal: { field, text, reason }, stepsPath: field, textPath: field }];
}

/** One response row → its probabilities or why it gives none (internal). */
function readRow(fn: string, row: number, r: unknown, reading: LabelReading, s0: RowSettings): RowResult | InvalidRow {
  const ctx = { fn, row };
  // the chunks of one streamed chat completion are one response, not k samples
  const isStream = (reading.format === 'auto' || reading.format === 'chat') && Array.isArray(r) && isChunk(r[0]);
  const isList = !isStream && reading.format !== 'text-classification' && isResponseList(r);
  const parsed: ParsedResponse[] = isStream
    ? [{ format: 'chat', samples: chatStream(ctx, r as unknown[]), problem: null }]
    : isList
      ? Array.from(r, (x, j) => parseResponse({ fn, row, prefix: `[${j}]` }, x, reading.format))
      : [parseResponse(ctx, r, reading.format)];
  const samples = parsed.flatMap((p, j) => samplesOf(p).map((s) => (isList ? relocate(s, j) : s)));
  const sample = samples[0] as Sample;
  const s: RowSettings = { ...s0, prefixes: s0.prefixes && parsed[0]?.format !== 'text-classification' };
  let prov = reading.provenance;
  if (prov === 'auto') prov = samples.length > 1 ? 'sampled' : sample.steps !== null ? 'logprob' : 'verbal';
  if (prov === 'sampled') return sampledRow(ctx, s, samples);
  // one answer gives logprob and verbal rows: the others would be dropped unseen
  if (samples.length > 1)
    badField(
      ctx,
      '',
      `hold one answer for provenance: '${prov}' (read several as samples with provenance: 'sampled')`,
      `${samples.length} answers`,
    );
  if (sample.refusal !== null)
    return invalid(ctx, sample.refusal.reason, sample.refusal.field, 'be an answer', sample.refusal.text);
  if (prov === 'verbal') return verbalRow(ctx, s, sample, reading.provenance === 'auto');
  if (sample.steps === null)
    return invalid(
      ctx,
      'no-logprobs',
      sample.stepsPath,
      "hold token log-probabilities (request them: logprobs with top_logprobs, responseLogprobs with logprobs, n_probs; or read verbalized confidences with provenance: 'verbal')",
      null,
    );
  return logprobRow(ctx, s, sample);
}

/**
 * Probabilities over a label set from raw LLM responses — token log-probabilities of the answer position,
 * verbalized confidences, or the frequencies of sampled answers — with the mass the response left unknown.
 *
 * **Formula.** Token log-probabilities: m_ℓ = Σ_{t ∈ R, t ~ ℓ} p(t) over the returned set R (the top-k and the
 * chosen token) and the tokens t the verbalizer reads as ℓ; outside mass O = max(0, 1 − Σ_{t ∈ R} p(t)); bound
 * b = min(max(O, τ), min_{t ∈ top-k, t ≠ chosen} p(t)) with τ = `sumTolerance` (a rest below the rounding allowed
 * cannot be told from rounding), so each token not returned has p ≤ b. It is a bound per token: a label none of
 * whose tokens was returned holds at most min(O, s·b), s the number of vocabulary tokens the verbalizer reads as it
 * (case, leading-space and first-token forms of every spelling, not only the spellings listed), and the labels not
 * returned share at most O. A label with no returned token gets m_ℓ = b (`floor`), 0 (`renormalize`) or rejects the
 * row (`reject`); then P(ℓ) = m_ℓ / Σ_j m_j, in log space.
 * Verbal: P(named) = c, the others (1 − c)/(C − 1). Sampled: P(ℓ) = (n_ℓ + α)/(n + Cα) over the n answers naming a
 * label.
 *
 * **Conventions.**
 * - The answer position (`position: 'label'`) is the first generated token the verbalizer reads as a label, else
 *   the first whose top-k offers one. A row with several answers (a list of responses, n > 1 choices or candidates)
 *   is read as samples; with `provenance: 'logprob'` or `'verbal'` it is a `UM_RESPONSE` error, never cut to one.
 *   A list of streamed `chat.completion.chunk` objects is one response: its deltas and token log-probabilities are
 *   concatenated per choice in order (an error chunk makes it an `error` row).
 * - `floor` (default) never gives a label of a logprob row probability 0 — b is a per-token upper limit, not a guess,
 *   and may be below the mass of a label with several spellings — so NLL stays finite (with `sumTolerance: 0` and all
 *   the probability returned there is no positive limit: a row missing a label is then invalid, `missing-label`);
 *   `renormalize` gives 0, `reject` turns such rows invalid. A row whose returned tokens hold no label is invalid
 *   (`no-label`) under every policy. `outside`, `bound`, `missing` and `labelMass` report per row what the top-k left
 *   out, whatever the policy. Sampled rows have no bound: a label never sampled gets probability 0 unless
 *   `pseudocount` is positive (`reject` refuses the row).
 * - OpenAI's placeholder `logprob: -9999` (a token too unlikely to report) and anything below it (llama.cpp's float
 *   minimum for 0) is read as not returned. Two top-k entries of one text are two tokens, and both count, when their
 *   log-probability, `id`/`tokenId` or `bytes` differ (vLLM renders `▁true` and `true` both as "true", llama.cpp and
 *   vLLM byte-fallback tokens as ""); the same entry listed twice is a `UM_RESPONSE` error (it would count twice).
 * - The sampled token is left out of the minimum in b: vLLM lists it first in place of the k-th most likely token,
 *   so a rare sampled token limits nothing; the other entries are the most likely tokens besides it on every server.
 *   Known caveat: a top-k of the sampled token alone (`top_logprobs: 1` with sampling on vLLM) is read as it is.
 * - Invalid rows — API errors, refusals (`message.refusal`, `refusal` parts, Gemini `SAFETY`-like finish reasons,
 *   blocked prompts, a Responses answer `incomplete` for `content_filter`), no log-probabilities, no label, no
 *   confidence — throw `UM_RESPONSE` naming the row and field (`onInvalid: 'error'`), or are left out and listed in
 *   `excluded` (`'exclude'`): never dropped silently.
 * - Malformed entries (a missing field, a non-string token, a log-probability above 0, a probability outside [0, 1],
 *   top-k summing past 1 + `sumTolerance`) always throw `UM_RESPONSE` naming the row and field.
 * - Gemini's proto3 JSON leaves out zero values: a missing `logProbability` is 0. llama.cpp's `post_sampling_probs`
 *   are the sampler's probabilities (after top-k/top-p). Text-classification labels match whole names (no prefixes).
 * - The result's `probs` carry exact log-probabilities, so temperature scaling works on the label log-probabilities.
 *
 * **References.**
 * - Zhao, Wallace, Feng, Klein & Singh, "Calibrate Before Use", ICML 2021, arXiv:2102.09690.
 * - Kadavath et al., "Language Models (Mostly) Know What They Know", 2022, arXiv:2207.05221.
 * - OpenAI API reference (chat completions `logprobs`, Responses `output_text.logprobs`); Gemini API reference
 *   (`LogprobsResult`); llama.cpp server README (`n_probs`, `completion_probabilities`); Transformers.js pipelines.
 *
 * @param responses one raw response per row (an array of responses is read as that row's samples).
 * @param verbalizer the labels (`['yes', 'no']`) or a {@link Verbalizer} (from `verbalizer()`).
 * @param options `format`, `provenance`, `position`, `missing`, `onInvalid`, `confidence`, `pseudocount`, `sumTolerance`.
 * @returns {@link LabelProbabilities}.
 * @throws {UMError} `UM_RESPONSE` for malformed or (with `onInvalid: 'error'`) invalid rows, naming the row and field;
 * `UM_EMPTY` when no row is left; `UM_OPTION`, `UM_SHAPE` for bad arguments.
 * @example
 * ```js
 * import { labelProbabilities } from 'uncertainty-metrics/llm';
 * const response = { choices: [{ message: { content: 'Yes' }, logprobs: { content: [
 *   { token: 'Yes', logprob: Math.log(0.6), top_logprobs: [
 *     { token: 'Yes', logprob: Math.log(0.6) }, { token: ' yes', logprob: Math.log(0.1) }, { token: 'No', logprob: Math.log(0.2) }] }] } }] };
 * const r = labelProbabilities([response], ['yes', 'no']);
 * Array.from(r.probs.data); // ≈ [0.7778, 0.2222]
 * [r.outside[0], r.bound[0]]; // ≈ [0.1, 0.1]
 * ```
 */
export function labelProbabilities(
  responses: readonly unknown[],
  verbalizer: Verbalizer | readonly string[],
  options: LabelProbabilityOptions = {},
): LabelProbabilities {
  const fn = 'labelProbabilities';
  return readResponses(fn, responses, readingOf(fn, verbalizer, options));
}

/** Reads responses with a validated reading (internal; shared with applyLlmCalibrator). */
export function readResponses(fn: string, responses: readonly unknown[], reading: LabelReading): LabelProbabilities {
  if (!Array.isArray(responses)) fail('UM_SHAPE', fn, 'responses', 'be an array of responses', { value: responses });
  if (responses.length === 0) fail('UM_EMPTY', fn, 'responses', 'hold at least one response', { value: responses });
  const v = verbalizerOf(fn, reading.verbalizer);
  const c = v.numClasses;
  const settings: RowSettings = { ...reading, v, prefixes: reading.verbalizer.prefixes };
  const kept: RowResult[] = [];
  const rows: number[] = [];
  const excluded: ExcludedRow[] = [];
  for (let i = 0; i < responses.length; i++) {
    const r = readRow(fn, i, responses[i], reading, settings);
    if (r.kind === 'row') {
      kept.push(r);
      rows.push(i);
      continue;
    }
    if (reading.onInvalid === 'error')
      throw new UMError('UM_RESPONSE', r.message, { fn, argument: 'responses', index: [i], value: r.reason });
    excluded.push({ row: i, reason: r.reason, field: r.field, message: r.message });
  }
  if (kept.length === 0)
    fail('UM_EMPTY', fn, 'responses', 'hold at least one response with label probabilities', {
      value: `${excluded.length} excluded (${[...new Set(excluded.map((e) => e.reason))].join(', ')})`,
    });
  const logp = new Float64Array(kept.length * c);
  kept.forEach((r, j) => logp.set(r.logp, j * c));
  return {
    labels: [...v.verbalizer.labels],
    n: kept.length,
    total: responses.length,
    numClasses: c,
    probs: toProbabilities(logp, { input: 'logprobs', numClasses: c }),
    rows: Int32Array.from(rows),
    provenance: kept.map((r) => r.provenance),
    outside: Float64Array.from(kept, (r) => r.outside),
    bound: Float64Array.from(kept, (r) => r.bound),
    missing: Int32Array.from(kept, (r) => r.missing),
    labelMass: Float64Array.from(kept, (r) => r.labelMass),
    position: Int32Array.from(kept, (r) => r.position),
    excluded,
    config: reading,
  };
}
