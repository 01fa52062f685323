import type { RiskCoverageCurve } from '../selective/riskCoverageCurve.js';
import { arrayOf, finite, record } from '../errors/checkShape.js';
import { named, short, size } from './common.js';
import { lineChart } from './lineChart.js';
import type { ChartOptions, Series, VegaLiteSpec } from './types.js';

const isCurve = (x: unknown) =>
  typeof x === 'object' &&
  x !== null &&
  Array.isArray((x as RiskCoverageCurve).points) &&
  typeof (x as RiskCoverageCurve).aurc === 'number';

/**
 * Risk–coverage chart: the top-1 error of the kept predictions against the share kept, one curve per model, AURC
 * in the legend — the chart behind {@link uncertainty-metrics!aurc}.
 *
 * **Formula.** The points of {@link uncertainty-metrics!riskCoverageCurve}: (coverage, risk) per distinct confidence threshold.
 *
 * **Conventions.**
 * - Lower is better at every coverage; the curve ends at coverage 1 with the overall error rate. Drawn with at most
 *   500 points per curve (the AURC uses all).
 *
 * **References.**
 * - Geifman & El-Yaniv, NeurIPS 2017, arXiv:1705.08500; Ding et al., arXiv:1903.02050, Fig. 1.
 *
 * @param series a {@link RiskCoverageCurve}, or `[{ name, data }]` for several models.
 * @param options `title`, `width`, `height`.
 * @returns a Vega-Lite specification.
 * @throws {UMError} `UM_OPTION` for bad options or data.
 * @example
 * ```js
 * import { riskCoverageCurve } from 'uncertainty-metrics';
 * import { riskCoverageChart } from 'uncertainty-metrics/plot';
 * const spec = riskCoverageChart(riskCoverageCurve([0, 1, 1], [[0.9, 0.1], [0.2, 0.8], [0.6, 0.4]]));
 * spec.layer[0].data.values.length; // => 3
 * ```
 */
export function riskCoverageChart(series: Series<RiskCoverageCurve>, options: ChartOptions = {}): VegaLiteSpec {
  const fn = 'riskCoverageChart';
  const items = named(
    fn,
    series,
    isCurve,
    record({ aurc: finite(), points: arrayOf(record({ coverage: finite(), risk: finite() })) }),
  );
  const { title, ...dims } = size(fn, options);
  const curves = items.map((s) => ({
    label: `${s.name} (AURC ${short(s.data.aurc)})`,
    points: s.data.points.map((p) => ({ coverage: p.coverage, risk: p.risk })),
  }));
  return lineChart(
    title,
    curves,
    {
      x: 'coverage',
      y: 'risk',
      xTitle: 'coverage (share of predictions kept)',
      yTitle: 'risk (error of kept predictions)',
      xDomain: [0, 1],
    },
    dims,
  );
}
