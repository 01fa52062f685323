import { formatValue } from './formatValue.js';
import { UMError, type UMErrorCode } from './UMError.js';

/** Formats `name[i][j]` for messages. */
export function location(argument: string, index?: readonly number[]): string {
  return index === undefined || index.length === 0 ? argument : `${argument}[${index.join('][')}]`;
}

/**
 * Throws a {@link UMError} whose message reads `fn: argument[index] must <requirement>; got <value>`.
 * Internal helper used by every validator so that all messages share one shape.
 */
export function fail(
  code: UMErrorCode,
  fn: string,
  argument: string,
  requirement: string,
  options: { index?: readonly number[]; value?: unknown; hint?: string } = {},
): never {
  const where = location(argument, options.index);
  const got = 'value' in options ? `; got ${formatValue(options.value)}` : '';
  const hint = options.hint === undefined ? '' : ` (${options.hint})`;
  const details: { fn: string; argument: string; index?: readonly number[]; value?: unknown } = { fn, argument };
  if (options.index !== undefined) details.index = options.index;
  if ('value' in options) details.value = options.value;
  throw new UMError(code, `${fn}: ${where} must ${requirement}${got}${hint}`, details);
}
