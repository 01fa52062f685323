import { describe, expect, it } from 'vitest';
import { formatValue } from '../../src/errors/formatValue.js';

describe('formatValue: the value an error message shows', () => {
  const CASES: [unknown, string][] = [
    [1.5, '1.5'],
    [-0, '-0'],
    [NaN, 'NaN'],
    ['cat', '"cat"'],
    [null, 'null'],
    [undefined, 'undefined'],
    [3n, '3n'],
    [true, 'true'],
    // a short list of plain values is shown, so "got [2, 10]" says which bound is wrong
    [[2, 10], '[2, 10]'],
    [[1], '[1]'],
    [[], '[]'],
    [['a', null, false, -0], '["a", null, false, -0]'],
    // long or nested lists, and typed arrays, are named by their shape (a message stays one short line)
    [[1, 2, 3, 4, 5], 'an array of length 5'],
    [[[1, 2]], 'an array of length 1'],
    [new Float64Array(2), 'a Float64Array'],
    [{ a: 1 }, 'a value of type object'],
  ];
  for (const [value, text] of CASES) {
    it(`${text}`, () => expect(formatValue(value)).toBe(text));
  }
});
