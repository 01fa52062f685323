import type { Report } from './createReport.js';
import { metricRows } from './metricRows.js';

/** Escapes a table cell for Markdown (internal). */
function md(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/[<>]/g, (c) => (c === '<' ? '&lt;' : '&gt;'));
}

/**
 * The report as Markdown: the metrics table (best value in bold), the models, notes, what each chart would show,
 * and the configuration as JSON — for pull requests and notebooks; the charts themselves are in the HTML report.
 *
 * **Formula.** Not applicable (presentation of {@link createReport}'s numbers).
 *
 * **Conventions.**
 * - Numbers with 6 decimals (scientific below 1e-4), as `um metrics`; model names and paths are escaped.
 *
 * **References.** None.
 *
 * @param report from {@link createReport}.
 * @returns the Markdown text.
 * @throws never.
 * @example
 * ```js
 * import { createReport, reportMarkdown } from 'uncertainty-metrics/report';
 * const text = reportMarkdown(await createReport([{ name: 'a', labels: [0, 1, 1, 0], scores: [[0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [0.7, 0.3]] }]));
 * text.split('\n').find((l) => l.startsWith('| accuracy')); // => '| accuracy | 0.750000 |'
 * ```
 */
export function reportMarkdown(report: Report): string {
  const fmt = (v: number | null) => (v === null ? 'n/a' : !Number.isFinite(v) ? String(v) : v !== 0 && Math.abs(v) < 1e-4 ? v.toExponential(3) : Number.isInteger(v) && Math.abs(v) >= 1 ? String(v) : v.toFixed(6));
  const rows = metricRows(report).map((r) => `| ${r.key} | ${r.values.map((v, j) => (r.best.includes(j) ? `**${fmt(v)}**` : fmt(v))).join(' | ')} |`);
  const lines = [
    `# ${md(report.title)}`,
    '',
    `uncertainty-metrics ${report.version}${report.timestamp === null ? '' : ` · ${report.timestamp}`}`,
    '',
    ...report.models.map((m) => `- **${md(m.name)}**${m.source === null ? '' : ` (${md(m.source)})`}: ${m.n} examples, ${m.numClasses} classes${m.numMembers === null ? '' : `, ${m.numMembers} members`}`),
    '',
    '## Metrics',
    '',
    `| metric | ${report.models.map((m) => md(m.name)).join(' | ')} |`,
    `|---|${report.models.map(() => '---').join('|')}|`,
    ...rows,
    '',
    '## Charts (in the HTML report)',
    '',
    ...report.charts.map((c) => `- **${md(c.title)}** — ${md(c.howToRead)}`),
    ...(report.notes.length + report.warnings.length === 0 ? [] : ['', '## Notes', '', ...report.notes.map((n) => `- ${md(n)}`), ...report.warnings.map((w) => `- ${md(w.message)} [${w.code}]`)]),
    '',
    '## Configuration',
    '',
    ...report.models.flatMap((m) => [`### ${md(m.name)}`, '', '```json', JSON.stringify(m.evaluation.config, null, 2), '```', '']),
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}
