import { temperatureRows } from '../kernels/temperatureRows.js';
import type { TemperaturePass } from './temperatureCore.js';
import type { TemperatureValues } from './temperatureInput.js';

/** The row sums of `v` at β: one pass over the data unless the last pass was at this β (internal). */
function sumsAt(v: TemperatureValues, beta: number): TemperatureValues['sums'] {
  if (v.beta !== beta) {
    temperatureRows(v.values, v.rows, v.c, beta, v.sums);
    v.beta = beta;
  }
  return v.sums;
}

/** z at the label of every row (row r of an ensemble's S·N rows has label y[r mod N]): read once, not per pass. */
function labelValues(v: TemperatureValues, y: Int32Array): Float64Array {
  const { values, rows, c } = v;
  const n = y.length;
  const out = new Float64Array(rows);
  for (let r = 0, i = 0; r < rows; r++, i = i + 1 === n ? 0 : i + 1)
    out[r] = values[r * c + (y[i] as number)] as number;
  return out;
}

/**
 * The mean NLL over every row of `v` and its derivatives in β — single-model temperature scaling, and the `'mean-nll'`
 * objective over the S·N member rows (row r has label y[r mod N]): f = (1/R)·Σ_r [ln s0 − β·d_y],
 * f′ = (1/R)·Σ_r (s1/s0 − d_y) = mean of E_p[d] − d_y, f″ = mean of Var_p[d] ≥ 0, f‴ = mean of E_p[(d − E_p d)³]
 * (the derivative of a variance under p ∝ e^{β·d} is the third central moment), with d = z − max z and E_p[d^j] =
 * s_j/s0 (an exact zero probability at a label gives f = +∞). Internal.
 */
export function meanNllPass(v: TemperatureValues, y: Int32Array): (beta: number) => TemperaturePass {
  const zy = labelValues(v, y);
  return (beta) => {
    const { max, s0, s1, s2, s3 } = sumsAt(v, beta);
    const rows = v.rows;
    let f = 0;
    let g = 0;
    let h = 0;
    let t = 0;
    for (let r = 0; r < rows; r++) {
      const a = s0[r] as number; // ≥ 1: the maximum contributes e^0
      const mean = (s1[r] as number) / a; // E[d]
      const m2 = (s2[r] as number) / a; // E[d²]
      const dy = (zy[r] as number) - (max[r] as number);
      f += Math.log(a) - beta * dy;
      g += mean - dy;
      h += Math.max(0, m2 - mean * mean);
      t += (s3[r] as number) / a - mean * (3 * m2 - 2 * mean * mean); // E[(d − E d)³]
    }
    return { f: f / rows, g: g / rows, h: h / rows, t: t / rows };
  };
}

/**
 * The NLL of the members' averaged prediction p̄ = (1/S)·Σ_s softmax(β·z_s) (the `'predictive'` objective) and its
 * derivatives in β, from the same row sums: with a_s = ln softmax(β·z_s)_y = β·d_y − ln s0, a_s′ = d_y − E_s[d] and
 * a_s″ = −Var_s[d], and weights w_s = e^{a_s}/Σ e^{a}: f = −(1/N)·Σ_i ln p̄_i, f′ = −(1/N)·Σ_i Σ_s w_s·a_s′,
 * f″ = −(1/N)·Σ_i [Σ_s w_s·(a_s″ + a_s′²) − (Σ_s w_s·a_s′)²] (not necessarily ≥ 0: the average of softmaxes need not be
 * log-concave in β). A member with probability exactly 0 at the label has weight 0; all of them give f = +∞. Internal.
 */
export function predictivePass(
  v: TemperatureValues,
  y: Int32Array,
  numMembers: number,
): (beta: number) => TemperaturePass {
  const n = y.length;
  const zy = labelValues(v, y);
  const a = new Float64Array(numMembers);
  const a1 = new Float64Array(numMembers);
  const a2 = new Float64Array(numMembers);
  return (beta) => {
    const { max, s0, s1, s2 } = sumsAt(v, beta);
    let f = 0;
    let g = 0;
    let h = 0;
    for (let i = 0; i < n; i++) {
      let top = -Infinity;
      for (let s = 0; s < numMembers; s++) {
        const r = s * n + i;
        const sum = s0[r] as number;
        const mean = (s1[r] as number) / sum;
        const dy = (zy[r] as number) - (max[r] as number);
        a[s] = beta * dy - Math.log(sum);
        a1[s] = dy - mean;
        a2[s] = -Math.max(0, (s2[r] as number) / sum - mean * mean);
        if ((a[s] as number) > top) top = a[s] as number;
      }
      if (top === -Infinity) return { f: Infinity, g: 0, h: 0 };
      let w = 0;
      let m1 = 0;
      let m2 = 0;
      for (let s = 0; s < numMembers; s++) {
        if (a[s] === -Infinity) continue; // weight 0 (and a′ = −∞)
        const e = Math.exp((a[s] as number) - top);
        const d1 = a1[s] as number;
        w += e;
        m1 += e * d1;
        m2 += e * ((a2[s] as number) + d1 * d1);
      }
      const mean1 = m1 / w;
      f -= top + Math.log(w / numMembers);
      g -= mean1;
      h -= m2 / w - mean1 * mean1;
    }
    return { f: f / n, g: g / n, h: h / n };
  };
}
