/**
 * Score arrays their owner gives up to the conversion (internal; the CLI's whole-file reads): converting logits or
 * log-probabilities of a lent array whose buffer has room for float64 values (see {@link inPlaceOutput}) writes the
 * probabilities over the scores instead of beside them, so the file's bytes and the N × C probabilities are never
 * both held. The owner must not read the array afterwards: after a conversion it holds the probabilities' bytes.
 */
const lent = new WeakSet<object>();
/** Lent arrays a conversion has written over: reading one again would read probabilities' bytes as scores. */
const spent = new WeakSet<object>();

/** Throws if `scores` was written over by an in-place conversion (a programming error: the owner gave it up). */
export function checkNotSpent(scores: object): void {
  if (spent.has(scores)) throw new Error('internal: lent scores read again after a conversion wrote over them');
}

/** Gives `scores` up to the conversion (only a typed array can be converted in place; anything else is ignored). */
export function lendScores(scores: unknown): void {
  if (scores instanceof Float32Array || scores instanceof Float64Array) lent.add(scores);
}

/**
 * The float64 array of n × c values a lent array's conversion writes into, over the scores' own bytes: a Float64Array
 * of exactly n × c values that owns its buffer (row i written after it is read: the same bytes), or a Float32Array in
 * the upper half of a buffer of 8·n·c bytes (row i's output ends at byte 8·c·(i + 1), where the unread rows begin at
 * 4·n·c + 4·c·(i + 1) ≥ 8·c·(i + 1)). Undefined when `scores` is not lent or has no such room.
 */
export function inPlaceOutput(scores: Float32Array | Float64Array, n: number, c: number): Float64Array | undefined {
  if (!lent.has(scores)) return undefined;
  const size = n * c;
  const buffer = scores.buffer;
  if (scores.length !== size || buffer.byteLength !== 8 * size || buffer instanceof SharedArrayBuffer) return undefined;
  if (scores.byteOffset !== (scores instanceof Float32Array ? 4 * size : 0)) return undefined;
  // lent once: the conversion that writes over it spends it, and any later read throws (checkNotSpent)
  lent.delete(scores);
  spent.add(scores);
  return new Float64Array(buffer, 0, size);
}
