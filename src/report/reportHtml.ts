import { checkReport } from './checkReport.js';
import type { Report } from './createReport.js';
import { metricRows } from './metricRows.js';

/** Escapes text for HTML element content and attribute values (internal). */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const STYLE = `
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:2rem auto;max-width:64rem;padding:0 1rem;color:#222;line-height:1.45}
h1{font-size:1.6rem;margin-bottom:.2rem}h2{font-size:1.2rem;margin-top:2.2rem;border-bottom:1px solid #ddd;padding-bottom:.2rem}
table{border-collapse:collapse;font-variant-numeric:tabular-nums}th,td{padding:.25rem .7rem;border-bottom:1px solid #eee;text-align:right}
th:first-child,td:first-child{text-align:left}td.best{font-weight:700;background:#eef6ee}td .star{color:#2a7a2a}
.meta{color:#555;font-size:.9rem}.how{color:#444;font-size:.92rem;max-width:48rem}figure{margin:1rem 0;overflow-x:auto}
pre{background:#f6f6f6;padding:.6rem;overflow-x:auto;font-size:.8rem}details{margin:.4rem 0}.notes li{color:#7a4a00}
`;

/** A number for the table: 6 decimals, scientific for tiny values (the same as `um metrics`) (internal). */
function cell(v: number | null): string {
  if (v === null) return 'n/a';
  if (!Number.isFinite(v)) return String(v);
  if (v !== 0 && Math.abs(v) < 1e-4) return v.toExponential(3);
  return Number.isInteger(v) && Math.abs(v) >= 1 ? String(v) : v.toFixed(6);
}

/**
 * The report as one self-contained HTML page: metrics table (one column per model, best value marked), every chart as
 * inline SVG with how to read it, the configuration behind every number, notes and warnings.
 *
 * **Formula.** Not applicable (presentation of {@link createReport}'s numbers).
 *
 * **Conventions.**
 * - No scripts, no external stylesheets, fonts or images: the page makes no network request. All text from the data
 *   (model names, file paths, messages) is HTML-escaped; charts are Vega's escaped SVG.
 * - Each table cell carries the exact value in `data-value` (shortest round-trip decimal); the text shows 6 decimals.
 * - With several models, the best value of each metric is bold with a star (lower is better except for accuracy,
 *   AUROC and AUPR; descriptive rows such as numMembers are not marked).
 *
 * **References.** None.
 *
 * @param report from {@link createReport}.
 * @returns the HTML document.
 * @throws {UMError} when `report` is not a report of {@link createReport}'s shape (a field of another type, not JSON data).
 * @example
 * ```js
 * import { createReport, reportHtml } from 'uncertainty-metrics/report';
 * const html = reportHtml(await createReport([{ name: 'a<b>', labels: [0, 1, 1, 0], scores: [[0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [0.7, 0.3]] }]));
 * [html.startsWith('<!doctype html>'), html.includes('a&lt;b&gt;'), html.includes('<script')]; // => [true, true, false]
 * ```
 */
export function reportHtml(report: Report): string {
  checkReport('reportHtml', report);
  const names = report.models.map((m) => m.name);
  const rows = metricRows(report);
  const table = [
    '<table id="metrics"><thead><tr><th>metric</th>',
    ...names.map((n) => `<th>${escapeHtml(n)}</th>`),
    '</tr></thead><tbody>',
    ...rows.map((r) => {
      const cells = r.values.map((v, j) => {
        const best = r.best.includes(j);
        return `<td data-metric="${escapeHtml(r.key)}" data-model="${j}" data-value="${v === null ? 'null' : String(v)}"${best ? ' class="best"' : ''}>${cell(v)}${best ? ' <span class="star" title="best">★</span>' : ''}</td>`;
      });
      return `<tr><td title="${escapeHtml(r.meaning)}">${escapeHtml(r.key)}</td>${cells.join('')}</tr>`;
    }),
    '</tbody></table>',
  ].join('');
  const models = report.models
    .map((m) => `<li><strong>${escapeHtml(m.name)}</strong>${m.source === null ? '' : ` — ${escapeHtml(m.source)}`}: ${m.n} examples, ${m.numClasses} classes${m.numMembers === null ? '' : `, ${m.numMembers} members (charts show their mean prediction)`}</li>`)
    .join('');
  const charts = report.charts
    .map((c) => `<section id="chart-${escapeHtml(c.id)}"><h2>${escapeHtml(c.title)}</h2><p class="how">${escapeHtml(c.howToRead)}</p><figure>${c.svg}</figure></section>`)
    .join('\n');
  const config = report.models
    .map((m) => `<details><summary>${escapeHtml(m.name)}</summary><pre>${escapeHtml(JSON.stringify(m.evaluation.config, null, 2))}</pre></details>`)
    .join('');
  const notes = report.notes.length + report.warnings.length === 0 ? '' : `<h2>Notes</h2><ul class="notes">${[...report.notes, ...report.warnings.map((w) => `${w.message} [${w.code}]`)].map((t) => `<li>${escapeHtml(t)}</li>`).join('')}</ul>`;
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(report.title)}</title><style>${STYLE}</style></head><body>`,
    `<h1>${escapeHtml(report.title)}</h1>`,
    `<p class="meta">uncertainty-metrics ${escapeHtml(report.version)}${report.timestamp === null ? '' : ` · ${escapeHtml(report.timestamp)}`}</p>`,
    `<ul>${models}</ul>`,
    '<h2>Metrics</h2>',
    '<p class="how">One column per model. Hover a metric for its meaning; the configuration behind every number is at the end. With several models the best value of each row is marked ★.</p>',
    table,
    charts,
    notes,
    '<h2>Configuration</h2><p class="how">Every option that changes a number, resolved (bins, binning rule, preset, precision, thresholds).</p>',
    config,
    '</body></html>',
    '',
  ].join('\n');
}
