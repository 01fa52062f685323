import { fail } from '../errors/fail.js';
import { checkFinite, isArrayLike } from './probMatrix.js';
import type { ProbMatrix, Scores, ScoreKind } from './types.js';

/** A binary vector (P(y = 1), or its logit or log-probability) as a validated two-column matrix. Internal. */
export function binaryMatrix(fn: string, scores: Scores, input: ScoreKind, numClasses: number | undefined): ProbMatrix {
  if (numClasses !== undefined && numClasses !== 2) {
    fail('UM_OPTION', fn, 'options.numClasses', 'be 2 (or omitted) with binary: true', { value: numClasses });
  }
  if (!isArrayLike(scores) || (scores as { kind?: unknown }).kind === 'probabilities') {
    fail('UM_SHAPE', fn, input, 'be a vector of one score per example with binary: true', { value: scores });
  }
  const n = scores.length;
  if (n === 0) fail('UM_EMPTY', fn, input, 'hold at least one score', { value: 0 });
  const data = new Float64Array(2 * n);
  const logData = input === 'probs' ? undefined : new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    const raw = scores[i];
    if (isArrayLike(raw)) {
      fail('UM_SHAPE', fn, input, 'be a number (binary: true takes a vector, not a matrix)', {
        index: [i],
        value: raw,
      });
    }
    const v = checkFinite(fn, input, raw, [i], input !== 'probs');
    let p1: number;
    let p0: number;
    if (input === 'probs') {
      if (v < 0 || v > 1) fail('UM_PROB_RANGE', fn, input, 'be in [0, 1]', { index: [i], value: v });
      p1 = v;
      p0 = 1 - v;
    } else if (input === 'logprobs') {
      if (v > 0) fail('UM_PROB_RANGE', fn, input, 'be ≤ 0 (a log-probability)', { index: [i], value: v });
      p1 = Math.exp(v);
      p0 = -Math.expm1(v);
      if (logData !== undefined) {
        logData[2 * i] = Math.log(p0);
        logData[2 * i + 1] = v;
      }
    } else {
      // Logistic sigmoid of a logit, evaluated without overflow on either side; log σ(±z) via log1p.
      if (v >= 0) {
        const e = Math.exp(-v);
        p1 = 1 / (1 + e);
        p0 = e / (1 + e);
        if (logData !== undefined) {
          logData[2 * i] = -v - Math.log1p(e);
          logData[2 * i + 1] = -Math.log1p(e);
        }
      } else {
        const e = Math.exp(v);
        p0 = 1 / (1 + e);
        p1 = e / (1 + e);
        if (logData !== undefined) {
          logData[2 * i] = -Math.log1p(e);
          logData[2 * i + 1] = v - Math.log1p(e);
        }
      }
    }
    data[2 * i] = p0;
    data[2 * i + 1] = p1;
  }
  return logData === undefined
    ? { kind: 'probabilities', data, n, numClasses: 2, input, binary: true }
    : { kind: 'probabilities', data, logData, n, numClasses: 2, input, binary: true };
}
