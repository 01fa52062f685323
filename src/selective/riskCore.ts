import { fail } from '../errors/fail.js';
import { blockSums, DIRECT_TERMS } from '../math/harmonic.js';
import { cumulative, expectedPositivesAt, type Sweep } from './sweep.js';
import type { RiskCoveragePoint } from './types.js';

/**
 * How the area under the risk–coverage curve is integrated:
 * - `'mean-risk'` (default): (1/N)·Σ_{k=1..N} r̄_k, the mean selective risk over the N coverages k/N (Geifman et
 *   al.'s definition; = 1 − verified_calibration's selective accuracy);
 * - `'geifman'`: the original `RC_curve` code, whose risk after removing i + 1 predictions divides by N − i (one
 *   too many);
 * - `'fd-shifts'`: the trapezoid over one point per distinct confidence, extended to coverage 0 with the last risk
 *   (FD-Shifts / IML-DKFZ);
 * - `'torch-uncertainty'`: the trapezoid over coverages 1/N … 1 divided by 1 − 1/N (needs N ≥ 2).
 */
export type AurcEstimator = 'mean-risk' | 'geifman' | 'fd-shifts' | 'torch-uncertainty';

export const AURC_ESTIMATORS: readonly AurcEstimator[] = ['mean-risk', 'geifman', 'fd-shifts', 'torch-uncertainty'];

/**
 * Σ_k err̄(k)/(k + shift) over k = 1 … N, in units of the sweep's `unit`: err̄(k) is the expected number of errors
 * among the k most confident predictions, ties ordered at random (a tied block contributes its errors linearly).
 * Small blocks are summed k by k; a block of C > 1024 predictions in closed form (see `blockSums`), so the time
 * does not grow with the counts. Needs whole-number counts (internal).
 */
function expectedRiskSum(s: Sweep, shift: 0 | 1): number {
  const unit = s.unit ?? 1;
  let sum = 0;
  let k = 0;
  let base = 0;
  for (let b = 0; b < s.blocks; b++) {
    const c = s.count[b] as number;
    const e = c - (s.positive[b] as number);
    if (unit === 1 && c <= DIRECT_TERMS) {
      for (let j = 1; j <= c; j++) sum += (base + (j * e) / c) / (k + j + shift);
    } else if (e > 0 || base > 0) {
      // Σ_j (base + j·e/c)/(k + j + shift) = base·h + (e/c)·g
      const { h, g } = blockSums(k, c, unit, shift);
      sum += base * h + (e / c) * g;
    }
    k += c;
    base += e;
  }
  return sum;
}

/** err̄(k) for one k ∈ [0, N] (any real k: linear within the block that k cuts) (internal). */
export function expectedErrorsAt(s: Sweep, k: number): number {
  const { cumCount, cumPositive } = cumulative(s);
  return k - expectedPositivesAt(s, cumCount, cumPositive, k);
}

/** The area under the risk–coverage curve of the blocks with the given estimator (internal). */
export function aurcOf(fn: string, s: Sweep, estimator: AurcEstimator): number {
  const n = s.n;
  if (estimator === 'fd-shifts') {
    // points at the end of each block, from the most confident; the first is extended to coverage 0
    let area = 0;
    let kept = 0;
    let errors = 0;
    let prevCoverage = 0;
    let prevRisk = Number.NaN;
    for (let b = 0; b < s.blocks; b++) {
      const c = s.count[b] as number;
      kept += c;
      errors += c - (s.positive[b] as number);
      const coverage = kept / n;
      const risk = errors / kept;
      area += Number.isNaN(prevRisk) ? risk * coverage : ((prevRisk + risk) / 2) * (coverage - prevCoverage);
      prevCoverage = coverage;
      prevRisk = risk;
    }
    return area;
  }
  const unit = s.unit ?? 1;
  const total = n * unit; // N (Infinity beyond float64, where 1/N is 0)
  const errors = n - s.totalPositive;
  if (estimator === 'mean-risk') return expectedRiskSum(s, 0) / n;
  if (estimator === 'geifman') {
    // err̄(k)/(k + 1) for k < N, and err̄(N)/N
    return (expectedRiskSum(s, 1) + errors / total / (total + 1)) / n;
  }
  if (total < 2)
    fail('UM_EMPTY', fn, 'labels', "hold at least 2 predictions for estimator 'torch-uncertainty'", { value: total });
  // trapezoid: every interior risk counts twice, r̄_1 and r̄_N once; r̄_1 = err̄(1) = the first block's error share
  const first = s.count[0] as number;
  const risk1 = (first - (s.positive[0] as number)) / first;
  const riskN = errors / n;
  return (2 * expectedRiskSum(s, 0) - (risk1 + riskN) / unit) / (2 * (n - 1 / unit));
}

/**
 * The blocks of a perfect ranking of the same predictions: every correct one more confident than every wrong one —
 * one block of the correct, one of the wrong (within a block of one kind the order cannot matter).
 */
export function oracleSweep(s: Sweep): Sweep {
  const right = s.totalPositive;
  const wrong = s.n - right;
  const level: number[] = [];
  const count: number[] = [];
  const positive: number[] = [];
  if (right > 0) {
    level.push(2);
    count.push(right);
    positive.push(right);
  }
  if (wrong > 0) {
    level.push(1);
    count.push(wrong);
    positive.push(0);
  }
  return {
    n: s.n,
    blocks: level.length,
    level: Float64Array.from(level),
    count: Float64Array.from(count),
    positive: Float64Array.from(positive),
    totalPositive: right,
    ...(s.unit === undefined ? {} : { unit: s.unit }),
  };
}

/** κ* = r + (1 − r)·ln(1 − r + ε): Geifman et al.'s closed-form AURC of an oracle with error rate r (0·ln 0 = 0). */
export function kappaStar(errorRate: number, epsilon: number): number {
  const rest = 1 - errorRate;
  return rest === 0 && epsilon === 0 ? errorRate : errorRate + rest * Math.log(rest + epsilon);
}

/** AURC minus the AURC of the oracle ranking: exact for 'mean-risk'/'torch-uncertainty', κ* as the peers for the others. */
export function excessAurcOf(fn: string, s: Sweep, estimator: AurcEstimator): number {
  const a = aurcOf(fn, s, estimator);
  const errorRate = (s.n - s.totalPositive) / s.n;
  if (estimator === 'geifman') return a - kappaStar(errorRate, 0);
  if (estimator === 'fd-shifts') return a - kappaStar(errorRate, Number.EPSILON);
  return a - aurcOf(fn, oracleSweep(s), estimator);
}

/** One point per block: coverage, selective risk and the threshold in the measure's scale (internal). */
export function riskCoveragePoints(s: Sweep, sign: 1 | -1): RiskCoveragePoint[] {
  const unit = s.unit ?? 1;
  const points: RiskCoveragePoint[] = [];
  let kept = 0;
  let errors = 0;
  for (let b = 0; b < s.blocks; b++) {
    const c = s.count[b] as number;
    kept += c;
    errors += c - (s.positive[b] as number);
    points.push({
      threshold: sign * (s.level[b] as number) + 0,
      count: kept * unit,
      coverage: kept / s.n,
      risk: errors / kept,
    });
  }
  return points;
}
