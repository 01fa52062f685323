/**
 * Module scratch of the rank selections (rankSelect.ts), internal. Keys of up to {@link SCRATCH_MAX} values, and up
 * to that many gathered entries, are written here, not into fresh arrays: a selection holds the module's bucket tables
 * (radixPasses.ts) until it is released, one selection at a time, so its keys and gathered entries can be shared
 * alike. The class-wise equal-mass bins of float64 columns (softmax of logits) make selections over every class
 * column, and their fresh arrays were garbage that the allocator kept mapped (`um metrics` on 50 000 × 1 000 logits:
 * ~0.3 MB per class). A larger selection's arrays are its own, freed with it (a scratch that only grows would pin its
 * bytes for the largest selection ever made).
 *
 * {@link takeScratch} names the selection that now owns the scratch, {@link checkFree} refuses a new selection while
 * one holds it, and {@link checkOwner} is called by every method that reads it: a broken "one at a time" fails loudly
 * instead of counting into dirty tables or reading another selection's entries.
 */
export const SCRATCH_MAX = 2 ** 18;

let keyScratch = new Int32Array(0);
let gatherScratch = { keys: new Int32Array(0), values: new Float64Array(0), extra: new Float64Array(0) };
let owner: object | null = null;

/** Makes `selection` the owner of the scratch (and of the bucket tables): any earlier selection may no longer read. */
export function takeScratch(selection: object): void {
  owner = selection;
}

/** Ends `selection`'s ownership (its release). */
export function dropScratch(selection: object): void {
  if (owner === selection) owner = null;
}

/**
 * Throws when a selection holds the tables (made and not released): a new selection counts into tables it expects
 * zero, and would overwrite the other's keys and entries.
 */
export function checkFree(fn: string): void {
  if (owner !== null) throw new Error(`RankSelection.${fn}: another selection holds the shared tables (internal)`);
}

/** Throws when `selection` no longer owns the scratch: a second selection was made before it was released. */
export function checkOwner(selection: object, fn: string): void {
  if (owner !== selection)
    throw new Error(
      `RankSelection.${fn}: read after its release or after another selection took the shared tables (internal)`,
    );
}

/** Room for n keys: a view of the key scratch (up to {@link SCRATCH_MAX}), else a fresh array. */
export function selectionKeys(n: number): Int32Array {
  if (n > SCRATCH_MAX) return new Int32Array(n);
  if (keyScratch.length < n) keyScratch = new Int32Array(Math.min(SCRATCH_MAX, Math.max(n, 2 * keyScratch.length)));
  return keyScratch.subarray(0, n);
}

/** Room for the `total` gathered keys, values and (`withExtra`) extra column: views of the scratch, or fresh arrays. */
export function gatheredRoom(
  total: number,
  withExtra: boolean,
): { keys: Int32Array; values: Float64Array; extra: Float64Array | undefined } {
  if (total > SCRATCH_MAX)
    return {
      keys: new Int32Array(total),
      values: new Float64Array(total),
      extra: withExtra ? new Float64Array(total) : undefined,
    };
  if (gatherScratch.keys.length < total) {
    const m = Math.min(SCRATCH_MAX, Math.max(total, 2 * gatherScratch.keys.length));
    gatherScratch = { keys: new Int32Array(m), values: new Float64Array(m), extra: new Float64Array(m) };
  }
  const { keys, values, extra } = gatherScratch;
  return {
    keys: keys.subarray(0, total),
    values: values.subarray(0, total),
    extra: withExtra ? extra.subarray(0, total) : undefined,
  };
}
