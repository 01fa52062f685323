import type { OodCurve } from '../ood/oodCurve.js';
import { arrayOf, finite, orNull, record, text } from '../errors/checkShape.js';
import { colorBy, dashBy, frame, named, size } from './common.js';
import type { ChartOptions, Series, VegaLiteSpec } from './types.js';

const isCurve = (x: unknown) =>
  typeof x === 'object' &&
  x !== null &&
  Array.isArray((x as OodCurve).points) &&
  typeof (x as OodCurve).batchSize === 'number';

/**
 * Out-of-distribution chart: the mean uncertainty of a batch as its in-distribution samples are replaced by OoD
 * samples (the UCE paper's Fig. 2, right), with a ±1 standard deviation band over repeats.
 *
 * **Formula.** The points of {@link uncertainty-metrics!oodCurve}: (OoD fraction, mean measure), band mean ± std when repeats > 1.
 *
 * **Conventions.**
 * - A useful uncertainty rises steadily from left to right (a confidence falls).
 *
 * **References.**
 * - "Uncertainty Calibration Error…", ICLR 2020 submission, §5 and Fig. 2.
 *
 * @param series an {@link OodCurve}, or `[{ name, data }]` for several models.
 * @param options `title`, `width`, `height`.
 * @returns a Vega-Lite specification.
 * @throws {UMError} `UM_OPTION` for bad options or data.
 * @example
 * ```js
 * import { oodCurve } from 'uncertainty-metrics';
 * import { oodChart } from 'uncertainty-metrics/plot';
 * const spec = oodChart(oodCurve({ uncertainty: [0.1, 0.2] }, { uncertainty: [0.8, 0.9] }, { batchSize: 2 }));
 * spec.layer.length; // => 2
 * ```
 */
export function oodChart(series: Series<OodCurve>, options: ChartOptions = {}): VegaLiteSpec {
  const fn = 'oodChart';
  const items = named(
    fn,
    series,
    isCurve,
    record({
      measure: text(),
      direction: text(),
      points: arrayOf(record({ fraction: finite(), mean: finite(), std: orNull(finite()) })),
    }),
  );
  const { title, width, height } = size(fn, options);
  const labels = items.map((s) => s.name);
  const values = items.flatMap((s) =>
    s.data.points.map((p) => ({
      model: s.name,
      fraction: p.fraction,
      mean: p.mean,
      low: p.mean - (p.std ?? 0),
      high: p.mean + (p.std ?? 0),
    })),
  );
  const first = items[0]?.data;
  const measure =
    first === undefined
      ? 'measure'
      : first.measure === 'normalized-entropy'
        ? 'normalized entropy'
        : first.measure === 'given'
          ? first.direction
          : first.measure;
  const x = {
    field: 'fraction',
    type: 'quantitative',
    title: 'share of out-of-distribution samples in the batch',
    scale: { domain: [0, 1] },
  };
  return frame(title, {
    width,
    height,
    data: { values },
    layer: [
      {
        mark: { type: 'area', opacity: 0.2 },
        encoding: {
          x,
          y: { field: 'low', type: 'quantitative', title: `mean ${measure} of the batch`, scale: { zero: false } },
          y2: { field: 'high' },
          color: colorBy(labels),
        },
      },
      {
        mark: { type: 'line' },
        encoding: { x, y: { field: 'mean', type: 'quantitative' }, color: colorBy(labels), strokeDash: dashBy(labels) },
      },
    ],
  });
}
