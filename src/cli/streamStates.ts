import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { UMError } from '../errors/UMError.js';
import { CHUNK_ROWS, planChunks } from '../io/planChunks.js';
import type { PredictionData } from '../io/types.js';
import { stateFromJSON, type MetricState, type StateMetric } from '../state/createState.js';
import { BUCKETS, type CollectedClass } from '../accumulate/classHistogram.js';
import { collectPlans, MAX_TWO_PASS_CLASSES, resolveTwoPass } from '../state/twoPass.js';
import type { UMWarning } from '../warnings/warnings.js';
import type { ChunkResult, ChunkTask } from './chunkState.js';
import { readOptionsFor } from './inputFlags.js';
import { parseIntegerFlag, parseNumberFlag } from './io.js';
import { ChunkWorkers } from './parallelChunks.js';

/** What a streamed file was reduced to. */
export interface Streamed {
  states: Record<string, MetricState>;
  /** Stands in for the file's data in reports and tables (no rows). */
  source: PredictionData;
  /** Every warning, each once: the chunks' (input) and the merged states' `result()` — call it after the results. */
  warnings(): UMWarning[];
  chunks: number;
  threads: number;
  /** Reads of the file: 1, or 2 when the class-wise equal-mass bins were counted first (`--passes`). */
  passes: number;
}

/**
 * Streams one prediction file into the named states: planned into chunks of about a million rows (CSV at line
 * starts, Parquet at row groups, NumPy at rows), each reduced on `--threads` worker threads, the states merged in
 * chunk order as they arrive — the same chunks and order with any number of threads, so results are identical.
 * Shared by `um metrics --stream` and `um report --stream`.
 */
export async function streamStates(
  command: string,
  path: string,
  args: Record<string, unknown>,
  specs: ChunkTask['states'],
  context: { data?: PredictionData },
): Promise<Streamed> {
  const threadsFlag = parseIntegerFlag(command, '--threads', args.threads);
  if (threadsFlag !== undefined && threadsFlag < 1)
    throw new UMError('UM_OPTION', `${command}: --threads must be ≥ 1; got ${threadsFlag}`, {
      fn: command,
      argument: '--threads',
      value: threadsFlag,
    });
  const chunkRows = parseIntegerFlag(command, '--chunk-rows', args['chunk-rows']);
  if (chunkRows !== undefined && chunkRows < 1)
    throw new UMError('UM_OPTION', `${command}: --chunk-rows must be ≥ 1; got ${chunkRows}`, {
      fn: command,
      argument: '--chunk-rows',
      value: chunkRows,
    });
  const read = readOptionsFor(args, path);
  const chunks = await planChunks(path, read, chunkRows);
  const threads = Math.min(chunks.length, threadsFlag ?? availableParallelism());
  const sumTolerance = parseNumberFlag(command, '--sum-tolerance', args['sum-tolerance']);
  const input: ChunkTask['input'] = {};
  if (args.binary === true) input.binary = true;
  if (sumTolerance !== undefined) input.sumTolerance = sumTolerance;
  // two passes over the file for the class-wise equal-mass bins (instead of keeping N·C entries) when it can be read
  // again and the rows are unweighted probabilities (see state/twoPass.ts). By default only for chunks of at least
  // BUCKETS rows: a class's histogram is BUCKETS counts per chunk, more than the entries it replaces in smaller chunks.
  const passes = parsePasses(command, args.passes);
  const readTwice =
    chunks.every((c) => c.kind !== 'whole') &&
    read.weightColumn === undefined &&
    (read.input ?? 'probs') === 'probs' &&
    args.binary !== true &&
    (chunkRows === undefined || chunkRows <= 2 ** 24) &&
    // a Parquet chunk is whole row groups, whatever --chunk-rows says
    chunks.every((c) => c.kind !== 'parquet' || c.rows[1] - c.rows[0] <= 2 ** 24) &&
    Object.values(specs).every((s) => s.options.mode !== 'bounded');
  if (passes === 2 && !readTwice)
    throw new UMError(
      'UM_OPTION',
      `${command}: --passes 2 reads the file twice in chunks: it takes unweighted probabilities in exact mode (not --weights, --input logits or logprobs, --binary or --bounded) from a file planned in at least two chunks of at most 2^24 rows (not stdin, a FIFO, JSON, a CSV with blank lines, or a file of one chunk: give a smaller --chunk-rows)`,
      { fn: command, argument: '--passes', value: 2 },
    );
  const twoPass = passes === undefined ? readTwice && (chunkRows ?? CHUNK_ROWS) >= BUCKETS : passes === 2;
  // the file as the first read starts: a file changed before the second read ends is an error, not mixed numbers
  const before = twoPass ? await fileStamp(path) : undefined;
  const tasks: ChunkTask[] = chunks.map((chunk) => ({
    command,
    path,
    read,
    chunk,
    states: specs,
    input,
    ...(twoPass ? { twoPass: 'count' as const } : {}),
  }));
  // merged in chunk order (with any number of threads); only states and warnings are kept
  const late: UMWarning[] = [];
  let merged: Record<string, MetricState> | undefined;
  let first: ChunkResult['source'] | undefined;
  const chunkWarnings: ChunkResult['warnings'] = [];
  // one pool for every pass: a worker loads the library once
  const workers = new ChunkWorkers(threads);
  let reads = 1;
  try {
    await workers.reduce(tasks, (r) => {
      if (merged === undefined)
        merged = Object.fromEntries(
          Object.entries(r.states).map(([k, s]) => [k, stateFromJSON(s, { onWarning: (w) => late.push(w) })]),
        );
      else for (const [k, s] of Object.entries(r.states)) merged[k]?.merge(stateFromJSON(s));
      first ??= r.source;
      chunkWarnings.push(...r.warnings);
    });
    context.data = undefined;
    if (merged === undefined || first === undefined)
      throw new UMError('UM_EMPTY', `${command}: ${path}: has no rows`, { fn: command });
    for (const state of Object.values(merged)) {
      const plans = collectPlans(state);
      if (plans.length === 0) continue;
      reads++;
      const parts: CollectedClass[][][] = [];
      await workers.reduce(
        tasks.map((t) => ({ ...t, twoPass: plans })),
        (r) => parts.push(r.collected ?? []),
      );
      let problem: string | undefined;
      try {
        problem = resolveTwoPass(state, plans, parts);
      } catch (error) {
        // the bins of the second read contradict the counts of the first: only a file that changed between them does
        if (error instanceof UMError) throw error;
        problem = error instanceof Error ? error.message : String(error);
      }
      if (problem === undefined && before !== undefined && (await fileStamp(path)) !== before)
        problem = 'its size or modification time changed';
      if (problem !== undefined)
        throw new UMError('UM_FILE_READ', `${command}: ${path}: changed while it was read twice (${problem})`, {
          fn: command,
        });
    }
  } finally {
    await workers.close();
  }
  if (passes === 2 && reads === 1)
    throw new UMError(
      'UM_OPTION',
      `${command}: --passes 2: ${path} has nothing to read twice: the class-wise equal-mass bins (ACE, TACE) are counted for probabilities of at most ${MAX_TWO_PASS_CLASSES} classes (it holds ${first.input} of ${first.numClasses} classes${args.classwise === false ? ', and --no-classwise leaves them out' : ''})`,
      { fn: command, argument: '--passes', value: 2 },
    );
  const warnings = (): UMWarning[] => {
    const out: UMWarning[] = [];
    for (const w of [...chunkWarnings, ...late])
      if (!out.some((x) => x.code === w.code && x.message === w.message)) out.push(w);
    return out;
  };
  const src = first;
  const source = {
    ...src,
    n: 0,
    labels: new Float64Array(0),
    hasLabels: true,
    locate: () => src.path,
  } as PredictionData;
  return { states: merged, source, warnings, chunks: chunks.length, threads, passes: reads };
}

/** The state specs of the `um metrics` set (and its bins and preset) (internal). */
export function evaluateSpec(
  args: Record<string, unknown>,
  bins: number | undefined,
  mode: 'exact' | 'bounded',
): { metric: StateMetric; options: Record<string, unknown> } {
  const options: Record<string, unknown> = { mode };
  if (bins !== undefined) options.bins = bins;
  if (typeof args.preset === 'string') options.preset = args.preset;
  if (args.classwise === false) options.classwise = false;
  return { metric: 'evaluate', options };
}

/** `--passes`: 1 (keep every entry, one read) or 2 (read the file twice, bounded memory); undefined: decided per file. */
function parsePasses(command: string, value: unknown): 1 | 2 | undefined {
  if (value === undefined) return undefined;
  if (value === '1' || value === '2') return Number(value) as 1 | 2;
  throw new UMError('UM_OPTION', `${command}: --passes must be 1 or 2; got ${JSON.stringify(value)}`, {
    fn: command,
    argument: '--passes',
    value,
  });
}

/** The file's identity for the two reads: device, inode, size and modification time (ns). */
async function fileStamp(path: string): Promise<string> {
  const s = await stat(path, { bigint: true });
  return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}`;
}
