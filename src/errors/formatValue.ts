/** Renders a user-supplied value for an error message: numbers as JavaScript prints them, strings quoted. */
export function formatValue(value: unknown): string {
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    // a short list of plain values (a pair of bounds, a shape) is shown: "got [1.5, 2]" says what was wrong with it
    const short =
      value.length <= 4 && value.every((v) => ['number', 'string', 'boolean'].includes(typeof v) || v === null);
    return short ? `[${value.map(formatValue).join(', ')}]` : `an array of length ${value.length}`;
  }
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name}`;
  return `a value of type ${typeof value}`;
}
