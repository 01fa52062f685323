import { UMError } from '../errors/UMError.js';

/** Where a command writes. Tests and embedders can capture it. */
export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Whether stdout is a colour terminal (default false: plain text). */
  color?: boolean;
  /** Whether stderr is a terminal, where long commands draw a progress bar (default false: quiet). */
  progress?: boolean;
  /** Width of the terminal in characters: `--help` is wrapped to it (default 80, what a pipe or file gets). */
  columns?: number;
  /** No warnings, notes or progress on stderr (`--quiet`); errors are still written (default false). */
  quiet?: boolean;
}

/** The streams `ioFrom` reads: what it needs of `process.stdout` and `process.stderr`. */
interface Stream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/**
 * The `Io` of a process (internal; `main`'s default, and a test's with fake streams and environment): colour only on
 * a terminal and only when `NO_COLOR` is unset or empty (https://no-color.org: "present and not an empty string"
 * disables it); a progress bar only when stderr is a terminal; help wrapped to stdout's terminal width.
 */
export function ioFrom(stdout: Stream, stderr: Stream, env: Record<string, string | undefined>): Io {
  const io: Io = {
    stdout: (t) => void stdout.write(t),
    stderr: (t) => void stderr.write(t),
    color: stdout.isTTY === true && (env.NO_COLOR ?? '') === '',
    progress: stderr.isTTY === true,
  };
  if (stdout.isTTY === true && typeof stdout.columns === 'number' && stdout.columns > 0) io.columns = stdout.columns;
  return io;
}

/** Removes ANSI colour escapes. */
export function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}

/** Parses an optional integer flag strictly (`--bins 15`), or throws a `UM_OPTION` error naming the flag. */
export function parseIntegerFlag(command: string, flag: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  if (!/^[-+]?\d+$/.test(text)) {
    throw new UMError('UM_OPTION', `${command}: ${flag} must be an integer; got ${JSON.stringify(text)}`, {
      fn: command,
      argument: flag,
      value: text,
    });
  }
  return Number(text);
}

/** Parses an optional number flag strictly, or throws a `UM_OPTION` error naming the flag. */
export function parseNumberFlag(command: string, flag: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  if (!/^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/.test(text) && text !== 'Infinity') {
    throw new UMError('UM_OPTION', `${command}: ${flag} must be a number; got ${JSON.stringify(text)}`, {
      fn: command,
      argument: flag,
      value: text,
    });
  }
  return Number(text);
}
