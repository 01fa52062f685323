/** The n × c values as float64 (anything but a number as NaN: its row is then left to the reference, which names it). */
export function numericCopy(get: (i: number, k: number) => unknown, n: number, c: number): Float64Array {
  const out = new Float64Array(n * c);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < c; k++) {
      const v = get(i, k);
      out[i * c + k] = typeof v === 'number' ? v : NaN;
    }
  }
  return out;
}

/** The rows of a nested matrix as one float64 matrix (anything but a number as NaN: its row is flagged and re-read). */
export function nestedCopy(rows: ReadonlyArray<ArrayLike<unknown>>, n: number, c: number): Float64Array {
  const out = new Float64Array(n * c);
  for (let i = 0; i < n; i++) {
    const row = rows[i] as ArrayLike<unknown>;
    const at = i * c;
    for (let k = 0; k < c; k++) {
      const v = row[k];
      out[at + k] = typeof v === 'number' ? v : NaN;
    }
  }
  return out;
}
