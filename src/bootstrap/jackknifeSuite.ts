import type { Member } from '../engine/computation.js';
import type { Suite } from '../engine/suite.js';
import type { Evaluation } from '../evaluate/evaluate.js';
import { EVALUATE } from '../evaluate/suite.js';

/** The binned calibration errors: biased under resampling by an amount the bootstrap cannot measure (see comparePaired). */
export const BINNED = new Set(['ece', 'mce', 'rmsce', 'sce', 'ace', 'tace', 'uce', 'aece', 'amce']);
/** The class-wise errors: most of a full evaluation's cost. */
export const CLASSWISE = new Set(['sce', 'ace', 'tace']);

/** Every member of `evaluate` (for its `assemble`), by the list of the members the jackknife computes. */
const EVERY = new WeakMap<readonly Member[], readonly Member[]>();

/**
 * `evaluate` without the binned calibration errors, for BCa's jackknife when none of them has a BCa interval (method
 * 'auto' gives them union intervals) (internal). The binned errors are most of an evaluation's cost (measured on the
 * README's 2000 × 10 rows: 0.45 ms instead of 0.96 ms without the class-wise errors), and the acceleration needs none
 * of them. Every other number is evaluate's own, bit for bit: each metric has its own stores, and the result is
 * assembled by evaluate's own `assemble` (the left-out errors read as null, as an absent member does there). A group
 * where evaluate throws still throws here: the binned errors' only error on some weights is `UM_EMPTY`, which evaluate
 * reports as null; their option errors throw on all rows, before any jackknife.
 */
export const JACKKNIFE_EVALUATE: Suite<Evaluation> = {
  ...EVALUATE,
  members(fn, options, mode) {
    const every = EVALUATE.members(fn, options, mode);
    const kept = every.filter((m) => !BINNED.has(m.key));
    EVERY.set(kept, every);
    return kept;
  },
  assemble(outcomes, context) {
    const every = EVERY.get(context.computation.members) ?? context.computation.members;
    // evaluate's configuration is read from every member's options (a bin count from ECE's): the computation as seen
    // by evaluate's assemble lists them all; the members left out have no outcome
    const computation = Object.create(context.computation, { members: { value: every } }) as typeof context.computation;
    return EVALUATE.assemble(outcomes, { ...context, computation });
  },
};

/**
 * The evaluation BCa's jackknife needs for the metrics with BCa intervals (`bca`) (internal; comparePaired's and the
 * report's): `evaluate` without the binned errors when none of them is among them, else without the class-wise errors
 * unless one of those is (`full`: the evaluation with every metric).
 */
export function jackknifeNeed(bca: readonly string[]): 'unbinned' | 'lean' | 'full' {
  if (!bca.some((k) => BINNED.has(k))) return 'unbinned';
  return bca.some((k) => CLASSWISE.has(k)) ? 'full' : 'lean';
}
