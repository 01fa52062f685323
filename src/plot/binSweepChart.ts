import { arrayOf, finite, record, text } from '../errors/checkShape.js';
import { frame, named, size } from './common.js';
import type { BinSweep } from './binSweep.js';
import type { ChartOptions, Series, VegaLiteSpec } from './types.js';

const isSweep = (x: unknown) => typeof x === 'object' && x !== null && Array.isArray((x as BinSweep).rows);

/**
 * Calibration error against the number of bins for ECE, ACE and UCE (the UCE paper's Fig. 1): a metric whose value moves a
 * lot with the binning cannot rank models reliably.
 *
 * **Formula.** The rows of {@link binSweep}: one line per metric (and model).
 *
 * **Conventions.**
 * - Colour = metric; with several models the line style tells them apart (legend).
 *
 * **References.**
 * - "Uncertainty Calibration Error…", ICLR 2020 submission, Fig. 1.
 *
 * @param series a {@link BinSweep}, or `[{ name, data }]` for several models.
 * @param options `title`, `width`, `height`.
 * @returns a Vega-Lite specification.
 * @throws {UMError} `UM_OPTION` for bad options or data.
 * @example
 * ```js
 * import { binSweep, binSweepChart } from 'uncertainty-metrics/plot';
 * const spec = binSweepChart(binSweep([0, 1, 1], [[0.9, 0.1], [0.2, 0.8], [0.6, 0.4]], { bins: [2, 5] }));
 * spec.encoding.x.field; // => 'bins'
 * ```
 */
export function binSweepChart(series: Series<BinSweep>, options: ChartOptions = {}): VegaLiteSpec {
  const fn = 'binSweepChart';
  const items = named(fn, series, isSweep, record({ rows: arrayOf(record({ metric: text(), bins: finite('a number of bins'), value: finite() })) }));
  const { title, width, height } = size(fn, options);
  const values = items.flatMap((s) => s.data.rows.map((r) => ({ model: s.name, metric: r.metric, bins: r.bins, value: r.value })));
  return frame(title, {
    width,
    height,
    data: { values },
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'bins', type: 'quantitative', title: 'number of bins' },
      y: { field: 'value', type: 'quantitative', title: 'calibration error', scale: { zero: true } },
      color: { field: 'metric', type: 'nominal', sort: ['ECE', 'ACE', 'UCE'], legend: { title: null, orient: 'bottom', direction: 'horizontal' } },
      ...(items.length > 1 ? { strokeDash: { field: 'model', type: 'nominal', sort: items.map((s) => s.name), legend: { title: null, orient: 'bottom', direction: 'vertical' } } } : {}),
      detail: { field: 'model', type: 'nominal' },
    },
  });
}
