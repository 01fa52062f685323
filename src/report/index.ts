/**
 * One report of metrics and charts for one or more models, as self-contained HTML, Markdown or JSON.
 *
 * @module uncertainty-metrics/report
 */
// uncertainty-metrics/report — one report of metrics and charts for one or more models (HTML, Markdown, JSON).
// Re-exports only.
export { createReport } from './createReport.js';
export type { Report, ReportChart, ReportModel, ReportModelResult, ReportOptions } from './createReport.js';
export type { ReportWarning } from './reportWarnings.js';
export { reportHtml } from './reportHtml.js';
export { reportMarkdown } from './reportMarkdown.js';
export { reportJson } from './reportJson.js';
