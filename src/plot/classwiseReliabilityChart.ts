import type { ClasswiseReliability } from '../calibration/classwiseReliability.js';
import { arrayOf, finite, orNull, record, text, type Check } from '../errors/checkShape.js';
import { fail } from '../errors/fail.js';
import { checkCount } from '../errors/checkCount.js';
import { colorBy, dashBy, frame, named, short, size } from './common.js';
import type { ChartOptions, Series, VegaLiteSpec } from './types.js';

/** Options of {@link classwiseReliabilityChart}. */
export interface ClasswiseChartOptions extends ChartOptions {
  /** Names of the classes, class 0 first (default "class k"). */
  classNames?: readonly string[];
  /** Panels per row (default 5). */
  columns?: number;
}

/** Every field the chart reads. */
const CLASSWISE: Check = record({
  numClasses: finite(),
  classes: arrayOf(
    record({
      index: finite(),
      support: finite(),
      table: record({
        calibrationError: finite(),
        bins: arrayOf(
          record({ index: finite(), count: finite(), meanScore: orNull(finite()), meanOutcome: orNull(finite()) }),
        ),
        intervals: orNull(
          record({
            method: text(['wilson', 'clopper-pearson']),
            level: finite('a confidence level'),
            bounds: arrayOf(orNull(arrayOf(finite()))),
          }),
        ),
      }),
    }),
  ),
});

const isClasswise = (x: unknown) =>
  typeof x === 'object' && x !== null && Array.isArray((x as ClasswiseReliability).classes);

/**
 * Class-wise reliability diagrams as small multiples (netcal's per-class diagrams): one panel per class, the
 * frequency of the class against its predicted probability per bin, with the diagonal and each bin's interval —
 * drawn from {@link uncertainty-metrics!classwiseReliability}.
 *
 * **Formula.** Panel k: per non-empty bin B_mk, the point (p̄_k(B_mk), ō_k(B_mk)) of area ∝ √|B_mk|, joined by a
 * line; the rule [low, high] of its interval; the panel's title gives the class's rows and, for one model, its
 * class-wise ECE Σ_m |B_mk|/N·|gap_mk|.
 *
 * **Conventions.**
 * - Panels in the order of the result's `classes` (the caller picks them, e.g. the most frequent), `columns` per
 *   row; `usermeta.classes` lists the class indices drawn.
 * - Several models (`[{ name, data }]`, the same classes): one Okabe–Ito colour and dash per model in every panel.
 * - Point area uses one √ scale across panels, so bins of a few predictions look small in every panel.
 *
 * **References.**
 * - Kull et al., NeurIPS 2019, arXiv:1910.12656 (class-wise reliability diagrams); Küppers et al., netcal.
 *
 * @param series a {@link uncertainty-metrics!ClasswiseReliability}, or `[{ name, data }]` for several models.
 * @param options `classNames`, `columns`, `title`, and the panel's `width` and `height` (default 150 × 150).
 * @returns a Vega-Lite specification (a faceted chart).
 * @throws {UMError} `UM_OPTION` for bad options, models showing different classes, or a non-result.
 * @example
 * ```js
 * import { classwiseReliability } from 'uncertainty-metrics';
 * import { classwiseReliabilityChart } from 'uncertainty-metrics/plot';
 * const r = classwiseReliability([0, 1, 2, 1], [[0.7, 0.2, 0.1], [0.2, 0.7, 0.1], [0.3, 0.3, 0.4], [0.5, 0.4, 0.1]]);
 * const spec = classwiseReliabilityChart(r, { classNames: ['cat', 'dog', 'owl'] });
 * [spec.usermeta.classes, spec.columns]; // => [[0, 1, 2], 5]
 * ```
 */
export function classwiseReliabilityChart(
  series: Series<ClasswiseReliability>,
  options: ClasswiseChartOptions = {},
): VegaLiteSpec {
  const fn = 'classwiseReliabilityChart';
  const items = named(fn, series, isClasswise, CLASSWISE);
  const { classNames, columns = 5, ...chart } = (options ?? {}) as ClasswiseChartOptions;
  const { title } = size(fn, options === null || typeof options !== 'object' ? options : chart);
  const width = chart.width ?? 150;
  const height = chart.height ?? 150;
  checkCount(fn, 'options.columns', columns, { max: 100 });
  const first = items[0]?.data as ClasswiseReliability;
  if (
    classNames !== undefined &&
    (!Array.isArray(classNames) ||
      classNames.length !== first.numClasses ||
      classNames.some((c) => typeof c !== 'string'))
  )
    fail('UM_OPTION', fn, 'options.classNames', `be ${first.numClasses} class names (strings), class 0 first`, {
      value: classNames,
    });
  const shown = first.classes.map((c) => c.index);
  items.forEach((s, j) => {
    const other = s.data.classes.map((c) => c.index);
    if (other.length !== shown.length || other.some((k, i) => k !== shown[i]))
      fail('UM_OPTION', fn, 'series', 'show the same classes for every model', { index: [j], value: other });
  });
  const single = items.length === 1;
  const labels = items.map((s) => s.name);
  const panel = (k: number, i: number) => {
    const c = first.classes[i] as ClasswiseReliability['classes'][number];
    const name = classNames?.[k] ?? `class ${k}`;
    return `${name} · n = ${c.support}${single ? ` · ECE ${short(c.table.calibrationError)}` : ''}`;
  };
  const rows = shown.flatMap((k, i) => [
    { panel: panel(k, i), order: i, kind: 'diagonal', a: 0 },
    { panel: panel(k, i), order: i, kind: 'diagonal', a: 1 },
    ...items.flatMap((s, j) => {
      const t = (s.data.classes[i] as ClasswiseReliability['classes'][number]).table;
      return t.bins
        .filter((b) => b.count > 0 && b.meanScore !== null && b.meanOutcome !== null)
        .map((b) => {
          const bounds = t.intervals?.bounds[b.index] ?? null;
          return {
            panel: panel(k, i),
            order: i,
            kind: 'bin',
            model: labels[j],
            score: b.meanScore,
            outcome: b.meanOutcome,
            count: b.count,
            low: bounds?.[0] ?? null,
            high: bounds?.[1] ?? null,
          };
        });
    }),
  ]);
  const x = { type: 'quantitative', scale: { domain: [0, 1] }, title: 'P(class)' };
  const y = { type: 'quantitative', scale: { domain: [0, 1] }, title: 'frequency of the class' };
  const bins = { filter: "datum.kind === 'bin'" };
  const color = single ? { value: '#0072B2' } : colorBy(labels);
  return frame(title, {
    usermeta: { drawn: 'classwise', classes: shown },
    data: { values: rows },
    facet: {
      field: 'panel',
      type: 'nominal',
      sort: { field: 'order', op: 'min' },
      header: { title: null, labelFontSize: 11, labelLimit: width + 70 },
    },
    columns,
    spec: {
      width,
      height,
      layer: [
        {
          transform: [{ filter: "datum.kind === 'diagonal'" }],
          mark: { type: 'line', strokeDash: [4, 4], color: '#888888' },
          encoding: { x: { field: 'a', ...x }, y: { field: 'a', ...y } },
        },
        {
          transform: [bins],
          mark: { type: 'line' },
          encoding: {
            x: { field: 'score', ...x },
            y: { field: 'outcome', ...y },
            color,
            ...(single ? {} : { strokeDash: dashBy(labels) }),
          },
        },
        {
          transform: [bins],
          mark: { type: 'point', filled: true, opacity: 0.85 },
          encoding: {
            x: { field: 'score', ...x },
            y: { field: 'outcome', ...y },
            color,
            size: {
              field: 'count',
              type: 'quantitative',
              scale: { type: 'sqrt', range: [6, 160], zero: true },
              legend: { title: 'bin count', orient: 'bottom', direction: 'horizontal' },
            },
          },
        },
        {
          transform: [bins, { filter: 'datum.low !== null' }],
          mark: { type: 'rule', strokeWidth: 1.2, opacity: 0.7 },
          encoding: { x: { field: 'score', ...x }, y: { field: 'low', ...y }, y2: { field: 'high' }, color },
        },
      ],
    },
  });
}
