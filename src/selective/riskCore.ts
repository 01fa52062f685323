import { fail } from '../errors/fail.js';
import type { Sweep } from './sweep.js';
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
 * Expected errors among the k most confident predictions for k = 0 … N, ties ordered at random (a tied block
 * contributes its error share linearly). Index k holds err̄(k) (internal).
 */
export function expectedErrors(s: Sweep): Float64Array {
  const out = new Float64Array(s.n + 1);
  let k = 0;
  let base = 0;
  for (let b = 0; b < s.blocks; b++) {
    const c = s.count[b] as number;
    const e = c - (s.positive[b] as number);
    for (let j = 1; j <= c; j++) out[k + j] = base + (j * e) / c;
    k += c;
    base += e;
  }
  return out;
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
  const err = expectedErrors(s);
  if (estimator === 'mean-risk') {
    let sum = 0;
    for (let k = 1; k <= n; k++) sum += (err[k] as number) / k;
    return sum / n;
  }
  if (estimator === 'geifman') {
    let sum = (err[n] as number) / n;
    for (let k = 1; k < n; k++) sum += (err[k] as number) / (k + 1);
    return sum / n;
  }
  if (n < 2) fail('UM_EMPTY', fn, 'labels', "hold at least 2 predictions for estimator 'torch-uncertainty'", { value: n });
  let sum = 0;
  for (let k = 1; k < n; k++) sum += (err[k] as number) / k + (err[k + 1] as number) / (k + 1);
  return sum / (2 * (n - 1));
}

/** The blocks of a perfect ranking of the same predictions: every correct one more confident than every wrong one. */
export function oracleSweep(s: Sweep): Sweep {
  const n = s.n;
  const level = new Float64Array(n);
  const count = new Float64Array(n).fill(1);
  const positive = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    level[i] = n - i;
    positive[i] = i < s.totalPositive ? 1 : 0;
  }
  return { n, blocks: n, level, count, positive, totalPositive: s.totalPositive };
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
  const points: RiskCoveragePoint[] = [];
  let kept = 0;
  let errors = 0;
  for (let b = 0; b < s.blocks; b++) {
    const c = s.count[b] as number;
    kept += c;
    errors += c - (s.positive[b] as number);
    points.push({ threshold: sign * (s.level[b] as number) + 0, count: kept, coverage: kept / s.n, risk: errors / kept });
  }
  return points;
}
