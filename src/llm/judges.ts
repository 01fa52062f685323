import { checkOptions } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import { checkRead } from './gold.js';
import type { LabelProbabilities } from './labelProbabilities.js';
import { renamed } from './renamed.js';
import { verbalizer, type Verbalizer } from './verbalizer.js';

/** Options of {@link judgeVerbalizer}. */
export interface JudgeOptions {
  /** Pairwise: whether the judge may answer a tie (default true; the label `tie`). */
  tie?: boolean;
  /** Graded: the lowest and highest grade (default 1 and 5). */
  min?: number;
  max?: number;
  /** Further spellings per label (as {@link verbalizer}'s `variants`). */
  variants?: Readonly<Record<string, readonly string[]>>;
}

/**
 * The label set of an LLM judge: a pairwise preference (A, B, tie) or a grade (1 … 5), each a classification
 * problem that every metric and calibrator of the library evaluates.
 *
 * **Formula.** Pairwise: labels (A, B, tie); graded: labels (min, min + 1, …, max) as text.
 *
 * **Conventions.**
 * - Pairwise labels are case-sensitive (the article "a" is not the answer "A"); `tie` also reads `Tie`, `TIE` only
 *   through `variants`. Prefix matching is off for both kinds (`1` never starts `10`; `T` never starts `tie`).
 * - A grade scale has 2 … 101 grades, integers. With token log-probabilities, a scale past 9 needs a tokenizer that
 *   keeps `10` one token: where digits are split (Llama 2, Mistral), the first token `1` of `10` is read as grade 1.
 *
 * **References.**
 * - Zheng et al., "Judging LLM-as-a-Judge with MT-Bench and Chatbot Arena", NeurIPS 2023, arXiv:2306.05685.
 *
 * @param kind `'pairwise'` or `'graded'`.
 * @param options `tie` (pairwise), `min`, `max` (graded), `variants`.
 * @returns a {@link Verbalizer}.
 * @throws {UMError} `UM_OPTION` for an unknown kind or a bad scale.
 * @example
 * ```js
 * import { judgeVerbalizer } from 'uncertainty-metrics/llm';
 * [judgeVerbalizer('pairwise').labels, judgeVerbalizer('graded', { max: 3 }).labels]; // => [['A', 'B', 'tie'], ['1', '2', '3']]
 * ```
 */
export function judgeVerbalizer(kind: 'pairwise' | 'graded', options: JudgeOptions = {}): Verbalizer {
  const fn = 'judgeVerbalizer';
  checkOptions(fn, options, ['tie', 'min', 'max', 'variants']);
  const variants = options.variants === undefined ? {} : { variants: options.variants };
  if (kind === 'pairwise') {
    if (options.min !== undefined || options.max !== undefined)
      fail('UM_OPTION', fn, 'options.min', "not be given for a pairwise judge (min and max are the 'graded' scale)");
    if (options.tie !== undefined && typeof options.tie !== 'boolean')
      fail('UM_OPTION', fn, 'options.tie', 'be true or false', { value: options.tie });
    return named(fn, options.tie === false ? ['A', 'B'] : ['A', 'B', 'tie'], { ...variants, caseSensitive: true });
  }
  if (kind !== 'graded') fail('UM_OPTION', fn, 'kind', "be 'pairwise' or 'graded'", { value: kind });
  if (options.tie !== undefined) fail('UM_OPTION', fn, 'options.tie', "not be given for a 'graded' judge");
  const min = options.min ?? 1;
  const max = options.max ?? 5;
  if (!Number.isInteger(min)) fail('UM_OPTION', fn, 'options.min', 'be an integer', { value: min });
  if (!Number.isInteger(max) || max <= min || max - min > 100)
    fail('UM_OPTION', fn, 'options.max', `be an integer in (min, min + 100] (min = ${min})`, { value: max });
  return named(
    fn,
    Array.from({ length: max - min + 1 }, (_x, k) => String(min + k)),
    variants,
  );
}

/** `verbalizer` with errors naming `fn` (variants are the only user input left to check) (internal). */
function named(fn: string, labels: string[], options: Parameters<typeof verbalizer>[1]): Verbalizer {
  return renamed(fn, () => verbalizer(labels, { ...options, prefixes: false }));
}

/** What {@link positionBias} reports. */
export interface PositionBias {
  /** Pairs read in both orders. */
  readonly n: number;
  /** Rows kept in one order only (the other order's response was excluded). */
  readonly unpaired: number;
  /** Mean P(the answer in the first position wins) over both orders. */
  readonly meanFirst: number;
  /** Mean P(the answer in the second position wins) over both orders. */
  readonly meanSecond: number;
  /** meanFirst − meanSecond, in [−1, 1]: > 0 favours the first position, 0 for a position-blind judge. */
  readonly bias: number;
  /** Standard error of `bias` over pairs (null for one pair). */
  readonly standardError: number | null;
  /** Fraction of pairs whose decision (argmax) is the same answer in both orders. */
  readonly consistency: number;
  /** Pairs where the first position wins in both orders. */
  readonly firstBoth: number;
  /** Pairs where the second position wins in both orders. */
  readonly secondBoth: number;
}

function argmax(p: ArrayLike<number>, o: number, c: number): number {
  let best = 0;
  for (let k = 1; k < c; k++) if ((p[o + k] as number) > (p[o + best] as number)) best = k;
  return best;
}

/**
 * Position bias of a pairwise judge: the same pairs judged in both orders (A, B) and (B, A).
 *
 * **Formula.** For pair i, with a_i, b_i = P(A), P(B) in the original order and a′_i, b′_i in the swapped one:
 * first_i = (a_i + a′_i)/2, second_i = (b_i + b′_i)/2; bias = mean_i (first_i − second_i), standard error
 * sd(first − second)/√n. A position-blind judge has a′ = b, b′ = a, hence bias 0.
 *
 * **Conventions.**
 * - Rows pair by response index (`rows`): the i-th response of `swapped` judges the i-th pair of `forward` with the
 *   two answers exchanged, so both must have read as many responses (`total`; `UM_SHAPE` otherwise — a shifted or
 *   truncated file would pair other pairs). Pairs excluded in either order are left out and counted in `unpaired`.
 * - A decision is the argmax label (ties → first label); it is consistent when it names the same answer in both
 *   orders (A ↔ B exchanged, any other label such as `tie` kept).
 * - `first` and `second` name the labels of the two positions (default `A`, `B`).
 *
 * **References.**
 * - Zheng et al., "Judging LLM-as-a-Judge with MT-Bench and Chatbot Arena", NeurIPS 2023, arXiv:2306.05685, §3.3.
 * - Wang et al., "Large Language Models are not Fair Evaluators", ACL 2024, arXiv:2305.17926.
 *
 * @param forward label probabilities of the pairs in their original order.
 * @param swapped label probabilities of the same pairs with the answers exchanged.
 * @param options `first`, `second`: the labels of the two positions.
 * @returns {@link PositionBias}.
 * @throws {UMError} `UM_OPTION` for other inputs, different label sets or unknown position labels; `UM_SHAPE` when
 * the two read different numbers of responses; `UM_EMPTY` when no pair was read in both orders.
 * @example
 * ```js
 * import { labelProbabilities, positionBias } from 'uncertainty-metrics/llm';
 * const judge = (a, b) => ({ choices: [{ logprobs: { content: [{ token: 'A', logprob: Math.log(a),
 *   top_logprobs: [{ token: 'A', logprob: Math.log(a) }, { token: 'B', logprob: Math.log(b) }] }] } }] });
 * // the judge prefers whatever comes first: 0.7 in both orders
 * const forward = labelProbabilities([judge(0.7, 0.3)], ['A', 'B']);
 * const swapped = labelProbabilities([judge(0.7, 0.3)], ['A', 'B']);
 * const b = positionBias(forward, swapped);
 * [b.bias, b.consistency, b.firstBoth]; // ≈ [0.4, 0, 1]
 * ```
 */
export function positionBias(
  forward: LabelProbabilities,
  swapped: LabelProbabilities,
  options: { first?: string; second?: string } = {},
): PositionBias {
  const fn = 'positionBias';
  checkOptions(fn, options, ['first', 'second']);
  const f = checkRead(fn, 'forward', forward);
  const s = checkRead(fn, 'swapped', swapped);
  if (f.labels.length !== s.labels.length || f.labels.some((l, k) => l !== s.labels[k]))
    fail('UM_OPTION', fn, 'swapped', `have the labels of forward (${f.labels.join(', ')})`, {
      value: s.labels.join(', '),
    });
  // pairs are matched by response index: files of different lengths cannot hold the same pairs in the same order
  if (s.total !== f.total)
    fail(
      'UM_SHAPE',
      fn,
      'swapped',
      `hold one response per pair of forward (${f.total} responses read): the i-th response of each judges the same pair`,
      { value: `${s.total} responses read` },
    );
  const position = (key: 'first' | 'second', fallback: string): number => {
    const name = options[key] ?? fallback;
    const k = f.labels.indexOf(name);
    if (k < 0) fail('UM_OPTION', fn, `options.${key}`, `name a label (${f.labels.join(', ')})`, { value: name });
    return k;
  };
  const a = position('first', 'A');
  const b = position('second', 'B');
  if (a === b) fail('UM_OPTION', fn, 'options.second', 'differ from options.first', { value: options.second });
  const c = f.numClasses;
  const at = new Map<number, number>();
  s.rows.forEach((row, j) => at.set(row, j));
  const fp = f.probs.data;
  const sp = s.probs.data;
  const d: number[] = [];
  let first = 0;
  let second = 0;
  let consistent = 0;
  let firstBoth = 0;
  let secondBoth = 0;
  f.rows.forEach((row, i) => {
    const j = at.get(row);
    if (j === undefined) return;
    const fi = (fp[i * c + a] as number) + (sp[j * c + a] as number);
    const se = (fp[i * c + b] as number) + (sp[j * c + b] as number);
    first += fi / 2;
    second += se / 2;
    d.push((fi - se) / 2);
    const df = argmax(fp, i * c, c);
    const ds = argmax(sp, j * c, c);
    const swappedBack = ds === a ? b : ds === b ? a : ds;
    if (df === swappedBack) consistent++;
    if (df === a && ds === a) firstBoth++;
    if (df === b && ds === b) secondBoth++;
  });
  const n = d.length;
  if (n === 0) fail('UM_EMPTY', fn, 'swapped', 'share at least one row (response index) with forward', { value: 0 });
  const bias = d.reduce((x, y) => x + y, 0) / n;
  const variance = n < 2 ? null : d.reduce((x, y) => x + (y - bias) ** 2, 0) / (n - 1);
  return {
    n,
    unpaired: f.n + s.n - 2 * n,
    meanFirst: first / n,
    meanSecond: second / n,
    bias,
    standardError: variance === null ? null : Math.sqrt(variance / n),
    consistency: consistent / n,
    firstBoth,
    secondBoth,
  };
}
