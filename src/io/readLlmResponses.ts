import { checkOptions } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import { fileFail } from './fileError.js';
import { fileLineRuns, jsonObjectLine } from './textInput.js';

/** A gold label as written: a label name, a class index, or null (none). */
export type GoldValue = string | number | null;

/** Raw LLM responses read from JSON Lines, with their ids and gold labels. */
export interface LlmRecords {
  /** The responses file. */
  readonly path: string;
  /** The gold file (the two-file form), if one was given. */
  readonly goldPath?: string;
  /** One id per response (the line number when the file has no ids). */
  readonly ids: readonly (string | number)[];
  /** One gold label per response; null where none is given. */
  readonly gold: readonly GoldValue[];
  /** The raw responses, as parsed. */
  readonly responses: readonly unknown[];
  /** The 1-based line of each response. */
  readonly lines: readonly number[];
  /** Describes where response `row` is: `file: line 12 (id "q7")`. */
  locate(row: number): string;
}

interface Line {
  readonly line: number;
  readonly record: Record<string, unknown>;
}

/** Every non-blank line of a JSON Lines file as an object (internal). */
async function objects(fn: string, path: string): Promise<Line[]> {
  const out: Line[] = [];
  for await (const { lines, first } of fileLineRuns(fn, path)) {
    for (const [j, bytes] of lines.entries()) {
      const text = bytes.toString('utf8');
      if (text.trim() === '') continue;
      out.push({ line: first + j, record: jsonObjectLine(fn, path, text, first + j, '{id, gold, response}') });
    }
  }
  if (out.length === 0) fileFail('UM_EMPTY', fn, path, 'has no data lines');
  return out;
}

function idOf(fn: string, path: string, l: Line, required: boolean): string | number | undefined {
  const id = l.record.id;
  if (id === undefined && !required) return undefined;
  if (typeof id !== 'string' && !(typeof id === 'number' && Number.isFinite(id)))
    fileFail(
      'UM_FILE_FORMAT',
      fn,
      path,
      `"id" must be a string or a number${required ? ' (ids join the two files)' : ''}`,
      { line: l.line },
      { value: id },
    );
  return id;
}

function goldOf(fn: string, path: string, l: Line): GoldValue {
  const g = l.record.gold;
  if (g === undefined || g === null) return null;
  if (typeof g !== 'string' && !(typeof g === 'number' && Number.isInteger(g)))
    fileFail(
      'UM_FILE_FORMAT',
      fn,
      path,
      '"gold" must be a label name, a class index or null',
      { line: l.line },
      { value: g },
    );
  return g;
}

/**
 * Reads raw LLM responses joined to gold labels from JSON Lines: one `{id, gold, response}` object per line, or a
 * responses file of `{id, response}` and a gold file of `{id, gold}` joined by id.
 *
 * **Formula.** Not applicable (input/output).
 *
 * **Conventions.**
 * - `response` is the provider's raw response object as returned (any shape `labelProbabilities` reads), or an array of
 *   them (k calls, read as samples; or the chunks of one streamed chat completion, read as it); `gold` a label name or
 *   class index (optional: null or absent rows have none, for applying a calibrator; numeric label names are best
 *   written as strings, `"4"`: a number that is both a class index and another label's name is refused as ambiguous
 *   when the labels are read, see `goldLabels`); `id` a string or number (optional in the one-file form: the line
 *   number stands in). Other keys are ignored. Blank lines are skipped; lines are UTF-8 of at most 16 MiB.
 * - With `options.gold`, every response must have exactly one gold line and every gold line a response
 *   (`UM_FILE_FORMAT` naming the file and line otherwise); ids are unique in each file and join with their type (`0` is
 *   not `"0"`). A `gold` also on a response line must agree with the gold file's. The order is the responses file's.
 * - Every problem is a `UMError` naming the file and line; nothing is dropped.
 *
 * **References.** JSON Lines, https://jsonlines.org.
 *
 * @param path the responses file (.jsonl).
 * @param options `gold`: a second file of `{id, gold}` lines.
 * @returns {@link LlmRecords}.
 * @throws {UMError} `UM_FILE_NOT_FOUND`, `UM_FILE_READ`, `UM_FILE_FORMAT` (invalid JSON, missing `response`, bad id
 * or gold, ids that do not join, a gold in both files that disagrees), `UM_EMPTY` for a file without lines.
 * @example
 * ```js
 * import { readLlmResponses } from 'uncertainty-metrics/io';
 * const r = await readLlmResponses('examples/data/llm_judge_val.jsonl');
 * [r.responses.length, r.gold[0], r.ids[0]]; // => [300, 'B', 'val-0']
 * ```
 */
export async function readLlmResponses(path: string, options: { gold?: string } = {}): Promise<LlmRecords> {
  const fn = 'readLlmResponses';
  if (typeof path !== 'string' || path === '') fail('UM_OPTION', fn, 'path', 'be a non-empty string', { value: path });
  checkOptions(fn, options, ['gold']);
  const goldPath = options.gold;
  if (goldPath !== undefined && (typeof goldPath !== 'string' || goldPath === ''))
    fail('UM_OPTION', fn, 'options.gold', 'be a non-empty string (a file path)', { value: goldPath });
  const lines = await objects(fn, path);
  for (const l of lines)
    if (!('response' in l.record))
      fileFail('UM_FILE_FORMAT', fn, path, 'must have a "response" (the raw API response)', { line: l.line });
  const ids: (string | number)[] = [];
  const seen = new Map<string, number>();
  for (const l of lines) {
    const id = idOf(fn, path, l, goldPath !== undefined) ?? l.line;
    const key = `${typeof id}:${id}`;
    const first = seen.get(key);
    if (first !== undefined)
      fileFail('UM_FILE_FORMAT', fn, path, `"id" must be unique; ${JSON.stringify(id)} is also on line ${first}`, {
        line: l.line,
      });
    seen.set(key, l.line);
    ids.push(id);
  }
  let gold: GoldValue[];
  if (goldPath === undefined) gold = lines.map((l) => goldOf(fn, path, l));
  else {
    const byId = new Map<string, { id: string | number; gold: GoldValue; line: number; used: boolean }>();
    for (const l of await objects(fn, goldPath)) {
      const id = idOf(fn, goldPath, l, true) as string | number;
      const key = `${typeof id}:${id}`;
      const first = byId.get(key);
      if (first !== undefined)
        fileFail(
          'UM_FILE_FORMAT',
          fn,
          goldPath,
          `"id" must be unique; ${JSON.stringify(id)} is also on line ${first.line}`,
          { line: l.line },
        );
      byId.set(key, { id, gold: goldOf(fn, goldPath, l), line: l.line, used: false });
    }
    gold = ids.map((id, i) => {
      const line = (lines[i] as Line).line;
      const g = byId.get(`${typeof id}:${id}`);
      if (g === undefined) {
        // ids join with their type: 0 and "0" are different ids, which a file written by another tool may mix
        const other = byId.get(`${typeof id === 'number' ? 'string' : 'number'}:${id}`);
        const hint =
          other === undefined
            ? ''
            : ` (its line ${other.line} has the id ${JSON.stringify(other.id)}: ids join with their type, write both as strings or both as numbers)`;
        fileFail(
          'UM_FILE_FORMAT',
          fn,
          path,
          `id ${JSON.stringify(id)} has no line in the gold file ${goldPath}${hint}`,
          {
            line,
          },
        );
      }
      g.used = true;
      // a gold label in both files is read once: two that disagree would leave one of them silently unused
      const own = goldOf(fn, path, lines[i] as Line);
      if (own !== null && own !== g.gold)
        fileFail(
          'UM_FILE_FORMAT',
          fn,
          path,
          `"gold" ${JSON.stringify(own)} disagrees with line ${g.line} of the gold file ${goldPath} (${JSON.stringify(g.gold)}): give each gold label once`,
          { line },
        );
      return g.gold;
    });
    for (const g of byId.values())
      if (!g.used)
        fileFail('UM_FILE_FORMAT', fn, goldPath, `id ${JSON.stringify(g.id)} has no response in ${path}`, {
          line: g.line,
        });
  }
  const at = lines.map((l) => l.line);
  return {
    path,
    ...(goldPath === undefined ? {} : { goldPath }),
    ids,
    gold,
    responses: lines.map((l) => l.record.response),
    lines: at,
    locate: (row) => `${path}: line ${at[row] ?? '?'} (id ${JSON.stringify(ids[row])})`,
  };
}
