import { numpyLinspaceUnit } from './numpy.js';
import type { BinAssignment, EqualWidthRule, Precision } from './types.js';

const f32 = Math.fround;

/**
 * The B + 1 edge values of an equal-width rule, in the arithmetic of the peer it reproduces. For `'floor'` and
 * `'divide'`, which compare no edges, these are the exact quotients i/B used to describe the bins.
 */
export function equalWidthEdges(bins: number, rule: EqualWidthRule, precision: Precision): Float64Array {
  if (rule.index === 'edges' && rule.edges === 'numpy') {
    const e = numpyLinspaceUnit(bins);
    if (precision === 'float32') for (let i = 0; i <= bins; i++) e[i] = f32(e[i] as number);
    return e;
  }
  if (rule.index === 'edges' && rule.edges === 'torch') {
    // ATen linspace: step = (end − start)/(steps − 1) in the tensor dtype; the first half counts up from the
    // start, the second half down from the end.
    const e = new Float64Array(bins + 1);
    const halfway = Math.floor((bins + 1) / 2);
    if (precision === 'float32') {
      const step = f32(1 / bins);
      for (let i = 0; i <= bins; i++) {
        e[i] = i < halfway ? f32(step * i) : f32(1 - f32(step * (bins - i)));
      }
    } else {
      const step = 1 / bins;
      for (let i = 0; i <= bins; i++) e[i] = i < halfway ? step * i : 1 - step * (bins - i);
    }
    return e;
  }
  const e = new Float64Array(bins + 1);
  for (let i = 0; i <= bins; i++) e[i] = precision === 'float32' ? f32(i / bins) : i / bins;
  return e;
}

/**
 * Bin index of one score under an equal-width rule. `edges` must come from {@link equalWidthEdges} with the same
 * arguments. Returns a value in [0, B) or B for an own bin.
 */
export function equalWidthIndex(
  p: number,
  bins: number,
  rule: EqualWidthRule,
  precision: Precision,
  edges: Float64Array,
): number {
  let b: number;
  if (rule.index === 'floor') {
    b = Math.floor(precision === 'float32' ? f32(f32(bins) * f32(p)) : bins * p);
  } else if (rule.index === 'divide') {
    const width = precision === 'float32' ? f32(1 / bins) : 1 / bins;
    b = Math.trunc(precision === 'float32' ? f32(f32(p) / width) : p / width);
  } else {
    const x = precision === 'float32' ? f32(p) : p;
    // Start from the product guess and walk to the bin whose edges bracket x.
    b = Math.min(Math.max(Math.floor(x * bins), 0), bins);
    if (rule.closed === 'left') {
      // b = #{k ≥ 1 : e_k ≤ x}
      while (b < bins && x >= (edges[b + 1] as number)) b++;
      while (b > 0 && x < (edges[b] as number)) b--;
    } else {
      // b = #{1 ≤ k ≤ B−1 : e_k < x}
      if (b > bins - 1) b = bins - 1;
      while (b < bins - 1 && x > (edges[b + 1] as number)) b++;
      while (b > 0 && x <= (edges[b] as number)) b--;
    }
  }
  if (b < 0) b = 0;
  if (b >= bins) b = rule.one === 'own-bin' ? bins : bins - 1;
  return b;
}

/** Assigns every score to an equal-width bin. */
export function equalWidthBins(
  scores: ArrayLike<number>,
  bins: number,
  rule: EqualWidthRule,
  precision: Precision,
): BinAssignment {
  const edges = equalWidthEdges(bins, rule, precision);
  const own = rule.one === 'own-bin';
  const numBins = own ? bins + 1 : bins;
  const lower = new Float64Array(numBins);
  const upper = new Float64Array(numBins);
  for (let b = 0; b < bins; b++) {
    lower[b] = edges[b] as number;
    upper[b] = edges[b + 1] as number;
  }
  if (own) {
    lower[bins] = 1;
    upper[bins] = 1;
  }
  const n = scores.length;
  const index = new Int32Array(n);
  for (let i = 0; i < n; i++) index[i] = equalWidthIndex(scores[i] as number, bins, rule, precision, edges);
  return { numBins, lower, upper, index };
}
