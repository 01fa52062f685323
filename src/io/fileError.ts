import { formatValue } from '../errors/formatValue.js';
import { UMError, type UMErrorCode } from '../errors/UMError.js';

/** Where in a file: 1-based line and column (CSV field) and the column's name, when known. */
export interface FilePlace {
  /** 0-based byte offset (binary formats). */
  byte?: number;
  line?: number;
  column?: number;
  columnName?: string;
}

/** Describes a place in a file: `file: line 4, column 3 ("p_1")`. */
export function describePlace(file: string, place: FilePlace = {}): string {
  const parts: string[] = [];
  if (place.byte !== undefined) parts.push(`byte ${place.byte}`);
  if (place.line !== undefined) parts.push(`line ${place.line}`);
  if (place.column !== undefined) parts.push(`column ${place.column}${place.columnName === undefined ? '' : ` (${JSON.stringify(place.columnName)})`}`);
  else if (place.columnName !== undefined) parts.push(`column ${JSON.stringify(place.columnName)}`);
  return parts.length === 0 ? file : `${file}: ${parts.join(', ')}`;
}

/** Throws a file error: `fn: file: line L, column C ("name"): <problem>; got <value>`. */
export function fileFail(
  code: UMErrorCode,
  fn: string,
  file: string,
  problem: string,
  place: FilePlace = {},
  value?: { value: unknown },
): never {
  const got = value === undefined ? '' : `; got ${formatValue(value.value)}`;
  const details: { fn: string; argument: string; file: string; byte?: number; line?: number; column?: number; value?: unknown } = {
    fn,
    argument: 'file',
    file,
  };
  if (place.byte !== undefined) details.byte = place.byte;
  if (place.line !== undefined) details.line = place.line;
  if (place.column !== undefined) details.column = place.column;
  if (value !== undefined) details.value = value.value;
  throw new UMError(code, `${fn}: ${describePlace(file, place)}: ${problem}${got}`, details);
}

/** Maps a failed read (missing file, directory, permissions) to a typed error. */
export function readFail(fn: string, file: string, error: unknown): never {
  const code = (error as { code?: unknown }).code;
  if (code === 'ENOENT') fileFail('UM_FILE_NOT_FOUND', fn, file, 'no such file');
  if (code === 'EISDIR') fileFail('UM_FILE_READ', fn, file, 'is a directory, not a file');
  fileFail('UM_FILE_READ', fn, file, `cannot be read (${error instanceof Error ? error.message : String(error)})`);
}
