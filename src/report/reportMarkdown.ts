import { checkReport } from './checkReport.js';
import type { Report } from './createReport.js';
import { metricRows } from './metricRows.js';
import { classCount } from './classCount.js';

// eslint-disable-next-line no-control-regex
const SPACE_OR_CONTROL = /[\s\u0000-\u001f\u007f]+/g;

/**
 * Escapes text for Markdown, wherever it goes (heading, list item, table cell) (internal): every ASCII punctuation
 * character gets a backslash — CommonMark makes any backslash-escaped punctuation a literal character, so no link,
 * image, autolink, raw HTML, emphasis, code span, entity, list marker or table pipe can come out of the text — and
 * every run of whitespace and control characters (line breaks included) becomes one space, so the text stays on its
 * line and cannot start an indented code block. GitHub's e-mail autolinks ignore escapes, so `@` is followed by an
 * invisible word joiner (U+2060).
 */
export function escapeMarkdown(text: string): string {
  // GFM links e-mail addresses after escapes are resolved, so an invisible word joiner after `@` breaks the address
  return text
    .replace(SPACE_OR_CONTROL, ' ')
    .replace(/[!-/:-@[-`{-~]/g, '\\$&')
    .replace(/@/g, '@\u2060');
}

/** A code fence longer than any run of backticks in the text, so the text cannot close it (internal). */
function fence(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/**
 * The report as Markdown: the models, warnings and notes, the summary, the metrics table (best value in bold, ⚠ where
 * a warning applies), what each chart would show (with the warnings about it), and the configuration as JSON — for pull requests and notebooks; the charts themselves are in the HTML report.
 *
 * **Formula.** Not applicable (presentation of {@link createReport}'s numbers).
 *
 * **Conventions.**
 * - Numbers with 6 decimals (scientific below 1e-4), as `um metrics`.
 * - Every text (title, model names, paths, chart texts, notes, warnings) is escaped the way the HTML report escapes
 *   HTML: each ASCII punctuation character gets a backslash and whitespace runs (line breaks included) become one
 *   space, so a name like `[click](javascript:alert(1))` or one with `|` or a line break stays plain text in its
 *   cell (an `@` gets an invisible word joiner, U+2060, after it: GitHub links e-mail addresses despite escapes);
 *   the configuration JSON sits in a code fence longer than any backtick run in it.
 *
 * **References.** CommonMark spec 0.31, §2.4 "Backslash escapes"; GitHub Flavored Markdown spec, "Tables (extension)".
 *
 * @param report from {@link createReport}.
 * @returns the Markdown text.
 * @throws {UMError} when `report` is not a report of {@link createReport}'s shape (a field of another type, not JSON data).
 * @example
 * ```js
 * import { createReport, reportMarkdown } from 'uncertainty-metrics/report';
 * // svg: false — Markdown holds no drawings
 * const text = reportMarkdown(await createReport([{ name: 'a', labels: [0, 1, 1, 0], scores: [[0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [0.7, 0.3]] }], { svg: false }));
 * text.split('\n').find((l) => l.startsWith('| accuracy')); // => '| accuracy | 0.750000 |'
 * ```
 */
export function reportMarkdown(report: Report): string {
  checkReport('reportMarkdown', report);
  const fmt = (v: number | null) =>
    v === null
      ? 'n/a'
      : !Number.isFinite(v)
        ? String(v)
        : v !== 0 && Math.abs(v) < 1e-4
          ? v.toExponential(3)
          : Number.isInteger(v) && Math.abs(v) >= 1
            ? String(v)
            : v.toFixed(6);
  const said = (w: Report['warnings'][number]) => `${w.model === null ? '' : `${w.model}: `}${w.message} [${w.code}]`;
  // a ⚠ in the model's cell of each metric a warning concerns (the warning itself is listed at the top)
  const flag = (key: string, j: number) =>
    report.warnings.some((w) => w.metrics.includes(key) && w.model === report.models[j]?.name) ? ' ⚠' : '';
  const rows = metricRows(report).map(
    (r) =>
      `| ${escapeMarkdown(r.key)} | ${r.values.map((v, j) => (r.best.includes(j) ? `**${fmt(v)}**` : fmt(v)) + flag(r.key, j)).join(' | ')} |`,
  );
  const titles = new Map(report.charts.map((c) => [c.id, c.title]));
  const where = (w: Report['warnings'][number]) => {
    const parts = [
      ...(w.metrics.length === 0 ? [] : [`${w.metrics.join(', ')} in the table`]),
      ...w.charts.flatMap((id) => (titles.has(id) ? [titles.get(id) as string] : [])),
    ];
    return parts.length === 0 ? '' : ` — see ${parts.join(', ')}`;
  };
  const lines = [
    `# ${escapeMarkdown(report.title)}`,
    '',
    escapeMarkdown(`uncertainty-metrics ${report.version}${report.timestamp === null ? '' : ` · ${report.timestamp}`}`),
    '',
    ...report.models.map(
      (m) =>
        `- **${escapeMarkdown(m.name)}**${m.source === null ? '' : ` (${escapeMarkdown(m.source)})`}: ${m.n} examples, ${escapeMarkdown(classCount(m.numClasses, m.classes))}${m.numMembers === null ? '' : `, ${m.numMembers} members`}`,
    ),
    '',
    ...(report.notes.length + report.warnings.length === 0
      ? []
      : [
          '## Warnings and notes',
          '',
          ...report.warnings.map((w) => `- ⚠ ${escapeMarkdown(said(w) + where(w))}`),
          ...report.notes.map((n) => `- ${escapeMarkdown(n)}`),
          '',
        ]),
    '## Summary',
    '',
    ...report.summary.models.flatMap((m) => [
      `### ${escapeMarkdown(m.name)}`,
      '',
      ...m.lines.map((l) => `- ${escapeMarkdown(l)}`),
      '',
    ]),
    ...report.summary.comparisons.flatMap((c) => [
      `### ${escapeMarkdown(`${c.b} against ${c.a}`)}`,
      '',
      ...c.sentences.map((l) => `- ${escapeMarkdown(l)}`),
      '',
      escapeMarkdown(
        `Paired bootstrap, ${c.resamples} resamples, seed ${c.seed}; BCa intervals, union intervals for the binned calibration errors (as um compare).`,
      ),
      '',
    ]),
    '## Metrics',
    '',
    `| metric | ${report.models.map((m) => escapeMarkdown(m.name)).join(' | ')} |`,
    `|---|${report.models.map(() => '---').join('|')}|`,
    ...rows,
    '',
    '## Charts (in the HTML report)',
    '',
    ...report.charts.map(
      (c) =>
        `- **${escapeMarkdown(c.title)}** — ${escapeMarkdown(c.howToRead)}${report.warnings
          .filter((w) => w.charts.includes(c.id))
          .map((w) => ` ⚠ ${escapeMarkdown(said(w))}`)
          .join('')}`,
    ),
    '',
    '## Configuration',
    '',
    ...report.models.flatMap((m) => {
      const json = JSON.stringify(m.evaluation.config, null, 2);
      return [`### ${escapeMarkdown(m.name)}`, '', `${fence(json)}json`, json, fence(json), ''];
    }),
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}
