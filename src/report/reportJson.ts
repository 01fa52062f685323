import { checkReport } from './checkReport.js';
import type { Report } from './createReport.js';

/**
 * The report as JSON: every number, the models' configuration, and each chart's Vega-Lite specification (with its
 * data) — without the rendered SVG.
 *
 * **Formula.** Not applicable (serialisation of {@link createReport}'s result).
 *
 * **Conventions.**
 * - Non-finite numbers are written as the strings "Infinity", "-Infinity" and "NaN" (as `um metrics --json`), so
 *   nothing turns silently into `null`.
 *
 * **References.** None.
 *
 * @param report from {@link createReport}.
 * @returns the JSON text (2-space indented).
 * @throws {UMError} when `report` is not a report of {@link createReport}'s shape (a field of another type, not JSON data).
 * @example
 * ```js
 * import { createReport, reportJson } from 'uncertainty-metrics/report';
 * // svg: false — the JSON holds each chart's specification and text, not its drawing
 * const r = await createReport([{ name: 'a', labels: [0, 1, 1, 0], scores: [[0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [0.7, 0.3]] }], { svg: false });
 * JSON.parse(reportJson(r)).models[0].evaluation.accuracy; // => 0.75
 * ```
 */
export function reportJson(report: Report): string {
  checkReport('reportJson', report);
  const { charts, ...rest } = report;
  const value = { ...rest, charts: charts.map(({ svg: _svg, ...c }) => c) };
  return `${JSON.stringify(value, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v), 2)}\n`;
}
