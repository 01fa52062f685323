import { checkOptions } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import { formatValue } from '../errors/formatValue.js';
import { UMError } from '../errors/UMError.js';
import { NO_LABEL, type CompiledVerbalizer } from './verbalizer.js';

/** Options of {@link parseConfidence} (and the `confidence` option of `labelProbabilities`). */
export interface ConfidenceOptions {
  /**
   * Words and phrases mapped to a confidence, e.g. `{ high: 0.9, 'very likely': 0.85 }` (matched whole,
   * ignoring case; default none: only numbers are read).
   */
  words?: Readonly<Record<string, number>>;
  /** A bare number is divided by this: 1 (default) reads `0.85`; 100 reads `85` as 0.85; 10 reads `8` as 0.8. */
  scale?: number;
  /** Words after which the confidence is stated (default confidence, confident, probability, certainty, likelihood). */
  keywords?: readonly string[];
}

/** The confidence options resolved (plain JSON, stored with calibrators) (internal). */
export interface ConfidenceConfig {
  readonly words: Readonly<Record<string, number>>;
  readonly scale: number;
  readonly keywords: readonly string[];
}

const KEYS = ['words', 'scale', 'keywords'] as const;
const DEFAULT_KEYWORDS = ['confidence', 'confident', 'probability', 'certainty', 'likelihood'];

/** Validates confidence options (internal; `prefix` names them: `options` or `options.confidence`). */
export function confidenceConfig(fn: string, prefix: string, options: unknown): ConfidenceConfig {
  checkOptions(fn, options, KEYS);
  const o = (options ?? {}) as ConfidenceOptions;
  const scale = o.scale ?? 1;
  if (typeof scale !== 'number' || !Number.isFinite(scale) || scale <= 0)
    fail('UM_OPTION', fn, `${prefix}.scale`, 'be a finite number > 0', { value: scale });
  const words: Record<string, number> = {};
  if (o.words !== undefined) {
    if (o.words === null || typeof o.words !== 'object' || Array.isArray(o.words))
      fail('UM_OPTION', fn, `${prefix}.words`, 'be an object { word: confidence }', { value: o.words });
    for (const [w, v] of Object.entries(o.words)) {
      if (w.trim() === '') fail('UM_OPTION', fn, `${prefix}.words`, 'have non-empty words', { value: w });
      if (typeof v !== 'number' || !(v >= 0 && v <= 1))
        fail('UM_OPTION', fn, `${prefix}.words.${w}`, 'be a confidence in [0, 1]', { value: v });
      words[w] = v;
    }
  }
  const keywords = o.keywords ?? DEFAULT_KEYWORDS;
  if (!Array.isArray(keywords) || Array.from(keywords).some((k) => typeof k !== 'string' || k.trim() === ''))
    fail('UM_OPTION', fn, `${prefix}.keywords`, 'be an array of non-empty words', { value: keywords });
  return { words, scale, keywords: [...keywords] };
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Whole words: not inside a word or a number (`5` is not in `0.5`). */
const BEFORE = '(?<![\\p{L}\\p{N}])(?<!\\p{N}[.,])';
const AFTER = '(?![\\p{L}\\p{N}])(?![.,]\\p{N})';
/** A minus sign, unless it joins two numbers (`70-80%`, `70% - 80%` are spans) or a word (`v-2`). */
const SIGN = '(?:(?<!\\p{L})(?<![\\p{N}%]\\s*)([-\u2212]))?';
const NUMBER = new RegExp(
  `${SIGN}${BEFORE}(\\d+(?:\\.\\d+)?|\\.\\d+)(?:\\s*(%|percent\\b|per\\s?cent\\b)|\\s*(?:/|\\bout of\\b)\\s*(\\d+(?:\\.\\d+)?))?${AFTER}`,
  'giu',
);
/** What joins the two ends of a span: `70-80%`, `0.7 – 0.8`, `70% to 80%` (also `4 - 90%`: never guessed). */
const SPAN = /^\s*(?:-|\u2013|\u2014|to)\s*$/iu;

/** A stated confidence: its value and where it is in the text (internal). */
interface Stated {
  readonly value: number;
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** A bare number (no `%`, no `/`), which may be a label rather than a confidence. */
  readonly bare: boolean;
  /** The two ends of a span (`70-80%`): a statement, but not of one confidence. */
  readonly span?: readonly [number, number];
}

/** Every number and mapped word of a text, in order; two numbers joined by a dash or `to` are one span (internal). */
function statements(t: string, c: ConfidenceConfig): Stated[] {
  const numbers: Stated[] = [];
  for (const m of t.matchAll(NUMBER)) {
    const x = (m[1] === undefined ? 1 : -1) * Number(m[2]);
    const value = m[3] !== undefined ? x / 100 : m[4] !== undefined ? x / Number(m[4]) : x / c.scale;
    const bare = m[3] === undefined && m[4] === undefined;
    numbers.push({ value, start: m.index, end: m.index + m[0].length, text: m[0], bare });
  }
  const out: Stated[] = [];
  for (let i = 0; i < numbers.length; i++) {
    const a = numbers[i] as Stated;
    const b = numbers[i + 1];
    if (b !== undefined && SPAN.test(t.slice(a.end, b.start))) {
      out.push({
        value: NaN,
        start: a.start,
        end: b.end,
        text: t.slice(a.start, b.end),
        bare: a.bare && b.bare,
        span: [a.value, b.value],
      });
      i++;
    } else out.push(a);
  }
  for (const [w, v] of Object.entries(c.words)) {
    const re = new RegExp(`${BEFORE}${escape(w.trim())}${AFTER}`, 'giu');
    for (const m of t.matchAll(re))
      out.push({ value: v, start: m.index, end: m.index + m[0].length, text: m[0], bare: false });
  }
  out.sort((a, b) => a.start - b.start || b.end - a.end);
  // a statement inside another ("likely" in "very likely", "10" in "8 out of 10") is part of it
  let end = -1;
  return out.filter((x) => {
    if (x.end <= end) return false;
    end = x.end;
    return true;
  });
}

/**
 * The outcome of reading a confidence: found, none, a stated value outside [0, 1], or a span of two values
 * (internal).
 */
export type ConfidenceRead =
  | { readonly kind: 'found'; readonly value: number; readonly start: number; readonly end: number }
  | { readonly kind: 'none' }
  | { readonly kind: 'range'; readonly text: string; readonly value: number }
  | { readonly kind: 'span'; readonly text: string };

/**
 * Reads the stated confidence of a text (internal; see {@link parseConfidence}): the first statement after the last
 * keyword, else the last statement that is a percentage, a fraction, a mapped word or a bare number in [0, 1].
 */
export function readConfidence(t: string, c: ConfidenceConfig): ConfidenceRead {
  const all = statements(t, c);
  let keywordEnd = -1;
  for (const k of c.keywords) {
    const re = new RegExp(`${BEFORE}${escape(k.trim())}${AFTER}`, 'giu');
    for (const m of t.matchAll(re)) keywordEnd = Math.max(keywordEnd, m.index + m[0].length);
  }
  const inRange = (x: number) => x >= 0 && x <= 1;
  // a bare number (or span of them) outside [0, 1] is not read as a confidence without a keyword: a grade, a count
  const candidate = (s: Stated) => !s.bare || (s.span === undefined ? inRange(s.value) : s.span.every(inRange));
  let chosen: Stated | undefined;
  if (keywordEnd >= 0) chosen = all.find((s) => s.start >= keywordEnd);
  if (chosen === undefined) {
    const candidates = all.filter(candidate);
    chosen = candidates[candidates.length - 1];
  }
  if (chosen === undefined) return { kind: 'none' };
  if (chosen.span !== undefined) return { kind: 'span', text: chosen.text };
  if (!inRange(chosen.value)) return { kind: 'range', text: chosen.text, value: chosen.value };
  return { kind: 'found', value: chosen.value, start: chosen.start, end: chosen.end };
}

/**
 * Reads a verbalized confidence from a model's answer: `85%`, `0.85`, `85/100` or a mapped word (`high`).
 *
 * **Formula.** `x%` → x / 100; `a/b` and `a out of b` → a / b; a bare number x → x / `scale`; a mapped word → its
 * value.
 *
 * **Conventions.**
 * - Where a keyword (`confidence`, `confident`, `probability`, `certainty`, `likelihood`, or `keywords`) occurs, the
 *   first statement after its last occurrence is the confidence ("Answer: 4. Confidence: 0.7" → 0.7, not 4).
 * - Without a keyword, the last statement that can be a confidence — a percentage, a fraction, a mapped word, or a
 *   bare number in [0, 1] — where models usually put it ("yes (85%)" → 0.85). A bare number outside [0, 1] is not
 *   read as a confidence without a keyword (a grade, a count); with `scale: 100`, `85` reads 0.85.
 * - Numbers are whole: the `5` inside `0.5` or `v5` is never a statement of its own. Words match whole, ignoring case.
 * - `percent` and `per cent` read as `%`. A minus sign is read: `-20%` is outside [0, 1], never its absolute value.
 * - No statement gives `null`; a statement outside [0, 1] (`120%`, `7/5`, `-0.2`, or `85` after a keyword with
 *   scale 1) is a `UM_RESPONSE` error — never clipped. Two numbers joined by a dash or `to` (`70-80%`, `0.7 to 0.8`)
 *   state a span, not one confidence: also a `UM_RESPONSE` error — neither end nor the middle is guessed (a grade
 *   and a confidence written `4 - 90%` read as a span too: `4, confidence 90%` reads 0.9).
 *
 * **References.**
 * - Tian et al., "Just Ask for Calibration: Strategies for Eliciting Calibrated Confidence Scores from Language
 *   Models Fine-Tuned with Human Feedback", EMNLP 2023, arXiv:2305.14975.
 * - Xiong et al., "Can LLMs Express Their Uncertainty? An Empirical Evaluation of Confidence Elicitation in LLMs",
 *   ICLR 2024, arXiv:2306.13063.
 *
 * @param text the answer text.
 * @param options `words`, `scale`, `keywords`.
 * @returns the confidence in [0, 1], or null when the text states none.
 * @throws {UMError} `UM_OPTION` for a text that is not a string or bad options; `UM_RESPONSE` for a stated
 * confidence outside [0, 1] or a span.
 * @example
 * ```js
 * import { parseConfidence } from 'uncertainty-metrics/llm';
 * [parseConfidence('yes (85%)'), parseConfidence('Answer: 4. Confidence: 0.7'), parseConfidence('17/20')]; // => [0.85, 0.7, 0.85]
 * parseConfidence('Very likely yes', { words: { 'very likely': 0.9 } }); // => 0.9
 * parseConfidence('no idea'); // => null
 * ```
 */
export function parseConfidence(text: string, options: ConfidenceOptions = {}): number | null {
  const fn = 'parseConfidence';
  if (typeof text !== 'string') fail('UM_OPTION', fn, 'text', 'be a string', { value: text });
  const r = readConfidence(text, confidenceConfig(fn, 'options', options));
  if (r.kind === 'range' || r.kind === 'span')
    throw new UMError(
      'UM_RESPONSE',
      r.kind === 'range'
        ? `${fn}: text must state a confidence in [0, 1]; got ${formatValue(r.text)} (${r.value})`
        : `${fn}: text must state one confidence, not a span; got ${formatValue(r.text)}`,
      { fn, argument: 'text', value: r.text },
    );
  return r.kind === 'found' ? r.value : null;
}

/**
 * The label an answer text names: the earliest whole-word spelling of a label (the longest at one place), outside
 * the span `skip` (the stated confidence), or `NO_LABEL` (internal).
 */
export function labelOfText(v: CompiledVerbalizer, t: string, skip?: { start: number; end: number }): number {
  let best = NO_LABEL;
  let bestAt = Infinity;
  let bestLength = 0;
  const { labels, variants, caseSensitive } = v.verbalizer;
  labels.forEach((label, k) => {
    for (const s of [label, ...(Object.hasOwn(variants, label) ? (variants[label] as readonly string[]) : [])]) {
      const re = new RegExp(`${BEFORE}${escape(s.trim())}${AFTER}`, caseSensitive ? 'gu' : 'giu');
      for (const m of t.matchAll(re)) {
        if (skip !== undefined && m.index < skip.end && m.index + m[0].length > skip.start) continue;
        if (m.index < bestAt || (m.index === bestAt && m[0].length > bestLength)) {
          best = k;
          bestAt = m.index;
          bestLength = m[0].length;
        }
        break;
      }
    }
  });
  return best;
}
