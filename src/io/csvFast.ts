/**
 * The numeric fast path of the CSV reader (internal): plain lines of decimal numbers — no quotes, ASCII only, `\n` or
 * `\r\n` line ends — parsed straight from the bytes, about ten times faster than the general parser. Anything else
 * (a quote, a non-ASCII byte, NaN or inf written out, a wrong field count, an overlong line) ends the fast path at
 * that line: the caller hands the rest of the file, from that line, to the general parser, which reads it or reports
 * the exact located error it always did. So the fast path never decides what a file means; it only skips the general
 * parser where both give the same numbers (the tests compare them on generated files, byte for byte).
 */

/** What each column of the header is: −1 ignored, −2 the label, −3 the weight, k ≥ 0 score k. */
export type ColumnRoles = Int32Array;

const POW10 = [
  1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
  1e21, 1e22,
];

/** Where the last {@link scanDecimal} stopped (one past the number's last byte). */
let scanned = 0;

/**
 * A strict decimal number (`[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?`, the general path's rule) in the bytes `text[s, e)`, or
 * undefined. Correctly rounded: with at most 15 significant digits and a decimal exponent within ±22 the value is
 * one exact product or quotient of two exact doubles (Clinger's fast path); otherwise `Number` reads the text.
 */
export function parseDecimal(text: Uint8Array, s: number, e: number): number | undefined {
  const v = scanDecimal(text, s, e);
  return scanned === e ? v : undefined;
}

/**
 * The longest strict decimal number starting at `text[s]` and ending by `e`, or undefined when none starts there
 * (or its exponent has no digits); leaves its end in `scanned`. The line parser reads each field once this way
 * instead of finding the comma first and then parsing the field (half the passes over the bytes).
 */
function scanDecimal(text: Uint8Array, s: number, e: number): number | undefined {
  let i = s;
  let negative = false;
  let c = text[i] as number;
  if (i < e && (c === 43 || c === 45)) {
    negative = c === 45;
    c = text[++i] as number;
  }
  let m = 0;
  let sig = 0;
  let digits = 0;
  while (i < e && c >= 48 && c <= 57) {
    if (sig > 0 || c !== 48) {
      sig++;
      if (sig <= 15) m = m * 10 + (c - 48);
    }
    digits++;
    c = text[++i] as number;
  }
  let frac = 0;
  if (i < e && c === 46) {
    c = text[++i] as number;
    while (i < e && c >= 48 && c <= 57) {
      if (sig > 0 || c !== 48) {
        sig++;
        if (sig <= 15) m = m * 10 + (c - 48);
      }
      if (sig <= 15) frac++;
      digits++;
      c = text[++i] as number;
    }
  }
  if (digits === 0) return undefined;
  let exp = 0;
  if (i < e && (c === 101 || c === 69)) {
    c = text[++i] as number;
    let expNegative = false;
    if (i < e && (c === 43 || c === 45)) {
      expNegative = c === 45;
      c = text[++i] as number;
    }
    let expDigits = 0;
    while (i < e && c >= 48 && c <= 57) {
      if (exp < 100000) exp = exp * 10 + (c - 48);
      expDigits++;
      c = text[++i] as number;
    }
    if (expDigits === 0) return undefined;
    if (expNegative) exp = -exp;
  }
  scanned = i;
  if (sig > 15) return Number(latin1(text, s, i));
  if (m === 0) return negative ? -0 : 0;
  const e10 = exp - frac;
  if (e10 < -22 || e10 > 22) return Number(latin1(text, s, i));
  const v = e10 >= 0 ? m * (POW10[e10] as number) : m / (POW10[-e10] as number);
  return negative ? -v : v;
}

/** The bytes `[s, e)` as a string (ASCII here). */
function latin1(text: Uint8Array, s: number, e: number): string {
  return Buffer.from(text.buffer, text.byteOffset + s, e - s).toString('latin1');
}

/** Where parsed rows go: preallocated for a batch of `capacity` rows. */
export interface FastRows {
  readonly labels: Float64Array;
  readonly scores: Float64Array;
  readonly weights: Float64Array;
  readonly lines: Float64Array;
  count: number;
}

/**
 * Parses one line `text[a, b)` (no line end) into row `rows.count` (counted only on success); false when the line
 * is not a plain numeric line of `width` fields (the caller then hands it to the general parser). One pass: a read
 * field is parsed where it starts and must end at a comma or the line's end (blanks around it allowed); a skipped
 * field is scanned to its comma. A quote, a carriage return or a byte beyond ASCII anywhere refuses the line (in a
 * read field it ends the number where no comma is, so the same bytes refuse it).
 */
export function parseLine(
  text: Uint8Array,
  a: number,
  b: number,
  roles: ColumnRoles,
  numClasses: number,
  rows: FastRows,
  line: number,
): boolean {
  const width = roles.length;
  const r = rows.count;
  let i = a;
  for (let j = 0; j < width; j++) {
    if (j > 0) {
      // the previous field ended at a comma
      if (i >= b || text[i] !== 44) return false;
      i++;
    }
    const role = roles[j] as number;
    if (role === -1) {
      for (; i < b; i++) {
        const c = text[i] as number;
        if (c === 44) break;
        // quotes, line breaks and anything beyond ASCII belong to the general parser
        if (c === 34 || c === 13 || c > 126) return false;
      }
      continue;
    }
    while (i < b && (text[i] === 32 || text[i] === 9)) i++;
    const v = scanDecimal(text, i, b);
    if (v === undefined) return false;
    i = scanned;
    while (i < b && (text[i] === 32 || text[i] === 9)) i++;
    if (role >= 0) rows.scores[r * numClasses + role] = v;
    else if (role === -2) rows.labels[r] = v;
    else rows.weights[r] = v;
  }
  // more fields than the header's (or a field that does not end at a comma)
  if (i !== b) return false;
  rows.lines[r] = line;
  rows.count = r + 1;
  return true;
}
