import { parseArgs, type ArgsDef, type CommandDef } from 'citty';
import { UMError } from '../errors/UMError.js';
import { VERSION } from '../version.js';
import {
  calibrateApplyCommand,
  calibrateCommand,
  calibrateFitCommand,
  runCalibrateApply,
  runCalibrateFit,
} from './commands/calibrate.js';
import { metricsCommand, runMetrics } from './commands/metrics.js';
import { compareCommand, runCompare } from './commands/compare.js';
import { reportCommand, runReport } from './commands/report.js';
import { ioFrom, stripAnsi, type Io } from './io.js';
import { helpWidth, renderHelp, type HelpTopic } from './help.js';
import { EXAMPLES, ROOT_EXAMPLES } from './examples.js';

// the library's version constant (a test keeps it equal to package.json): no file read at start-up, and the same in
// the bundled `um` of the CLI package, which does not sit where the core's package.json is
const version = VERSION;

interface Command {
  def: CommandDef<ArgsDef>;
  run(args: Record<string, unknown>, io: Io): Promise<number>;
}

/** Every `um` subcommand. Each only wires I/O to the library's pure functions. */
const COMMANDS: Record<string, Command> = {
  metrics: { def: metricsCommand as unknown as CommandDef<ArgsDef>, run: runMetrics },
  report: { def: reportCommand as unknown as CommandDef<ArgsDef>, run: runReport },
  compare: { def: compareCommand as unknown as CommandDef<ArgsDef>, run: runCompare },
};

/** Commands with subcommands (`um calibrate fit`). */
const GROUPS: Record<string, { def: CommandDef<ArgsDef>; commands: Record<string, Command> }> = {
  calibrate: {
    def: calibrateCommand as unknown as CommandDef<ArgsDef>,
    commands: {
      fit: { def: calibrateFitCommand as unknown as CommandDef<ArgsDef>, run: runCalibrateFit },
      apply: { def: calibrateApplyCommand as unknown as CommandDef<ArgsDef>, run: runCalibrateApply },
    },
  },
};

const DESCRIPTION = 'uncertainty-metrics: measure, see and fix classifier calibration';

/** The description of a command definition (internal). */
function describe(def: CommandDef<ArgsDef>): string {
  return String((def.meta as { description?: string } | undefined)?.description ?? '');
}

/** Every command as typed, with its description: the root page's list. */
function commandList(): [string, string][] {
  const list: [string, string][] = Object.entries(COMMANDS).map(([k, c]) => [k, describe(c.def)]);
  for (const [k, g] of Object.entries(GROUPS))
    for (const [sub, c] of Object.entries(g.commands)) list.push([`${k} ${sub}`, describe(c.def)]);
  return list;
}

/** Writes a help page, wrapped to the terminal (80 columns when stdout is not one). */
function help(io: Io, topic: HelpTopic, variadic = false): void {
  io.stdout(renderHelp(topic, helpWidth(io.columns), io.color === true, variadic));
}

function rootHelp(io: Io): void {
  help(io, {
    name: 'um',
    description: `${DESCRIPTION} (version ${version})`,
    usage: 'COMMAND [OPTIONS] FILE…',
    commands: commandList(),
    examples: ROOT_EXAMPLES,
    formats: true,
    extraGlobals: [['-v, --version', 'print the version']],
    footer: "`um COMMAND --help` shows a command's options and examples (`um calibrate fit --help`).",
  });
}

function groupHelp(io: Io, name: string, group: { def: CommandDef<ArgsDef>; commands: Record<string, Command> }): void {
  const subs = Object.keys(group.commands);
  help(io, {
    name: `um ${name}`,
    description: describe(group.def),
    usage: `${subs.join('|')} [OPTIONS] FILE…`,
    commands: Object.entries(group.commands).map(([k, c]) => [k, describe(c.def)]),
    examples: subs.flatMap((sub) => EXAMPLES[`um ${name} ${sub}`]?.slice(0, 1) ?? []),
    formats: true,
    footer: `\`um ${name} COMMAND --help\` shows a command's options and examples.`,
  });
}

/**
 * Takes the global flags out of the arguments (anywhere before `--`): `--quiet`/`-q` (internal).
 */
function globalFlags(argv: readonly string[]): { rest: string[]; quiet: boolean } {
  const end = argv.indexOf('--');
  const head = end < 0 ? [...argv] : argv.slice(0, end);
  const rest = head.filter((a) => a !== '--quiet' && a !== '-q');
  return { rest: [...rest, ...(end < 0 ? [] : argv.slice(end))], quiet: rest.length !== head.length };
}

/**
 * The spelling the user typed of each flag given by an alias only (`-o` for `--output`), so that messages name the
 * flag as typed (internal).
 */
function typedAliases(rawArgs: readonly string[], args: ArgsDef): Map<string, string> {
  const typed = new Map<string, string>();
  const given = new Set<string>();
  for (const raw of rawArgs) {
    if (raw === '--') break;
    const m = /^(--?[^=]+)/.exec(raw);
    if (m !== null) given.add(m[1] as string);
  }
  for (const [name, d] of Object.entries(args)) {
    const alias = (d as { alias?: string | string[] }).alias;
    if (alias === undefined || given.has(`--${name}`)) continue;
    for (const a of Array.isArray(alias) ? alias : [alias]) {
      const spelled = a.length === 1 ? `-${a}` : `--${a}`;
      if (given.has(spelled)) typed.set(`--${name}`, spelled);
    }
  }
  return typed;
}

/** An `Io` whose stderr names the flags as typed (`-o` where the message says `--output`). */
function spelledAsTyped(io: Io, typed: Map<string, string>): Io {
  if (typed.size === 0) return io;
  const rename = (text: string): string => {
    let t = text;
    for (const [long, spelled] of typed) t = t.replace(new RegExp(`${long}(?![\\w-])`, 'g'), spelled);
    return t;
  };
  return { ...io, stderr: (text) => io.stderr(rename(text)) };
}

function usageError(message: string): UMError {
  return new UMError('UM_OPTION', message, { fn: 'um' });
}

/** Rejects flags the command does not define (citty accepts anything). */
function checkFlags(command: string, rawArgs: readonly string[], args: ArgsDef): void {
  const known = new Set<string>();
  for (const [name, def] of Object.entries(args)) {
    if (def.type === 'positional') continue;
    known.add(name);
    if (def.type === 'boolean') known.add(`no-${name}`);
    const alias = (def as { alias?: string | string[] }).alias;
    for (const a of alias === undefined ? [] : Array.isArray(alias) ? alias : [alias]) known.add(a);
  }
  for (const raw of rawArgs) {
    if (raw === '--') break;
    const m = /^--?([^=]+)/.exec(raw);
    if (m === null || /^-\d/.test(raw)) continue;
    if (!known.has(m[1] as string))
      throw usageError(`${command}: unknown option ${raw.split('=')[0]} (see ${command} --help)`);
  }
}

/** Commands whose one positional takes any number of values (`um report a.csv b.csv …`). */
const VARIADIC = new Set(['um report']);

/** The spelling of a flag in messages. */
function flagName(name: string): string {
  return `--${name}`;
}

/**
 * Validates the parsed arguments before any work (citty enforces `required` only for some types and accepts a
 * missing value as ""): every required flag is given, enum flags hold one of their values, string flags have a
 * value that is not itself a flag, and there are no more positional arguments than the command takes.
 */
function checkArgs(command: string, args: Record<string, unknown>, def: ArgsDef): void {
  const names = new Set<string>();
  for (const [name, d] of Object.entries(def)) {
    if (d.type === 'positional') continue;
    names.add(`--${name}`);
    const alias = (d as { alias?: string | string[] }).alias;
    for (const a of alias === undefined ? [] : Array.isArray(alias) ? alias : [alias])
      names.add(a.length === 1 ? `-${a}` : `--${a}`);
  }
  for (const [name, d] of Object.entries(def)) {
    if (d.type === 'positional' || d.type === 'boolean') continue;
    const value = args[name];
    const options = d.type === 'enum' ? (d as { options?: readonly string[] }).options : undefined;
    const choices = options === undefined ? '' : ` (one of ${options.join(', ')})`;
    if (value === undefined) {
      if ((d as { required?: boolean }).required === true)
        throw usageError(`${command}: ${flagName(name)} is required${choices}`);
      continue;
    }
    for (const v of Array.isArray(value) ? value : [value]) {
      const text = String(v);
      if (text === '') throw usageError(`${command}: ${flagName(name)} needs a value${choices}`);
      if (names.has(text.split('=')[0] as string))
        throw usageError(`${command}: ${flagName(name)} needs a value${choices}; got the flag ${text}`);
      if (options !== undefined && !options.includes(text))
        throw usageError(
          `${command}: ${flagName(name)} must be one of ${options.join(', ')}; got ${JSON.stringify(text)}`,
        );
    }
  }
  const positionals = Object.values(def).filter((d) => d.type === 'positional').length;
  const given = Array.isArray(args._) ? (args._ as unknown[]).map(String) : [];
  if (!VARIADIC.has(command) && given.length > positionals) {
    const extra = given.slice(positionals);
    throw usageError(
      `${command}: unexpected argument${extra.length === 1 ? '' : 's'} ${extra.map((x) => JSON.stringify(x)).join(' ')} (takes ${positionals === 0 ? 'none' : `at most ${positionals}`}; see ${command} --help)`,
    );
  }
}

/**
 * Runs the `um` command line with the given arguments and returns the exit code: 0 success, 2 bad usage or bad
 * input (a message on stderr), 1 an internal error.
 *
 * **Formula.** Not applicable (command-line wiring).
 *
 * **Conventions.**
 * - Every error in the user's input (file, values, options) exits with 2 and one line naming the file, line and
 *   column or the flag; nothing partial is printed to stdout.
 * - Arguments are checked before any work: required flags, enum values, flags without a value, unknown flags and
 *   extra positional arguments are exit code 2.
 * - Commands only read files, call library functions and print.
 * - `--help` pages are wrapped to `io.columns` (the terminal's width; 80 when stdout is not a terminal) and list
 *   the input formats and examples on the bundled data; `--quiet`/`-q` (any command) drops warnings, notes and
 *   the progress bar, never errors; colour only on a terminal without `NO_COLOR` (https://no-color.org).
 * - Messages name a flag as the user typed it (`-o` or `--output`).
 *
 * **References.** None.
 *
 * @param argv arguments after the program name, e.g. `['metrics', 'preds.csv', '--json']`.
 * @param io where to write, and the terminal's width and colour (default: the process's stdout and stderr).
 * @returns the exit code.
 * @throws never for user errors (they become exit code 2); rethrows internal errors.
 * @example
 * ```js
 * import { main } from 'uncertainty-metrics/cli';
 * let out = '';
 * const code = await main(['metrics', 'examples/data/logreg_test.csv', '--json'], { stdout: (t) => { out += t; }, stderr: () => {} });
 * [code, JSON.parse(out).n]; // => [0, 2000]
 * ```
 */
export async function main(
  argv: readonly string[],
  io: Io = ioFrom(process.stdout, process.stderr, process.env),
): Promise<number> {
  const global = globalFlags(argv);
  // quiet: no warnings, notes or progress bar (the commands read io.quiet and io.progress); errors still print
  let out: Io = global.quiet ? { ...io, quiet: true, progress: false } : io;
  const [name, ...rest] = global.rest;
  try {
    if (name === undefined || name === '--help' || name === '-h') {
      rootHelp(out);
      return name === undefined ? 2 : 0;
    }
    if (name === '--version' || name === '-v') {
      out.stdout(`${version}\n`);
      return 0;
    }
    let command = COMMANDS[name];
    let full = `um ${name}`;
    let args0 = rest;
    const group = GROUPS[name];
    if (group !== undefined) {
      const [sub, ...more] = rest;
      if (sub === undefined || sub === '--help' || sub === '-h') {
        groupHelp(out, name, group);
        return sub === undefined ? 2 : 0;
      }
      command = group.commands[sub];
      if (command === undefined)
        throw usageError(
          `um ${name}: unknown command ${JSON.stringify(sub)}; commands: ${Object.keys(group.commands).join(', ')}`,
        );
      full = `um ${name} ${sub}`;
      args0 = more;
    }
    if (command === undefined) {
      throw usageError(
        `um: unknown command ${JSON.stringify(name)}; commands: ${[...Object.keys(COMMANDS), ...Object.keys(GROUPS)].join(', ')}`,
      );
    }
    const argsDef = (command.def.args ?? {}) as ArgsDef;
    if (args0.includes('--help') || args0.includes('-h')) {
      help(
        out,
        {
          name: full,
          description: describe(command.def),
          args: argsDef,
          examples: EXAMPLES[full] ?? [],
          formats: true,
        },
        VARIADIC.has(full),
      );
      return 0;
    }
    out = spelledAsTyped(out, typedAliases(args0, argsDef));
    checkFlags(full, args0, argsDef);
    let args: Record<string, unknown>;
    try {
      // enum values are checked by checkArgs, with the same message whether the value is missing or wrong
      // (and required flags, which citty enforces for some types only)
      const parseDef = Object.fromEntries(
        Object.entries(argsDef).map(([k, d]) => [
          k,
          d.type === 'positional' ? d : { ...d, ...(d.type === 'enum' ? { type: 'string' } : {}), required: false },
        ]),
      ) as ArgsDef;
      args = parseArgs(args0, parseDef) as Record<string, unknown>;
    } catch (error) {
      if (error instanceof Error && error.name === 'CLIError') {
        throw usageError(`${full}: ${stripAnsi(error.message)} (see ${full} --help)`);
      }
      throw error;
    }
    checkArgs(full, args, argsDef);
    return await command.run(args, out);
  } catch (error) {
    if (error instanceof UMError) {
      out.stderr(`${error.message}\n`);
      return 2;
    }
    out.stderr(`um: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  }
}
