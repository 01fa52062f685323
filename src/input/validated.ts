import type { EnsembleMatrix, ProbMatrix } from './types.js';

/**
 * Matrices built by `toProbabilities`. Only objects in this set skip validation: an object that merely looks
 * like a `ProbMatrix` is validated like any other input.
 */
const validated = new WeakSet<object>();

/** Marks a matrix or an ensemble as validated. */
export function markValidated<T extends ProbMatrix | EnsembleMatrix>(matrix: T): T {
  validated.add(matrix);
  return matrix;
}

/** True when `value` was built by `toProbabilities`. */
export function isValidatedProbMatrix(value: unknown): value is ProbMatrix {
  return (
    typeof value === 'object' &&
    value !== null &&
    validated.has(value) &&
    (value as { kind?: unknown }).kind === 'probabilities'
  );
}

/** True when `value` was built by `toEnsemble` (or another ensemble function's validation). */
export function isValidatedEnsemble(value: unknown): value is EnsembleMatrix {
  return (
    typeof value === 'object' &&
    value !== null &&
    validated.has(value) &&
    (value as { kind?: unknown }).kind === 'ensemble'
  );
}
