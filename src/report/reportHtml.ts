import { fail } from '../errors/fail.js';
import { checkReport } from './checkReport.js';
import type { Report } from './createReport.js';
import { classCount } from './classCount.js';
import { metricRows } from './metricRows.js';

/** Escapes text for HTML element content and attribute values (internal). */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const STYLE = `
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:1.5rem auto;max-width:110rem;padding:0 1.5rem;color:#222;line-height:1.45;font-size:16px}
h1{font-size:1.6rem;margin-bottom:.2rem}h2{font-size:1.25rem;margin-top:2rem;border-bottom:1px solid #ddd;padding-bottom:.2rem}h3{font-size:1.05rem;margin:.8rem 0 .3rem}
table{border-collapse:collapse;font-variant-numeric:tabular-nums}th,td{padding:.25rem .7rem;border-bottom:1px solid #eee;text-align:right;vertical-align:top}
th:first-child,td:first-child{text-align:left}td.best{font-weight:700;background:#eef3fb}td .star{color:#0072b2}
td code,li code{font-size:.85em;color:#555}.dir{color:#555;text-align:center}.ci{display:block;font-weight:400;color:#555;font-size:.82em}
.meta{color:#555;font-size:.9rem}.how{color:#444;font-size:.95rem;max-width:60rem}figure{margin:.6rem 0;overflow-x:auto}figure svg{width:100%;max-width:46rem;height:auto}
pre{background:#f6f6f6;padding:.6rem;overflow-x:auto;font-size:.8rem}details{margin:.4rem 0}
nav.toc{background:#f7f7f7;padding:.5rem 1rem;border-radius:4px}nav.toc ol{margin:.2rem 0;padding-left:1.2rem;columns:3 16rem}
.warnings{border-left:4px solid #d55e00;background:#fff6ef;padding:.5rem 1rem}.warnings li{color:#7a3300}
.summary{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,28rem),1fr));gap:0 2rem}.summary ul{padding-left:1.1rem}
.verdicts li{margin:.2rem 0}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,34rem),1fr));grid-auto-flow:dense;gap:0 2.5rem}
.charts section.wide{grid-column:1/-1}.wide figure svg{width:auto;max-width:100%}
p.warn{border-left:4px solid #d55e00;background:#fff6ef;padding:.3rem .7rem;color:#7a3300;max-width:60rem}a.warn{color:#d55e00;text-decoration:none}
@media print{body{max-width:none;margin:0;font-size:11pt}nav.toc{display:none}section{break-inside:avoid}.charts{display:block}h2{break-after:avoid}a{color:inherit;text-decoration:none}}
`;

/** A number for the table: 6 decimals, scientific for tiny values (the same as `um metrics`) (internal). */
function cell(v: number | null): string {
  if (v === null) return 'n/a';
  if (!Number.isFinite(v)) return String(v);
  if (v !== 0 && Math.abs(v) < 1e-4) return v.toExponential(3);
  return Number.isInteger(v) && Math.abs(v) >= 1 ? String(v) : v.toFixed(6);
}

/** What a chart draws (`usermeta.drawn` of its spec: bars or lines), as an attribute a test or a reader can check. */
function drawnOf(spec: Record<string, unknown>): string {
  const meta = spec.usermeta;
  const drawn = meta !== null && typeof meta === 'object' ? (meta as { drawn?: unknown }).drawn : undefined;
  return typeof drawn === 'string' ? ` data-drawn="${escapeHtml(drawn)}"` : '';
}

/** Charts of several panels (small multiples, one panel per model) span the grid's width (internal). */
function isWide(spec: Record<string, unknown>): boolean {
  return 'facet' in spec || 'concat' in spec;
}

/** A bound of an interval: 4 decimals (the table's value keeps 6) (internal). */
function bound(v: number): string {
  return v !== 0 && Math.abs(v) < 1e-4 ? v.toExponential(2) : v.toFixed(4);
}

/**
 * The report as one self-contained HTML page: a table of contents, warnings and notes, the summary (per model; the
 * paired comparisons), the metrics table with intervals, every chart as inline SVG with how to read it in a grid that
 * uses the width, and the configuration behind every number.
 *
 * **Formula.** Not applicable (presentation of {@link createReport}'s numbers).
 *
 * **Conventions.**
 * - No scripts, no external stylesheets, fonts or images: the page makes no network request. All text from the data
 *   (model names, file paths, messages) is HTML-escaped; charts are Vega's escaped SVG.
 * - Each table cell carries the exact value in `data-value` (shortest round-trip decimal); the text shows 6 decimals,
 *   and the bootstrap interval below (exact bounds in `data-lower`, `data-upper`). Rows carry a friendly name, the
 *   identifier of `um metrics` and ↓/↑ (lower/higher is better).
 * - ★ marks a model better than every other beyond the noise: with two models by the paired comparison's verdict,
 *   otherwise when its interval does not overlap any other model's; never on ties (descriptive rows never).
 * - Warnings and notes come first, after the contents; each warning is also shown where it applies — a ⚠ linking
 *   back to it in the model's cell of each metric it concerns, and its text above each chart it concerns. Charts of
 *   several panels span the width. A print stylesheet drops the contents and keeps charts whole.
 *
 * **References.** None.
 *
 * @param report from {@link createReport}.
 * @returns the HTML document.
 * @throws {UMError} when `report` is not a report of {@link createReport}'s shape (a field of another type, not JSON data),
 *   or was made with `svg: false` (`UM_OPTION`).
 * @example
 * ```js
 * import { createReport, reportHtml } from 'uncertainty-metrics/report';
 * const html = reportHtml(await createReport([{ name: 'a<b>', labels: [0, 1, 1, 0], scores: [[0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [0.7, 0.3]] }]));
 * [html.startsWith('<!doctype html>'), html.includes('a&lt;b&gt;'), html.includes('<script')]; // => [true, true, false]
 * ```
 */
export function reportHtml(report: Report): string {
  checkReport('reportHtml', report);
  const unrendered = report.charts.findIndex((c) => c.svg === '');
  if (unrendered >= 0)
    fail('UM_OPTION', 'reportHtml', `report.charts[${unrendered}].svg`, 'be rendered (made without svg: false)', {
      value: '',
    });
  const e = escapeHtml;
  const names = report.models.map((m) => m.name);
  const rows = metricRows(report);
  // every warning gets an anchor at the top; the cells and charts it concerns link back to it
  const warned = report.warnings.map((warning, i) => ({ warning, id: `warning-${i + 1}` }));
  const said = (w: Report['warnings'][number]) => `${w.model === null ? '' : `${w.model}: `}${w.message} [${w.code}]`;
  const level = `${Math.round(report.intervals.level * 1000) / 10}%`;
  const table = [
    '<table id="metrics"><thead><tr><th>metric</th><th title="which direction is better">better</th>',
    ...names.map((n) => `<th>${e(n)}</th>`),
    '</tr></thead><tbody>',
    ...rows.map((r) => {
      const cells = r.values.map((v, j) => {
        const best = r.best.includes(j);
        const i = r.intervals[j] ?? null;
        const ci =
          i === null
            ? ''
            : `<span class="ci" data-lower="${String(i.lower)}" data-upper="${String(i.upper)}" title="${level} bootstrap interval (${i.method === 'bca' ? 'BCa' : i.method})">[${bound(i.lower)}, ${bound(i.upper)}]</span>`;
        const flags = warned
          .filter((w) => w.warning.metrics.includes(r.key) && w.warning.model === names[j])
          .map((w) => ` <a class="warn" href="#${w.id}" title="${e(w.warning.message)}">⚠</a>`)
          .join('');
        return `<td data-metric="${e(r.key)}" data-model="${j}" data-value="${v === null ? 'null' : String(v)}"${best ? ' class="best"' : ''}>${cell(v)}${best ? ' <span class="star" title="best beyond the noise">★</span>' : ''}${flags}${ci}</td>`;
      });
      const dir =
        r.better === 'lower'
          ? '<span title="lower is better">↓</span>'
          : r.better === 'higher'
            ? '<span title="higher is better">↑</span>'
            : '<span title="descriptive, neither is better">·</span>';
      return `<tr><td title="${e(r.meaning)}">${e(r.name)} <code>${e(r.key)}</code></td><td class="dir">${dir}</td>${cells.join('')}</tr>`;
    }),
    '</tbody></table>',
  ].join('');
  const models = report.models
    .map(
      (m) =>
        `<li><strong>${e(m.name)}</strong>${m.source === null ? '' : ` — ${e(m.source)}`}: ${m.n} examples, ${e(classCount(m.numClasses, m.classes))}${m.numMembers === null ? '' : `, ${m.numMembers} members (charts show their mean prediction)`}</li>`,
    )
    .join('');
  const perModel = report.summary.models
    .map((m) => `<div><h3>${e(m.name)}</h3><ul>${m.lines.map((l) => `<li>${e(l)}</li>`).join('')}</ul></div>`)
    .join('');
  const comparisons = report.summary.comparisons
    .map(
      (c) =>
        `<div class="verdicts" data-a="${e(c.a)}" data-b="${e(c.b)}"><h3>${e(c.b)} against ${e(c.a)}</h3><ul>${c.sentences.map((l) => `<li>${e(l)}</li>`).join('')}</ul>` +
        `<p class="how">Paired bootstrap of the differences (the same rows resampled for both models): ${c.resamples} resamples, seed ${c.seed}, ${Math.round(c.level * 1000) / 10}% BCa intervals, the conservative union interval for the binned calibration errors. A model is called better only when the interval of the difference excludes 0. <code>um compare</code> on the two files prints the same verdicts.</p></div>`,
    )
    .join('');
  const charts = report.charts
    .map((c) => {
      const here = warned
        .filter((w) => w.warning.charts.includes(c.id))
        .map((w) => `<p class="warn"><a class="warn" href="#${w.id}">⚠</a> ${e(said(w.warning))}</p>`)
        .join('');
      return `<section id="chart-${e(c.id)}"${isWide(c.spec) ? ' class="wide"' : ''}${drawnOf(c.spec)}><h2>${e(c.title)}</h2>${here}<p class="how">${e(c.howToRead)}</p><figure>${c.svg}</figure></section>`;
    })
    .join('\n');
  const config = report.models
    .map(
      (m) =>
        `<details><summary>${e(m.name)}</summary><pre>${e(JSON.stringify(m.evaluation.config, null, 2))}</pre></details>`,
    )
    .join('');
  const chartTitle = new Map(report.charts.map((c) => [c.id, c.title]));
  const where = (w: Report['warnings'][number]) => {
    const links = [
      ...(w.metrics.length === 0 ? [] : [`<a href="#metrics-section">${e(w.metrics.join(', '))} in the table</a>`]),
      ...w.charts.flatMap((id) => {
        const t = chartTitle.get(id);
        return t === undefined ? [] : [`<a href="#chart-${e(id)}">${e(t)}</a>`];
      }),
    ];
    return links.length === 0 ? '' : ` — see ${links.join(', ')}`;
  };
  const attention = [
    ...warned.map((w) => `<li id="${w.id}" class="warn">${e(said(w.warning))}${where(w.warning)}</li>`),
    ...report.notes.map((t) => `<li>${e(t)}</li>`),
  ];
  const warnings =
    attention.length === 0
      ? ''
      : `<section id="warnings" class="warnings"><h2>Warnings and notes</h2><ul>${attention.join('')}</ul></section>`;
  const toc = [
    ...(attention.length === 0 ? [] : [['warnings', 'Warnings and notes']]),
    ['summary', 'Summary'],
    ['metrics-section', 'Metrics'],
    ...report.charts.map((c) => [`chart-${c.id}`, c.title]),
    ['configuration', 'Configuration'],
  ];
  const intervalText = report.intervals.models.some((x) => x !== null)
    ? ` Below each value: its ${level} bootstrap interval (${report.intervals.resamples} resamples of the rows, seed ${report.intervals.seed}; BCa, and for the binned calibration errors the conservative union of the percentile and basic intervals; clipped at 0).`
    : '';
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${e(report.title)}</title><style>${STYLE}</style></head><body>`,
    `<h1>${e(report.title)}</h1>`,
    `<p class="meta">uncertainty-metrics ${e(report.version)}${report.timestamp === null ? '' : ` · ${e(report.timestamp)}`}</p>`,
    `<ul>${models}</ul>`,
    `<nav id="toc" class="toc"><strong>Contents</strong><ol>${toc.map(([id, t]) => `<li><a href="#${e(id as string)}">${e(t as string)}</a></li>`).join('')}</ol></nav>`,
    warnings,
    `<section id="summary"><h2>Summary</h2><div class="summary">${perModel}</div>${comparisons}</section>`,
    '<section id="metrics-section"><h2>Metrics</h2>',
    `<p class="how">One column per model; ↓ lower is better, ↑ higher is better. Hover a metric for its meaning; the configuration behind every number is at the end.${intervalText}${report.models.length > 1 ? ' ★ marks a model better than the others beyond the noise: with two models, by the paired comparison above; otherwise when its interval does not overlap any other. Ties and overlapping intervals get no star.' : ''}</p>`,
    table,
    '</section>',
    `<div class="charts">${charts}</div>`,
    '<section id="configuration"><h2>Configuration</h2><p class="how">Every option that changes a number, resolved (bins, binning rule, preset, precision, thresholds).</p>',
    config,
    '</section>',
    '</body></html>',
    '',
  ].join('\n');
}
