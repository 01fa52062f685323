import { argsort } from '../kernels/argsort.js';
import { gather } from '../math/gather.js';
import type { EntryColumns, EntryView } from './keptEntries.js';
import { isStableOrder } from './orderHints.js';

/**
 * Entries in the canonical order: ascending score, and within equal scores outcome 0 before 1, then ascending weight —
 * so every computation that walks them in order (cuts, bins, sweeps, running sums) gives the same bits for the same
 * set of entries, however they arrived (internal).
 */
export function canonicalSort(e: EntryView, hint?: Uint32Array): EntryColumns {
  const n = e.scores.length;
  // a carried-over order (orderHints.ts) stands for the sort only when it is exactly the sort's order
  let order = hint;
  let scores = hint !== undefined && hint.length === n ? gatherScores(e.scores, hint) : undefined;
  if (order === undefined || scores === undefined || !isStableOrder(scores, order, n)) {
    order = argsort(e.scores);
    scores = gatherScores(e.scores, order);
  }
  const outcomes = gather(e.outcomes, order);
  const weights = e.weights === undefined ? undefined : gather(e.weights, order);
  // blocks of equal scores: outcome 0 first, then 1, each by ascending weight (only the column values matter)
  for (let a = 0; a < n;) {
    let b = a + 1;
    while (b < n && scores[b] === scores[a]) b++;
    if (b - a > 1) canonicalBlock(outcomes, weights, a, b);
    a = b;
  }
  return { scores, outcomes, weights, unit: e.unit };
}

/** `scores[order[r]]` for every r, one loop per array type (a loop reading either type runs slower). */
function gatherScores(scores: Float32Array | Float64Array, order: Uint32Array): Float64Array {
  if (scores instanceof Float64Array) return gather(scores, order);
  const out = new Float64Array(order.length);
  for (let r = 0; r < order.length; r++) out[r] = scores[order[r] as number] as number;
  return out;
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
