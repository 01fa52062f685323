import type { ReliabilityTable } from '../calibration/reliability.js';
import { fail } from '../errors/fail.js';
import { arrayOf, finite, orNull, record, text, type Check } from '../errors/checkShape.js';
import { colorBy, frame, named, short, size } from './common.js';
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
  bins: arrayOf(record({ index: finite(), lower: finite(), upper: finite(), count: finite(), meanScore: orNull(finite()), meanOutcome: orNull(finite()) })),
  intervals: orNull(record({ bounds: arrayOf(orNull(arrayOf(finite()))) })),
});

function isTable(x: unknown): boolean {
  return typeof x === 'object' && x !== null && Array.isArray((x as ReliabilityTable).bins) && typeof (x as ReliabilityTable).measure === 'string';
}

/**
 * Reliability diagram: the outcome rate of each bin against its mean score, with the gap to the diagonal in red and
 * a histogram of the bins' counts — drawn from the same {@link uncertainty-metrics!reliability} tables whose errors are the ECE or UCE.
 *
 * **Formula.** Per non-empty bin B_m: a bar of height acc(B_m) (or err(B_m)) over [lower, upper], a red bar from
 * there to conf(B_m) (or uncert(B_m)), the identity line, and count |B_m| below; the title carries Σ_m |B_m|/N·|gap|.
 *
 * **Conventions.**
 * - The table's `measure` chooses the axes: confidence vs accuracy (ECE, the UCE paper's Fig. 3), normalized entropy vs
 *   top-1 error (UCE, Laves et al. 2019 Fig. 1), or P(y = 1) vs frequency (binary).
 * - Several tables (`[{ name, data }]`) are drawn as lines with points, one colour per model, and a legend; empty bins
 *   are left out. Tables made with `interval` (Wilson or Clopper–Pearson) get their per-bin intervals drawn.
 *
 * **References.**
 * - DeGroot & Fienberg, "The Comparison and Evaluation of Forecasters", The Statistician 32 (1983).
 * - Guo et al., ICML 2017, arXiv:1706.04599, Fig. 1; Laves et al., arXiv:1909.13550, Fig. 1.
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
 * spec.vconcat.length; // => 2
 * ```
 */
export function reliabilityDiagram(series: Series<ReliabilityTable>, options: ChartOptions = {}): VegaLiteSpec {
  const fn = 'reliabilityDiagram';
  const items = named(fn, series, isTable, TABLE);
  const { width, height, title } = size(fn, options);
  const intervals = items.some((s) => s.data.intervals !== null);
  const measure = items[0]?.data.measure ?? 'confidence';
  if (items.some((s) => s.data.measure !== measure)) fail('UM_OPTION', fn, 'series', 'hold tables of one measure', { value: items.map((s) => s.data.measure).join(', ') });
  const axes = AXES[measure];
  const labels = items.map((s) => `${s.name} (${measure === 'uncertainty' ? 'UCE' : 'ECE'} ${short(s.data.calibrationError)})`);
  const rows = items.flatMap((s, j) =>
    s.data.bins
      .filter((b) => b.count > 0 && b.meanScore !== null && b.meanOutcome !== null)
      .map((b) => {
        const bounds = s.data.intervals?.bounds[b.index] ?? null;
        return { model: labels[j], lower: b.lower, upper: b.upper, score: b.meanScore, outcome: b.meanOutcome, count: b.count, low: bounds?.[0] ?? null, high: bounds?.[1] ?? null };
      }),
  );
  const x = { type: 'quantitative', scale: { domain: [0, 1] }, title: axes.x };
  const y = { type: 'quantitative', scale: { domain: [0, 1] }, title: axes.y };
  const single = items.length === 1;
  const diagonal = { data: { values: [{ a: 0 }, { a: 1 }] }, mark: { type: 'line', color: '#888', strokeDash: [4, 4] }, encoding: { x: { field: 'a', ...x }, y: { field: 'a', ...y } } };
  const layers: unknown[] = single
    ? [
        { mark: { type: 'rect', color: '#4c78a8', stroke: '#2b4c6f', strokeWidth: 0.5 }, encoding: { x: { field: 'lower', ...x }, x2: { field: 'upper' }, y: { field: 'outcome', ...y }, y2: { datum: 0 } } },
        { mark: { type: 'rect', color: '#e45756', opacity: 0.6 }, encoding: { x: { field: 'lower', ...x }, x2: { field: 'upper' }, y: { field: 'outcome', ...y }, y2: { field: 'score' } } },
        diagonal,
      ]
    : [diagonal, { mark: { type: 'line', point: true }, encoding: { x: { field: 'score', ...x }, y: { field: 'outcome', ...y }, color: colorBy(labels) } }];
  if (intervals) {
    layers.push({ transform: [{ filter: 'datum.low !== null' }], mark: { type: 'rule', color: '#333' }, encoding: { x: { field: 'score', ...x }, y: { field: 'low', ...y }, y2: { field: 'high' }, ...(single ? {} : { color: colorBy(labels) }) } });
  }
  const diagram = { width, height, ...(single ? { title: labels[0] as string } : {}), layer: layers };
  const counts = {
    width,
    height: Math.round(height / 3),
    mark: single ? { type: 'rect', color: '#9ecae9' } : { type: 'line', point: true },
    encoding: single
      ? { x: { field: 'lower', ...x }, x2: { field: 'upper' }, y: { field: 'count', type: 'quantitative', title: 'count' } }
      : { x: { field: 'score', ...x }, y: { field: 'count', type: 'quantitative', title: 'count' }, color: colorBy(labels) },
  };
  return frame(title, { data: { values: rows }, vconcat: [diagram, counts] });
}
