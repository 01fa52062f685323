import { formatValue } from '../errors/formatValue.js';
import { labelOfText, readConfidence, type ConfidenceConfig } from './verbal.js';
import { badField, wherePath, type RowContext, type Sample, type TokenStep } from './responses.js';
import { NO_LABEL, type CompiledVerbalizer } from './verbalizer.js';

/** Where a row's label probabilities come from. */
export type Provenance = 'logprob' | 'verbal' | 'sampled';

/** What to do with labels none of whose tokens are among the returned top-k. */
export type MissingPolicy = 'renormalize' | 'floor' | 'reject';

/** Why a row gives no label probabilities. */
export type InvalidReason = 'error' | 'refusal' | 'no-logprobs' | 'no-label' | 'missing-label' | 'no-confidence';

/** One row's label log-probabilities and what the response left unknown (internal). */
export interface RowResult {
  readonly kind: 'row';
  readonly logp: Float64Array;
  readonly provenance: Provenance;
  readonly outside: number;
  readonly bound: number;
  readonly missing: number;
  readonly labelMass: number;
  readonly position: number;
}

/** A row that gives no label probabilities, and why (internal). */
export interface InvalidRow {
  readonly kind: 'invalid';
  readonly reason: InvalidReason;
  readonly field: string;
  readonly message: string;
}

/** The reading settings a row needs (internal). */
export interface RowSettings {
  readonly v: CompiledVerbalizer;
  readonly position: 'label' | number;
  readonly missing: MissingPolicy;
  readonly confidence: ConfidenceConfig;
  readonly pseudocount: number;
  readonly sumTolerance: number;
  /** Whether tokens are matched by prefix too (not for classifier labels). */
  readonly prefixes: boolean;
}

/** An invalid row whose message reads like every error: `fn: responses[row].field must …; got …` (internal). */
export function invalid(
  ctx: RowContext,
  reason: InvalidReason,
  field: string,
  requirement: string,
  value: unknown,
): InvalidRow {
  return {
    kind: 'invalid',
    reason,
    field,
    message: `${ctx.fn}: ${wherePath(ctx, field)} must ${requirement}; got ${formatValue(value)} (${reason}; onInvalid: 'exclude' leaves such rows out and lists them)`,
  };
}

/** ln(e^a + e^b) without overflow; −∞ is the empty sum (internal). */
export function logAdd(a: number, b: number): number {
  if (a === -Infinity) return b;
  if (b === -Infinity) return a;
  const m = Math.max(a, b);
  return m + Math.log1p(Math.exp(-Math.abs(a - b)));
}

/** Log-probabilities normalised over the labels, or null when every label has probability 0. */
function normalised(lm: Float64Array): Float64Array | null {
  let total = -Infinity;
  for (const x of lm) total = logAdd(total, x);
  if (total === -Infinity) return null;
  return lm.map((x) => x - total);
}

const labelList = (v: CompiledVerbalizer): string => v.verbalizer.labels.join(', ');

/** The step holding the answer: the given position, or the first label token chosen, else offered (internal). */
function answerStep(
  ctx: RowContext,
  s: RowSettings,
  steps: readonly TokenStep[],
  path: string,
): { index: number } | InvalidRow {
  if (typeof s.position === 'number') {
    if (s.position < steps.length) return { index: s.position };
    return invalid(ctx, 'no-label', path, `hold a token at position ${s.position}`, `${steps.length} tokens`);
  }
  const isLabel = (t: string) => s.v.token(t, s.prefixes) !== NO_LABEL;
  let j = steps.findIndex((st) => st.chosen !== null && isLabel(st.chosen.token));
  if (j < 0) j = steps.findIndex((st) => st.top.some((t) => isLabel(t.token)));
  if (j >= 0) return { index: j };
  const shown = steps
    .slice(0, 5)
    .map((st) => st.chosen?.token ?? '')
    .join('|');
  return invalid(ctx, 'no-label', path, `hold a token of a label (${labelList(s.v)})`, shown);
}

/**
 * OpenAI's documented stand-in for a token too unlikely to report (`logprob: -9999.0`): it carries no probability,
 * so entries at or below it are read as not returned (they neither bound the rest nor make a label present).
 */
const PLACEHOLDER_LOGPROB = -9999;

/**
 * A row from token log-probabilities: label masses, the mass outside the top-k and its per-token bound (internal).
 * The bound assumes the top-k entries other than the sampled token are the most likely tokens besides it.
 */
export function logprobRow(ctx: RowContext, s: RowSettings, sample: Sample): RowResult | InvalidRow {
  const c = s.v.numClasses;
  const steps = sample.steps as readonly TokenStep[];
  const found = answerStep(ctx, s, steps, sample.stepsPath);
  if ('kind' in found) return found;
  const step = steps[found.index] as TokenStep;
  const real = (logprob: number) => logprob > PLACEHOLDER_LOGPROB;
  const top = step.top.filter((t) => real(t.logprob));
  // two entries of one text are two tokens when their log-probability, id or bytes differ (vLLM renders ▁true and
  // true both as "true", byte-fallback tokens as ""): both count. The same entry twice would count one token twice.
  const entryKeys = new Set<string>();
  for (const t of top) {
    const key = `${t.logprob}\u0000${t.id ?? ''}\u0000${t.token}`;
    if (entryKeys.has(key))
      badField(
        ctx,
        step.topPath,
        'list each token once (the same entry twice would count twice)',
        `${JSON.stringify(t.token)} with log-probability ${t.logprob} twice`,
      );
    entryKeys.add(key);
  }
  const listed = new Set(top.map((t) => t.token));
  // the returned set: the top-k and the chosen token (when sampled from outside the top-k)
  const entries = [...top];
  const chosen = step.chosen;
  if (chosen !== null && chosen.logprob !== null && real(chosen.logprob) && !listed.has(chosen.token))
    entries.push({ token: chosen.token, logprob: chosen.logprob });
  let returned = 0;
  for (const e of entries) returned += Math.exp(e.logprob);
  // the least likely of the top-k other than the sampled token: vLLM lists the sampled token first in place of the
  // k-th most likely, so a rare sampled token is no limit on the tokens left out; the others are the most likely
  // tokens besides it, whatever the server (only a top-k of the sampled token alone is read as it is)
  const others = top.filter((t) => chosen === null || t.token !== chosen.token);
  let minTop = Infinity;
  for (const e of others.length > 0 ? others : top) minTop = Math.min(minTop, e.logprob);
  if (returned > 1 + s.sumTolerance)
    badField(ctx, step.topPath, `hold probabilities summing to at most 1 (tolerance ${s.sumTolerance})`, returned);
  const outside = Math.max(0, 1 - returned);
  // every token not returned is at most as likely as the least likely of the top-k, and than all that is left; a rest
  // below sumTolerance (the rounding allowed) cannot be told from rounding, so sumTolerance stands for it
  const logBound = Math.min(Math.log(Math.max(outside, s.sumTolerance)), minTop);
  const bound = Number.isFinite(logBound) ? Math.exp(logBound) : 0;
  const lm = new Float64Array(c).fill(-Infinity);
  const seen = new Uint8Array(c);
  let labelMass = 0;
  for (const e of entries) {
    const k = s.v.token(e.token, s.prefixes);
    if (k === NO_LABEL) continue;
    lm[k] = logAdd(lm[k] as number, e.logprob);
    seen[k] = 1;
    labelMass += Math.exp(e.logprob);
  }
  let missing = 0;
  for (let k = 0; k < c; k++) if (seen[k] === 0) missing++;
  // no label among the returned tokens: the row says nothing about the labels, whatever the policy
  if (missing === c)
    return invalid(ctx, 'no-label', step.topPath, `hold a token of a label (${labelList(s.v)})`, 'none');
  const absent = () => `none of ${s.v.verbalizer.labels.filter((_l, k) => seen[k] === 0).join(', ')}`;
  if (missing > 0 && s.missing === 'reject')
    return invalid(ctx, 'missing-label', step.topPath, "hold a token of every label (missing: 'reject')", absent());
  if (missing > 0 && s.missing === 'floor') {
    if (!Number.isFinite(logBound))
      return invalid(
        ctx,
        'missing-label',
        step.topPath,
        "bound the labels not returned (missing: 'floor'): the returned tokens hold all the probability and no top-k entry is left to bound the rest",
        absent(),
      );
    for (let k = 0; k < c; k++) if (seen[k] === 0) lm[k] = logBound;
  }
  const logp = normalised(lm);
  if (logp === null)
    return invalid(ctx, 'no-label', step.topPath, `hold a token of a label (${labelList(s.v)})`, 'none');
  return { kind: 'row', logp, provenance: 'logprob', outside, bound, missing, labelMass, position: found.index };
}

/**
 * A row from a verbalized confidence: the named label gets it, the other labels share the rest (internal). `auto`:
 * read so because the response holds no token log-probabilities, which a missing confidence then also says.
 */
export function verbalRow(ctx: RowContext, s: RowSettings, sample: Sample, auto = false): RowResult | InvalidRow {
  const field = sample.textPath;
  // under auto provenance a row without log-probabilities is read as verbal: say that both are missing, since the
  // usual cause is a request without logprobs
  const orTokens = auto
    ? ` — or hold token log-probabilities at ${sample.stepsPath} (none returned: request logprobs with top_logprobs)`
    : '';
  if (sample.text === null) return invalid(ctx, 'no-label', field, `hold the answer text${orTokens}`, null);
  const r = readConfidence(sample.text, s.confidence);
  if (r.kind === 'range') return invalid(ctx, 'no-confidence', field, 'state a confidence in [0, 1]', r.text);
  if (r.kind === 'span') return invalid(ctx, 'no-confidence', field, 'state one confidence, not a span', r.text);
  if (r.kind === 'none')
    return invalid(
      ctx,
      'no-confidence',
      field,
      `state a confidence (85%, 0.85, 85/100 or a mapped word)${orTokens}`,
      sample.text,
    );
  const k = labelOfText(s.v, sample.text, r);
  if (k === NO_LABEL) return invalid(ctx, 'no-label', field, `name a label (${labelList(s.v)})`, sample.text);
  const c = s.v.numClasses;
  const rest = Math.log((1 - r.value) / (c - 1));
  const logp = new Float64Array(c).fill(rest);
  logp[k] = Math.log(r.value);
  return { kind: 'row', logp, provenance: 'verbal', outside: 0, bound: 0, missing: 0, labelMass: 1, position: -1 };
}

/** A row from k sampled answers: the frequency of each label (plus a pseudocount) (internal). */
export function sampledRow(ctx: RowContext, s: RowSettings, samples: readonly Sample[]): RowResult | InvalidRow {
  const c = s.v.numClasses;
  const counts = new Float64Array(c);
  let labelled = 0;
  for (const sample of samples) {
    if (sample.refusal !== null || sample.text === null) continue;
    const k = labelOfText(s.v, sample.text);
    if (k === NO_LABEL) continue;
    counts[k] = (counts[k] as number) + 1;
    labelled++;
  }
  if (labelled === 0)
    return invalid(
      ctx,
      'no-label',
      '',
      `hold an answer naming a label (${labelList(s.v)})`,
      `${samples.length} answers naming none`,
    );
  let missing = 0;
  for (const x of counts) if (x === 0) missing++;
  if (missing > 0 && s.missing === 'reject') {
    const absent = s.v.verbalizer.labels.filter((_l, k) => counts[k] === 0);
    return invalid(
      ctx,
      'missing-label',
      '',
      "hold answers of every label (missing: 'reject')",
      `none of ${absent.join(', ')}`,
    );
  }
  const a = s.pseudocount;
  const logp = counts.map((x) => Math.log((x + a) / (labelled + c * a)));
  const k = samples.length;
  return {
    kind: 'row',
    logp,
    provenance: 'sampled',
    outside: (k - labelled) / k,
    bound: 0,
    missing,
    labelMass: labelled / k,
    position: -1,
  };
}
