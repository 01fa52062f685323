/**
 * Park–Miller "minimal standard" generator, x_{k+1} = 16807·x_k mod (2^31 − 1), u_k = x_k / (2^31 − 1): exact in
 * IEEE doubles, so every language reproduces the same stream (reference_values.md §11).
 */
export function minstd(seed: number, count: number): number[] {
  const m = 2147483647;
  const out: number[] = [];
  let x = seed;
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
