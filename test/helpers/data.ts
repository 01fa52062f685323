import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { uniforms } from './minstd.js';

/** Random probability rows (seeded), with optional rounding to create ties and exact zeros. */
export function randomProbs(
  seed: number,
  n: number,
  c: number,
  round?: number,
): { labels: number[]; probs: number[][] } {
  const u = uniforms(seed, n * (c + 1));
  const probs: number[][] = [];
  const labels: number[] = [];
  for (let i = 0; i < n; i++) {
    const raw = Array.from({ length: c }, (_, k) => Math.exp(4 * (u[i * (c + 1) + k] as number) ** 2));
    let row = raw.map((x) => x / raw.reduce((a, b) => a + b, 0));
    if (round !== undefined) {
      // largest-remainder allocation of `round` units: multiples of 1/round that sum to exactly 1
      const scaled = row.map((x) => x * round);
      const units = scaled.map(Math.floor);
      let left = round - units.reduce((a, b) => a + b, 0);
      const order = scaled.map((x, k) => [x - Math.floor(x), k] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
      for (const [, k] of order) {
        if (left-- <= 0) break;
        units[k] = (units[k] as number) + 1;
      }
      row = units.map((x) => x / round);
    }
    probs.push(row);
    labels.push(Math.min(c - 1, Math.floor((u[i * (c + 1) + c] as number) * c)));
  }
  return { labels, probs };
}

/** A deterministic permutation of 0 … n−1 (multiplicative step coprime with n). */
export function permutation(n: number): number[] {
  let step = Math.floor(n * 0.618) | 1;
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  while (gcd(step, n) !== 1) step += 2;
  return Array.from({ length: n }, (_, i) => (i * step + 3) % n);
}

/** The bundled MNIST example, parsed with a plain split (independent of the io module). */
export function exampleCsv(name: 'mlp_overfit_test' | 'logreg_test'): { labels: number[]; probs: number[][] } {
  const path = fileURLToPath(new URL(`../../examples/data/${name}.csv`, import.meta.url));
  const lines = readFileSync(path, 'utf8').trim().split('\n').slice(1);
  const labels: number[] = [];
  const probs: number[][] = [];
  for (const line of lines) {
    const cells = line.split(',').map(Number);
    labels.push(cells[0] as number);
    probs.push(cells.slice(1));
  }
  return { labels, probs };
}
