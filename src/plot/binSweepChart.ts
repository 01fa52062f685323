import { arrayOf, finite, record, text } from '../errors/checkShape.js';
import { DASHES, PALETTE, frame, named, size } from './common.js';
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
 * - Colour = metric (Okabe–Ito); with several models the dash tells them apart, with a legend of
 *   the dashes.
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
  const items = named(
    fn,
    series,
    isSweep,
    record({ rows: arrayOf(record({ metric: text(), bins: finite('a number of bins'), value: finite() })) }),
  );
  const { title, width, height } = size(fn, options);
  const values = items.flatMap((s) =>
    s.data.rows.map((r) => ({ model: s.name, metric: r.metric, bins: r.bins, value: r.value })),
  );
  const names = items.map((s) => s.name);
  // the models' legend shows each model's dash in grey (the colours belong to the metrics); it comes from the line
  // layer alone: a line with points gets transparent legend strokes
  const dash = {
    field: 'model',
    type: 'nominal',
    sort: names,
    scale: { domain: names, range: DASHES },
    legend: {
      title: 'model',
      orient: 'bottom',
      direction: 'vertical',
      symbolType: 'stroke',
      symbolStrokeWidth: 2.5,
      symbolSize: 400,
      symbolStrokeColor: '#444444',
      labelLimit: 400,
    },
  };
  return frame(title, {
    width,
    height,
    data: { values },
    encoding: {
      x: { field: 'bins', type: 'quantitative', title: 'number of bins' },
      y: { field: 'value', type: 'quantitative', title: 'calibration error', scale: { zero: true } },
      color: {
        field: 'metric',
        type: 'nominal',
        sort: ['ECE', 'ACE', 'UCE'],
        scale: { domain: ['ECE', 'ACE', 'UCE'], range: PALETTE.slice(0, 3) },
        legend: {
          title: 'metric',
          orient: 'bottom',
          direction: 'horizontal',
          symbolType: 'stroke',
          symbolStrokeWidth: 2.5,
        },
      },
      detail: { field: 'model', type: 'nominal' },
    },
    layer: [
      { mark: { type: 'line' }, encoding: items.length > 1 ? { strokeDash: dash } : {} },
      { mark: { type: 'point', filled: true, size: 20 } },
    ],
  });
}
