import type { Precision } from '../binning/types.js';
import type { ProbMatrix } from '../input/types.js';
import { weightUnit } from '../input/weights.js';
import { rowNormalizedEntropy } from '../measures/normalizedEntropy.js';
import { topLabel } from '../measures/topLabel.js';
import { namedConfidence, thresholdPredictions, type NamedMeasure } from './confidence.js';
import { atPrecision } from './precision.js';

/**
 * Which (score, outcome) pair each row (or each entry of a row) contributes:
 * - `'top-label'`: (max_k p_ik, 1[argmax_k p_ik = y_i]) — the confidence of the prediction and whether it is right;
 * - `'all-classes'`: for every class k, (p_ik, 1[y_i = k]) — N·C pairs;
 * - `'positive-class'`: (p_i1, 1[y_i = 1]) — two classes, the calibration of P(y = 1);
 * - `'uncertainty'`: (H(p_i)/ln C, 1[argmax ≠ y_i]) — normalized entropy against the top-1 error (the UCE's pairs).
 */
export type Target = 'top-label' | 'all-classes' | 'positive-class' | 'uncertainty';

/**
 * How the pairs are grouped before binning (each group binned on its own, the errors then averaged or maximised):
 * - `'none'`: one group;
 * - `'class'`: by the class the pair is about — the predicted class for `'top-label'` and `'uncertainty'`, the column k
 *   for `'all-classes'` (the class-wise / class-conditional errors);
 * - `'label'`: by the true label y_i.
 */
export type GroupBy = 'none' | 'class' | 'label';

/** Everything that decides which pairs are selected: plain JSON, so selections are shared by equal keys. */
export interface SelectionSpec {
  readonly target: Target;
  readonly groupBy: GroupBy;
  /** Keep only pairs whose score is > threshold (`null`: all). */
  readonly threshold: number | null;
  /** `'float32'`: probabilities are rounded to float32 first, as a float32 peer sees them. */
  readonly precision: Precision;
  /** `'top-label'` only: the score is this measure as a confidence (default `'max-prob'`; ranking metrics). */
  readonly measure?: NamedMeasure;
  /** `'top-label'` with two classes only: predict class 1 when P(y = 1) > this (default: the argmax). */
  readonly decisionThreshold?: number | null;
}

/** The pairs of one group: scores, outcomes in {0, 1}, and weights (scaled; see `WeightOptions`) when given. */
export interface Pairs {
  readonly scores: Float64Array;
  readonly outcomes: Float64Array;
  readonly weights: Float64Array | undefined;
  /** The weights' scale (1 unless the caller's weights were rescaled by a power of two). */
  readonly unit: number;
}

/** The key under which equal selections are shared. */
export function selectionKey(spec: SelectionSpec): string {
  return `${spec.target}|${spec.groupBy}|${spec.threshold === null ? '' : spec.threshold}|${spec.precision}|${spec.measure ?? 'max-prob'}|${spec.decisionThreshold ?? ''}`;
}

/** Number of groups of a selection for C classes. */
export function groupCount(spec: SelectionSpec, numClasses: number): number {
  return spec.groupBy === 'none' ? 1 : numClasses;
}

/**
 * The one pair selector: the (score, outcome[, weight]) pairs of validated probabilities `p` with labels `y` (and
 * weights `w`, all > 0), grouped as `spec.groupBy` says — every binned calibration error, the UCE, reliability tables
 * and the ranking metrics read their pairs from here, in memory and in states alike (internal).
 */
export function selectPairs(p0: ProbMatrix, y: Int32Array, w: Float64Array | undefined, spec: SelectionSpec): Pairs[] {
  const p = atPrecision(p0, spec.precision);
  const { n, numClasses: c } = p;
  const unit = weightUnit(w);
  const groups = groupCount(spec, c);
  if (spec.target === 'all-classes') return entryPairs(p.data, y, n, c, spec, w, unit);
  let score: Float64Array;
  let outcome: Float64Array;
  let group: Int32Array | undefined;
  if (spec.target === 'positive-class') {
    score = new Float64Array(n);
    outcome = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      score[i] = p.data[i * c + 1] as number;
      outcome[i] = y[i] === 1 ? 1 : 0;
    }
    group = spec.groupBy === 'none' ? undefined : spec.groupBy === 'label' ? y : new Int32Array(n).fill(1);
  } else {
    const top = topLabel(p);
    const error = spec.target === 'uncertainty';
    const t = spec.decisionThreshold ?? null;
    thresholdPredictions(p, top, t);
    const measure = spec.measure ?? 'max-prob';
    score = error
      ? rowNormalizedEntropy(p)
      : measure === 'max-prob'
        ? top.confidence
        : namedConfidence(p, measure, top.confidence, t ?? 0.5).confidence;
    outcome = new Float64Array(n);
    for (let i = 0; i < n; i++) outcome[i] = (top.predicted[i] === y[i]) !== error ? 1 : 0;
    group = spec.groupBy === 'none' ? undefined : spec.groupBy === 'label' ? y : top.predicted;
  }
  return rowPairs(groups, n, group, score, outcome, spec.threshold, w, unit);
}

/** Pairs of one value per row, grouped (internal). */
function rowPairs(
  groups: number,
  n: number,
  group: Int32Array | undefined,
  score: Float64Array,
  outcome: Float64Array,
  threshold: number | null,
  w: Float64Array | undefined,
  unit: number,
): Pairs[] {
  if (group === undefined && threshold === null) return [{ scores: score, outcomes: outcome, weights: w, unit }];
  const sizes = new Int32Array(groups);
  const groupOf = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const g =
      threshold !== null && !((score[i] as number) > threshold) ? -1 : group === undefined ? 0 : (group[i] as number);
    groupOf[i] = g;
    if (g >= 0) sizes[g] = (sizes[g] as number) + 1;
  }
  const out = Array.from(sizes, (m) => ({
    scores: new Float64Array(m),
    outcomes: new Float64Array(m),
    weights: w === undefined ? undefined : new Float64Array(m),
    unit,
  }));
  const at = new Int32Array(groups);
  for (let i = 0; i < n; i++) {
    const g = groupOf[i] as number;
    if (g < 0) continue;
    const slice = out[g] as (typeof out)[number];
    const j = at[g] as number;
    at[g] = j + 1;
    slice.scores[j] = score[i] as number;
    slice.outcomes[j] = outcome[i] as number;
    if (slice.weights !== undefined && w !== undefined) slice.weights[j] = w[i] as number;
  }
  return out;
}

/**
 * Every class of every row (N·C pairs), row-major, in one group or grouped by class (`'class'`) or label — plain
 * loops, no per-entry callbacks. By class, rows are read in blocks of about 64k entries and each class's entries of a
 * block are copied together, so every group is written sequentially while the block stays in cache (internal).
 */
function entryPairs(
  data: ArrayLike<number>,
  y: Int32Array,
  n: number,
  c: number,
  spec: SelectionSpec,
  w: Float64Array | undefined,
  unit: number,
): Pairs[] {
  const thr = spec.threshold;
  if (spec.groupBy === 'label') {
    // rare: by the row's label, every class of the row in the label's group
    const sizes = new Int32Array(c);
    for (let i = 0; i < n; i++)
      for (let k = 0; k < c; k++)
        if (thr === null || (data[i * c + k] as number) > thr)
          sizes[y[i] as number] = (sizes[y[i] as number] as number) + 1;
    const out = Array.from(sizes, (m) => ({
      scores: new Float64Array(m),
      outcomes: new Float64Array(m),
      weights: w === undefined ? undefined : new Float64Array(m),
      unit,
    }));
    const at = new Int32Array(c);
    for (let i = 0; i < n; i++) {
      const g = y[i] as number;
      const slice = out[g] as (typeof out)[number];
      for (let k = 0; k < c; k++) {
        const s = data[i * c + k] as number;
        if (thr !== null && !(s > thr)) continue;
        const j = at[g] as number;
        at[g] = j + 1;
        slice.scores[j] = s;
        slice.outcomes[j] = g === k ? 1 : 0;
        if (slice.weights !== undefined && w !== undefined) slice.weights[j] = w[i] as number;
      }
    }
    return out;
  }
  const byClass = spec.groupBy === 'class';
  const sizes = new Int32Array(byClass ? c : 1);
  if (thr === null) sizes.fill(byClass ? n : n * c);
  else {
    for (let e = 0; e < n * c; e++) {
      if (!((data[e] as number) > thr)) continue;
      const g = byClass ? e % c : 0;
      sizes[g] = (sizes[g] as number) + 1;
    }
  }
  const out = Array.from(sizes, (m) => ({
    scores: new Float64Array(m),
    outcomes: new Float64Array(m),
    weights: w === undefined ? undefined : new Float64Array(m),
    unit,
  }));
  const at = new Int32Array(sizes.length);
  const block = byClass ? Math.max(1, Math.floor(65536 / c)) : n;
  for (let i0 = 0; i0 < n; i0 += block) {
    const i1 = Math.min(n, i0 + block);
    for (let g = 0; g < sizes.length; g++) {
      const { scores, outcomes, weights } = out[g] as (typeof out)[number];
      let j = at[g] as number;
      // by class: column g of the block; together: every entry of the block, row by row
      const k0 = byClass ? g : 0;
      const k1 = byClass ? g + 1 : c;
      for (let i = i0; i < i1; i++) {
        const label = y[i] as number;
        for (let k = k0; k < k1; k++) {
          const s = data[i * c + k] as number;
          if (thr !== null && !(s > thr)) continue;
          scores[j] = s;
          outcomes[j] = label === k ? 1 : 0;
          if (weights !== undefined && w !== undefined) weights[j] = w[i] as number;
          j++;
        }
      }
      at[g] = j;
    }
  }
  return out;
}
