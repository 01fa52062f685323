import { fail } from '../errors/fail.js';
import type { LabelProbabilities } from './labelProbabilities.js';

/** Checks that a value is what {@link labelProbabilities} returns (internal; `argument` names it). */
export function checkRead(fn: string, argument: string, value: unknown): LabelProbabilities {
  const r = value as Partial<LabelProbabilities> | null;
  if (
    r === null ||
    typeof r !== 'object' ||
    Array.isArray(r) ||
    typeof r.probs !== 'object' ||
    r.probs === null ||
    r.probs.kind !== 'probabilities' ||
    !(r.rows instanceof Int32Array) ||
    !Array.isArray(r.provenance) ||
    !Array.isArray(r.labels) ||
    typeof r.total !== 'number' ||
    typeof r.config !== 'object' ||
    r.rows.length !== r.probs.n ||
    r.provenance.length !== r.probs.n ||
    r.labels.length !== r.probs.numClasses
  )
    fail('UM_OPTION', fn, argument, 'be label probabilities (from labelProbabilities or applyLlmCalibrator)', {
      value,
    });
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
 *
 * **References.** None.
 *
 * @param read label probabilities from {@link labelProbabilities}.
 * @param gold one gold label per response (name or index).
 * @returns the class index of each kept row, `Int32Array` of length `read.n`.
 * @throws {UMError} `UM_SHAPE` when gold does not have `read.total` entries; `UM_LABEL` for an unknown label.
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
  return Int32Array.from(r.rows, (i) => {
    const g = gold[i];
    if (typeof g === 'string' && index.has(g)) return index.get(g) as number;
    if (typeof g === 'number' && Number.isInteger(g) && g >= 0 && g < r.numClasses) return g;
    return fail(
      'UM_LABEL',
      fn,
      'gold',
      `be a label (${r.labels.join(', ')}) or a class index in [0, ${r.numClasses})`,
      {
        index: [i],
        value: g,
      },
    );
  });
}
