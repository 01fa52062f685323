import { UMError } from '../errors/UMError.js';
import type { Chunk } from '../io/planChunks.js';
import { BATCH_ROWS, type PredictionBatch } from '../io/batches.js';
import { streamCsv } from '../io/readCsv.js';
import { streamParquet } from '../io/readParquet.js';
import { streamPredictions } from '../io/readPredictions.js';
import { checkRead, type ReadSpec } from '../io/readSpec.js';
import { named } from '../io/classNames.js';
import { streamNpy } from '../io/streamNpy.js';
import type { PredictionData, ReadOptions } from '../io/types.js';
import { createState, transferForm, type MetricState, type StateJSON, type StateMetric } from '../state/createState.js';
import type { CollectPlan, CollectedClass } from '../accumulate/classHistogram.js';
import { countClassColumns, PassTwo } from '../state/twoPass.js';
import type { UMWarning } from '../warnings/warnings.js';
import { cliMessage } from './errors.js';

/** What one chunk of a streamed file is reduced to: its state, warnings, and a description of the source. */
export interface ChunkResult {
  /** One state per requested name. */
  states: Record<string, StateJSON>;
  warnings: { code: UMWarning['code']; fn: string; message: string }[];
  source: {
    path: string;
    format: PredictionData['format'];
    input: PredictionData['input'];
    numClasses: number;
    classes?: readonly string[];
  };
  /** Pass 2 of two (state/twoPass.ts): per plan, per class, the chunk's split entries and segment sums. */
  collected?: CollectedClass[][];
}

/** A chunk task: everything a worker thread needs, as plain data. */
export interface ChunkTask {
  command: string;
  path: string;
  read: ReadOptions;
  chunk: Chunk;
  /** The states to build, by name: a metric and its options (without the input kind, taken from the data). */
  states: Record<string, { metric: StateMetric; options: Record<string, unknown> }>;
  /** Input options derived from the flags (`binary`, `sumTolerance`). */
  input: { binary?: boolean; sumTolerance?: number };
  /**
   * Two passes over the file (state/twoPass.ts): `'count'` in pass 1 (the class-wise equal-mass stores count entries
   * per bucket), the plans in pass 2 (only the rows' entries are read: the states were made in pass 1).
   */
  twoPass?: 'count' | CollectPlan[];
}

function batches(task: ChunkTask): AsyncIterable<PredictionBatch> {
  const c = task.chunk;
  // the options and defaults the whole file's reader resolves, for the part of it this chunk reads
  const spec = checkRead('streamPredictions', task.path, task.read);
  if (c.kind === 'csv') return namedBatches(spec, streamCsv(spec, BATCH_ROWS, c.range));
  if (c.kind === 'parquet') return namedBatches(spec, streamParquet(spec, BATCH_ROWS, c.rows));
  if (c.kind === 'npy') return streamNpy(spec, BATCH_ROWS, c.rows);
  return streamPredictions(task.path, task.read);
}

/** The batches with the declared class names (what streamPredictions does for a whole file). */
async function* namedBatches(spec: ReadSpec, batches: AsyncIterable<PredictionBatch>): AsyncGenerator<PredictionBatch> {
  for await (const b of batches) yield named(spec.fn, spec.classes, b);
}

/**
 * Reduces one chunk of a file to an `evaluate` state (the same code on the main thread and in workers, so the
 * chunk states — and their merge in chunk order — are identical whatever the number of threads). A library error is
 * rethrown located in the file, as the command prints it.
 */
export async function chunkState(task: ChunkTask): Promise<ChunkResult> {
  const warnings: ChunkResult['warnings'] = [];
  let current: PredictionBatch | undefined;
  let states: Record<string, MetricState> | undefined;
  let source: ChunkResult['source'] | undefined;
  // updates warn only about their batch's input (metric warnings come from the merged states' result)
  const onWarning = (w: UMWarning) => {
    if (!warnings.some((x) => x.code === w.code && x.message === w.message))
      warnings.push({ code: w.code, fn: w.fn, message: w.message });
  };
  const plans = task.twoPass;
  const second = Array.isArray(plans) ? new PassTwo(plans) : undefined;
  try {
    for await (const batch of batches(task)) {
      current = batch;
      if (second !== undefined) {
        // validated in pass 1: the rows are only read
        source ??= { path: batch.path, format: batch.format, input: batch.input, numClasses: batch.numClasses };
        second.add(batch.n, batch.scores as Float64Array, batch.labels);
        continue;
      }
      if (batch.members !== undefined)
        throw new UMError(
          'UM_OPTION',
          `${task.command}: --stream reads one model's scores; ${batch.path} holds ensemble members`,
          { fn: task.command, argument: '--stream' },
        );
      if (states === undefined) {
        source = {
          path: batch.path,
          format: batch.format,
          input: batch.input,
          numClasses: batch.numClasses,
          ...(batch.classes === undefined ? {} : { classes: batch.classes }),
        };
        const input: Record<string, unknown> = { input: batch.input, ...task.input };
        if (task.input.binary !== true) input.numClasses = batch.numClasses;
        states = Object.fromEntries(
          Object.entries(task.states).map(([name, s]) => [
            name,
            createState(s.metric, { ...s.options, ...input, onWarning }),
          ]),
        );
        // probabilities only: a Parquet list column named logits or logprobs says its kind itself (not a flag), and
        // pass 2 buckets the scores as read
        if (task.twoPass === 'count' && batch.input === 'probs')
          for (const s of Object.values(states)) countClassColumns(s, batch.numClasses);
      }
      for (const s of Object.values(states))
        s.update(
          batch.labels,
          batch.scores as Float64Array,
          batch.weights === undefined ? {} : { weights: batch.weights },
        );
    }
  } catch (error) {
    if (error instanceof UMError) {
      // located here, where the batch is known; the main thread prints it as is
      const text = cliMessage(task.command, error, current);
      throw new UMError(error.code, text, { fn: task.command });
    }
    throw error;
  }
  if (second !== undefined && source !== undefined) return { states: {}, warnings, source, collected: second.result() };
  if (states === undefined || source === undefined)
    throw new UMError('UM_EMPTY', `${task.command}: ${task.path}: has no rows`, { fn: task.command });
  const json = Object.fromEntries(Object.entries(states).map(([name, s]) => [name, transferForm(s)]));
  return { states: json, warnings, source };
}
