/**
 * `values[index[j]]` for every j, into a new Float64Array: a plain loop, several times faster in V8 than
 * `Float64Array.from(index, (i) => values[i])` (whose mapping callback goes through the iterator protocol). Internal.
 */
export function gather(values: ArrayLike<number>, index: ArrayLike<number>): Float64Array {
  const n = index.length;
  const out = new Float64Array(n);
  for (let j = 0; j < n; j++) out[j] = values[index[j] as number] as number;
  return out;
}

/** `values[index[j]]` for every j, into a new Int32Array (labels, row maps): {@link gather}'s loop for integers. Internal. */
export function gatherInt(values: ArrayLike<number>, index: ArrayLike<number>): Int32Array {
  const n = index.length;
  const out = new Int32Array(n);
  for (let j = 0; j < n; j++) out[j] = values[index[j] as number] as number;
  return out;
}
