import { fail } from '../errors/fail.js';
import type { LabelProbabilities } from './labelProbabilities.js';

const PROVENANCES = new Set(['logprob', 'verbal', 'sampled']);

/**
 * Checks that a value is what {@link labelProbabilities} returns, field by field as the functions here read it
 * (internal; `argument` names it): labels, the matrix, response indices (increasing, below `total`) and provenances.
 */
export function checkRead(fn: string, argument: string, value: unknown): LabelProbabilities {
  const bad = (what: string): never =>
    fail('UM_OPTION', fn, argument, `be label probabilities (from labelProbabilities or applyLlmCalibrator): ${what}`, {
      value,
    });
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return bad('not an object');
  const r = value as Partial<LabelProbabilities>;
  const p = r.probs;
  if (p === null || typeof p !== 'object' || p.kind !== 'probabilities' || !ArrayBuffer.isView(p.data))
    return bad('probs is not a probability matrix');
  const { n, numClasses: c } = p;
  if (!Number.isInteger(n) || n < 1 || !Number.isInteger(c) || c < 2 || p.data.length !== n * c)
    return bad('probs has no [n, C] shape');
  if (r.n !== n || r.numClasses !== c) return bad('n and numClasses are not those of probs');
  if (!Array.isArray(r.labels) || r.labels.length !== c) return bad(`labels do not name the ${c} classes`);
  for (let k = 0; k < c; k++) if (typeof r.labels[k] !== 'string') return bad(`labels[${k}] is not a string`);
  if (!Number.isInteger(r.total) || (r.total as number) < n) return bad('total is not a count of responses ≥ n');
  if (!(r.rows instanceof Int32Array) || r.rows.length !== n) return bad('rows is not an Int32Array of n indices');
  for (let j = 0; j < n; j++) {
    const i = r.rows[j] as number;
    if (i < 0 || i >= (r.total as number) || (j > 0 && i <= (r.rows[j - 1] as number)))
      return bad(`rows[${j}] is not an increasing response index`);
  }
  if (!Array.isArray(r.provenance) || r.provenance.length !== n) return bad('provenance has not n entries');
  for (let j = 0; j < n; j++)
    if (!PROVENANCES.has(r.provenance[j] as string)) return bad(`provenance[${j}] is not logprob, verbal or sampled`);
  if (r.config === null || typeof r.config !== 'object') return bad('config is not an object');
  return r as LabelProbabilities;
}

/**
 * The gold labels of the rows a reading kept, as class indices: gold is given per response (the excluded ones are
 * skipped), by label name or class index.
 *
 * **Formula.** y_j = index of gold[rows_j] in the label set, for each kept row j.
 *
 * **Conventions.**
 * - `gold` has one entry per response read (`read.total`), in the responses' order, so excluded rows cannot shift
 *   the labels of the others; the entries of excluded rows are not read (they may be null).
 * - An entry is a label name (exactly as in the label set) or an integer class index; anything else is a `UM_LABEL`
 *   error naming the response index and value.
 * - A number is read as a class index, or as a label name when its text names a label (labels `1`–`5`: `5` is
 *   label "5"); when it is both and the two differ (labels `1`–`5`: `4` is class 4 = "5" and label "4"), it is a
 *   `UM_LABEL` error asking for the name as a string (`"4"`): never guessed.
 *
 * **References.** None.
 *
 * @param read label probabilities from {@link labelProbabilities}.
 * @param gold one gold label per response (name or index).
 * @returns the class index of each kept row, `Int32Array` of length `read.n`.
 * @throws {UMError} `UM_SHAPE` when gold does not have `read.total` entries; `UM_LABEL` for an unknown label or a
 * number that is both a class index and another label's name.
 * @example
 * ```js
 * import { goldLabels, labelProbabilities } from 'uncertainty-metrics/llm';
 * const answer = (t) => ({ choices: [{ message: { content: t } }] });
 * const r = labelProbabilities([answer('yes (90%)'), answer('I cannot help'), answer('no, 60%')], ['yes', 'no'], { onInvalid: 'exclude' });
 * Array.from(goldLabels(r, ['yes', null, 'yes'])); // => [0, 0]
 * ```
 */
export function goldLabels(read: LabelProbabilities, gold: ArrayLike<string | number | null>): Int32Array {
  const fn = 'goldLabels';
  const r = checkRead(fn, 'read', read);
  return goldIndices(fn, r, gold);
}

/** {@link goldLabels} naming `fn` (internal). */
export function goldIndices(fn: string, r: LabelProbabilities, gold: ArrayLike<unknown>): Int32Array {
  if (gold === null || typeof gold !== 'object' || typeof (gold as { length?: unknown }).length !== 'number')
    fail('UM_SHAPE', fn, 'gold', 'be an array of gold labels, one per response', { value: gold });
  if (gold.length !== r.total)
    fail('UM_SHAPE', fn, 'gold', `hold one label per response read (${r.total})`, { value: `${gold.length} labels` });
  const index = new Map(r.labels.map((l, k) => [l, k]));
  const c = r.numClasses;
  return Int32Array.from(r.rows, (i) => {
    const g = gold[i];
    if (typeof g === 'string' && index.has(g)) return index.get(g) as number;
    if (typeof g === 'number' && Number.isInteger(g)) {
      // a JSON number may be a class index or a numeric label name ("1".."5"): read it only when both agree
      const asIndex = g >= 0 && g < c ? g : undefined;
      const asName = index.get(String(g));
      if (asIndex !== undefined && asName !== undefined && asIndex !== asName)
        return fail(
          'UM_LABEL',
          fn,
          'gold',
          `be unambiguous: the number ${g} is the class index of label "${r.labels[asIndex]}" and the name of label "${String(g)}" (class ${asName}); write the label name as a string ("${String(g)}" or "${r.labels[asIndex]}")`,
          { index: [i], value: g },
        );
      const k = asIndex ?? asName;
      if (k !== undefined) return k;
    }
    return fail('UM_LABEL', fn, 'gold', `be a label (${r.labels.join(', ')}) or a class index in [0, ${c})`, {
      index: [i],
      value: g,
    });
  });
}
