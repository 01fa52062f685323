import type { RejectionCurve } from '../selective/rejectionCurve.js';
import { arrayOf, finite, orNull, record, text } from '../errors/checkShape.js';
import { named, size } from './common.js';
import { lineChart } from './lineChart.js';
import type { ChartOptions, Series, VegaLiteSpec } from './types.js';

const isCurve = (x: unknown) =>
  typeof x === 'object' &&
  x !== null &&
  Array.isArray((x as RejectionCurve).points) &&
  typeof (x as RejectionCurve).direction === 'string' &&
  !('aurc' in x);

/**
 * Rejection chart: the top-1 error of the kept predictions as the uncertainty threshold H_max falls (more uncertain
 * predictions rejected) — Laves et al. 2019 Fig. 3, the UCE paper's Fig. 2.
 *
 * **Formula.** The points of {@link uncertainty-metrics!rejectionCurve}: (threshold, error of the predictions kept at that threshold).
 *
 * **Conventions.**
 * - The x axis runs from the least to the most demanding threshold (reversed for uncertainties, so it reads like the
 *   papers' "decreasing H_max"); points where nothing is kept are left out. At most 500 points per curve.
 *
 * **References.**
 * - Laves et al., arXiv:1909.13550, Fig. 3; "Uncertainty Calibration Error…", ICLR 2020 submission, Fig. 2.
 *
 * @param series a {@link RejectionCurve}, or `[{ name, data }]` for several models (same measure).
 * @param options `title`, `width`, `height`.
 * @returns a Vega-Lite specification.
 * @throws {UMError} `UM_OPTION` for bad options or data.
 * @example
 * ```js
 * import { rejectionCurve } from 'uncertainty-metrics';
 * import { rejectionChart } from 'uncertainty-metrics/plot';
 * const spec = rejectionChart(rejectionCurve([0, 1, 1], [[0.9, 0.1], [0.2, 0.8], [0.6, 0.4]]));
 * spec.layer[0].encoding.x.scale.reverse; // => true
 * ```
 */
export function rejectionChart(series: Series<RejectionCurve>, options: ChartOptions = {}): VegaLiteSpec {
  const fn = 'rejectionChart';
  const items = named(
    fn,
    series,
    isCurve,
    record({
      measure: text(),
      direction: text(),
      points: arrayOf(record({ threshold: finite(), error: orNull(finite()) })),
    }),
  );
  const { title, ...dims } = size(fn, options);
  const first = items[0]?.data;
  const uncertainty = first?.direction === 'uncertainty';
  const measure =
    first === undefined
      ? 'measure'
      : first.measure === 'normalized-entropy'
        ? 'normalized entropy'
        : first.measure === 'given'
          ? `the given ${first.direction}`
          : first.measure;
  const curves = items.map((s) => ({
    label: s.name,
    points: s.data.points.filter((p) => p.error !== null).map((p) => ({ threshold: p.threshold, error: p.error })),
  }));
  return lineChart(
    title,
    curves,
    {
      x: 'threshold',
      y: 'error',
      xTitle: uncertainty
        ? `threshold H_max on ${measure} (kept: ≤ H_max)`
        : `threshold on ${measure} (kept: ≥ threshold)`,
      yTitle: 'top-1 error of kept predictions',
      xReverse: uncertainty,
      interpolate: 'step-after',
    },
    dims,
  );
}
