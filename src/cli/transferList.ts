/**
 * The memory of the typed arrays in a chunk's result that a worker thread moves to the main thread instead of
 * copying (a chunk of 2^20 rows of 10 classes posts ~37 MB: its kept entries and class histograms), internal. Only an
 * array that spans its whole buffer is moved: a view of part of a buffer (a subarray of module scratch, say) may share
 * it with memory the worker still uses, which moving would detach; such a view is copied by the structured clone, as
 * every array was before. A result's whole-buffer arrays are its own (the stores' typed forms are copies, pass 2's
 * are made per chunk) and the worker never reads them again.
 */
export function transferList(value: unknown): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  const visit = (v: unknown): void => {
    if (ArrayBuffer.isView(v)) {
      const b = v.buffer;
      if (b instanceof ArrayBuffer && v.byteOffset === 0 && v.byteLength === b.byteLength) out.add(b);
    } else if (v !== null && typeof v === 'object') for (const x of Object.values(v as object)) visit(x);
  };
  visit(value);
  return [...out];
}
