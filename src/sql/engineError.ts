// Errors of a database driver as UMErrors (internal): a value the source cannot convert, a column or table that does
// not exist, a file that cannot be read are bad input, so they get a code and one line, not a driver stack trace.
import { formatValue } from '../errors/formatValue.js';
import { UMError, type UMErrorCode } from '../errors/UMError.js';

/** DuckDB's error classes (the `<Class> Error:` prefix of its messages) that mean the data cannot be converted. */
const DUCKDB_DATA = new Set(['Conversion', 'Invalid Input', 'Out of Range', 'Mismatch Type', 'Invalid type']);
/** … that mean the query, a table, a column or a function does not exist or does not parse. */
const DUCKDB_SOURCE = new Set([
  'Parser',
  'Binder',
  'Catalog',
  'Syntax',
  'Not implemented',
  'Dependency',
  'Constraint',
  'Permission',
]);

/** The first line of a message (DuckDB appends the query text and a caret below it). */
export function firstLine(message: string): string {
  return (message.split('\n')[0] ?? '').trim();
}

/**
 * The UMError for an error a driver threw while running generated SQL, or `undefined` when it is not one we
 * recognise as caused by the input (a lost connection, a programming error), which the caller rethrows as it is.
 * DuckDB: classified by the message prefix (`Conversion Error:` → UM_FILE_FORMAT; `Catalog Error:`, `Binder Error:`,
 * `Parser Error:` … → UM_OPTION; `IO Error:` and every other class → UM_FILE_READ). PostgreSQL (`pg`): by the SQLSTATE
 * class in `error.code` (22 data exception → UM_FILE_FORMAT, 42 syntax or undefined object → UM_OPTION, other
 * server-side classes → UM_FILE_READ). The message names `file` when given, else `argument`.
 */
export function engineError(
  fn: string,
  argument: string,
  error: unknown,
  engine: string,
  file?: string,
): UMError | undefined {
  if (error instanceof UMError) return error;
  if (!(error instanceof Error)) return undefined;
  const line = firstLine(error.message);
  let code: UMErrorCode | undefined;
  const duck = /^([A-Za-z ]+?) Error: /.exec(line);
  const sqlstate = (error as { code?: unknown }).code;
  if (engine === 'duckdb' && duck !== null) {
    const kind = duck[1] as string;
    code = DUCKDB_DATA.has(kind) ? 'UM_FILE_FORMAT' : DUCKDB_SOURCE.has(kind) ? 'UM_OPTION' : 'UM_FILE_READ';
  } else if (typeof sqlstate === 'string' && /^[0-9A-Z]{5}$/.test(sqlstate)) {
    code = sqlstate.startsWith('22') ? 'UM_FILE_FORMAT' : sqlstate.startsWith('42') ? 'UM_OPTION' : 'UM_FILE_READ';
  }
  if (code === undefined) return undefined;
  const name = engine === 'duckdb' ? 'DuckDB' : engine === 'postgres' ? 'PostgreSQL' : engine;
  const where = file ?? argument;
  return new UMError(
    code,
    `${fn}: ${where}: ${name} cannot run the query: ${line}`,
    file === undefined ? { fn, argument } : { fn, argument, file },
  );
}

/** Checks an engine argument before any query (internal): an object with a `query` function (and a `dialect`). */
export function checkEngine(fn: string, engine: unknown, dialect?: string): void {
  const e = engine as { query?: unknown; dialect?: unknown } | null;
  if (e === null || typeof e !== 'object' || typeof e.query !== 'function') {
    throw new UMError(
      'UM_OPTION',
      `${fn}: engine must be an engine ({ dialect, query }: duckdbEngine(), postgresEngine(client)); got ${formatValue(engine)}`,
      { fn, argument: 'engine', value: engine },
    );
  }
  if (dialect !== undefined && e.dialect !== dialect) {
    throw new UMError('UM_OPTION', `${fn}: engine must be a ${dialect} engine; got ${formatValue(e.dialect)}`, {
      fn,
      argument: 'engine.dialect',
      value: e.dialect,
    });
  }
}
