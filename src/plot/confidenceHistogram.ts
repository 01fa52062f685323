import type { ReliabilityTable } from '../calibration/reliability.js';
import { arrayOf, finite, orNull, record, text, type Check } from '../errors/checkShape.js';
import { fail } from '../errors/fail.js';
import { frame, PALETTE, short, size, tablesOfOneMeasure } from './common.js';
import type { ChartOptions, Series, VegaLiteSpec } from './types.js';

/** Every field the histogram reads. */
const TABLE: Check = record({
  measure: text(['confidence', 'uncertainty', 'probability']),
  bins: arrayOf(
    record({
      lower: finite(),
      upper: finite(),
      weight: finite(),
      fraction: finite(),
      meanScore: orNull(finite()),
      meanOutcome: orNull(finite()),
    }),
  ),
});

const WORDS: Record<ReliabilityTable['measure'], { x: string; outcome: string; mean: string }> = {
  confidence: { x: 'confidence (max probability)', outcome: 'accuracy', mean: 'average confidence' },
  uncertainty: { x: 'uncertainty (normalized entropy)', outcome: 'top-1 error', mean: 'average uncertainty' },
  probability: { x: 'predicted P(y = 1)', outcome: 'frequency of y = 1', mean: 'average P(y = 1)' },
};

/** The weighted means of score and outcome over a table's bins: the average confidence and the accuracy (internal). */
export function tableMeans(t: Pick<ReliabilityTable, 'bins'>): { score: number; outcome: number } {
  let w = 0;
  let score = 0;
  let outcome = 0;
  for (const b of t.bins) {
    if (b.meanScore === null || b.meanOutcome === null) continue;
    w += b.weight;
    score += b.weight * b.meanScore;
    outcome += b.weight * b.meanOutcome;
  }
  return { score: score / w, outcome: outcome / w };
}

/**
 * Confidence histogram (Guo et al.'s Fig. 1, top): the share of predictions in each confidence bin, with vertical
 * lines at the accuracy and the average confidence — a gap between the lines is the model's overall over- or
 * under-confidence. Drawn from the same {@link uncertainty-metrics!reliability} tables as the reliability diagram.
 *
 * **Formula.** Per bin B_m: a bar of height |B_m|/N over [lower, upper]; lines at acc = Σ_m |B_m|·acc(B_m)/N and
 * conf = Σ_m |B_m|·conf(B_m)/N (weights for counts with `weights`).
 *
 * **Conventions.**
 * - Linear share axis, as Guo et al. (the reliability diagram's count panel shows small bins on a √ scale).
 * - The accuracy line is solid black, the average confidence dashed vermillion, in the legend by name.
 * - Several tables (`[{ name, data }]`, one measure): one panel per model, bars in its Okabe–Ito colour, three
 *   panels per row (`usermeta.drawn: 'histogram'`).
 * - `uncertainty` tables draw top-1 error and average uncertainty; `probability` tables the frequency of y = 1 and
 *   the average P(y = 1).
 *
 * **References.**
 * - Guo, Pleiss, Sun & Weinberger, "On Calibration of Modern Neural Networks", ICML 2017, arXiv:1706.04599, Fig. 1.
 *
 * @param series a {@link uncertainty-metrics!ReliabilityTable}, or `[{ name, data: table }]` for several models.
 * @param options `title`, and each panel's `width`, `height`.
 * @returns a Vega-Lite specification.
 * @throws {UMError} `UM_OPTION` for bad options, tables of different measures or a non-table.
 * @example
 * ```js
 * import { reliability } from 'uncertainty-metrics';
 * import { confidenceHistogram } from 'uncertainty-metrics/plot';
 * const spec = confidenceHistogram(reliability([0, 1, 1, 0], [[0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [0.3, 0.7]], { bins: 5 }));
 * spec.usermeta.lines; // ≈ [{ accuracy: 0.5, 'average confidence': 0.75 }]
 * ```
 */
export function confidenceHistogram(series: Series<ReliabilityTable>, options: ChartOptions = {}): VegaLiteSpec {
  const fn = 'confidenceHistogram';
  const { items, measure } = tablesOfOneMeasure(fn, series, TABLE);
  const { width, height, title } = size(fn, options);
  const words = WORDS[measure];
  const lines = [words.outcome, words.mean];
  const means = items.map((s, j) => {
    const m = tableMeans(s.data);
    // a table of no prediction has no accuracy to draw (reliability never makes one; a hand-made table can)
    if (!Number.isFinite(m.score) || !Number.isFinite(m.outcome))
      fail('UM_OPTION', fn, Array.isArray(series) ? `series[${j}].data` : 'series', 'hold a bin with predictions', {
        value: s.data.bins.length,
      });
    return m;
  });
  // colour and dash tell the two lines apart, in one legend (same field, same legend)
  const legend = { title: null, orient: 'bottom', direction: 'vertical', symbolType: 'stroke', symbolStrokeWidth: 2.5 };
  const color = { field: 'line', type: 'nominal', scale: { domain: lines, range: ['#000000', '#D55E00'] }, legend };
  const dash = {
    field: 'line',
    type: 'nominal',
    scale: {
      domain: lines,
      range: [
        [1, 0],
        [6, 3],
      ],
    },
    legend,
  };
  const panel = (j: number) => {
    const s = items[j] as (typeof items)[number];
    const m = means[j] as { score: number; outcome: number };
    const x = { type: 'quantitative', scale: { domain: [0, 1] }, title: words.x };
    return {
      width,
      height,
      title: `${s.name} (${words.outcome} ${short(m.outcome)}, ${words.mean} ${short(m.score)})`,
      layer: [
        {
          data: {
            values: s.data.bins
              .filter((b) => b.weight > 0)
              .map((b) => ({ lower: b.lower, upper: b.upper, share: b.fraction })),
          },
          mark: { type: 'rect', color: PALETTE[j % PALETTE.length], stroke: '#ffffff', strokeWidth: 0.5 },
          encoding: {
            x: { field: 'lower', ...x },
            x2: { field: 'upper' },
            y: { field: 'share', type: 'quantitative', title: 'share of predictions' },
            y2: { datum: 0 },
          },
        },
        {
          data: {
            values: [
              { line: words.outcome, at: m.outcome },
              { line: words.mean, at: m.score },
            ],
          },
          mark: { type: 'rule', strokeWidth: 2.5 },
          encoding: { x: { field: 'at', ...x }, color, strokeDash: dash },
        },
      ],
    };
  };
  // what each panel draws, for a reader (or a test) to check the text against
  const usermeta = {
    drawn: 'histogram',
    lines: means.map((m) => ({ [words.outcome]: m.outcome, [words.mean]: m.score })),
  };
  if (items.length === 1) return frame(title, { usermeta, ...panel(0) });
  return frame(title, { usermeta, concat: items.map((_, j) => panel(j)), columns: 3 });
}
