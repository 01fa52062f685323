/**
 * The bundled examples as the report's two models, and their report with few resamples, made once: every test that
 * reads it is in report.test.ts (files on different workers would each build it, Vega drawings included).
 */
import { createReport, type Report } from '../../src/report/index.js';
import { exampleCsv } from '../helpers/data.js';

export const mlp = exampleCsv('mlp_overfit_test');
export const logreg = exampleCsv('logreg_test');
export const TWO = [
  { name: 'mlp_overfit', source: 'examples/data/mlp_overfit_test.csv', labels: mlp.labels, scores: mlp.probs },
  { name: 'logreg', source: 'examples/data/logreg_test.csv', labels: logreg.labels, scores: logreg.probs },
];

/**
 * Few resamples: these tests are about the report's content, test/report/summary.test.ts about its intervals. 2, the
 * fewest a report takes, run the same code paths (resampling, BCa's jackknife, the smooth diagram's band) as 20, which
 * spent ~0.15 s more a two-model report — though fewer intervals take the BCa branch (both resamples on one side of
 * the estimate falls back to the union interval: 14 of 48 BCa on the bundled pair, against 24 with 20).
 */
export const FAST = { resamples: 2 };

let shared: Promise<Report> | undefined;
/** The report of TWO with FAST and every chart rendered, made once. */
export const twoReport = (): Promise<Report> => (shared ??= createReport(TWO, FAST));

/**
 * `report` with every chart's SVG replaced by an empty one, for the tests of the HTML around the charts: reportHtml
 * refuses a report made with `svg: false`, and what these tests read does not depend on the drawings.
 */
export const withBlankSvg = (report: Report): Report => ({
  ...report,
  charts: report.charts.map((c) => ({ ...c, svg: '<svg></svg>' })),
});
