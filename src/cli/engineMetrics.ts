import { UMError } from '../errors/UMError.js';
import { METRICS } from '../evaluate/metricInfo.js';
import { duckdbEngine } from '../sql/duckdbEngine.js';
import { duckdbSource } from '../sql/duckdbSource.js';
import { SQL_KEYS } from '../sql/finishSqlMetrics.js';
import { sqlMetrics } from '../sql/sqlMetrics.js';
import type { UMWarning } from '../warnings/warnings.js';
import { toJson } from './commands/metrics.js';
import { formatNumber, renderTable } from './format.js';
import { printWarnings } from './guard.js';
import { parseNumberFlag, type Io } from './io.js';

/**
 * DuckDB settings of `--engine duckdb`: no query may download or load an extension (reading `https://…` would
 * otherwise install httpfs into ~/.duckdb); CSV, Parquet and JSON readers are built in.
 */
const ENGINE_CONFIG = { autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' };

/** A library error about the source, reworded for the command line: `input.query` / `source` become `--query` or FILE. */
function asFlag(error: unknown, where: string): unknown {
  if (!(error instanceof UMError)) return error;
  const { fn, argument } = error.details;
  if (argument !== 'input.query' && argument !== 'source' && argument !== 'input.file') return error;
  const prefix = `${fn}: ${error.details.file ?? argument}`;
  const message = error.message.startsWith(prefix)
    ? `${fn}: ${where}${error.message.slice(prefix.length)}`
    : error.message;
  return new UMError(error.code, message, { ...error.details, argument: where });
}

/** `um metrics --engine duckdb`: the SQL push-down of `uncertainty-metrics/sql` on a file or a query (internal). */
export async function engineMetrics(
  command: string,
  args: Record<string, unknown>,
  io: Io,
  bins: number | undefined,
): Promise<void> {
  if (args.engine !== 'duckdb')
    throw new UMError('UM_OPTION', `${command}: --query needs --engine duckdb`, { fn: command, argument: '--engine' });
  for (const flag of ['calibration', 'stream', 'exact', 'preset', 'members', 'binary', 'labels', 'classes'] as const) {
    if (args[flag] !== undefined && args[flag] !== false)
      throw new UMError('UM_OPTION', `${command}: --${flag} is not available with --engine`, {
        fn: command,
        argument: `--${flag}`,
      });
  }
  if (args.input !== undefined && args.input !== 'probs')
    throw new UMError('UM_OPTION', `${command}: --engine reads probabilities only`, {
      fn: command,
      argument: '--input',
    });
  let input: { file: string } | { query: string };
  if (typeof args.query === 'string') {
    if (args.file !== undefined)
      throw new UMError('UM_OPTION', `${command}: give FILE or --query, not both`, {
        fn: command,
        argument: '--query',
      });
    input = { query: args.query };
  } else if (typeof args.file === 'string') input = { file: args.file };
  else throw new UMError('UM_OPTION', `${command}: give a FILE or --query`, { fn: command, argument: 'FILE' });
  const where = 'file' in input ? input.file : '--query';
  const prefix = typeof args['score-prefix'] === 'string' ? args['score-prefix'] : 'p_';
  const labelColumn = typeof args['label-column'] === 'string' ? args['label-column'] : 'label';
  const tol = parseNumberFlag(command, '--sum-tolerance', args['sum-tolerance']);
  const db = await duckdbEngine(':memory:', ENGINE_CONFIG);
  try {
    const source = await duckdbSource(db, input).catch((e: unknown) => {
      throw asFlag(e, where);
    });
    const columns = source.columns.map((c) => c.name);
    let c = 0;
    while (columns.includes(`${prefix}${c}`)) c++;
    const list = columns.map((x) => JSON.stringify(x)).join(', ');
    if (c < 2)
      throw new UMError(
        'UM_FILE_FORMAT',
        `${command}: ${where}: needs score columns ${prefix}0, ${prefix}1, …; it has ${list}`,
        { fn: command },
      );
    if (!columns.includes(labelColumn))
      throw new UMError(
        'UM_FILE_FORMAT',
        `${command}: ${where}: needs a ${JSON.stringify(labelColumn)} column (--label-column); it has ${list}`,
        { fn: command },
      );
    if (typeof args.weights === 'string' && !columns.includes(args.weights)) {
      throw new UMError(
        'UM_OPTION',
        `${command}: --weights: ${where} has no column ${JSON.stringify(args.weights)}; it has ${list}`,
        { fn: command, argument: '--weights' },
      );
    }
    const warnings: UMWarning[] = [];
    const options: Parameters<typeof sqlMetrics>[2] = {
      numClasses: c,
      labelColumn,
      scorePrefix: prefix,
      onWarning: (w) => warnings.push(w),
    };
    if (bins !== undefined) options.bins = bins;
    if (typeof args.weights === 'string') options.weightColumn = args.weights;
    if (tol !== undefined) options.sumTolerance = tol;
    const r = await sqlMetrics(db, source.from, options).catch((e: unknown) => {
      throw asFlag(e, where);
    });
    printWarnings(io, command, warnings);
    const origin = 'file' in input ? { file: input.file } : { query: input.query };
    if (args.json === true) {
      io.stdout(
        `${toJson({ ...r, warnings: warnings.map((w) => ({ code: w.code, fn: w.fn, message: w.message })), config: { ...r.config, engine: 'duckdb', ...origin, source: source.from } })}\n`,
      );
      return;
    }
    // the rows of `um metrics` for the keys SQL computes, with the same names and meanings
    const rows = SQL_KEYS.filter((k) => k !== 'n').map((k) => [
      k,
      r[k] === null ? 'n/a' : formatNumber(r[k]),
      METRICS[k]?.meaning ?? '',
    ]);
    io.stdout(
      `${where}: ${r.n} examples, ${r.numClasses} classes, computed in DuckDB (bins ${r.config.bins})\n\n${renderTable(['metric', 'value', 'meaning'], rows)}\n`,
    );
  } finally {
    db.close();
  }
}
