import type { ReliabilityTable } from '../calibration/reliability.js';
import { arrayOf, finite, orNull, record, text, type Check } from '../errors/checkShape.js';
import { colorBy, dashBy, frame, short, size, tablesOfOneMeasure } from './common.js';
import type { ChartOptions, Series, VegaLiteSpec } from './types.js';

const AXES: Record<ReliabilityTable['measure'], { x: string; y: string; outcome: string; score: string }> = {
  confidence: { x: 'confidence (max probability)', y: 'accuracy', outcome: 'accuracy', score: 'confidence' },
  uncertainty: { x: 'uncertainty (normalized entropy)', y: 'top-1 error', outcome: 'error', score: 'uncertainty' },
  probability: { x: 'predicted P(y = 1)', y: 'observed frequency', outcome: 'frequency', score: 'probability' },
};

/** Every field the diagram reads. */
const TABLE: Check = record({
  measure: text(Object.keys(AXES)),
  calibrationError: finite(),
  config: record({ binning: text() }),
  bins: arrayOf(
    record({
      index: finite(),
      lower: finite(),
      upper: finite(),
      count: finite(),
      meanScore: orNull(finite()),
      meanOutcome: orNull(finite()),
    }),
  ),
  intervals: orNull(
    record({
      method: text(['wilson', 'clopper-pearson']),
      level: finite('a confidence level'),
      bounds: arrayOf(orNull(arrayOf(finite()))),
    }),
  ),
});

/** The gap's two sides, in the words of each measure: over-confident first (internal). */
const SIDES: Record<ReliabilityTable['measure'], [string, string]> = {
  confidence: ['gap: accuracy below confidence (over-confident)', 'gap: accuracy above confidence (under-confident)'],
  uncertainty: ['gap: error above uncertainty (over-confident)', 'gap: error below uncertainty (under-confident)'],
  probability: ['gap: frequency below prediction (too high)', 'gap: frequency above prediction (too low)'],
};

/**
 * What a diagram of these tables draws (internal): bars for one model's fixed bins, lines with points for several
 * models or for equal-mass bins (data-dependent widths: bars over [lower, upper] would hide the narrow bins where
 * the predictions crowd).
 */
export function reliabilityDrawn(models: number, equalMass = false): 'bars' | 'lines' {
  return models === 1 && !equalMass ? 'bars' : 'lines';
}

/** Whether a table's bins hold equal numbers of predictions (internal). */
const isEqualMass = (t: ReliabilityTable) => t.config.binning === 'equal-mass';

/**
 * Reliability diagram: the outcome rate of each bin against its mean score, with the gap to the diagonal coloured by
 * its side, each bin's interval, and the bins' counts on a square-root scale — drawn from the same
 * {@link uncertainty-metrics!reliability} tables whose errors are the ECE or UCE.
 *
 * **Formula.** Per non-empty bin B_m: a bar of height acc(B_m) (or err(B_m)) over [lower, upper], a gap bar from
 * there to conf(B_m) (or uncert(B_m)), the identity line, and count |B_m| below (√ scale); the title carries
 * Σ_m |B_m|/N·|gap|.
 *
 * **Conventions.**
 * - The table's `measure` chooses the axes: confidence vs accuracy (ECE, the UCE paper's Fig. 3), normalized entropy vs
 *   top-1 error (UCE, Laves et al. 2019 Fig. 1), or P(y = 1) vs frequency (binary, sklearn's `calibration_curve`).
 * - One table of fixed bins: bars (`usermeta.drawn: 'bars'`); the gap in vermillion where the model is over-confident (confidence
 *   above accuracy; error above uncertainty) and in purple where it is under-confident, with a legend naming both,
 *   the bars and the diagonal.
 * - Several tables (`[{ name, data }]`), or equal-mass bins (`binning: 'equal-mass'`, whose widths follow the data):
 *   lines with points at each bin's mean score (`usermeta.drawn: 'lines'`), one Okabe–Ito colour and dash per
 *   model; a point's area grows with its bin's count, so bins of a few predictions do not look like bins of
 *   thousands. Empty bins are left out; with equal-mass tables the score axis says so.
 * - Tables made with `interval` (Wilson or Clopper–Pearson) get their per-bin intervals drawn as vertical rules at the
 *   bin's mean score. The count panel uses a square-root scale, so bins of a few predictions stay visible next to
 *   one holding nearly all.
 *
 * **References.**
 * - DeGroot & Fienberg, "The Comparison and Evaluation of Forecasters", The Statistician 32 (1983).
 * - Guo et al., ICML 2017, arXiv:1706.04599, Fig. 1; Laves et al., arXiv:1909.13550, Fig. 1.
 * - Okabe & Ito, "Color Universal Design" (2008), the palette.
 *
 * @param series a {@link ReliabilityTable}, or `[{ name, data: table }]` for several models (same measure).
 * @param options `title`, `width`, `height`.
 * @returns a Vega-Lite specification (two charts stacked: the diagram and the counts).
 * @throws {UMError} `UM_OPTION` for bad options, tables of different measures or a non-table.
 * @example
 * ```js
 * import { reliability } from 'uncertainty-metrics';
 * import { reliabilityDiagram } from 'uncertainty-metrics/plot';
 * const spec = reliabilityDiagram(reliability([0, 1, 1], [[0.9, 0.1], [0.2, 0.8], [0.6, 0.4]], { bins: 5 }));
 * [spec.vconcat.length, spec.usermeta.drawn]; // => [2, 'bars']
 * ```
 */
export function reliabilityDiagram(series: Series<ReliabilityTable>, options: ChartOptions = {}): VegaLiteSpec {
  const fn = 'reliabilityDiagram';
  const { items, measure } = tablesOfOneMeasure(fn, series, TABLE);
  const { width, height, title } = size(fn, options);
  const axes = AXES[measure];
  const sides = SIDES[measure];
  const equalMass = items.some((s) => isEqualMass(s.data));
  const allEqualMass = items.every((s) => isEqualMass(s.data));
  // mixed binnings name the equal-mass ones in the legend; otherwise the axis says it once
  const labels = items.map(
    (s) =>
      `${s.name} (${measure === 'uncertainty' ? 'UCE' : 'ECE'} ${short(s.data.calibrationError)}${isEqualMass(s.data) && !allEqualMass ? ', equal-mass bins' : ''})`,
  );
  const rows = items.flatMap((s, j) =>
    s.data.bins
      .filter((b) => b.count > 0 && b.meanScore !== null && b.meanOutcome !== null)
      .map((b) => {
        const bounds = s.data.intervals?.bounds[b.index] ?? null;
        const score = b.meanScore as number;
        const outcome = b.meanOutcome as number;
        // over-confident: confidence above accuracy, or (uncertainty) error above the uncertainty
        const over = measure === 'uncertainty' ? outcome > score : score > outcome;
        return {
          model: labels[j],
          lower: b.lower,
          upper: b.upper,
          score,
          outcome,
          count: b.count,
          low: bounds?.[0] ?? null,
          high: bounds?.[1] ?? null,
          side: over ? sides[0] : sides[1],
        };
      }),
  );
  // equal-mass bins say so under the axis (a longer legend would widen the chart beside its equal-width twin)
  const x = {
    type: 'quantitative',
    scale: { domain: [0, 1] },
    title: allEqualMass ? `${axes.x} · equal-mass bins` : axes.x,
  };
  const y = { type: 'quantitative', scale: { domain: [0, 1] }, title: axes.y };
  const single = reliabilityDrawn(items.length, equalMass) === 'bars';
  const intervals = items.some((s) => s.data.intervals !== null);
  const method = items.find((s) => s.data.intervals !== null)?.data.intervals;
  const band =
    method === undefined || method === null
      ? ''
      : `${Math.round(method.level * 100)}% ${method.method === 'wilson' ? 'Wilson' : 'Clopper–Pearson'} interval`;
  const diagonalName = 'perfect calibration (diagonal)';
  const parts = [axes.outcome, sides[0], sides[1], ...(intervals ? [band] : []), diagonalName];
  const partColor = (legend: boolean) => ({
    type: 'nominal',
    scale: { domain: parts, range: ['#0072B2', '#D55E00', '#CC79A7', ...(intervals ? ['#222222'] : []), '#888888'] },
    legend: legend
      ? { title: null, orient: 'bottom', direction: 'vertical', symbolType: 'square', labelLimit: 400 }
      : null,
  });
  const diagonal = {
    data: { values: [{ a: 0 }, { a: 1 }] },
    mark: { type: 'line', strokeDash: [4, 4] },
    encoding: {
      x: { field: 'a', ...x },
      y: { field: 'a', ...y },
      ...(single ? { color: { datum: diagonalName, ...partColor(true) } } : { color: { value: '#888888' } }),
    },
  };
  const layers: unknown[] = single
    ? [
        {
          mark: { type: 'rect', stroke: '#ffffff', strokeWidth: 0.5 },
          encoding: {
            x: { field: 'lower', ...x },
            x2: { field: 'upper' },
            y: { field: 'outcome', ...y },
            y2: { datum: 0 },
            color: { datum: axes.outcome, ...partColor(true) },
          },
        },
        {
          mark: { type: 'rect', opacity: 0.8, stroke: '#ffffff', strokeWidth: 0.5 },
          encoding: {
            x: { field: 'lower', ...x },
            x2: { field: 'upper' },
            y: { field: 'outcome', ...y },
            y2: { field: 'score' },
            color: { field: 'side', ...partColor(true) },
          },
        },
        diagonal,
      ]
    : [
        diagonal,
        {
          mark: { type: 'line' },
          encoding: {
            x: { field: 'score', ...x },
            y: { field: 'outcome', ...y },
            color: colorBy(labels),
            strokeDash: dashBy(labels),
          },
        },
        {
          mark: { type: 'point', filled: true, opacity: 0.85 },
          encoding: {
            x: { field: 'score', ...x },
            y: { field: 'outcome', ...y },
            color: colorBy(labels),
            size: {
              field: 'count',
              type: 'quantitative',
              scale: { type: 'sqrt', range: [12, 260], zero: true },
              legend: { title: 'bin count', orient: 'bottom', direction: 'horizontal' },
            },
          },
        },
      ];
  if (intervals) {
    layers.push({
      transform: [{ filter: 'datum.low !== null' }],
      mark: { type: 'rule', strokeWidth: 1.5, opacity: single ? 1 : 0.7 },
      encoding: {
        x: { field: 'score', ...x },
        y: { field: 'low', ...y },
        y2: { field: 'high' },
        color: single ? { datum: band, ...partColor(true) } : colorBy(labels),
      },
    });
  }
  const diagram = { width, height, ...(items.length === 1 ? { title: labels[0] as string } : {}), layer: layers };
  const countY = { field: 'count', type: 'quantitative', title: 'predictions (√ scale)', scale: { type: 'sqrt' } };
  const counts = {
    width,
    height: Math.round(height / 3),
    mark: single ? { type: 'rect', color: '#56B4E9' } : { type: 'line', point: true },
    encoding: single
      ? { x: { field: 'lower', ...x }, x2: { field: 'upper' }, y: countY }
      : { x: { field: 'score', ...x }, y: countY, color: colorBy(labels), strokeDash: dashBy(labels) },
  };
  return frame(title, {
    usermeta: { drawn: reliabilityDrawn(items.length, equalMass) },
    data: { values: rows },
    vconcat: [diagram, counts],
  });
}
