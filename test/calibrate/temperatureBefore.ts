/**
 * The temperature fits as they were before issue 17 (commit 8023083, src/calibrate/temperatureCore.ts and
 * fitMcTemperature.ts), frozen as a reference for test/calibrate/temperatureSearch.test.ts: the same T within 1e-9
 * relative, in no fewer passes. Warnings and option checks are left out; the arithmetic and the search are verbatim.
 */
import { toEnsemble, toProbabilities, type Scores } from '../../src/index.js';

interface Pass {
  f: number;
  g: number;
  h: number;
}

/** Log-probabilities as the old fits read them: exact from logits, ln p from probabilities. */
function logOf(data: Float32Array | Float64Array, logData: Float64Array | undefined): Float64Array {
  return logData ?? Float64Array.from(data, Math.log);
}

function pass(l: Float64Array, rowMax: Float64Array, n: number, c: number, y: ArrayLike<number>, beta: number): Pass {
  let f = 0;
  let g = 0;
  let h = 0;
  for (let i = 0, o = 0; i < n; i++, o += c) {
    const m = rowMax[i] as number;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    for (let k = 0; k < c; k++) {
      const d = (l[o + k] as number) - m;
      if (d === -Infinity) continue;
      const e = Math.exp(beta * d);
      s0 += e;
      s1 += e * d;
      s2 += e * d * d;
    }
    const mean = s1 / s0;
    const dy = (l[o + (y[i] as number)] as number) - m;
    f += Math.log(s0) - beta * dy;
    g += mean - dy;
    h += Math.max(0, s2 / s0 - mean * mean);
  }
  return { f: f / n, g: g / n, h: h / n };
}

/** The old fitTemperature: safeguarded Newton on u = ln β with the bound tried after three steps one way. */
export function fitTemperatureBefore(
  labels: ArrayLike<number>,
  scores: Scores,
  options: {
    input?: 'logits' | 'logprobs' | 'probs';
    numClasses?: number;
    binary?: boolean;
    bounds?: [number, number];
  } = {},
): { temperature: number; evaluations: number; nllAfter: number } {
  const { bounds = [1e-3, 1e3], ...input } = options;
  const p = toProbabilities(scores, input);
  const l = logOf(p.data, p.logData);
  const { n, numClasses: c } = p;
  const rowMax = new Float64Array(n);
  for (let i = 0; i < n; i++) rowMax[i] = Math.max(...l.subarray(i * c, i * c + c));
  const at = (beta: number) => pass(l, rowMax, n, c, labels, beta);
  const [lo, hi] = bounds;
  const tolerance = 1e-10;
  const maxEvaluations = 200;
  let a = -Math.log(hi);
  let b = -Math.log(lo);
  let u = 0;
  let cur = at(1);
  let evaluations = 1;
  if (!Number.isFinite(cur.f)) return { temperature: 1, evaluations, nllAfter: cur.f };
  let best = { u, f: cur.f };
  const uLo = a;
  const uHi = b;
  let sameWay = 0;
  let lastDir = 0;
  const triedBound = new Set<number>();
  while (evaluations < maxEvaluations) {
    if (cur.g === 0) break;
    if (cur.g < 0) a = u;
    else b = u;
    const beta = Math.exp(u);
    const d1 = beta * cur.g;
    const d2 = beta * beta * cur.h + d1;
    let next = d2 > 0 ? u - d1 / d2 : Number.NaN;
    if (Math.abs(next - u) < tolerance) break;
    const end = cur.g < 0 ? b : a;
    if (!(next > a && next < b)) next = u + Math.sign(end - u) * Math.min(1, Math.abs(end - u) / 2);
    const dir = Math.sign(next - u);
    sameWay = dir === lastDir ? sameWay + 1 : 1;
    lastDir = dir;
    if (sameWay >= 3 && (end === uLo || end === uHi) && !triedBound.has(end)) {
      next = end;
      triedBound.add(end);
    }
    if (Math.abs(next - u) < tolerance) break;
    u = next;
    cur = at(Math.exp(u));
    evaluations++;
    if (cur.f < best.f || (cur.f === best.f && best.u !== 0)) best = { u, f: cur.f };
    if (b - a < tolerance || (u === uLo && cur.g > 0) || (u === uHi && cur.g < 0)) break;
  }
  for (const [end, t] of [
    [uLo, hi],
    [uHi, lo],
  ] as const) {
    if (Math.abs(best.u - end) <= 1e-6 && best.u !== end && evaluations < maxEvaluations) {
      const v = at(1 / t);
      evaluations++;
      if (v.f <= best.f) best = { u: end, f: v.f };
    }
  }
  if (cur.g === 0 && best.u !== 0 && lastDir !== 0 && evaluations < maxEvaluations) {
    const end = lastDir > 0 ? uHi : uLo;
    if (best.u !== end) {
      const v = at(Math.exp(end));
      evaluations++;
      if (v.f <= best.f) best = { u: end, f: v.f };
    }
  }
  const temperature = best.u === uLo ? hi : best.u === uHi ? lo : Math.exp(-best.u);
  return { temperature, evaluations, nllAfter: best.f };
}

const GOLDEN = (3 - Math.sqrt(5)) / 2;

/** Brent's minimiser as it was (src/math/minimize.ts): golden section with parabolic steps, NaN as +∞. */
function brent(
  f: (x: number) => number,
  a: number,
  b: number,
  tolerance: number,
  maxEvaluations: number,
): { x: number; fx: number; evaluations: number } {
  const g = (x: number) => {
    const v = f(x);
    return Number.isNaN(v) ? Infinity : v;
  };
  let lo = a;
  let hi = b;
  let x = lo + GOLDEN * (hi - lo);
  let w = x;
  let v = x;
  let fx = g(x);
  let fw = fx;
  let fv = fx;
  let evaluations = 1;
  let d = 0;
  let e = 0;
  while (evaluations < maxEvaluations) {
    const m = (lo + hi) / 2;
    const tol1 = tolerance / 2 + 1e-15 * Math.abs(x);
    const tol2 = 2 * tol1;
    if (Math.abs(x - m) <= tol2 - (hi - lo) / 2) break;
    let golden = true;
    if (Math.abs(e) > tol1 && Number.isFinite(fx) && Number.isFinite(fw) && Number.isFinite(fv)) {
      let r = (x - w) * (fx - fv);
      let q = (x - v) * (fx - fw);
      let p = (x - v) * q - (x - w) * r;
      q = 2 * (q - r);
      if (q > 0) p = -p;
      else q = -q;
      r = e;
      e = d;
      if (Math.abs(p) < Math.abs(0.5 * q * r) && p > q * (lo - x) && p < q * (hi - x)) {
        d = p / q;
        const u = x + d;
        if (u - lo < tol2 || hi - u < tol2) d = x < m ? tol1 : -tol1;
        golden = false;
      }
    }
    if (golden) {
      e = (x < m ? hi : lo) - x;
      d = GOLDEN * e;
    }
    const u = Math.abs(d) >= tol1 ? x + d : x + (d > 0 ? tol1 : -tol1);
    const fu = g(u);
    evaluations++;
    if (fu <= fx) {
      if (u < x) hi = x;
      else lo = x;
      v = w;
      fv = fw;
      w = x;
      fw = fx;
      x = u;
      fx = fu;
    } else {
      if (u < x) lo = u;
      else hi = u;
      if (fu <= fw || w === x) {
        v = w;
        fv = fw;
        w = u;
        fw = fu;
      } else if (fu <= fv || v === x || v === w) {
        v = u;
        fv = fu;
      }
    }
  }
  return { x, fx, evaluations };
}

/** ℓ_y(T) = log softmax(ℓ/T)_y of one row, as the old objective computed it. */
function scaledLogProbability(l: Float64Array, o: number, c: number, y: number, invT: number): number {
  let max = -Infinity;
  for (let k = 0; k < c; k++) max = Math.max(max, (l[o + k] as number) * invT);
  let sum = 0;
  for (let k = 0; k < c; k++) sum += Math.exp((l[o + k] as number) * invT - max);
  return (l[o + y] as number) * invT - max - Math.log(sum);
}

/** The old fitMcTemperature: Brent on ln T, then the best of T = 1, both bounds and the Brent point. */
export function fitMcTemperatureBefore(
  labels: ArrayLike<number>,
  members: Float32Array | Float64Array,
  options: { numMembers: number; numClasses: number; objective?: 'predictive' | 'mean-nll'; bounds?: [number, number] },
): { temperature: number; evaluations: number; nllAfter: number } {
  const { numMembers: s, numClasses: c, objective = 'predictive', bounds = [1e-3, 1e3] } = options;
  const e = toEnsemble(members, { input: 'logits', numMembers: s, numClasses: c });
  const l = logOf(e.data, e.logData);
  const n = e.n;
  const perPass = new Float64Array(s);
  const nll = (t: number) => {
    const inv = 1 / t;
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const yi = labels[i] as number;
      if (objective === 'mean-nll') {
        for (let m = 0; m < s; m++) sum -= scaledLogProbability(l, (m * n + i) * c, c, yi, inv);
      } else {
        let max = -Infinity;
        for (let m = 0; m < s; m++) {
          const v = scaledLogProbability(l, (m * n + i) * c, c, yi, inv);
          perPass[m] = v;
          if (v > max) max = v;
        }
        if (max === -Infinity) return Infinity;
        let acc = 0;
        for (let m = 0; m < s; m++) acc += Math.exp((perPass[m] as number) - max);
        sum -= max + Math.log(acc / s);
      }
    }
    return objective === 'mean-nll' ? sum / (n * s) : sum / n;
  };
  const [lo, hi] = bounds;
  const before = nll(1);
  if (!Number.isFinite(before)) return { temperature: 1, evaluations: 1, nllAfter: before };
  const r = brent((u) => nll(Math.exp(u)), Math.log(lo), Math.log(hi), 1e-10, 200);
  const candidates: [number, number][] = [
    [1, before],
    [lo, nll(lo)],
    [hi, nll(hi)],
    [Math.exp(r.x), r.fx],
  ];
  let [temperature, after] = candidates[0] as [number, number];
  for (const [t, v] of candidates) if (v < after) [temperature, after] = [t, v];
  return { temperature, evaluations: r.evaluations + 3, nllAfter: after };
}
