/**
 * The zero of a temperature objective's derivative for the temperature tests (temperatureSearch, temperatureMc), from
 * its sign alone: the reference the fits are checked against, independent of their Newton/Halley steps.
 */

/**
 * T = 1/β at the zero of g(u) = f′(e^u) on u = ln β ∈ [−ln hi, −ln lo] (g increasing, by convexity), or null when g
 * does not change sign there. A bracketing search: regula falsi (Illinois variant) with a bisection whenever two steps
 * fail to halve the bracket, down to 1e-12 in ln β — T within 1e-12 relative, 1000× finer than the 1e-9 the tests
 * ask — in ~15 evaluations of g (a plain bisection down to adjacent doubles took 55 to 80, most of those files' time).
 *
 * `near`, a temperature from elsewhere (the implementation before issue 17), only narrows the bracket: g is evaluated
 * at ln β ± 1e-7 around it and each point replaces the end whose sign it shares, so the bracket stays one that g
 * changes sign in and the zero found is the same (within 1e-12) however far off `near` is; a close one leaves ~4
 * evaluations instead of ~13 after the two at the bounds.
 */
export function zeroTemperature(g: (u: number) => number, lo: number, hi: number, near?: number): number | null {
  let a = -Math.log(hi);
  let b = -Math.log(lo);
  let ga = g(a);
  let gb = g(b);
  if (!(ga < 0 && gb > 0)) return null;
  if (near !== undefined && Number.isFinite(Math.log(near))) {
    for (const x of [-Math.log(near) - 1e-7, -Math.log(near) + 1e-7]) {
      if (!(x > a && x < b)) continue;
      const gx = g(x);
      if (gx === 0) return Math.exp(-x);
      if (gx < 0) [a, ga] = [x, gx];
      else [b, gb] = [x, gx];
    }
  }
  let side = 0; // which end the last step moved: −1 a, 1 b
  let halvedAt = b - a;
  let slow = 0;
  for (let k = 0; k < 200 && b - a > 1e-12; k++) {
    let x = slow >= 2 ? (a + b) / 2 : a - (ga * (b - a)) / (gb - ga);
    if (!(x > a && x < b)) x = (a + b) / 2; // a step off the bracket (rounding)
    if (x === a || x === b) break; // a and b adjacent doubles
    const gx = g(x);
    if (gx === 0) return Math.exp(-x);
    if (gx < 0) {
      a = x;
      ga = gx;
      if (side === -1) gb /= 2; // the same end twice: halve the other end's weight (Illinois)
      side = -1;
    } else {
      b = x;
      gb = gx;
      if (side === 1) ga /= 2;
      side = 1;
    }
    if (b - a <= halvedAt / 2) {
      halvedAt = b - a;
      slow = 0;
    } else slow++;
  }
  return Math.exp(-(a + b) / 2);
}
