import { argsort } from '../kernels/argsort.js';
import type { EntryColumns, EntryView } from './keptEntries.js';

/**
 * Entries in the canonical order: ascending score, and within equal scores outcome 0 before 1, then ascending weight —
 * so every computation that walks them in order (cuts, bins, sweeps, running sums) gives the same bits for the same
 * set of entries, however they arrived (internal).
 */
export function canonicalSort(e: EntryView, hint?: Uint32Array, into?: SortScratch): EntryColumns {
  const n = e.scores.length;
  const out = into?.columns(n, e.weights !== undefined) ?? {
    scores: new Float64Array(n),
    outcomes: new Float64Array(n),
    weights: e.weights === undefined ? undefined : new Float64Array(n),
  };
  const { scores, outcomes, weights } = out;
  // a carried-over order (orderHints.ts) stands for the sort only when it is exactly the sort's order
  if (hint === undefined || hint.length !== n || !gatherInOrder(e, hint, out)) {
    const order = argsort(e.scores);
    gatherScores(e.scores, order, scores);
    gatherInto(e.outcomes, order, outcomes);
    if (e.weights !== undefined) gatherInto(e.weights, order, weights as Float64Array);
  }
  // blocks of equal scores: outcome 0 first, then 1, each by ascending weight (only the column values matter)
  for (let a = 0; a < n;) {
    let b = a + 1;
    while (b < n && scores[b] === scores[a]) b++;
    if (b - a > 1) canonicalBlock(outcomes, weights, a, b);
    a = b;
  }
  return { scores, outcomes, weights, unit: e.unit };
}

/**
 * Output columns {@link canonicalSort} writes into instead of fresh arrays, reused from call to call (internal: for a
 * caller that is done reading one result before it sorts again — a sweep reading one class at a time).
 */
export class SortScratch {
  private scores = new Float64Array(0);
  private outcomes = new Float64Array(0);
  private weights = new Float64Array(0);

  /** Views of n entries (the previous call's columns overwritten; fresh columns, not kept, above {@link SCRATCH_MAX}). */
  columns(n: number, weighted: boolean): SortedColumns {
    if (n > SCRATCH_MAX) {
      const fresh = { scores: new Float64Array(n), outcomes: new Float64Array(n) };
      return { ...fresh, weights: weighted ? new Float64Array(n) : undefined };
    }
    if (this.scores.length < n) {
      const m = Math.min(SCRATCH_MAX, Math.max(n, 2 * this.scores.length));
      this.scores = new Float64Array(m);
      this.outcomes = new Float64Array(m);
      this.weights = new Float64Array(m);
    }
    return {
      scores: this.scores.subarray(0, n),
      outcomes: this.outcomes.subarray(0, n),
      weights: weighted ? this.weights.subarray(0, n) : undefined,
    };
  }
}

type SortedColumns = { scores: Float64Array; outcomes: Float64Array; weights: Float64Array | undefined };

/**
 * The most entries a module's scratch keeps between calls: what a bootstrap resample's columns need is reused, a large
 * column's arrays are freed with it (a scratch that only grows pinned 24 bytes per entry of the largest column ever
 * sorted, for the life of the process).
 */
export const SCRATCH_MAX = 2 ** 16;

/** Which positions {@link gatherInOrder} has read (scratch). */
let seenScratch = new Uint8Array(0);

/**
 * Writes the entries read in `order` into `out` when `order` is exactly `argsort(e.scores)` — the checks of
 * `isStableOrder` (a permutation, ascending keys, equal keys in ascending position) made while gathering, in one pass
 * instead of four — and returns whether it was (`out` is then partly written: the caller sorts into it).
 */
function gatherInOrder(e: EntryView, order: Uint32Array, out: SortedColumns): boolean {
  const n = order.length;
  let seen: Uint8Array;
  if (n > SCRATCH_MAX) seen = new Uint8Array(n);
  else {
    if (seenScratch.length < n)
      seenScratch = new Uint8Array(Math.min(SCRATCH_MAX, Math.max(n, 2 * seenScratch.length)));
    else seenScratch.fill(0, 0, n);
    seen = seenScratch;
  }
  const { scores, outcomes, weights } = out;
  return e.scores instanceof Float32Array
    ? gather32(e.scores, e.outcomes, e.weights, order, scores, outcomes, weights, seen)
    : gather64(e.scores, e.outcomes, e.weights, order, scores, outcomes, weights, seen);
}

/** {@link gatherInOrder}'s pass over float32 keys (one loop per key type: a loop reading either runs slower). */
function gather32(
  keys: Float32Array,
  o: Float64Array,
  w: Float64Array | undefined,
  order: Uint32Array,
  scores: Float64Array,
  outcomes: Float64Array,
  weights: Float64Array | undefined,
  seen: Uint8Array,
): boolean {
  const n = order.length;
  for (let r = 0; r < n; r++) {
    const i = order[r] as number;
    if (i >= n || seen[i] === 1) return false;
    seen[i] = 1;
    const s = keys[i] as number;
    if (r > 0) {
      const a = scores[r - 1] as number;
      // −0 equals 0; NaN fails both
      if (!(a < s || (a === s && (order[r - 1] as number) < i))) return false;
    }
    scores[r] = s;
    outcomes[r] = o[i] as number;
    if (weights !== undefined) weights[r] = (w as Float64Array)[i] as number;
  }
  return true;
}

/** {@link gather32} over float64 keys. */
function gather64(
  keys: Float64Array,
  o: Float64Array,
  w: Float64Array | undefined,
  order: Uint32Array,
  scores: Float64Array,
  outcomes: Float64Array,
  weights: Float64Array | undefined,
  seen: Uint8Array,
): boolean {
  const n = order.length;
  for (let r = 0; r < n; r++) {
    const i = order[r] as number;
    if (i >= n || seen[i] === 1) return false;
    seen[i] = 1;
    const s = keys[i] as number;
    if (r > 0) {
      const a = scores[r - 1] as number;
      if (!(a < s || (a === s && (order[r - 1] as number) < i))) return false;
    }
    scores[r] = s;
    outcomes[r] = o[i] as number;
    if (weights !== undefined) weights[r] = (w as Float64Array)[i] as number;
  }
  return true;
}

/** `scores[order[r]]` into `out` for every r, one loop per array type (a loop reading either type runs slower). */
function gatherScores(scores: Float32Array | Float64Array, order: Uint32Array, out: Float64Array): void {
  if (scores instanceof Float64Array) gatherInto(scores, order, out);
  else for (let r = 0; r < order.length; r++) out[r] = scores[order[r] as number] as number;
}

/** `values[order[r]]` into `out` for every r. */
function gatherInto(values: Float64Array, order: Uint32Array, out: Float64Array): void {
  for (let r = 0; r < order.length; r++) out[r] = values[order[r] as number] as number;
}

/** Orders one block of equal scores: outcomes ascending, weights ascending within each outcome (internal). */
function canonicalBlock(outcomes: Float64Array, weights: Float64Array | undefined, a: number, b: number): void {
  if (weights === undefined) {
    outcomes.subarray(a, b).sort();
    return;
  }
  // the block's weights partitioned in scratch, outcome 0's first, each part sorted in place (no array per block)
  const m = b - a;
  if (blockScratch.length < m) blockScratch = new Float64Array(Math.max(m, 2 * blockScratch.length));
  const s = blockScratch;
  let z = 0;
  for (let i = a; i < b; i++) if (outcomes[i] === 0) z++;
  for (let i = a, zi = 0, oi = z; i < b; i++) {
    if (outcomes[i] === 0) s[zi++] = weights[i] as number;
    else s[oi++] = weights[i] as number;
  }
  sortPart(s, 0, z);
  sortPart(s, z, m);
  outcomes.fill(0, a, a + z);
  outcomes.fill(1, a + z, b);
  weights.set(s.subarray(0, m), a);
}

/** Scratch of {@link canonicalBlock}. */
let blockScratch = new Float64Array(256);

/** Counts of whole weights 1 … COUNTED − 1 for {@link sortPart}. */
const COUNTED = 64;
const weightCounts = new Int32Array(COUNTED);

/**
 * Sorts s[from, to) ascending: whole weights from 1 to {@link COUNTED} − 1 (a resample's counts, most of a tied block) by
 * counting — the same numbers in the same order as a comparison sort, in O(m) — others by the typed-array sort.
 */
function sortPart(s: Float64Array, from: number, to: number): void {
  if (to - from < 2) return;
  let small = true;
  for (let i = from; i < to && small; i++) {
    const v = s[i] as number;
    small = v > 0 && v < COUNTED && Math.floor(v) === v;
  }
  if (!small) {
    s.subarray(from, to).sort();
    return;
  }
  weightCounts.fill(0);
  for (let i = from; i < to; i++) {
    const v = s[i] as number;
    weightCounts[v] = (weightCounts[v] as number) + 1;
  }
  let at = from;
  for (let v = 1; v < COUNTED; v++) {
    const c = weightCounts[v] as number;
    if (c > 0) {
      s.fill(v, at, at + c);
      at += c;
    }
  }
}
