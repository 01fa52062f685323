import { arrayOf, finite, record, text } from '../errors/checkShape.js';
import { colorBy, dashBy, frame, named, size } from './common.js';
import type { TemperatureSweep } from './temperatureSweep.js';
import type { ChartOptions, Series, VegaLiteSpec } from './types.js';

const isSweep = (x: unknown) =>
  typeof x === 'object' &&
  x !== null &&
  Array.isArray((x as TemperatureSweep).rows) &&
  typeof (x as TemperatureSweep).optimum === 'object';

/** Every field the chart reads; temperatures are drawn on a log scale. */
const SWEEP = record({
  rows: arrayOf(record({ metric: text(), temperature: finite('a log scale'), value: finite() })),
  optimum: record({ temperature: finite('a log scale'), NLL: finite(), ECE: finite(), UCE: finite() }),
});

/**
 * NLL, ECE and UCE against the softmax temperature (log scale), one panel per metric, the NLL-optimal temperature
 * marked — the UCE paper's Fig. 5: compare calibration at the optimal temperature.
 *
 * **Formula.** The rows of {@link temperatureSweep}; a point at (T*, metric(T*)).
 *
 * **Conventions.**
 * - Independent y scales per panel; colour and dash = model (Okabe–Ito); the temperature axis spans the data.
 *
 * **References.**
 * - "Uncertainty Calibration Error…", ICLR 2020 submission, Fig. 5.
 *
 * @param series a {@link TemperatureSweep}, or `[{ name, data }]` for several models.
 * @param options `title`, `width`, `height` (of each panel).
 * @returns a Vega-Lite specification.
 * @throws {UMError} `UM_OPTION` for bad options or data.
 * @example
 * ```js
 * import { temperatureChart, temperatureSweep } from 'uncertainty-metrics/plot';
 * const s = temperatureSweep([0, 1, 1], [[3, 0], [0, 3], [3, 0]], { input: 'logits', temperatures: [1, 2] });
 * temperatureChart(s).facet.row.field; // => 'metric'
 * ```
 */
export function temperatureChart(series: Series<TemperatureSweep>, options: ChartOptions = {}): VegaLiteSpec {
  const fn = 'temperatureChart';
  const items = named(fn, series, isSweep, SWEEP);
  const { title, width, height } = size(fn, options);
  const models = items.map((s) => `${s.name} (T* ${s.data.optimum.temperature.toPrecision(4)})`);
  const values = items.flatMap((s, j) => [
    ...s.data.rows.map((r) => ({
      model: models[j],
      metric: r.metric,
      temperature: r.temperature,
      value: r.value,
      optimum: false,
    })),
    ...(['NLL', 'ECE', 'UCE'] as const).map((metric) => ({
      model: models[j],
      metric,
      temperature: s.data.optimum.temperature,
      value: s.data.optimum[metric],
      optimum: true,
    })),
  ]);
  // the axis spans the data (a log scale's nice domain rounds out to powers of ten: 0.1–100 for curves in 0.25–15)
  const ts = values.map((v) => v.temperature);
  const x = {
    field: 'temperature',
    type: 'quantitative',
    title: 'temperature T',
    scale: { type: 'log', domain: [Math.min(...ts), Math.max(...ts)], nice: false },
  };
  const color = colorBy(models);
  return frame(title, {
    data: { values },
    facet: { row: { field: 'metric', type: 'nominal', sort: ['NLL', 'ECE', 'UCE'], title: null } },
    spec: {
      width,
      height: Math.round(height / 2),
      layer: [
        {
          transform: [{ filter: 'datum.optimum === false' }],
          mark: { type: 'line' },
          encoding: {
            x,
            y: { field: 'value', type: 'quantitative', title: null, scale: { zero: false } },
            color,
            strokeDash: dashBy(models),
          },
        },
        {
          transform: [{ filter: 'datum.optimum === true' }],
          mark: { type: 'point', filled: true, size: 60, shape: 'diamond' },
          encoding: { x, y: { field: 'value', type: 'quantitative' }, color },
        },
      ],
    },
    resolve: { scale: { y: 'independent' } },
  });
}
