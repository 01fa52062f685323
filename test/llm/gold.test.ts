/**
 * Gold labels by name or index (src/llm/gold.ts): a JSON number is read as a class index or as a numeric label name
 * only when the two readings cannot disagree; when they do (labels 1–5, gold 4) it is refused, naming the row.
 */
import { describe, expect, it } from 'vitest';
import { goldLabels, labelProbabilities } from '../../src/llm/index.js';
import { failure } from '../helpers/failure.js';

const say = (t: string) => ({ choices: [{ message: { content: `${t} (80%)` } }] });

/** A reading of one verbal response per label, so gold has one entry per label. */
const readOf = (labels: readonly string[]) =>
  labelProbabilities(
    labels.map((l) => say(l)),
    labels,
    { provenance: 'verbal' },
  );

const SETS: readonly (readonly string[])[] = [
  ['1', '2', '3', '4', '5'],
  ['0', '1', '2', '3', '4'],
  ['2', '1'],
  ['10', '20', '30'],
  ['a', '1', 'b'],
  ['yes', 'no'],
  ['-1', '0', 'x'],
];

describe('goldLabels with numbers', () => {
  it.each(SETS.map((s) => [s.join(',')]))('labels %s: every integer gold is read once or refused', (joined) => {
    const labels = joined.split(',');
    const read = readOf(labels);
    const c = labels.length;
    for (let g = -2; g <= 32; g++) {
      const gold = labels.map((l) => l);
      gold[1] = g as unknown as string;
      const named = labels.indexOf(String(g));
      const indexed = g >= 0 && g < c ? g : -1;
      if (named < 0 && indexed < 0) {
        expect(failure(() => goldLabels(read, gold)).code).toBe('UM_LABEL');
        continue;
      }
      if (named >= 0 && indexed >= 0 && named !== indexed) {
        const e = failure(() => goldLabels(read, gold));
        expect(e.code).toBe('UM_LABEL');
        expect(e.details.index).toEqual([1]);
        expect(e.message).toContain(`goldLabels: gold[1] must be unambiguous: the number ${g}`);
        expect(e.message).toContain(`write the label name as a string ("${g}"`);
        continue;
      }
      // one reading, or two that agree (labels 0–4: 3 is class 3 and label "3")
      expect(goldLabels(read, gold)[1], `gold ${g}`).toBe(named >= 0 ? named : indexed);
    }
  });
  it('labels 1–5: the strings are names, 5 (no class 5) is label "5", 0 is class 0, 4 is refused', () => {
    const labels = ['1', '2', '3', '4', '5'];
    const read = readOf(labels);
    expect(Array.from(goldLabels(read, ['4', '5', '1', '2', '3']))).toEqual([3, 4, 0, 1, 2]);
    expect(Array.from(goldLabels(read, [5, 0, '1', '2', '3']))).toEqual([4, 0, 0, 1, 2]);
    expect(failure(() => goldLabels(read, ['1', '2', '3', 4, '5'])).message).toBe(
      'goldLabels: gold[3] must be unambiguous: the number 4 is the class index of label "5" and the name of label "4" (class 3); write the label name as a string ("4" or "5"); got 4',
    );
  });
});
