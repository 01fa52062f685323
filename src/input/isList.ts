/**
 * Whether `x` is an array or a typed array (not a DataView) — the array-likes whose `length` is the data's own
 * (internal). Vectors and rows are sized from their length before their entries are read, so any other object
 * with a `length` (`{ length: 2 ** 32 }`) is refused instead of sizing gigabytes of buffers by a number it states.
 */
export function isList(x: unknown): x is ArrayLike<unknown> {
  return Array.isArray(x) || (ArrayBuffer.isView(x) && !(x instanceof DataView));
}
