import { checkOptions } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';

/**
 * Which tokens and words stand for which label: plain JSON, stored with every LLM calibrator so that `apply` reads
 * responses exactly as the fit did.
 */
export interface Verbalizer {
  readonly kind: 'verbalizer';
  /** The label set, class 0 first (the columns of every probability matrix read with it). */
  readonly labels: readonly string[];
  /** Further spellings of a label given by the user (`{ yes: ['Y', 'sure'] }`), matched like the label itself. */
  readonly variants: Readonly<Record<string, readonly string[]>>;
  /** Whether `Yes`, `YES` and `yes` are different labels' spellings (default false: case is ignored). */
  readonly caseSensitive: boolean;
  /** Whether a token may start with white space, `▁` (SentencePiece) or `Ġ` (byte-level BPE): ` yes` = `yes` (default true). */
  readonly leadingSpace: boolean;
  /**
   * Whether a token that begins one label's spelling, and no other label's, counts for that label — the first token
   * of a label the tokenizer splits (`pos` of `positive`) (default true; token log-probabilities only).
   */
  readonly prefixes: boolean;
}

/** Options of {@link verbalizer}. */
export interface VerbalizerOptions {
  /** Further spellings per label, e.g. `{ yes: ['Y', 'sure'], no: ['N'] }` (keys must be labels). */
  variants?: Readonly<Record<string, readonly string[]>>;
  /** Tell case apart (default false). */
  caseSensitive?: boolean;
  /** Ignore leading white space, `▁` and `Ġ` of a token (default true). */
  leadingSpace?: boolean;
  /** Count the first token of a split label for it when it starts no other label (default true). */
  prefixes?: boolean;
}

const KEYS = ['variants', 'caseSensitive', 'leadingSpace', 'prefixes'] as const;

/** A token matched no label (internal). */
export const NO_LABEL = -1;

/** A verbalizer ready to match tokens and text (internal). */
export interface CompiledVerbalizer {
  readonly verbalizer: Verbalizer;
  readonly numClasses: number;
  /** The label of a token (its index), or `NO_LABEL`; `prefixes` false reads whole spellings only. */
  token(token: string, prefixes?: boolean): number;
  /** Every spelling of each label as it is compared (normalised), class order. */
  readonly forms: readonly (readonly string[])[];
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

function booleanOption(fn: string, name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') fail('UM_OPTION', fn, name, 'be true or false', { value });
  return value;
}

/** Checks a label set: at least two distinct non-empty strings (internal). */
function checkLabels(fn: string, argument: string, labels: unknown): string[] {
  if (!Array.isArray(labels)) fail('UM_OPTION', fn, argument, 'be an array of label names', { value: labels });
  if (labels.length < 2) fail('UM_OPTION', fn, argument, 'hold at least two labels', { value: labels });
  const seen = new Set<string>();
  // an index loop: forEach would skip the holes of a sparse array
  for (let i = 0; i < labels.length; i++) {
    const l: unknown = labels[i];
    if (typeof l !== 'string' || l.trim() === '')
      fail('UM_OPTION', fn, argument, 'be a non-empty string', { index: [i], value: l });
    if (seen.has(l)) fail('UM_OPTION', fn, argument, 'be distinct labels', { index: [i], value: l });
    seen.add(l);
  }
  return labels as string[];
}

/** Builds and validates a verbalizer from labels and options (internal; shared with `readVerbalizer`). */
function build(
  fn: string,
  labelsName: string,
  prefix: string,
  labels: unknown,
  options: Record<string, unknown>,
): CompiledVerbalizer {
  const list = checkLabels(fn, labelsName, labels);
  const opt = (k: string) => `${prefix}.${k}`;
  const caseSensitive = booleanOption(fn, opt('caseSensitive'), options.caseSensitive, false);
  const leadingSpace = booleanOption(fn, opt('leadingSpace'), options.leadingSpace, true);
  const prefixes = booleanOption(fn, opt('prefixes'), options.prefixes, true);
  const given = options.variants ?? {};
  if (!isRecord(given)) fail('UM_OPTION', fn, opt('variants'), 'be an object { label: [spellings] }', { value: given });
  const variants = new Map<string, string[]>();
  for (const key of Object.keys(given)) {
    if (!list.includes(key))
      fail('UM_OPTION', fn, `${opt('variants')}.${key}`, `name a label (${list.join(', ')})`, { value: key });
    const v = given[key];
    if (!Array.isArray(v)) fail('UM_OPTION', fn, `${opt('variants')}.${key}`, 'be an array of strings', { value: v });
    for (let i = 0; i < v.length; i++)
      if (typeof v[i] !== 'string' || (v[i] as string).trim() === '')
        fail('UM_OPTION', fn, `${opt('variants')}.${key}`, 'hold non-empty strings', { index: [i], value: v[i] });
    variants.set(key, [...(v as string[])]);
  }
  const verbalizer: Verbalizer = {
    kind: 'verbalizer',
    labels: [...list],
    variants: Object.fromEntries(list.flatMap((l) => (variants.has(l) ? [[l, variants.get(l) as string[]]] : []))),
    caseSensitive,
    leadingSpace,
    prefixes,
  };
  return compile(fn, opt('variants'), verbalizer);
}

/** Leading white space, SentencePiece's `▁` and byte-level BPE's `Ġ` (internal). */
const LEADING = /^[\s\u2581\u0120]+/u;

function compile(fn: string, argument: string, v: Verbalizer): CompiledVerbalizer {
  const norm = (s: string): string => {
    const t = v.leadingSpace ? s.replace(LEADING, '') : s;
    return v.caseSensitive ? t : t.toLowerCase();
  };
  const exact = new Map<string, number>();
  const forms: string[][] = v.labels.map((label, k) => {
    const spelled = [label, ...(Object.hasOwn(v.variants, label) ? (v.variants[label] as readonly string[]) : [])].map(
      (s) => norm(s.trim()),
    );
    for (const f of spelled) {
      const other = exact.get(f);
      if (other !== undefined && other !== k)
        fail(
          'UM_OPTION',
          fn,
          argument,
          `give each spelling to one label: "${f}" stands for both "${v.labels[other] as string}" and "${label}"${v.caseSensitive ? '' : ' (case is ignored)'}`,
        );
      exact.set(f, k);
    }
    return [...new Set(spelled)];
  });
  const token = (t: string, prefixes = v.prefixes): number => {
    const n = norm(t);
    if (n === '') return NO_LABEL;
    const hit = exact.get(n);
    if (hit !== undefined) return hit;
    if (!prefixes) return NO_LABEL;
    // the first token of a split label: it begins that label's spelling and no other label's
    let found = NO_LABEL;
    for (let k = 0; k < forms.length; k++) {
      if ((forms[k] as string[]).some((f) => f.length > n.length && f.startsWith(n))) {
        if (found !== NO_LABEL) return NO_LABEL;
        found = k;
      }
    }
    return found;
  };
  return { verbalizer: v, numClasses: v.labels.length, token, forms };
}

/**
 * A verbalizer: the label set of an LLM classifier or judge and the tokens and words that stand for each label.
 *
 * **Formula.** A token t counts for label ℓ when norm(t) equals norm(s) for a spelling s of ℓ (the label itself or
 * a user variant), or — with `prefixes` — when norm(t) is a proper prefix of a spelling of ℓ and of no other label;
 * norm drops leading white space, `▁` and `Ġ` (with `leadingSpace`) and folds case (without `caseSensitive`).
 *
 * **Conventions.**
 * - Case, leading-space and first-token variants are matched, not listed: `Yes`, ` yes`, `▁YES` all count for `yes`;
 *   variants summed over a label are its probability mass.
 * - A whole spelling always wins over a prefix (`1` is label `1`, not the start of `10`); a token that begins two
 *   labels (`ne` of `negative` and `neutral`) counts for none — its mass stays with the returned non-label tokens.
 * - Two labels may not share a spelling after normalisation (`UM_OPTION`).
 * - The result is plain JSON (`JSON.stringify` round-trips it); every function of `uncertainty-metrics/llm` also
 *   takes a bare label array, read as `verbalizer(labels)`.
 *
 * **References.**
 * - Schick & Schütze, "Exploiting Cloze Questions for Few Shot Text Classification and Natural Language
 *   Inference", EACL 2021, arXiv:2001.07676 (verbalizers).
 * - Zhao, Wallace, Feng, Klein & Singh, "Calibrate Before Use: Improving Few-Shot Performance of Language Models",
 *   ICML 2021, arXiv:2102.09690 (label-token probabilities, renormalised over the label set).
 *
 * @param labels the label set, class 0 first (at least two distinct non-empty names).
 * @param options `variants`, `caseSensitive`, `leadingSpace`, `prefixes`.
 * @returns a {@link Verbalizer}.
 * @throws {UMError} `UM_OPTION` for fewer than two labels, duplicates, empty names, variants of unknown labels or a
 * spelling shared by two labels.
 * @example
 * ```js
 * import { verbalizer } from 'uncertainty-metrics/llm';
 * const v = verbalizer(['yes', 'no'], { variants: { yes: ['sure'] } });
 * [v.labels, v.variants.yes, v.caseSensitive]; // => [['yes', 'no'], ['sure'], false]
 * ```
 */
export function verbalizer(labels: readonly string[], options: VerbalizerOptions = {}): Verbalizer {
  const fn = 'verbalizer';
  checkOptions(fn, options, KEYS);
  return build(fn, 'labels', 'options', labels, options as Record<string, unknown>).verbalizer;
}

/**
 * A verbalizer given as a bare label array or as a {@link Verbalizer} object, validated field by field and compiled
 * (internal; `argument` names it in `UM_OPTION` errors).
 */
export function verbalizerOf(fn: string, value: unknown, argument = 'verbalizer'): CompiledVerbalizer {
  if (Array.isArray(value)) return build(fn, argument, argument, value, {});
  if (!isRecord(value) || value.kind !== 'verbalizer')
    fail('UM_OPTION', fn, argument, 'be a label array or a verbalizer (from verbalizer())', { value });
  for (const key of Object.keys(value))
    if (!['kind', 'labels', ...KEYS].includes(key))
      fail('UM_OPTION', fn, `${argument}.${key}`, 'not be given: a verbalizer has no such field');
  for (const key of ['caseSensitive', 'leadingSpace', 'prefixes'])
    if (typeof value[key] !== 'boolean')
      fail('UM_OPTION', fn, `${argument}.${key}`, 'be true or false', { value: value[key] });
  return build(fn, `${argument}.labels`, argument, value.labels, value);
}
