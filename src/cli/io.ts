import { UMError } from '../errors/UMError.js';

/** Where a command writes. Tests and embedders can capture it. */
export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Whether stdout is a colour terminal (default false: plain text). */
  color?: boolean;
  /** Whether stderr is a terminal, where long commands draw a progress bar (default false: quiet). */
  progress?: boolean;
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
    throw new UMError('UM_OPTION', `${command}: ${flag} must be an integer; got ${JSON.stringify(text)}`, { fn: command, argument: flag, value: text });
  }
  return Number(text);
}

/** Parses an optional number flag strictly, or throws a `UM_OPTION` error naming the flag. */
export function parseNumberFlag(command: string, flag: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  if (!/^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/.test(text) && text !== 'Infinity') {
    throw new UMError('UM_OPTION', `${command}: ${flag} must be a number; got ${JSON.stringify(text)}`, { fn: command, argument: flag, value: text });
  }
  return Number(text);
}
