const DECIMAL = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;
const SPECIAL: Record<string, number> = {
  nan: NaN,
  '+nan': NaN,
  '-nan': NaN,
  inf: Infinity,
  '+inf': Infinity,
  infinity: Infinity,
  '+infinity': Infinity,
  '-inf': -Infinity,
  '-infinity': -Infinity,
};

/**
 * Parses a decimal number cell strictly (no hex, no empty strings, no trailing text). NaN and infinities are read
 * as such so that validation can report them with their position. Returns `undefined` for anything else.
 */
export function parseNumber(text: string): number | undefined {
  if (DECIMAL.test(text)) return Number(text);
  const special = SPECIAL[text.toLowerCase()];
  return special;
}
