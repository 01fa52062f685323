/** Result of a one-dimensional minimisation. */
export interface ScalarMinimum {
  /** Best point found. */
  readonly x: number;
  /** f(x). */
  readonly fx: number;
  /** Function evaluations. */
  readonly evaluations: number;
  /** Whether the bracket shrank below the tolerance before the evaluation budget ran out. */
  readonly converged: boolean;
}

const GOLDEN = (3 - Math.sqrt(5)) / 2;

/**
 * Brent's method on [a, b]: golden-section steps with parabolic interpolation where it is safe, for a function
 * that is unimodal on the interval. Keeps the best point ever evaluated (never returns a worse iterate), stops when
 * the bracket is narrower than `tolerance` (absolute, in x) or after `maxEvaluations`. Non-finite values of f are
 * treated as +Infinity so the search moves away from them. Internal.
 *
 * Reference: R. P. Brent, "Algorithms for Minimization without Derivatives", 1973, ch. 5.
 */
export function brentMinimize(f: (x: number) => number, a: number, b: number, tolerance = 1e-10, maxEvaluations = 200): ScalarMinimum {
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
  let converged = false;
  while (evaluations < maxEvaluations) {
    const m = (lo + hi) / 2;
    const tol1 = tolerance / 2 + 1e-15 * Math.abs(x);
    const tol2 = 2 * tol1;
    if (Math.abs(x - m) <= tol2 - (hi - lo) / 2) {
      converged = true;
      break;
    }
    let golden = true;
    if (Math.abs(e) > tol1 && Number.isFinite(fx) && Number.isFinite(fw) && Number.isFinite(fv)) {
      // parabola through (v, fv), (w, fw), (x, fx)
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
  return { x, fx, evaluations, converged };
}
