import type { ReliabilityTable } from '../calibration/reliability.js';
import type { Check } from '../errors/checkShape.js';
import { fail } from '../errors/fail.js';
import type { ChartOptions, Named, Series, VegaLiteSpec } from './types.js';

export const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

/** Most points a curve is drawn with (curves are thinned for drawing only; metrics use every point). */
export const MAX_POINTS = 500;

/**
 * The series as a list of named items (a single item is named `fallback`) (internal). `isItem` tells the chart's
 * result from other values; `check` then validates every field the chart reads.
 */
export function named<T>(
  fn: string,
  series: Series<T>,
  isItem: (x: unknown) => boolean,
  check: Check,
  fallback = 'model',
): Named<T>[] {
  if (Array.isArray(series)) {
    if (series.length === 0) fail('UM_EMPTY', fn, 'series', 'hold at least one { name, data }', { value: 0 });
    // Array.from visits holes (map skips them, and a hole would reach the spec as undefined)
    return Array.from(series as ReadonlyArray<Named<T>>, (s, i) => {
      if (s === null || typeof s !== 'object' || typeof s.name !== 'string' || !isItem(s.data)) {
        fail('UM_OPTION', fn, 'series', 'be { name: string, data } items with the data of this chart', {
          index: [i],
          value: s,
        });
      }
      check(fn, `series[${i}].data`, s.data);
      return s;
    });
  }
  if (!isItem(series))
    fail('UM_OPTION', fn, 'series', 'be the result this chart draws, or an array of { name, data }', { value: series });
  check(fn, 'series', series);
  return [{ name: fallback, data: series as T }];
}

/** Checks chart options and returns the size (internal). */
export function size(fn: string, options: ChartOptions): { width: number; height: number; title?: string } {
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    fail('UM_OPTION', fn, 'options', 'be an object', { value: options });
  for (const key of Object.keys(options)) {
    if (key !== 'title' && key !== 'width' && key !== 'height')
      fail('UM_OPTION', fn, `options.${key}`, `not be given: ${fn} has no such option`);
  }
  const width = options.width ?? 360;
  const height = options.height ?? 260;
  for (const [k, v] of [
    ['width', width],
    ['height', height],
  ] as const) {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 40 || v > 4000)
      fail('UM_OPTION', fn, `options.${k}`, 'be an integer in [40, 4000] (pixels)', { value: v });
  }
  if (options.title !== undefined && typeof options.title !== 'string')
    fail('UM_OPTION', fn, 'options.title', 'be a string', { value: options.title });
  return options.title === undefined ? { width, height } : { width, height, title: options.title };
}

/** Keeps at most `max` points, always the first and the last, evenly spaced in between (internal). */
export function thin<T>(points: readonly T[], max = MAX_POINTS): T[] {
  if (points.length <= max) return [...points];
  const out: T[] = [];
  for (let j = 0; j < max; j++) out.push(points[Math.round((j * (points.length - 1)) / (max - 1))] as T);
  return out;
}

/** The outer spec: schema, title, deterministic appearance (internal). */
export function frame(title: string | undefined, body: VegaLiteSpec): VegaLiteSpec {
  return {
    $schema: SCHEMA,
    ...(title === undefined ? {} : { title }),
    ...body,
    config: {
      font: 'sans-serif',
      view: { stroke: '#ccc' },
      axis: { labelFontSize: 11, titleFontSize: 12 },
      legend: { labelLimit: 320 },
    },
  };
}

/**
 * Okabe & Ito's colour-blind-safe palette (internal): distinguishable under the common colour-vision deficiencies.
 * Yellow (#F0E442) comes last: it is faint on white.
 */
export const PALETTE: readonly string[] = [
  '#0072B2',
  '#D55E00',
  '#009E73',
  '#CC79A7',
  '#E69F00',
  '#56B4E9',
  '#000000',
  '#F0E442',
];

/** One dash pattern per model (solid first), so models differ in dash as well as colour — in print too (internal). */
export const DASHES: readonly (readonly number[])[] = [
  [1, 0],
  [6, 3],
  [2, 2],
  [8, 3, 2, 3],
  [1, 4],
  [12, 3],
  [4, 2, 1, 2],
  [3, 6],
];

/** Legend of the models: below the chart, one line per model, with the line's stroke and dash (internal). */
const MODEL_LEGEND = {
  title: null,
  orient: 'bottom',
  direction: 'vertical',
  symbolType: 'stroke',
  symbolStrokeWidth: 2.5,
  symbolSize: 400,
  labelLimit: 400,
};

/** A colour encoding by model (Okabe–Ito), with a legend only when there are several (internal). */
export function colorBy(models: readonly string[]): Record<string, unknown> {
  return {
    field: 'model',
    type: 'nominal',
    sort: models,
    scale: { domain: models, range: PALETTE },
    legend: models.length > 1 ? MODEL_LEGEND : null,
  };
}

/** A dash encoding by model, merged into the colour legend (same field, same legend) (internal). */
export function dashBy(models: readonly string[]): Record<string, unknown> {
  return {
    field: 'model',
    type: 'nominal',
    sort: models,
    scale: { domain: models, range: DASHES },
    legend: models.length > 1 ? MODEL_LEGEND : null,
  };
}

/** A number for a legend label: 4 significant decimals (internal). */
export function short(v: number): string {
  return Number.isFinite(v) ? (Math.abs(v) >= 1e-3 || v === 0 ? v.toFixed(4) : v.toExponential(2)) : String(v);
}

/**
 * The reliability tables of a chart, of one measure (internal; every chart of reliability tables): `named` with the
 * table test, `check` validating the fields that chart reads, and one measure across the series.
 */
export function tablesOfOneMeasure(
  fn: string,
  series: Series<ReliabilityTable>,
  check: Check,
): { items: Named<ReliabilityTable>[]; measure: ReliabilityTable['measure'] } {
  const isTable = (x: unknown) =>
    typeof x === 'object' &&
    x !== null &&
    Array.isArray((x as ReliabilityTable).bins) &&
    typeof (x as ReliabilityTable).measure === 'string';
  const items = named(fn, series, isTable, check);
  const measure = items[0]?.data.measure ?? 'confidence';
  if (items.some((s) => s.data.measure !== measure))
    fail('UM_OPTION', fn, 'series', 'hold tables of one measure', {
      value: items.map((s) => s.data.measure).join(', '),
    });
  return { items, measure };
}
