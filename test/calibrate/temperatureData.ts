/** Seeded logits for the temperature tests (temperatureSearch, temperatureMc). */
import { uniforms } from '../helpers/minstd.js';

/**
 * n rows of C logits: scale·(2u − 1) plus a margin of 2·scale on one class, labels drawn from softmax(z / t0) (t0 = 1:
 * calibrated; t0 < 1 over-, t0 > 1 under-confident; t0 = 0: the label is the argmax, separable). `ties`: every 5th
 * row ties its maximum, every 7th repeats the row before; `minusInf`: every 6th row has a −∞ entry off the label.
 */
export function logitsCase(
  seed: number,
  n: number,
  c: number,
  scale: number,
  t0: number,
  ties = false,
  minusInf = false,
): { labels: number[]; z: Float64Array } {
  // plain loops over one stream and one buffer of exponentials (the same values, operations and order as slicing each
  // row and spreading it: that was a fifth of temperatureSearch.test.ts's time)
  const u = uniforms(seed * 7919 + 13, n * (c + 2) + 10);
  const z = new Float64Array(n * c);
  const e = new Float64Array(c);
  const labels: number[] = [];
  for (let i = 0; i < n; i++) {
    const o = i * c;
    const row = 10 + i * (c + 2);
    for (let k = 0; k < c; k++) z[o + k] = scale * (2 * (u[row + k] as number) - 1);
    const top = Math.floor((u[row + c] as number) * c);
    z[o + top] = (z[o + top] as number) + 2 * scale;
    if (ties && i % 5 === 0) z[o + ((top + 1) % c)] = z[o + top] as number;
    if (ties && i % 7 === 0 && i > 0) z.copyWithin(o, o - c, o);
    let y = 0;
    if (t0 === 0) {
      for (let k = 1; k < c; k++) if ((z[o + k] as number) > (z[o + y] as number)) y = k;
    } else {
      let m = -Infinity;
      for (let k = 0; k < c; k++) m = Math.max(m, z[o + k] as number);
      let total = 0;
      for (let k = 0; k < c; k++) {
        e[k] = Math.exp(((z[o + k] as number) - m) / t0);
        total += e[k] as number;
      }
      let r = (u[row + c + 1] as number) * total;
      while (y < c - 1 && r > (e[y] as number)) r -= e[y++] as number;
    }
    if (minusInf && i % 6 === 0 && c > 2) z[o + ((y + 1) % c)] = -Infinity;
    labels.push(y);
  }
  return { labels, z };
}
