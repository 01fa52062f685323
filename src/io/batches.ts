import type { PredictionData } from './types.js';

/** Rows per batch of the streaming readers (a batch of 10 classes is about 6 MB of float64 scores). */
export const BATCH_ROWS = 16384;

/** A batch of a streamed prediction file: `PredictionData` of its rows, `firstRow` their offset in the file. */
export interface PredictionBatch extends PredictionData {
  /** Index in the file of the batch's first row. */
  readonly firstRow: number;
}

/** Concatenates the batches of one file into one `PredictionData` (the non-streaming readers) (internal). */
export async function collect(batches: AsyncIterable<PredictionBatch>): Promise<PredictionData> {
  const parts: PredictionBatch[] = [];
  for await (const b of batches) parts.push(b);
  const first = parts[0] as PredictionBatch; // the streams throw UM_EMPTY before yielding nothing
  if (parts.length === 1) return first;
  const n = parts.reduce((a, b) => a + b.n, 0);
  const c = first.numClasses;
  const labels = new Float64Array(first.hasLabels ? n : 0);
  const scores = new Float64Array(n * c);
  const weights = first.weights === undefined ? undefined : new Float64Array(n);
  const starts: number[] = [];
  let at = 0;
  for (const b of parts) {
    starts.push(at);
    if (first.hasLabels) labels.set(b.labels, at);
    scores.set(b.scores as Float64Array, at * c);
    if (weights !== undefined && b.weights !== undefined) weights.set(b.weights, at);
    at += b.n;
  }
  const { firstRow: _f, ...rest } = first;
  return {
    ...rest,
    n,
    labels,
    scores,
    ...(weights === undefined ? {} : { weights }),
    locate(row, column, argument, member) {
      let k = starts.length - 1;
      while (k > 0 && (starts[k] as number) > row) k--;
      return (parts[k] as PredictionBatch).locate(row - (starts[k] as number), column, argument, member);
    },
  };
}
