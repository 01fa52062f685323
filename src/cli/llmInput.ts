import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import type { ArgsDef } from 'citty';
import { UMError } from '../errors/UMError.js';
import { fileChunks, openInput, readWhole } from '../io/fileError.js';
import { readLlmResponses, type LlmRecords } from '../io/readLlmResponses.js';
import { decodeUtf8, textLines } from '../io/textInput.js';
import type { PredictionData } from '../io/types.js';
import { parseLlmCalibrator, type LlmCalibratorParams } from '../llm/calibrator.js';
import { goldIndices } from '../llm/gold.js';
import {
  labelProbabilities,
  type LabelProbabilities,
  type LabelProbabilityOptions,
} from '../llm/labelProbabilities.js';
import { RESPONSE_FORMATS, type ResponseFormat } from '../llm/responses.js';
import { verbalizer, type Verbalizer } from '../llm/verbalizer.js';
import { formatNumber } from './format.js';

/** Flags of LLM responses (every command that reads them). */
export const llmArgs = {
  verbalizer: {
    type: 'string',
    description:
      'LLM responses: a JSON file {labels, variants, caseSensitive, leadingSpace, prefixes} naming the labels and their tokens (instead of --labels yes,no)',
    valueHint: 'FILE',
  },
  gold: {
    type: 'string',
    description: "LLM responses: a JSON Lines file of {id, gold}, joined by id to FILE's {id, response} lines",
    valueHint: 'FILE',
  },
  'response-format': {
    type: 'enum',
    options: ['auto', ...RESPONSE_FORMATS],
    description: 'LLM responses: their shape (default auto: recognised line by line)',
  },
  missing: {
    type: 'enum',
    options: ['floor', 'renormalize', 'reject'],
    description:
      'LLM responses: a label none of whose tokens is in the returned top-k gets its bound (floor, default), 0 (renormalize), or makes the row invalid (reject)',
  },
  'on-invalid': {
    type: 'enum',
    options: ['error', 'exclude'],
    description:
      'LLM responses: a row without label probabilities (refusal, API error, no label, no confidence) stops with its line (error, default) or is left out, counted and listed (exclude)',
  },
  provenance: {
    type: 'enum',
    options: ['auto', 'logprob', 'verbal', 'sampled'],
    description:
      'LLM responses: read token log-probabilities, verbalized confidences ("85%") or the frequencies of sampled answers (default auto: per row)',
  },
  position: {
    type: 'string',
    description: 'LLM responses: the generated token holding the answer, from 0 (default: the first label token)',
    valueHint: 'N',
  },
  pseudocount: {
    type: 'string',
    description:
      'LLM responses: added to every label count of sampled answers, (n_label + a)/(n + C·a) (default 0: a label never sampled has probability 0)',
    valueHint: 'A',
  },
} satisfies ArgsDef;

const LLM_FLAGS = [
  'verbalizer',
  'gold',
  'response-format',
  'missing',
  'on-invalid',
  'provenance',
  'position',
  'pseudocount',
];
/** Flags of prediction files that mean nothing for LLM responses (rejected, never ignored). */
const FILE_FLAGS = [
  'input',
  'label-column',
  'score-prefix',
  'classes',
  'sum-tolerance',
  'members',
  'binary',
  'weights',
];

function usage(command: string, flag: string, message: string): UMError {
  return new UMError('UM_OPTION', `${command}: ${message}`, { fn: command, argument: flag });
}

/**
 * Whether FILE holds LLM responses (internal): not a .csv, .json, .parquet or .npy file, and an LLM flag is given or
 * FILE is a regular JSON Lines file whose first record has a "response". Only the first line is read.
 */
export async function isLlmInput(args: Record<string, unknown>, file: unknown): Promise<boolean> {
  const ext = typeof file === 'string' ? extname(file).toLowerCase() : '';
  // a prediction file by its extension stays one (um report may mix models of both kinds)
  if (['.csv', '.json', '.parquet', '.npy'].includes(ext)) return false;
  if (LLM_FLAGS.some((f) => args[f] !== undefined)) return true;
  if (typeof file !== 'string' || !['.jsonl', '.ndjson'].includes(ext)) return false;
  let handle;
  try {
    // only a regular file is sniffed: the first line of a FIFO would be consumed (give an LLM flag to read one)
    if (!(await stat(file)).isFile()) return false;
    handle = await openInput('um', file, true);
  } catch {
    return false; // the reader reports a missing or unreadable file
  }
  try {
    for await (const { text } of textLines('um', file, fileChunks(handle))) {
      if (text.trim() === '') continue;
      const v = JSON.parse(text) as unknown;
      return v !== null && typeof v === 'object' && !Array.isArray(v) && 'response' in v;
    }
    return false;
  } catch {
    return false;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** Refuses the LLM flags where no LLM responses are read: a flag is never ignored (internal). */
export function refuseLlmFlags(command: string, args: Record<string, unknown>): void {
  const given = LLM_FLAGS.find((f) => args[f] !== undefined);
  if (given !== undefined)
    throw usage(command, `--${given}`, `--${given} is an option of LLM responses ({id, gold, response} JSON Lines)`);
}

/** Rewrites an error of the library about row `i` to the line of the file (internal). */
export function located(command: string, records: LlmRecords, error: unknown): unknown {
  if (!(error instanceof UMError)) return error;
  const { fn, index } = error.details;
  let m = error.message.startsWith(`${fn}: `) ? error.message.slice(fn.length + 2) : error.message;
  m = m
    .replace(/onInvalid: 'exclude'/g, '--on-invalid exclude')
    .replace(/missing: 'reject'/g, '--missing reject')
    .replace(/provenance: '(\w+)'/g, '--provenance $1');
  const row = index?.[0];
  if (row !== undefined && (/^responses\[\d+\]/.test(m) || /^gold\[\d+\]/.test(m))) {
    m = m.replace(/^responses\[\d+\]/, 'response').replace(/^gold\[\d+\]/, '"gold"');
    m = `${records.locate(row)}: ${m}`;
  }
  return new UMError(error.code, `${command}: ${m}`, { ...error.details, fn: command, index: [] });
}

/** The verbalizer of `--labels a,b` or `--verbalizer FILE` (internal). */
async function verbalizerOfArgs(command: string, args: Record<string, unknown>): Promise<Verbalizer> {
  const named = (flag: string, body: () => Verbalizer): Verbalizer => {
    try {
      return body();
    } catch (error) {
      if (!(error instanceof UMError)) throw error;
      throw usage(command, flag, `${flag}: ${error.message.replace(/^verbalizer: (options\.)?/, '')}`);
    }
  };
  if (typeof args.labels === 'string' && typeof args.verbalizer === 'string')
    throw usage(command, '--labels', 'give --labels or --verbalizer, not both');
  if (typeof args.labels === 'string') {
    const list = args.labels.split(',').map((s) => s.trim());
    return named('--labels', () => verbalizer(list));
  }
  if (typeof args.verbalizer !== 'string')
    throw usage(command, '--labels', 'LLM responses need their label set: give --labels yes,no or --verbalizer FILE');
  const file = args.verbalizer;
  let value: unknown;
  try {
    value = JSON.parse(decodeUtf8(command, file, await readWhole(command, file))) as unknown;
  } catch (error) {
    if (error instanceof UMError) throw error;
    throw new UMError('UM_FILE_FORMAT', `${command}: ${file}: is not valid JSON (${(error as Error).message})`, {
      fn: command,
      file,
    });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw usage(command, '--verbalizer', `--verbalizer ${file}: must hold an object {labels, variants, …}`);
  const { kind: _k, labels, ...rest } = value as Record<string, unknown>;
  return named(`--verbalizer ${file}`, () => verbalizer(labels as string[], rest));
}

/** The reading options of the flags (internal). */
function optionsOf(command: string, args: Record<string, unknown>): LabelProbabilityOptions {
  const o: LabelProbabilityOptions = {};
  if (args['response-format'] !== undefined) o.format = args['response-format'] as ResponseFormat | 'auto';
  if (args.missing !== undefined) o.missing = args.missing as LabelProbabilityOptions['missing'] & string;
  if (args['on-invalid'] !== undefined) o.onInvalid = args['on-invalid'] as 'error' | 'exclude';
  if (args.provenance !== undefined) o.provenance = args.provenance as LabelProbabilityOptions['provenance'] & string;
  if (args.position !== undefined) {
    const text = String(args.position);
    if (!/^\d+$/.test(text) && text !== 'label')
      throw usage(
        command,
        '--position',
        `--position must be a token index from 0 (or label); got ${JSON.stringify(text)}`,
      );
    o.position = text === 'label' ? 'label' : Number(text);
  }
  if (args.pseudocount !== undefined) {
    const text = String(args.pseudocount);
    const a = /^\s*[\d.eE+-]+\s*$/.test(text) ? Number(text) : NaN;
    if (!(Number.isFinite(a) && a >= 0))
      throw usage(command, '--pseudocount', `--pseudocount must be a finite number ≥ 0; got ${JSON.stringify(text)}`);
    o.pseudocount = a;
  }
  return o;
}

/** LLM responses read for a command: the records, their label probabilities and the data the commands print. */
export interface LlmInput {
  readonly records: LlmRecords;
  readonly read: LabelProbabilities;
  /** Gold class indices of the kept rows (empty without gold). */
  readonly labels: Int32Array;
  readonly data: PredictionData;
}

/** The records of FILE (and `--gold`), checking the flags that do not apply (internal). */
export async function readRecords(command: string, args: Record<string, unknown>, file: string): Promise<LlmRecords> {
  for (const f of FILE_FLAGS)
    if (args[f] !== undefined && args[f] !== false)
      throw usage(command, `--${f}`, `--${f} is an option of prediction files; ${file} holds LLM responses`);
  return readLlmResponses(file, typeof args.gold === 'string' ? { gold: args.gold } : {}).catch((error: unknown) => {
    if (error instanceof UMError && error.message.startsWith('readLlmResponses: '))
      throw new UMError(error.code, `${command}: ${error.message.slice(18)}`, { ...error.details, fn: command });
    throw error;
  });
}

/** Gold class indices of the kept rows; every kept row needs one when `required` (internal). */
export function goldOf(command: string, records: LlmRecords, read: LabelProbabilities, required: boolean): Int32Array {
  const missing = Array.from(read.rows).find((i) => records.gold[i] === null);
  if (missing !== undefined) {
    if (!required && Array.from(read.rows).every((i) => records.gold[i] === null)) return new Int32Array(0);
    throw new UMError(
      'UM_LABEL',
      `${command}: ${records.locate(missing)}: has no gold label (a "gold" key, or a --gold file of {id, gold})`,
      { fn: command },
    );
  }
  try {
    return goldIndices(command, read, records.gold);
  } catch (error) {
    throw located(command, records, error);
  }
}

/** Wraps LLM reading as `PredictionData`, so the commands print and locate as for prediction files (internal). */
export function asData(records: LlmRecords, read: LabelProbabilities, labels: Int32Array): PredictionData {
  return {
    path: records.path,
    format: 'jsonl',
    input: 'logprobs',
    n: read.n,
    numClasses: read.numClasses,
    labels: Float64Array.from(labels),
    hasLabels: labels.length > 0,
    scores: read.probs.logData as Float64Array,
    classes: read.labels,
    locate: (row) => records.locate(read.rows[row] as number),
  };
}

/** Reads FILE's responses with the flags' verbalizer and policy (internal; `um metrics`, `report`, `calibrate fit`). */
export async function readLlm(
  command: string,
  args: Record<string, unknown>,
  file: string,
  requireGold: boolean,
): Promise<LlmInput> {
  const v = await verbalizerOfArgs(command, args);
  const options = optionsOf(command, args);
  const records = await readRecords(command, args, file);
  let read: LabelProbabilities;
  try {
    read = labelProbabilities(records.responses, v, options);
  } catch (error) {
    throw located(command, records, error);
  }
  const labels = goldOf(command, records, read, requireGold);
  return { records, read, labels, data: asData(records, read, labels) };
}

/** The calibrator file: an LLM calibrator, or null for another kind (read by the usual reader) (internal). */
export async function readLlmCalibratorFile(command: string, path: string): Promise<LlmCalibratorParams | null> {
  let value: unknown;
  try {
    value = JSON.parse(decodeUtf8(command, path, await readWhole(command, path))) as unknown;
  } catch (error) {
    if (error instanceof UMError && error.code !== 'UM_FILE_FORMAT') throw error;
    return null; // readCalibrator reports it
  }
  if ((value as { format?: unknown } | null)?.format !== 'uncertainty-metrics/llm-calibrator') return null;
  try {
    return parseLlmCalibrator(value as object);
  } catch (error) {
    if (!(error instanceof UMError)) throw error;
    throw new UMError(error.code, `${command}: ${path}: ${error.message.replace(/^parseLlmCalibrator: /, '')}`, {
      ...error.details,
      fn: command,
      file: path,
    });
  }
}

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** The largest of `xs`, or `empty` for none: a loop, since `Math.max(...xs)` overflows the stack past ~10⁵ rows. */
function maxOf(xs: readonly number[], empty: number): number {
  let m = empty;
  for (const x of xs) if (x > m) m = x;
  return m;
}

/** What the reading left out or unknown, as text lines and as JSON (internal; every LLM command prints it). */
export function llmSummary(records: LlmRecords, read: LabelProbabilities): { lines: string[]; json: object } {
  const byReason = new Map<string, number[]>();
  for (const e of read.excluded) byReason.set(e.reason, [...(byReason.get(e.reason) ?? []), e.row]);
  const provenance: Record<string, number> = {};
  for (const p of read.provenance) provenance[p] = (provenance[p] ?? 0) + 1;
  const lp = Array.from(read.rows.keys()).filter((j) => read.provenance[j] === 'logprob');
  const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
  const outside = lp.map((j) => read.outside[j] as number);
  const missingRows = lp.filter((j) => (read.missing[j] as number) > 0);
  const bound = maxOf(
    missingRows.map((j) => read.bound[j] as number),
    0,
  );
  const sampledMissing = Array.from(read.rows.keys()).filter(
    (j) => read.provenance[j] === 'sampled' && (read.missing[j] as number) > 0,
  ).length;
  const lines = [
    `LLM responses: ${read.total} read, ${read.n} with label probabilities (${Object.entries(provenance)
      .map(([p, k]) => `${k} ${p}`)
      .join(', ')}), labels ${read.labels.join(', ')}`,
  ];
  if (read.excluded.length > 0)
    lines.push(
      `excluded (--on-invalid exclude): ${[...byReason]
        .map(
          ([r, rows]) =>
            `${rows.length} ${r} (line${rows.length === 1 ? '' : 's'} ${rows
              .slice(0, 5)
              .map((i) => records.lines[i])
              .join(', ')}${rows.length > 5 ? ', …' : ''})`,
        )
        .join('; ')}`,
    );
  if (lp.length > 0) {
    lines.push(
      `top-k: probability outside the returned tokens mean ${formatNumber(mean(outside))}, max ${formatNumber(maxOf(outside, 0))}; label tokens hold ${formatNumber(mean(lp.map((j) => read.labelMass[j] as number)))} on average`,
    );
    lines.push(
      missingRows.length === 0
        ? 'every label had a token in the returned top-k'
        : `${count(missingRows.length, 'row')} miss a label in the top-k (--missing ${read.config.missing}${read.config.missing === 'floor' ? `: each gets its bound, at most ${formatNumber(bound)}` : ''})`,
    );
  }
  if (sampledMissing > 0) {
    const a = read.config.pseudocount;
    lines.push(
      `${count(sampledMissing, 'sampled row')} never sampled a label (${a === 0 ? 'its probability is 0: --pseudocount A smooths it' : `each gets ${formatNumber(a)} / (answers + ${read.numClasses} × ${formatNumber(a)})`})`,
    );
  }
  return {
    lines,
    json: {
      total: read.total,
      kept: read.n,
      labels: read.labels,
      provenance,
      missing: read.config.missing,
      outside: { mean: mean(outside), max: maxOf(outside, 0) },
      rowsMissingLabels: missingRows.length,
      sampledRowsMissingLabels: sampledMissing,
      pseudocount: read.config.pseudocount,
      labelMass: mean(lp.map((j) => read.labelMass[j] as number)),
      excluded: read.excluded.map((e) => ({
        line: records.lines[e.row],
        id: records.ids[e.row],
        reason: e.reason,
        field: e.field,
      })),
      ...(read.calibrated === undefined ? {} : { calibrated: read.calibrated }),
    },
  };
}
