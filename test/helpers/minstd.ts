/**
 * Park–Miller "minimal standard" generator, x_{k+1} = 16807·x_k mod (2^31 − 1), u_k = x_k / (2^31 − 1): exact in
 * IEEE doubles, so every language reproduces the same stream (reference_values.md §11).
 */
export function minstd(seed: number, count: number): number[] {
  const m = 2147483647;
  const out: number[] = [];
  let x = seed;
  if (Number.isInteger(seed) && seed > 0 && seed < m) {
    // the same remainder without a floating-point %: 16807·x < 2^46 = hi·2^31 + lo exactly, and 2^31 ≡ 1 (mod m), so
    // the remainder is hi + lo (< 2m) less m when it reaches m (about a third faster; many tests draw millions)
    for (let k = 0; k < count; k++) {
      const p = 16807 * x;
      const hi = Math.floor(p / 2147483648);
      const r = p - hi * 2147483648 + hi;
      x = r >= m ? r - m : r;
      out.push(x / m);
    }
    return out;
  }
  for (let k = 0; k < count; k++) {
    x = (16807 * x) % m;
    out.push(x / m);
  }
  return out;
}

/** The reference_values.md §11 binary dataset: 300 (confidence, correct) pairs from seed 12345. */
export function minstdDataset(): { conf: number[]; correct: number[] } {
  const u = minstd(12345, 600);
  const conf: number[] = [];
  const correct: number[] = [];
  for (let i = 0; i < 300; i++) {
    const c = 0.3 + 0.7 * (u[i] as number);
    conf.push(c);
    correct.push((u[300 + i] as number) < c + 0.25 * Math.sin(2 * Math.PI * c) ? 1 : 0);
  }
  return { conf, correct };
}

/** A seeded uniform stream in [0, 1) for property tests. */
export function uniforms(seed: number, count: number): number[] {
  return minstd(seed, count);
}
