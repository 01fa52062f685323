import type { SmoothReliability } from '../calibration/smoothReliability.js';
import { arrayOf, finite, orNull, record, text, type Check } from '../errors/checkShape.js';
import { fail } from '../errors/fail.js';
import { colorBy, dashBy, frame, named, short, size } from './common.js';
import type { ChartOptions, Series, VegaLiteSpec } from './types.js';

/** Every field the chart reads. */
const CURVE: Check = record({
  measure: text(['confidence', 'probability']),
  value: finite(),
  bandwidth: finite(),
  band: orNull(record({ resamples: finite(), level: finite('a confidence level') })),
  points: arrayOf(
    record({
      score: finite(),
      outcome: finite(),
      density: finite(),
      support: finite(),
      lower: orNull(finite()),
      upper: orNull(finite()),
    }),
  ),
});

const isCurve = (x: unknown) =>
  typeof x === 'object' &&
  x !== null &&
  Array.isArray((x as SmoothReliability).points) &&
  typeof (x as SmoothReliability).bandwidth === 'number';

const AXES = {
  confidence: { x: 'confidence (max probability)', y: 'accuracy (smoothed)', outcome: 'smoothed accuracy' },
  probability: { x: 'predicted P(y = 1)', y: 'frequency of y = 1 (smoothed)', outcome: 'smoothed frequency' },
};

/** Fewest predictions within the kernel's reach for a mesh point to be drawn (internal). */
export const MIN_SUPPORT = 1;

/**
 * Smooth reliability diagram (relplot): the kernel-smoothed outcome rate against the score with its bootstrap band,
 * the diagonal, and the density of the scores below — drawn from {@link uncertainty-metrics!smoothReliability}, whose
 * smoother gives the smooth ECE in the title or legend.
 *
 * **Formula.** Per mesh point t: μ(t) (line), the band [lower(t), upper(t)] (area), density(t) (lower panel); the
 * title or legend gives smECE and σ.
 *
 * **Conventions.**
 * - The curve and band are drawn only where at least one prediction lies within the kernel's reach
 *   (`support` ≥ 1): elsewhere the smoother has no data and μ falls towards 0 (relplot fades it out by density).
 *   Each stretch of such mesh points is its own piece of line.
 * - One curve: a blue line, its band in light blue, a legend naming the line, the band and the diagonal
 *   (`usermeta.drawn: 'smooth'`). Several (`[{ name, data }]`): one Okabe–Ito colour and dash per model, each band
 *   in its model's colour.
 *
 * **References.**
 * - Błasiok & Nakkiran, "Smooth ECE: Principled Reliability Diagrams via Kernel Smoothing", ICLR 2024,
 *   arXiv:2309.12236, Fig. 1.
 *
 * @param series a {@link uncertainty-metrics!SmoothReliability}, or `[{ name, data }]` for several models (same
 *   measure).
 * @param options `title`, `width`, `height`.
 * @returns a Vega-Lite specification (the diagram above the density panel).
 * @throws {UMError} `UM_OPTION` for bad options, curves of different measures or a non-curve.
 * @example
 * ```js
 * import { smoothReliability } from 'uncertainty-metrics';
 * import { smoothReliabilityChart } from 'uncertainty-metrics/plot';
 * const labels = [0, 0, 1, 1, 1, 0];
 * const scores = [[0.9, 0.1], [0.8, 0.2], [0.3, 0.7], [0.4, 0.6], [0.2, 0.8], [0.35, 0.65]];
 * const spec = smoothReliabilityChart(smoothReliability(labels, scores, { resamples: 20 }));
 * [spec.vconcat.length, spec.usermeta.drawn]; // => [2, 'smooth']
 * ```
 */
export function smoothReliabilityChart(series: Series<SmoothReliability>, options: ChartOptions = {}): VegaLiteSpec {
  const fn = 'smoothReliabilityChart';
  const items = named(fn, series, isCurve, CURVE);
  const { width, height, title } = size(fn, options);
  const measure = items[0]?.data.measure ?? 'confidence';
  if (items.some((s) => s.data.measure !== measure))
    fail('UM_OPTION', fn, 'series', 'hold curves of one measure', {
      value: items.map((s) => s.data.measure).join(', '),
    });
  const axes = AXES[measure];
  const single = items.length === 1;
  const labels = items.map((s) => `${s.name} (smECE ${short(s.data.value)}, σ ${short(s.data.bandwidth)})`);
  const rows = items.flatMap((s, j) => {
    let piece = 0;
    let shown = false;
    return s.data.points.map((p) => {
      const drawn = p.support >= MIN_SUPPORT;
      if (drawn && !shown) piece++;
      shown = drawn;
      return {
        model: labels[j],
        piece: drawn ? `${j}-${piece}` : null,
        score: p.score,
        outcome: p.outcome,
        lower: p.lower,
        upper: p.upper,
        density: p.density,
      };
    });
  });
  const withBand = items.find((s) => s.data.band !== null)?.data.band;
  const bandName =
    withBand === undefined || withBand === null
      ? ''
      : `${Math.round(withBand.level * 100)}% bootstrap band (${withBand.resamples} resamples)`;
  const diagonalName = 'perfect calibration (diagonal)';
  const parts = [axes.outcome, ...(bandName === '' ? [] : [bandName]), diagonalName];
  const partColor = {
    type: 'nominal',
    scale: { domain: parts, range: ['#0072B2', ...(bandName === '' ? [] : ['#9ecae9']), '#888888'] },
    legend: { title: null, orient: 'bottom', direction: 'vertical', symbolType: 'square', labelLimit: 400 },
  };
  const x = { field: 'score', type: 'quantitative', scale: { domain: [0, 1] }, title: axes.x };
  const y = { type: 'quantitative', scale: { domain: [0, 1] }, title: axes.y };
  const drawnOnly = { filter: 'datum.piece !== null' };
  // the legend's symbols take the faint band's opacity unless told otherwise
  const opaque = (e: Record<string, unknown>) =>
    e.legend === null ? e : { ...e, legend: { ...(e.legend as object), symbolOpacity: 1 } };
  const color = opaque(colorBy(labels));
  const dash = opaque(dashBy(labels));
  const layers: unknown[] = [
    {
      transform: [drawnOnly, { filter: 'datum.lower !== null' }],
      mark: { type: 'area', opacity: single ? 0.7 : 0.18 },
      encoding: {
        x,
        y: { field: 'lower', ...y },
        y2: { field: 'upper' },
        detail: { field: 'piece' },
        color: single ? { datum: bandName, ...partColor } : color,
      },
    },
    {
      data: { values: [{ a: 0 }, { a: 1 }] },
      mark: { type: 'line', strokeDash: [4, 4] },
      encoding: {
        x: { ...x, field: 'a' },
        y: { field: 'a', ...y },
        color: single ? { datum: diagonalName, ...partColor } : { value: '#888888' },
      },
    },
    {
      transform: [drawnOnly],
      mark: { type: 'line', strokeWidth: 2 },
      encoding: {
        x,
        y: { field: 'outcome', ...y },
        detail: { field: 'piece' },
        ...(single ? { color: { datum: axes.outcome, ...partColor } } : { color, strokeDash: dash }),
      },
    },
  ];
  const diagram = { width, height, ...(single ? { title: labels[0] as string } : {}), layer: layers };
  const densityY = { field: 'density', type: 'quantitative', title: 'density of predictions' };
  const density = {
    width,
    height: Math.round(height / 3),
    mark: single ? { type: 'area', color: '#56B4E9', opacity: 0.8 } : { type: 'line' },
    encoding: single ? { x, y: densityY } : { x, y: densityY, color, strokeDash: dash },
  };
  return frame(title, { usermeta: { drawn: 'smooth' }, data: { values: rows }, vconcat: [diagram, density] });
}
