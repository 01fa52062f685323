import { defineCommand, type ArgsDef } from 'citty';
import { evaluate, type Evaluation } from '../../evaluate/evaluate.js';
import { evaluateEnsemble } from '../../evaluate/evaluateEnsemble.js';
import { lendScores } from '../../input/lent.js';
import { METRICS } from '../../evaluate/metricInfo.js';
import type { UMWarning } from '../../warnings/warnings.js';
import { UMError } from '../../errors/UMError.js';
import { presets, type PresetName } from '../../presets/presets.js';
import { stat } from 'node:fs/promises';
import { inMemoryBytes, memoryBudget } from '../memoryBudget.js';
import { readPredictions } from '../../io/readPredictions.js';
import type { PredictionData } from '../../io/types.js';
import { guard, printWarnings } from '../guard.js';
import { classCount, formatNumber, renderTable } from '../format.js';
import { parseIntegerFlag, parseNumberFlag, type Io } from '../io.js';
import { checkReadFlags, inputArgs, inputOptions, readOptionsFor } from '../inputFlags.js';
import { applyTo } from './calibrate.js';
import { readCalibrator } from '../../io/readCalibrator.js';
import { topBinningReport, type TopBinningReport } from '../../calibrate/topBinningReport.js';
import type { ProbMatrix } from '../../input/types.js';
import { bootstrap, type BootstrapInterval } from '../../bootstrap/bootstrap.js';
import { prepareSuite } from '../../engine/suite.js';
import { EVALUATE } from '../../evaluate/suite.js';
import type { MetricState } from '../../state/createState.js';
import { evaluateSpec, streamStates } from '../streamStates.js';
import { isLlmInput, llmArgs, refuseLlmFlags } from '../llmInput.js';
import { llmMetrics } from './llm.js';

export const metricsArgs = {
  file: {
    type: 'positional',
    description: 'predictions of one model or ensemble, in any of the input formats below',
    required: false,
  },
  bins: { type: 'string', description: 'number of bins of the binned metrics (default 15)', valueHint: 'N' },
  preset: {
    type: 'string',
    description: `binning conventions of a peer library: ${Object.keys(presets).join(', ')} (default: default)`,
    valueHint: 'NAME',
  },
  ...inputArgs,
  ...llmArgs,
  classwise: {
    type: 'boolean',
    default: true,
    description:
      'compute SCE, ACE and TACE, which bin all N·C probabilities (--no-classwise skips them: the slow part on many classes); the UCE is always the global one',
  },
  calibration: {
    type: 'string',
    description: 'calibrator file (um calibrate fit): report the metrics after calibration',
    valueHint: 'FILE',
  },
  json: {
    type: 'boolean',
    description:
      'print one JSON object instead of a table (non-finite numbers as the strings "Infinity", "-Infinity", "NaN")',
  },
  ci: {
    type: 'string',
    description: 'add seeded percentile bootstrap intervals at this level to every metric (e.g. 0.95)',
    valueHint: 'LEVEL',
  },
  resamples: { type: 'string', description: 'bootstrap resamples with --ci (default 1000)', valueHint: 'N' },
  seed: { type: 'string', description: 'bootstrap seed with --ci (default 0)', valueHint: 'N' },
  stream: {
    type: 'boolean',
    description:
      'read the file in batches (automatic when reading it whole would exceed --memory): the same numbers as in memory, bit for bit',
  },
  memory: {
    type: 'string',
    description:
      "memory budget of reading the file whole, in MiB (default: a quarter of the machine's memory); above the estimate, the file is streamed",
    valueHint: 'MiB',
  },
  bounded: {
    type: 'boolean',
    description:
      'with --stream: order-based metrics from a fine grid in constant memory, each with its proven error bound (metrics without one are n/a)',
  },
  exact: { type: 'boolean', description: 'with --stream: the default (kept for scripts that pass it)' },
  threads: {
    type: 'string',
    description: 'with --stream: worker threads (default: every core); results do not depend on it',
    valueHint: 'N',
  },
  'chunk-rows': {
    type: 'string',
    description: 'with --stream: rows per chunk reduced on its own (default 1048576); exact results never depend on it',
    valueHint: 'N',
  },
  passes: {
    type: 'string',
    description:
      'with --stream: 2 reads the file twice to bin the class-wise equal-mass metrics in bounded memory, 1 keeps every entry (N·C) in one read (default: 2 for chunks of at least 131072 rows of unweighted probabilities, else 1); results never depend on it',
    valueHint: '1|2',
  },
  engine: {
    type: 'enum',
    options: ['duckdb'],
    description:
      'compute inside an embedded DuckDB by generated SQL (ECE, MCE, SCE, UCE, accuracy, Brier, NLL, mean entropy, AUROC); FILE may then be a .csv or .parquet file, or use --query',
  },
  query: {
    type: 'string',
    description:
      'with --engine: one SELECT whose rows are the predictions (instead of FILE); it may read files with read_csv, read_parquet, read_json',
    valueHint: 'SQL',
  },
} satisfies ArgsDef;

/** Runs `um metrics`; returns the exit code. */
export function runMetrics(args: Record<string, unknown>, io: Io): Promise<number> {
  const command = 'um metrics';
  return guard(command, io, async (context) => {
    const bins = parseIntegerFlag(command, '--bins', args.bins);
    if (args.engine !== undefined || args.query !== undefined) {
      const { engineMetrics } = await import('../engineMetrics.js'); // loads DuckDB only when asked for
      await engineMetrics(command, args, io, bins);
      return;
    }
    if (args.file === undefined)
      throw new UMError('UM_OPTION', `${command}: give a prediction FILE (or --engine duckdb --query SQL)`, {
        fn: command,
        argument: 'FILE',
      });
    // LLM responses ({id, gold, response} lines): read into label probabilities, then the same suite
    if (await isLlmInput(args, args.file)) return llmMetrics(command, args, io, context, bins);
    refuseLlmFlags(command, args);
    checkReadFlags(command, args, [String(args.file)]);
    if (await shouldStream(command, args)) {
      await streamMetrics(command, args, io, context, bins);
      return;
    }
    for (const flag of ['exact', 'bounded', 'threads', 'chunk-rows', 'passes'] as const) {
      if (args[flag] !== undefined && args[flag] !== false)
        throw new UMError('UM_OPTION', `${command}: --${flag} is an option of --stream`, {
          fn: command,
          argument: `--${flag}`,
        });
    }
    const data = await readPredictions(String(args.file), readOptionsFor(args, String(args.file)));
    context.data = data;
    const warnings: UMWarning[] = [];
    const onWarning = (w: UMWarning) => warnings.push(w);
    const common: { bins?: number; preset?: PresetName; classwise?: boolean; onWarning: typeof onWarning } = {
      onWarning,
    };
    if (bins !== undefined) common.bins = bins;
    if (args.classwise === false) common.classwise = false;
    if (typeof args.preset === 'string') common.preset = args.preset as PresetName;
    const input = inputOptions(command, data, args);
    let result: Evaluation;
    let calibration: { file: string; kind: string } | undefined;
    if (typeof args.calibration === 'string') {
      const params = await readCalibrator(args.calibration);
      calibration = { file: args.calibration, kind: params.kind };
      if (params.kind === 'top-binning') {
        const { numMembers: _s, ...single } = input;
        const report = topBinningReport(params, data.labels, data.scores as Float64Array, single);
        if (args.json === true)
          io.stdout(
            `${toJson({ ...report, config: { calibration, file: data.path, format: data.format, ...(data.classes === undefined ? {} : { classes: data.classes }) } })}\n`,
          );
        else io.stdout(`${renderTopReport(report, data, calibration.file)}\n`);
        return;
      }
      const calibrated = applyTo(command, params, data, args) as ProbMatrix;
      result = evaluate(data.labels, calibrated, { ...common, ...weightsOf(data) });
    } else if (data.members !== undefined && data.numMembers !== undefined) {
      if (data.weights !== undefined)
        throw new UMError('UM_OPTION', `${command}: --weights is not supported with ensemble members yet`, {
          fn: command,
          argument: '--weights',
        });
      result = evaluateEnsemble(data.labels, data.members, { ...input, ...common, numMembers: data.numMembers });
    } else if (data.scores !== undefined) {
      const { numMembers: _s, ...single } = input;
      // read once without --ci: logits' probabilities may be written over the file's bytes (input/lent.ts)
      if (args.ci === undefined) lendScores(data.scores);
      result = evaluate(data.labels, data.scores, { ...single, ...common, ...weightsOf(data) });
    } else {
      throw new UMError('UM_FILE_FORMAT', `${command}: ${data.path}: holds no scores`, {
        fn: command,
        file: data.path,
      });
    }
    // the scores validated and the options resolved once for every resample (evaluate's result for each)
    let resampled: ((w: Float64Array, onWarning: () => void) => Evaluation) | undefined;
    const ci = bootstrapOf(command, args, data, (w) => {
      if (calibration !== undefined || data.scores === undefined)
        throw new UMError('UM_OPTION', `${command}: --ci takes one model's scores without --calibration`, {
          fn: command,
          argument: '--ci',
        });
      const { numMembers: _s, ...single } = input;
      const { onWarning: _w, ...options } = common;
      resampled ??= prepareSuite(EVALUATE, 'evaluate', data.labels, data.scores, { ...single, ...options });
      return resampled(w, () => {}) as unknown as Record<string, unknown>;
    });
    // after everything that can fail: an error is one line, with no warnings of a run that gave no result
    printWarnings(io, command, warnings);
    if (args.json === true)
      io.stdout(
        `${toJson({ ...withSource(result, data, warnings, calibration), ...(ci === undefined ? {} : { intervals: ci }) })}\n`,
      );
    else io.stdout(`${renderEvaluation(result, data, calibration?.file, ci)}\n`);
  });
}

/** The bootstrap settings of `--ci`, `--resamples`, `--seed` (undefined without `--ci`) (internal; shared with `um compare`). */
export function ciOptions(
  command: string,
  args: Record<string, unknown>,
): { level: number; resamples: number; seed: number } | undefined {
  const level = parseNumberFlag(command, '--ci', args.ci);
  const resamples = parseIntegerFlag(command, '--resamples', args.resamples);
  const seed = parseIntegerFlag(command, '--seed', args.seed);
  if (level === undefined) {
    if (resamples !== undefined || seed !== undefined)
      throw new UMError('UM_OPTION', `${command}: --resamples and --seed go with --ci`, {
        fn: command,
        argument: '--ci',
      });
    return undefined;
  }
  return { level, resamples: resamples ?? 1000, seed: seed ?? 0 };
}

/** Bootstrap intervals of every metric of `evaluate` under `--ci` (internal). */
function bootstrapOf(
  command: string,
  args: Record<string, unknown>,
  data: PredictionData,
  metric: (w: Float64Array) => Record<string, unknown>,
): Record<string, BootstrapInterval> | undefined {
  const o = ciOptions(command, args);
  if (o === undefined) return undefined;
  const r = bootstrap(data.n, metric, { ...o, ...weightsOf(data) });
  const all = r.intervals as Record<string, BootstrapInterval>;
  return Object.fromEntries(Object.entries(all).filter(([k]) => k in METRICS && k !== 'numMembers'));
}

/** `{ weights }` when the file has a weight column. */
function weightsOf(data: PredictionData): { weights?: Float64Array } {
  return data.weights === undefined ? {} : { weights: data.weights };
}

/**
 * Whether to stream (internal; shared with `um report`): `--stream`, or an option of streaming (`--bounded`,
 * `--exact`, `--threads`, `--chunk-rows`, `--passes`), or a file whose in-memory evaluation is estimated above the memory budget
 * (`--memory` MiB, default a quarter of the machine's memory; see memoryBudget.ts) — not for JSON, ensemble members or
 * with a calibrator, which are read whole.
 */
export async function shouldStream(command: string, args: Record<string, unknown>): Promise<boolean> {
  const budget = memoryBudget(command, args.memory);
  if (args.stream === true) return true;
  if (args.stream === false) return false; // --no-stream
  if (['bounded', 'exact', 'threads', 'chunk-rows', 'passes'].some((f) => args[f] !== undefined && args[f] !== false))
    return true;
  if (typeof args.calibration === 'string' || args.members === true) return false;
  const file = String(args.file);
  if (/\.json$/i.test(file)) return false;
  try {
    // only a regular file is opened to estimate (a FIFO's bytes would be consumed; its reader says what it takes)
    if (!(await stat(file)).isFile()) return false;
    return (await inMemoryBytes(file, args.classwise !== false)) > budget;
  } catch {
    return false; // the reader reports a missing or broken file, located
  }
}

/**
 * `um metrics --stream`: the file is split into chunks of about a million rows (CSV at line starts, Parquet at row
 * groups, NumPy at rows), each reduced to an `evaluate` state on `--threads` worker threads, and the states merged in
 * chunk order — the same chunks and order with any number of threads, so results are identical. Nothing is printed
 * unless the whole file was read (a broken row or truncated file exits 2 with its position and no result).
 */
async function streamMetrics(
  command: string,
  args: Record<string, unknown>,
  io: Io,
  context: { data?: PredictionData },
  bins: number | undefined,
): Promise<void> {
  if (typeof args.calibration === 'string')
    throw new UMError('UM_OPTION', `${command}: --stream does not take --calibration yet`, {
      fn: command,
      argument: '--stream',
    });
  if (args.ci !== undefined)
    throw new UMError('UM_OPTION', `${command}: --ci needs the rows in memory; leave out --stream`, {
      fn: command,
      argument: '--ci',
    });
  if (args.exact === true && args.bounded === true)
    throw new UMError('UM_OPTION', `${command}: give --bounded or --exact, not both`, {
      fn: command,
      argument: '--bounded',
    });
  const mode = args.bounded === true ? 'bounded' : 'exact';
  const s = await streamStates(command, String(args.file), args, { evaluate: evaluateSpec(args, bins, mode) }, context);
  const result = (s.states.evaluate as MetricState).result() as Evaluation;
  const warnings = s.warnings();
  printWarnings(io, command, warnings);
  const source = { ...s.source, n: result.n };
  if (args.json === true)
    io.stdout(
      `${toJson({ ...withSource(result, source, warnings), streamed: { mode, chunks: s.chunks, threads: s.threads, passes: s.passes } })}\n`,
    );
  else io.stdout(`${renderEvaluation(result, source)}\n`);
}

/** The JSON document: the evaluation, the warnings (code, function, message) and the config with the file read. */
function withSource(
  result: Evaluation,
  data: PredictionData,
  warnings: readonly UMWarning[],
  calibration?: { file: string; kind: string },
): Record<string, unknown> {
  const { config, ...values } = result;
  return {
    ...values,
    warnings: warnings.map((w) => ({ code: w.code, fn: w.fn, message: w.message })),
    config: {
      ...config,
      file: data.path,
      format: data.format,
      ...(data.classes === undefined ? {} : { classes: data.classes }),
      ...(calibration === undefined ? {} : { calibration }),
    },
  };
}

/** The readable report of `um metrics --calibration` with a Top-k binning calibrator. */
function renderTopReport(r: TopBinningReport, data: PredictionData, file: string): string {
  const rows = r.bins.map((b, i) => [
    String(i),
    String(b.count),
    b.frequency === null ? 'n/a' : formatNumber(b.frequency),
    formatNumber(b.probability),
    b.interval === null ? 'n/a' : `${formatNumber(b.interval[0])} … ${formatNumber(b.interval[1])}`,
  ]);
  const d = (x: { score: number; uncertainty: number; resolution: number; calibration: number }) =>
    `${formatNumber(x.score)} = ${formatNumber(x.uncertainty)} − ${formatNumber(x.resolution)} + ${formatNumber(x.calibration)}`;
  return [
    `${data.path}: ${r.n} examples, Top-${r.top} calibrated by ${file}; Top-${r.top} accuracy ${formatNumber(r.accuracy)}`,
    '',
    renderTable(['bin', 'count', 'test rate', 'calibrated', `Hoeffding ${1 - r.delta}`], rows),
    '',
    `ECE (test vs calibration, eq. 5)   ${formatNumber(r.ece)}`,
    `EOR (expected odds ratio)          ${r.eor === null ? 'n/a' : formatNumber(r.eor)}`,
    `AUROC                              ${r.auroc === null ? 'n/a' : formatNumber(r.auroc)}`,
    `Brier = uncertainty − resolution + calibration   ${d(r.brier)}`,
    `NLL   = uncertainty − resolution + calibration   ${d(r.nll)}`,
  ].join('\n');
}

/**
 * JSON with non-finite numbers kept: `JSON.stringify` would print `null` for an infinite NLL, so they become the
 * strings "Infinity", "-Infinity" and "NaN" (what `Number(...)` and Python's `float(...)` parse back).
 */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v), 2);
}

/** The readable table of `um metrics`. */
export function renderEvaluation(
  r: Evaluation,
  data: PredictionData,
  calibration?: string,
  ci?: Record<string, BootstrapInterval>,
): string {
  const values = r as unknown as Record<string, number | undefined>;
  const bounds = r.bounds;
  const shown = (k: string): string => {
    const v = values[k];
    if (k === 'numMembers') return String(v);
    if (v === null) return 'n/a';
    const b = bounds?.[k];
    // bounded streaming: ± the proven bound, ≈ where none is proven
    if (bounds === undefined || b === 0) return formatNumber(v as number);
    return b === null || b === undefined
      ? `≈ ${formatNumber(v as number)}`
      : `${formatNumber(v as number)} ± ${formatNumber(b)}`;
  };
  const interval = (k: string): string => {
    const i = ci?.[k];
    return i === undefined || i.lower === null || i.upper === null
      ? 'n/a'
      : `${formatNumber(i.lower)} … ${formatNumber(i.upper)}`;
  };
  const rows = Object.entries(METRICS)
    .filter(([k]) => values[k] !== undefined)
    .map(([k, info]) => (ci === undefined ? [k, shown(k), info.meaning] : [k, shown(k), interval(k), info.meaning]));
  const c = r.config;
  const members = data.numMembers === undefined ? '' : `, ${data.numMembers} members`;
  const head = `${data.path}: ${r.n} examples, ${classCount(r.numClasses, data.classes)}${members}, ${c.input}${calibration === undefined ? '' : `, calibrated by ${calibration}`}`;
  const conf = `bins ${c.bins} (${c.preset} preset: ${c.equalWidth.index === 'floor' ? 'b = min(⌊B·p⌋, B−1)' : `${c.equalWidth.index}/${c.equalWidth.edges}/${c.equalWidth.closed}`}, p = 1 in ${c.equalWidth.one}; equal-mass ${c.equalMass}; ${c.precision})`;
  const ciHead = ci === undefined ? [] : [`bootstrap CI`];
  return `${head}\n${conf}\n\n${renderTable(['metric', 'value', ...ciHead, 'meaning'], rows)}`;
}

export const metricsCommand = defineCommand({
  meta: { name: 'metrics', description: 'Calibration metrics of one prediction file (table, or --json)' },
  args: metricsArgs,
});
