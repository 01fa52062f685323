import type { ProbMatrix } from '../input/types.js';
import { markValidated } from '../input/validated.js';

/**
 * The one-vs-rest problems of a matrix: for two classes one problem (P(y = 1) vs 1[y = 1]); for C > 2 one per class
 * (p_k vs 1[y = k]). Internal.
 */
export function problems(p: ProbMatrix, y: Int32Array): { scores: Float64Array; outcomes: Uint8Array }[] {
  const c = p.numClasses;
  const classes = c === 2 ? [1] : Array.from({ length: c }, (_, k) => k);
  return classes.map((k) => {
    const scores = new Float64Array(p.n);
    const outcomes = new Uint8Array(p.n);
    for (let i = 0; i < p.n; i++) {
      scores[i] = p.data[i * c + k] as number;
      outcomes[i] = y[i] === k ? 1 : 0;
    }
    return { scores, outcomes };
  });
}

/** The scores of problem `j` of a matrix (internal). */
export function problemScores(p: ProbMatrix, j: number): Float64Array {
  const c = p.numClasses;
  const k = c === 2 ? 1 : j;
  const out = new Float64Array(p.n);
  for (let i = 0; i < p.n; i++) out[i] = p.data[i * c + k] as number;
  return out;
}

/**
 * Assembles calibrated one-vs-rest values into probabilities: [1 − v, v] for two classes; rows divided by their
 * sum for more (a row whose values are all 0 becomes uniform). Internal.
 */
export function assemble(p: ProbMatrix, values: Float64Array[]): ProbMatrix {
  const c = p.numClasses;
  const data = new Float64Array(p.n * c);
  for (let i = 0; i < p.n; i++) {
    if (c === 2) {
      const v = (values[0] as Float64Array)[i] as number;
      data[2 * i] = 1 - v;
      data[2 * i + 1] = v;
      continue;
    }
    let sum = 0;
    for (let k = 0; k < c; k++) sum += (values[k] as Float64Array)[i] as number;
    for (let k = 0; k < c; k++) data[i * c + k] = sum > 0 ? ((values[k] as Float64Array)[i] as number) / sum : 1 / c;
  }
  return markValidated({ kind: 'probabilities', data, n: p.n, numClasses: c, input: 'probs', binary: p.binary });
}
