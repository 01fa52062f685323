import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/random/rng.js';
import { ColumnBlocks, type ClassColumns } from '../../src/select/classColumns.js';

/**
 * Class columns gathered block by block (src/select/classColumns.ts) against the strided read of the row-major batch:
 * float64 values (softmax of logits) are gathered in blocks of at most 4 MiB, so a batch of more than that is read in
 * several blocks; each class's values, outcomes and positives must be the batch's own, in row order, whatever order the
 * classes are read in.
 */

/** A row-major batch of n rows × c classes: softmax-like float64 rows, or float32 values. */
function batchOf(n: number, c: number, f32: boolean, seed: number): ClassColumns {
  const rng = createRng('test', seed);
  const data = f32 ? new Float32Array(n * c) : new Float64Array(n * c);
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let sum = 0;
    for (let k = 0; k < c; k++) sum += data[i * c + k] = Math.exp(8 * rng.uniform());
    for (let k = 0; k < c; k++) data[i * c + k] = (data[i * c + k] as number) / sum;
    labels[i] = rng.integer(c);
  }
  return { n, numClasses: c, data, classMajor: false, round: false, labels, weights: undefined, unit: 1 };
}

function expectColumn(blocks: ColumnBlocks, cols: ClassColumns, k: number): void {
  const { n, numClasses: c, data, labels } = cols;
  const col = blocks.column(k);
  const want = data instanceof Float32Array ? new Float32Array(n) : new Float64Array(n);
  for (let i = 0; i < n; i++) want[i] = data[i * c + k] as number;
  expect(col.scores, `class ${k}`).toEqual(want);
  const positives = Int32Array.from(Array.from(labels.keys()).filter((i) => labels[i] === k));
  expect(col.positives, `class ${k} positives`).toEqual(positives);
  expect(col.outcomes, `class ${k} outcomes`).toEqual(Float64Array.from(labels, (y) => (y === k ? 1 : 0)));
}

describe('class columns gathered in blocks', () => {
  it('float64 values over several 4 MiB blocks (and float32 in one) equal the strided columns, in any order', () => {
    // 6 000 rows × 120 classes: 5.5 MiB of float64 values (two blocks), 2.7 MiB of float32 ones (one)
    for (const f32 of [false, true]) {
      const cols = batchOf(6000, 120, f32, f32 ? 31 : 32);
      const inOrder = new ColumnBlocks([{ cols, threshold: null }]);
      for (let k = 0; k < cols.numClasses; k++) inOrder.column(k);
      expect(inOrder.blockCount).toBe(f32 ? 1 : 2);
      for (let k = 0; k < cols.numClasses; k++) expectColumn(inOrder, cols, k);
      const rng = createRng('test', 33);
      const shuffled = new ColumnBlocks([{ cols, threshold: null }]);
      for (let j = 0; j < 60; j++) expectColumn(shuffled, cols, rng.integer(cols.numClasses));
    }
  });
});
