import type { PrecisionRecallCurve } from '../selective/precisionRecallCurve.js';
import { arrayOf, finite, record } from '../errors/checkShape.js';
import { named, short, size } from './common.js';
import { lineChart } from './lineChart.js';
import type { ChartOptions, Series, VegaLiteSpec } from './types.js';

const isCurve = (x: unknown) =>
  typeof x === 'object' &&
  x !== null &&
  Array.isArray((x as PrecisionRecallCurve).points) &&
  typeof (x as PrecisionRecallCurve).aupr === 'number';

/**
 * Precision–recall chart of detecting errors (or correct predictions): precision against recall as the threshold
 * moves, AUPR in the legend — the curve under {@link uncertainty-metrics!aupr}.
 *
 * **Formula.** The points of {@link uncertainty-metrics!precisionRecallCurve}: (recall, precision) per distinct value, joined as steps.
 *
 * **Conventions.**
 * - Steps (no interpolation), as the average precision sums them. At most 500 points per curve.
 *
 * **References.**
 * - Davis & Goadrich, ICML 2006, doi:10.1145/1143844.1143874.
 *
 * @param series a {@link PrecisionRecallCurve}, or `[{ name, data }]` for several models (same positives).
 * @param options `title`, `width`, `height`.
 * @returns a Vega-Lite specification.
 * @throws {UMError} `UM_OPTION` for bad options or data.
 * @example
 * ```js
 * import { precisionRecallCurve } from 'uncertainty-metrics';
 * import { precisionRecallChart } from 'uncertainty-metrics/plot';
 * const spec = precisionRecallChart(precisionRecallCurve([0, 0, 1, 0], [[0.9, 0.1], [0.2, 0.8], [0.3, 0.7], [0.4, 0.6]]));
 * spec.layer[0].mark.interpolate; // => 'step-before'
 * ```
 */
export function precisionRecallChart(series: Series<PrecisionRecallCurve>, options: ChartOptions = {}): VegaLiteSpec {
  const fn = 'precisionRecallChart';
  const items = named(
    fn,
    series,
    isCurve,
    record({ aupr: finite(), points: arrayOf(record({ recall: finite(), precision: finite() })) }),
  );
  const { title, ...dims } = size(fn, options);
  const positive = items[0]?.data.positive === 'correct' ? 'correct predictions' : 'errors';
  const curves = items.map((s) => ({
    label: `${s.name} (AUPR ${short(s.data.aupr)})`,
    points: s.data.points.map((p) => ({ recall: p.recall, precision: p.precision })),
  }));
  return lineChart(
    title,
    curves,
    {
      x: 'recall',
      y: 'precision',
      xTitle: `recall (share of ${positive} found)`,
      yTitle: 'precision',
      xDomain: [0, 1],
      yDomain: [0, 1],
      interpolate: 'step-before',
    },
    dims,
  );
}
