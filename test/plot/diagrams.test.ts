/**
 * The diagrams of issue 19: relplot's smooth curve with its band, the equal-mass view, class-wise small multiples and
 * Guo's confidence histogram — SVG snapshots, several models told apart, what is drawn equal to the data, bad input.
 */
import { describe, expect, it } from 'vitest';
import { classwiseReliability, reliability, smoothReliability, type SmoothReliability } from '../../src/index.js';
import {
  classwiseReliabilityChart,
  confidenceHistogram,
  reliabilityDiagram,
  renderSvg,
  smoothReliabilityChart,
  type VegaLiteSpec,
} from '../../src/plot/index.js';
import { damagedResults, legendEntries, rounded } from '../helpers/charts.js';
import { randomProbs } from '../helpers/data.js';
import { failure } from '../helpers/failure.js';

const A = randomProbs(101, 300, 4, 20);
const B = randomProbs(102, 300, 4, 20);
const named = <T>(a: T, b: T) => [
  { name: 'model A', data: a },
  { name: 'model B', data: b },
];
const smooth = (t: typeof A) => smoothReliability(t.labels, t.probs, { resamples: 30 });
const equalMass = (t: typeof A) =>
  reliability(t.labels, t.probs, { binning: 'equal-mass', bins: 8, interval: 'wilson' });
const classwise = (t: typeof A, classes?: number[]) =>
  classwiseReliability(t.labels, t.probs, { bins: 8, interval: 'wilson', ...(classes ? { classes } : {}) });

const CHARTS: [string, () => VegaLiteSpec][] = [
  ['smooth', () => smoothReliabilityChart(smooth(A))],
  ['smooth-two-models', () => smoothReliabilityChart(named(smooth(A), smooth(B)))],
  ['reliability-equal-mass', () => reliabilityDiagram(equalMass(A))],
  ['reliability-equal-mass-two-models', () => reliabilityDiagram(named(equalMass(A), equalMass(B)))],
  ['classwise', () => classwiseReliabilityChart(classwise(A), { classNames: ['ant', 'bee', 'cat', 'dog'] })],
  ['classwise-two-models', () => classwiseReliabilityChart(named(classwise(A, [2, 0]), classwise(B, [2, 0])))],
  ['histogram', () => confidenceHistogram(reliability(A.labels, A.probs, { bins: 10 }))],
  [
    'histogram-two-models',
    () => confidenceHistogram(named(reliability(A.labels, A.probs), reliability(B.labels, B.probs))),
  ],
];

describe('diagram snapshots', () => {
  for (const [name, make] of CHARTS) {
    it(name, async () => {
      const spec = make();
      const svg = await renderSvg(spec);
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]* width="\d+" height="\d+"/);
      expect(await renderSvg(make())).toBe(svg); // deterministic
      await expect(rounded(svg)).toMatchFileSnapshot(`__snapshots__/${name}.svg`);
    });
  }
});

describe('several models are told apart', () => {
  it('every legend entry of 2–6 models differs in colour and in dash (smooth, equal-mass, class-wise); histogram panels by colour', async () => {
    const tables = [101, 102, 103, 104, 105, 106].map((seed) => randomProbs(seed, 150, 3, 20));
    for (let k = 2; k <= 6; k++) {
      const models = tables.slice(0, k).map((t, j) => ({ name: `model ${j}`, t }));
      const of = <T>(f: (t: (typeof tables)[number]) => T) => models.map((m) => ({ name: m.name, data: f(m.t) }));
      const charts: [string, VegaLiteSpec][] = [
        ['smooth', smoothReliabilityChart(of((t) => smoothReliability(t.labels, t.probs, { resamples: 5 })))],
        ['equal-mass', reliabilityDiagram(of((t) => reliability(t.labels, t.probs, { binning: 'equal-mass' })))],
        ['classwise', classwiseReliabilityChart(of((t) => classwiseReliability(t.labels, t.probs, { bins: 5 })))],
      ];
      for (const [what, spec] of charts) {
        const entries = legendEntries(await renderSvg(spec)).filter((e) => e.label.startsWith('model '));
        expect(
          entries.map((e) => e.label.slice(0, 7)),
          `${what} ${k}`,
        ).toEqual(models.map((m) => m.name));
        expect(new Set(entries.map((e) => e.stroke)).size, `${what} ${k}: ${JSON.stringify(entries)}`).toBe(k);
        expect(new Set(entries.map((e) => e.dash)).size, `${what} ${k}: ${JSON.stringify(entries)}`).toBe(k);
      }
      // the histogram: one panel per model, titled by it, its bars in its own colour; the two lines apart
      const spec = confidenceHistogram(of((t) => reliability(t.labels, t.probs))) as {
        concat: { title: string; layer: { mark: { color?: string } }[] }[];
      };
      expect(spec.concat.map((p) => p.title.slice(0, 7))).toEqual(models.map((m) => m.name));
      expect(new Set(spec.concat.map((p) => p.layer[0]?.mark.color)).size).toBe(k);
      const lines = legendEntries(await renderSvg(spec as VegaLiteSpec));
      expect(lines.map((e) => e.label)).toEqual(['accuracy', 'average confidence']);
      expect(new Set(lines.map((e) => e.stroke)).size).toBe(2);
      expect(new Set(lines.map((e) => e.dash)).size).toBe(2);
    }
  }, 60_000);
});

type Row = { piece: string | null; score: number; outcome: number; lower: number | null; density: number };

describe('what the diagrams draw is the data', () => {
  it('smooth: the curve and band only where a prediction is within reach, one piece per stretch; the legend says smECE and σ', async () => {
    // scores in two clusters with a wide gap between: two pieces, nothing drawn in the gap
    const labels = Array.from({ length: 200 }, (_, i) => (i % 3 === 0 ? 1 : 0));
    const probs = labels.map((_, i) => {
      const p = i < 100 ? 0.05 + 0.001 * i : 0.75 + 0.001 * (i - 100);
      return [1 - p, p];
    });
    const r = smoothReliability(labels, probs, { target: 'positive-class', bandwidth: 0.02, resamples: 20 });
    const spec = smoothReliabilityChart(r) as { data: { values: Row[] }; vconcat: { title: string }[] };
    const rows = spec.data.values;
    expect(rows.map((v) => v.score)).toEqual(r.points.map((p) => p.score));
    rows.forEach((v, k) => expect(v.piece !== null, `${v.score}`).toBe((r.points[k]?.support as number) >= 1));
    expect(new Set(rows.flatMap((v) => (v.piece === null ? [] : [v.piece])))).toEqual(new Set(['0-1', '0-2']));
    expect(rows.filter((v) => v.score > 0.35 && v.score < 0.55).every((v) => v.piece === null)).toBe(true);
    expect(spec.vconcat[0]?.title).toBe(`model (smECE ${r.value.toFixed(4)}, σ ${r.bandwidth.toFixed(4)})`);
    const svg = await renderSvg(spec as VegaLiteSpec);
    // the diagonal, and the curve's two pieces (each its own group)
    expect(svg.match(/class="mark-line role-mark/g)).toHaveLength(3);
    expect(legendEntries(svg).map((e) => e.label)).toEqual([
      'smoothed frequency',
      '95% bootstrap band (20 resamples)',
      'perfect calibration (diagonal)',
    ]);
  });
  it('equal-mass: one table is drawn as points on a line (not bars), and the score axis says so', () => {
    const t = equalMass(A);
    const spec = reliabilityDiagram(t) as {
      usermeta: { drawn: string };
      data: { values: { score: number; count: number }[] };
      vconcat: { layer: { encoding: { x: { title: string } } }[] }[];
    };
    expect(spec.usermeta.drawn).toBe('lines');
    expect(spec.data.values.map((v) => [v.score, v.count])).toEqual(
      t.bins.filter((b) => b.count > 0).map((b) => [b.meanScore, b.count]),
    );
    expect(spec.vconcat[0]?.layer[0]?.encoding.x.title).toBe('confidence (max probability) · equal-mass bins');
    const mixed = reliabilityDiagram(named(t, reliability(A.labels, A.probs))) as { vconcat: unknown[] };
    expect(JSON.stringify(mixed)).toContain(`model A (ECE ${t.calibrationError.toFixed(4)}, equal-mass bins)`);
  });
  it('class-wise: each panel holds its table’s non-empty bins, titled by class name, support and ECE', () => {
    const r = classwise(A, [3, 1]);
    const spec = classwiseReliabilityChart(r, { classNames: ['a', 'b', 'c', 'd'], columns: 2 }) as {
      usermeta: { classes: number[] };
      columns: number;
      data: { values: { panel: string; kind: string; score: number; outcome: number; low: number | null }[] };
    };
    expect(spec.usermeta.classes).toEqual([3, 1]);
    expect(spec.columns).toBe(2);
    r.classes.forEach((c, i) => {
      const title = `${['a', 'b', 'c', 'd'][c.index]} · n = ${c.support} · ECE ${c.table.calibrationError.toFixed(4)}`;
      const drawn = spec.data.values.filter((v) => v.panel === title && v.kind === 'bin');
      const bins = c.table.bins.filter((b) => b.count > 0);
      expect(
        drawn.map((v) => [v.score, v.outcome, v.low]),
        `panel ${i}`,
      ).toEqual(bins.map((b) => [b.meanScore, b.meanOutcome, c.table.intervals?.bounds[b.index]?.[0]]));
    });
  });
  it('histogram: bars are the bins’ shares; the lines sit at the accuracy and the average confidence of the rows', () => {
    const t = reliability(A.labels, A.probs, { bins: 10 });
    const spec = confidenceHistogram(t) as {
      usermeta: { lines: Record<string, number>[] };
      layer: { data: { values: { share?: number; at?: number }[] } }[];
    };
    const conf = A.probs.map((p) => Math.max(...p));
    const correct = A.probs.map((p, i) => (p.indexOf(Math.max(...p)) === A.labels[i] ? 1 : 0));
    const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
    expect(spec.usermeta.lines[0]?.accuracy).toBeCloseTo(mean(correct), 14);
    expect(spec.usermeta.lines[0]?.['average confidence']).toBeCloseTo(mean(conf), 14);
    expect(spec.layer[1]?.data.values.map((v) => v.at)).toEqual([
      spec.usermeta.lines[0]?.accuracy,
      spec.usermeta.lines[0]?.['average confidence'],
    ]);
    expect(spec.layer[0]?.data.values.map((v) => v.share)).toEqual(
      t.bins.filter((b) => b.weight > 0).map((b) => b.fraction),
    );
  });
});

describe('bad diagram input', () => {
  it('options, mixed measures and different classes are located errors', () => {
    const r = classwise(A);
    expect(failure(() => classwiseReliabilityChart(r, { classNames: ['a'] })).message).toMatch(
      /^classwiseReliabilityChart: options.classNames must be 4 class names \(strings\), class 0 first/,
    );
    expect(failure(() => classwiseReliabilityChart(r, { columns: 0 })).message).toMatch(
      /^classwiseReliabilityChart: options.columns must be an integer in \[1, 100\]; got 0/,
    );
    expect(failure(() => classwiseReliabilityChart(r, { colour: 1 } as never)).message).toBe(
      'classwiseReliabilityChart: options.colour must not be given: classwiseReliabilityChart has no such option',
    );
    expect(failure(() => classwiseReliabilityChart(named(r, classwise(B, [0, 1])))).message).toMatch(
      /^classwiseReliabilityChart: series\[1\] must show the same classes for every model/,
    );
    const s = smooth(A);
    const p = { ...s, measure: 'probability' } as SmoothReliability;
    expect(failure(() => smoothReliabilityChart(named(s, p))).message).toMatch(
      /^smoothReliabilityChart: series must hold curves of one measure/,
    );
    const u = reliability(A.labels, A.probs, { measure: 'uncertainty' });
    expect(failure(() => confidenceHistogram(named(reliability(A.labels, A.probs), u))).message).toMatch(
      /^confidenceHistogram: series must hold tables of one measure/,
    );
  });
  it('a damaged result (any field replaced by a value of another kind) is a located UMError or a spec without NaN/undefined', () => {
    const small = { labels: A.labels.slice(0, 30), probs: A.probs.slice(0, 30) };
    const curve = smoothReliability(small.labels, small.probs, { resamples: 3 });
    const checked = damagedResults([
      ['smoothReliabilityChart', smoothReliabilityChart, { ...curve, points: curve.points.slice(150, 160) }],
      [
        'classwiseReliabilityChart',
        classwiseReliabilityChart,
        classwiseReliability(small.labels, small.probs, { bins: 3, interval: 'wilson', classes: [0, 2] }),
      ],
      ['confidenceHistogram', confidenceHistogram, reliability(small.labels, small.probs, { bins: 4 })],
    ]);
    expect(checked).toBeGreaterThan(200);
  });
});
