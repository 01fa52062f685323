import type { RocCurve } from '../selective/rocCurve.js';
import { arrayOf, finite, record } from '../errors/checkShape.js';
import { named, short, size } from './common.js';
import { lineChart, referenceLine } from './lineChart.js';
import type { ChartOptions, Series, VegaLiteSpec } from './types.js';

const isCurve = (x: unknown) =>
  typeof x === 'object' &&
  x !== null &&
  Array.isArray((x as RocCurve).points) &&
  typeof (x as RocCurve).auroc === 'number';

/**
 * ROC chart of correctness: the share of correct predictions accepted against the share of wrong ones, as the
 * confidence threshold falls; AUROC in the legend — the curve under {@link uncertainty-metrics!auroc}.
 *
 * **Formula.** The points of {@link uncertainty-metrics!rocCurve}: (FPR, TPR) per distinct confidence, from (0, 0) to (1, 1).
 *
 * **Conventions.**
 * - The dashed diagonal is a ranking no better than chance. At most 500 points per curve.
 *
 * **References.**
 * - Fawcett, Pattern Recognition Letters 27 (2006), doi:10.1016/j.patrec.2005.10.010.
 *
 * @param series a {@link RocCurve}, or `[{ name, data }]` for several models.
 * @param options `title`, `width`, `height`.
 * @returns a Vega-Lite specification.
 * @throws {UMError} `UM_OPTION` for bad options or data.
 * @example
 * ```js
 * import { rocCurve } from 'uncertainty-metrics';
 * import { rocChart } from 'uncertainty-metrics/plot';
 * const spec = rocChart(rocCurve([0, 0, 1, 0], [[0.9, 0.1], [0.2, 0.8], [0.3, 0.7], [0.4, 0.6]]));
 * spec.layer[1].data.values.length; // => 5
 * ```
 */
export function rocChart(series: Series<RocCurve>, options: ChartOptions = {}): VegaLiteSpec {
  const fn = 'rocChart';
  const items = named(
    fn,
    series,
    isCurve,
    record({ auroc: finite(), points: arrayOf(record({ fpr: finite(), tpr: finite() })) }),
  );
  const { title, ...dims } = size(fn, options);
  const curves = items.map((s) => ({
    label: `${s.name} (AUROC ${short(s.data.auroc)})`,
    points: s.data.points.map((p) => ({ fpr: p.fpr, tpr: p.tpr })),
  }));
  return lineChart(
    title,
    curves,
    {
      x: 'fpr',
      y: 'tpr',
      xTitle: 'false-positive rate (wrong predictions accepted)',
      yTitle: 'TPR (correct predictions accepted)',
      xDomain: [0, 1],
      yDomain: [0, 1],
    },
    dims,
    [referenceLine([0, 0], [1, 1], { x: 'fpr', y: 'tpr' })],
  );
}
