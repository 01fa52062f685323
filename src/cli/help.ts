import type { ArgsDef } from 'citty';
import type { Example } from './examples.js';

/** What one `--help` page shows (internal). */
export interface HelpTopic {
  /** The command as typed: `um calibrate fit`. */
  name: string;
  description: string;
  /** The usage after the name when it is not derived from `args` (`COMMAND [OPTIONS]`). */
  usage?: string;
  args?: ArgsDef;
  /** Subcommands: name and one-line description. */
  commands?: readonly (readonly [string, string])[];
  examples: readonly Example[];
  /** Whether the command reads prediction files (the page lists the formats). */
  formats: boolean;
  /** Extra global options (`--version` on the root page). */
  extraGlobals?: readonly (readonly [string, string])[];
  footer?: string;
}

/** Narrowest layout: below it, lines are laid out for this width (a 20-column terminal still reads them). */
export const MIN_WIDTH = 20;

/** The width help is wrapped to: the terminal's, or 80 when stdout is not a terminal. */
export function helpWidth(columns: number | undefined): number {
  return Math.max(MIN_WIDTH, Math.floor(columns ?? 80));
}

/** Options every command takes (handled by `main` before the command sees its flags). */
export const GLOBAL_OPTIONS: readonly (readonly [string, string])[] = [
  ['-q, --quiet', 'no warnings, notes or progress bar on stderr; errors are still printed'],
  ['-h, --help', 'this help'],
];

/** The input formats, by extension (what src/io/readPredictions.ts reads). */
const FORMATS: readonly (readonly [string, string])[] = [
  [
    '.csv',
    'CSV: a header; a label column (label, or --label-column) and score columns p_0 … p_{C−1} (--score-prefix), or named after the classes with --classes; --weights COLUMN',
  ],
  [
    '.json',
    'JSON: {"labels": [...], "probs" | "logits" | "logprobs": [[...], ...]}; ensemble members "member_probs" | "member_logits" | "member_logprobs" [S][N][C]',
  ],
  ['.jsonl, .ndjson', 'JSON Lines: one {"label": ..., "probs" | "logits" | "logprobs": [...]} per line; --weights KEY'],
  [
    '.jsonl (LLM)',
    'LLM responses: one {"id": ..., "gold": "yes", "response": <the raw API response>} per line (or {"id", "response"} and a --gold FILE of {"id", "gold"}); OpenAI chat/completions, Responses, Gemini, llama.cpp, text-classification; --labels yes,no or --verbalizer FILE',
  ],
  ['.parquet', 'Parquet: a label column and a list column probs | logits | logprobs, or score columns as in CSV'],
  ['.npy', 'NumPy: scores [N, C] (ensemble members [S, N, C]); the labels in a second .npy given by --labels'],
];

const ENVIRONMENT: readonly (readonly [string, string])[] = [
  ['NO_COLOR', 'when set and not empty, no colour in any output (https://no-color.org)'],
];

/**
 * Splits `text` at blanks into lines of at most `width` characters (internal). A word longer than a line is cut,
 * so no line is ever wider than `width`.
 */
export function wrap(text: string, width: number): string[] {
  const w = Math.max(1, width);
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/[ \t\n]+/).filter((x) => x !== '')) {
    if (line !== '' && line.length + 1 + word.length <= w) {
      line += ` ${word}`;
      continue;
    }
    if (line !== '') lines.push(line);
    let rest = word;
    while (rest.length > w) {
      lines.push(rest.slice(0, w));
      rest = rest.slice(w);
    }
    line = rest;
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
}

/** Blank-separated `units` (each kept whole when it fits) after `first`, continued at `indent` (internal). */
function flow(first: string, units: readonly string[], width: number, indent: number): string[] {
  const joined = units.map((u) => u.replace(/ /g, '\u00a0')).join(' ');
  const lines = wrap(`${first.replace(/ /g, '\u00a0')} ${joined}`, width);
  const out = [lines[0] as string];
  for (const line of wrap(lines.slice(1).join(' '), width - indent))
    if (line !== '') out.push(`${' '.repeat(indent)}${line}`);
  return out.map((l) => l.replace(/\u00a0/g, ' '));
}

/**
 * Two columns, the right one wrapped with a hanging indent under its first line; a left entry wider than its column
 * stands on its own line (internal). On a narrow terminal the description goes under the entry.
 */
export function columns(rows: readonly (readonly [string, string])[], width: number): string[] {
  const indent = 2;
  const widest = Math.max(0, ...rows.map(([l]) => l.length));
  const left = Math.min(widest, Math.floor(width * 0.35));
  const at = indent + left + 2;
  const out: string[] = [];
  for (const [l, d] of rows) {
    if (width - at < 24) {
      for (const line of wrap(l, width - indent)) out.push(`${' '.repeat(indent)}${line}`);
      for (const line of d === '' ? [] : wrap(d, width - indent - 4)) out.push(`${' '.repeat(indent + 4)}${line}`);
      continue;
    }
    const body = d === '' ? [] : wrap(d, width - at);
    if (l.length <= left) {
      out.push(`${' '.repeat(indent)}${l.padEnd(left)}  ${body.shift() ?? ''}`.trimEnd());
    } else {
      for (const line of wrap(l, width - indent)) out.push(`${' '.repeat(indent)}${line}`);
    }
    for (const line of body) out.push(`${' '.repeat(at)}${line}`);
  }
  return out;
}

/** A shell word: quoted when it holds anything but plain path and flag characters. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_./,=:+@%-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** An example: its comment, then the command, wrapped with ` \` continuations so it can be pasted (internal). */
function exampleLines(e: Example, width: number): string[] {
  const out = wrap(e.what, width - 4).map((line) => `  # ${line}`);
  // a flag and its value stay on one line
  const words: string[] = [];
  for (const word of ['um', ...e.argv].map(shellWord)) {
    const last = words[words.length - 1];
    if (last !== undefined && /^-/.test(last) && !last.includes(' ') && !/^-/.test(word))
      words[words.length - 1] = `${last} ${word}`;
    else words.push(word);
  }
  const room = width - 2 - 2; // the indent and " \"
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const limit = lines.length === 0 ? room : room - 4;
    if (line !== '' && line.length + 1 + word.length > limit) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  lines.push(line);
  // a word wider than the whole line (a long path on a narrow terminal) cannot be continued with " \": it is cut
  lines.forEach((l, i) => {
    const text = `${i === 0 ? '  ' : '      '}${l}${i < lines.length - 1 ? ' \\' : ''}`;
    out.push(...(text.length <= width ? [text] : wrap(text, width)));
  });
  return out;
}

/** The left column of a flag: `-o, --output FILE`, `--[no-]classwise`, `--method METHOD`. */
function flagEntry(name: string, d: ArgsDef[string]): string {
  const alias = (d as { alias?: string | string[] }).alias;
  const aliases = (alias === undefined ? [] : Array.isArray(alias) ? alias : [alias]).map((a) =>
    a.length === 1 ? `-${a}` : `--${a}`,
  );
  const hint = (d as { valueHint?: string }).valueHint;
  const long = d.type === 'boolean' && (d as { default?: unknown }).default === true ? `--[no-]${name}` : `--${name}`;
  const value = d.type === 'boolean' ? '' : ` ${hint ?? name.toUpperCase().replace(/-/g, '_')}`;
  return `${[...aliases, long].join(', ')}${value}`;
}

/** The description of a flag: its text, its values, whether it is required. */
function flagText(d: ArgsDef[string]): string {
  const options = d.type === 'enum' ? (d as { options?: readonly string[] }).options : undefined;
  const values = options === undefined ? '' : `; one of ${options.join(', ')}`;
  return `${d.description ?? ''}${values}${(d as { required?: boolean }).required === true ? ' (required)' : ''}`;
}

/** Positional names as shown: `FILE`, `[FILE]`, `FILE…`. */
function positionalEntry(name: string, d: ArgsDef[string], variadic: boolean): string {
  const shown = (variadic ? name.replace(/s$/, '') : name).toUpperCase();
  const base = variadic ? `${shown}…` : shown;
  return (d as { required?: boolean }).required === false ? `[${base}]` : base;
}

/** Renders a help page wrapped to `width` columns; headings bold when `color` (internal; `main` prints it). */
export function renderHelp(topic: HelpTopic, width: number, color: boolean, variadic = false): string {
  const bold = (text: string): string => (color ? `\u001b[1m${text}\u001b[22m` : text);
  // a heading wider than a narrow terminal wraps like any text
  const heading = (text: string): string => wrap(text, width).map(bold).join('\n');
  const out: string[] = [...wrap(`${topic.name} — ${topic.description}`, width), ''];
  const args = Object.entries(topic.args ?? {});
  const positionals = args.filter(([, d]) => d.type === 'positional');
  const flags = args.filter(([, d]) => d.type !== 'positional');
  const usage: string[] = [];
  if (topic.usage !== undefined) usage.push(...topic.usage.split(' '));
  else {
    for (const [name, d] of flags)
      if ((d as { required?: boolean }).required === true) usage.push(flagEntry(name, d).replace(/^-\w, /, ''));
    if (flags.length > 0) usage.push('[OPTIONS]');
    for (const [name, d] of positionals) usage.push(positionalEntry(name, d, variadic));
  }
  const usageLines = flow(`USAGE ${topic.name}`, usage, width, 6);
  out.push(`${bold('USAGE')}${(usageLines[0] as string).slice('USAGE'.length)}`, ...usageLines.slice(1), '');
  if (topic.commands !== undefined) out.push(heading('COMMANDS'), ...columns(topic.commands, width), '');
  if (positionals.length > 0)
    out.push(
      heading('ARGUMENTS'),
      ...columns(
        positionals.map(([name, d]) => [positionalEntry(name, d, variadic), d.description ?? '']),
        width,
      ),
      '',
    );
  if (flags.length > 0)
    out.push(
      heading('OPTIONS'),
      ...columns(
        flags.map(([name, d]) => [flagEntry(name, d), flagText(d)]),
        width,
      ),
      '',
    );
  out.push(heading('GLOBAL OPTIONS'), ...columns([...GLOBAL_OPTIONS, ...(topic.extraGlobals ?? [])], width), '');
  out.push(heading('ENVIRONMENT'), ...columns(ENVIRONMENT, width), '');
  if (topic.formats) out.push(heading('INPUT FORMATS (by extension)'), ...columns(FORMATS, width), '');
  if (topic.examples.length > 0) {
    out.push(heading('EXAMPLES'));
    topic.examples.forEach((e, i) => out.push(...(i === 0 ? [] : ['']), ...exampleLines(e, width)));
    out.push('');
  }
  if (topic.footer !== undefined) out.push(...wrap(topic.footer, width), '');
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}
