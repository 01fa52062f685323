import { UMError } from '../errors/UMError.js';
import type { PredictionData } from '../io/types.js';
import type { UMWarning } from '../warnings/warnings.js';
import { cliMessage, flagWords } from './errors.js';
import type { Io } from './io.js';

/** What a command has read so far: error messages point into it. */
export interface CommandContext {
  data?: PredictionData;
}

/**
 * Runs a command body: 0 when it completes, 2 with one message on stderr for a `UMError` (located in the data read,
 * if any); anything else is an internal error and propagates (exit code 1 in `main`).
 */
export async function guard(
  command: string,
  io: Io,
  body: (context: CommandContext) => Promise<void>,
): Promise<number> {
  const context: CommandContext = {};
  try {
    await body(context);
    return 0;
  } catch (error) {
    if (error instanceof UMError) {
      io.stderr(`${cliMessage(command, error, context.data)}\n`);
      return 2;
    }
    throw error;
  }
}

/** One stderr line per library warning: `um metrics: warning: … [UM_W_…]`; none with `--quiet`. */
export function printWarnings(io: Io, command: string, warnings: readonly UMWarning[]): void {
  if (io.quiet === true) return;
  for (const w of warnings)
    io.stderr(`${command}: warning: ${flagWords(w.message.replace(/^[A-Za-z]+: /, ''))} [${w.code}]\n`);
}
