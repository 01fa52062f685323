/** createReport / reportHtml / reportMarkdown / reportJson on the bundled predictions. */
import { describe, expect, it } from 'vitest';
import {
  binaryReliability,
  classwiseReliability,
  evaluate,
  evaluateEnsemble,
  reliability,
  smoothReliability,
  UMError,
} from '../../src/index.js';
import { renderSvg } from '../../src/plot/index.js';
import { uniforms } from '../helpers/minstd.js';
import { createReport, reportHtml, reportJson, reportMarkdown, type Report } from '../../src/report/index.js';
import { bundled } from '../helpers/npy.js';
import { FAST, logreg, mlp, TWO, twoReport } from './twoModels.js';

type Spec = { usermeta: { drawn: string; classes?: number[] }; data: { values: unknown[] } };
const chart = (r: Report, id: string) => r.charts.find((c) => c.id === id) as Report['charts'][number];

/**
 * A second report of TWO, made once, apart from twoReport(), with its progress recorded and without SVG: the
 * determinism test renders its charts itself, the svg: false test reads it as made.
 */
const steps: string[] = [];
let second: Promise<Report> | undefined;
const progressedReport = () =>
  (second ??= createReport(TWO, {
    ...FAST,
    svg: false,
    onProgress: (done, total, label) => steps.push(`${done}/${total} ${label}`),
  }));

/**
 * A three-row report of a model that is always right, whose name and source need escaping, rendered once: the
 * always-right, escaping and damage tests read it (a small rendered report with a note about its name).
 */
const HOSTILE = '<img src=x onerror=alert(1)>';
let hostile: Promise<Report> | undefined;
const hostileReport = () =>
  (hostile ??= createReport([
    {
      name: HOSTILE,
      source: 'a"b.csv',
      labels: [0, 1, 0],
      scores: [
        [0.9, 0.1],
        [0.2, 0.8],
        [0.6, 0.4],
      ],
    },
  ]));

describe('createReport', () => {
  it('evaluates every model exactly as evaluate does and draws twelve charts', async () => {
    const r = await twoReport();
    expect(r.models.map((m) => m.evaluation)).toEqual([
      evaluate(mlp.labels, mlp.probs, { onWarning: () => undefined }),
      evaluate(logreg.labels, logreg.probs, { onWarning: () => undefined }),
    ]);
    expect(r.charts.map((c) => c.id)).toEqual([
      'reliability',
      'reliability-equal-mass',
      'smooth',
      'histogram',
      'classwise',
      'uncertainty',
      'risk-coverage',
      'rejection',
      'roc',
      'pr',
      'bins',
      'temperature',
    ]);
    for (const c of r.charts) expect(c.svg.startsWith('<svg')).toBe(true);
    expect(r.timestamp).toBeNull();
  });
  it('is deterministic: the same input gives the same HTML, JSON and Markdown, byte for byte', async () => {
    const a = await twoReport();
    // built apart from `a` (and with a progress callback, which must change nothing); made without SVG, its charts
    // drawn here as createReport draws them (renderSvg of each spec): the HTML's drawings are compared too
    const made = await progressedReport();
    const b = {
      ...made,
      charts: await Promise.all(made.charts.map(async (c) => ({ ...c, svg: await renderSvg(c.spec) }))),
    };
    expect(reportHtml(b)).toBe(reportHtml(a));
    expect(reportJson(b)).toBe(reportJson(a));
    expect(reportMarkdown(b)).toBe(reportMarkdown(a));
  });
  it('an ensemble is evaluated with evaluateEnsemble and keeps its member count', async () => {
    const test = await bundled('deep_ensemble_test_member_logits', 'test');
    const o = { input: 'logits' as const, numClasses: 10, numMembers: 5 };
    // the first 400 of the 2000 rows (all ten classes) of each member ([S, N, C]): the report's evaluation of an
    // ensemble is the subject, not its size
    const [rows, all] = [400, test.labels.length];
    const members = new Float32Array(5 * rows * 10);
    for (let s = 0; s < 5; s++)
      members.set((test.members as Float32Array).subarray(s * all * 10, (s * all + rows) * 10), s * rows * 10);
    const labels = Array.from(test.labels).slice(0, rows);
    expect(new Set(labels).size).toBe(10);
    // no SVG: only the evaluation and the member count are read here; um report renders an ensemble's HTML
    // (test/cli/report.test.ts, 'an ensemble of members')
    const r = await createReport([{ name: 'ensemble', labels, members, options: o }], { ...FAST, svg: false });
    expect(r.models[0]?.evaluation).toEqual(evaluateEnsemble(labels, members, { ...o, onWarning: () => undefined }));
    expect(r.models[0]?.evaluation.n).toBe(rows);
    expect(r.models[0]?.numMembers).toBe(5);
  });
  it('a model that is always right is left out of ROC and PR with a note; the report still renders', async () => {
    const r = await hostileReport();
    expect(r.charts.map((c) => c.id)).not.toContain('roc');
    expect(r.charts.every((c) => c.svg.startsWith('<svg'))).toBe(true);
    expect(r.notes[0]?.startsWith(HOSTILE)).toBe(true);
    expect(r.notes[0]?.slice(HOSTILE.length)).toMatch(
      /^: left out of the ROC and precision–recall charts \(labels must hold both correct predictions and wrong predictions/,
    );
    expect(r.models[0]?.evaluation.auroc).toBeNull();
  });
  it('progress is reported step by step', async () => {
    await progressedReport();
    const seen = steps;
    expect(seen.slice(0, 5)).toEqual([
      '1/17 evaluated mlp_overfit',
      '2/17 evaluated logreg',
      '3/17 intervals of mlp_overfit',
      '4/17 intervals of logreg',
      '5/17 compared logreg',
    ]);
    expect(seen.at(-1)).toBe('17/17 Metrics vs temperature');
  });
  it('rejects models with different numbers of classes, and bad labels with their position', async () => {
    const three = {
      name: 'three',
      labels: [0, 1],
      scores: [
        [0.2, 0.3, 0.5],
        [0.1, 0.1, 0.8],
      ],
    };
    await expect(createReport([TWO[0] as never, three])).rejects.toThrow(
      'createReport: models[1] must predict the same classes: mlp_overfit has 10, three has 3; got 3',
    );
    await expect(
      createReport([
        {
          name: 'x',
          labels: [0, 7],
          scores: [
            [0.5, 0.5],
            [0.5, 0.5],
          ],
        },
      ]),
    ).rejects.toThrow('createReport: model "x": labels[1] must be an integer in [0, 2); got 7');
    await expect(createReport([])).rejects.toMatchObject({ code: 'UM_EMPTY' });
  });
});

describe('the calibration diagrams of the main job', () => {
  let r: Report;
  it('equal-mass beside equal-width, then the smooth curve and the histogram; each from the library’s result', async () => {
    // the report of the tests above
    r = await twoReport();
    // (their order, equal-width first: the chart list of 'evaluates every model exactly…' above)
    expect(chart(r, 'reliability')).toBeDefined();
    const em = chart(r, 'reliability-equal-mass');
    const tables = [mlp, logreg].map((m) =>
      reliability(m.labels, m.probs, { binning: 'equal-mass', interval: 'wilson' }),
    );
    const rows = (em.spec as unknown as Spec).data.values as { score: number; count: number }[];
    expect(rows.map((v) => [v.score, v.count])).toEqual(
      tables.flatMap((t) => t.bins.filter((b) => b.count > 0).map((b) => [b.meanScore, b.count])),
    );
    expect((em.spec as unknown as Spec).usermeta.drawn).toBe('lines');
    expect(em.howToRead).toMatch(/equal numbers of predictions .* One line per model/);
    const smooth = chart(r, 'smooth');
    // the band of the report's resamples (fewer than 100 here; the default report's 100 in test/browser/)
    const curve = smoothReliability(mlp.labels, mlp.probs, { resamples: FAST.resamples, seed: 0 });
    const points = (smooth.spec as unknown as Spec).data.values as { score: number; outcome: number; lower: number }[];
    expect(points.slice(0, 200).map((p) => [p.score, p.outcome, p.lower])).toEqual(
      curve.points.map((p) => [p.score, p.outcome, p.lower]),
    );
    expect(smooth.howToRead).toMatch(/95% bootstrap band \(2 resamples of the predictions\)/);
    expect(smooth.howToRead).toMatch(/one line per model/);
    expect(smooth.svg).toContain(`mlp_overfit (smECE ${curve.value.toFixed(4)}, σ ${curve.bandwidth.toFixed(4)})`);
    const hist = chart(r, 'histogram');
    expect(hist.howToRead).toMatch(/one panel per model.*solid black line.*dashed vermillion line/);
    expect((hist.spec as unknown as Spec).usermeta.drawn).toBe('histogram');
  });
  it('class-wise: all 10 classes, one line per model, each panel the table of classwiseReliability', () => {
    const cw = chart(r, 'classwise');
    expect(cw.howToRead).toMatch(/All 10 classes are shown\.$/);
    expect(cw.howToRead).toMatch(/One line per model/);
    expect((cw.spec as unknown as Spec).usermeta.classes).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const c3 = classwiseReliability(logreg.labels, logreg.probs, { interval: 'wilson' }).classes[3];
    const drawn = ((cw.spec as unknown as Spec).data.values as { panel: string; model?: string; outcome: number }[])
      .filter((v) => v.panel === `class 3 · n = ${c3?.support}` && v.model === 'logreg')
      .map((v) => v.outcome);
    expect(drawn).toEqual(c3?.table.bins.filter((b) => b.count > 0).map((b) => b.meanOutcome));
    // panels of several rows span the grid's width
    expect(reportHtml(r)).toMatch(/<section id="chart-classwise" class="wide" data-drawn="classwise">/);
  });
});

describe('two classes: the positive-class diagram (scikit-learn’s calibration_curve)', () => {
  it('comes first and draws binaryReliability’s bins of P(y = 1), with intervals, on seeded binary data', async () => {
    for (const seed of [41, 42]) {
      const u = uniforms(seed, 600);
      const p1 = u.slice(0, 300).map((x) => Math.min(1, Math.max(0, x ** 1.5)));
      const labels = u.slice(300).map((x, i) => (x < (p1[i] as number) ** 0.7 ? 1 : 0));
      // only this chart's drawing is read: it is drawn here as createReport draws it (renderSvg of its spec)
      const r = await createReport([{ name: 'b', labels, scores: p1, options: { binary: true } }], {
        ...FAST,
        svg: false,
      });
      expect(r.charts[0]?.id).toBe('positive-class');
      expect(r.charts[0]?.howToRead).toMatch(/^The positive-class diagram of scikit-learn’s calibration_curve/);
      const table = binaryReliability(labels, p1, { interval: 'wilson' });
      const values = (
        r.charts[0]?.spec as { data: { values: { score: number; outcome: number; count: number; low: number }[] } }
      ).data.values;
      const filled = table.bins.filter((b) => b.count > 0);
      expect(values.map((v) => [v.score, v.outcome, v.count, v.low])).toEqual(
        filled.map((b) => [b.meanScore, b.meanOutcome, b.count, table.intervals?.bounds[b.index]?.[0]]),
      );
      expect(await renderSvg(r.charts[0]?.spec as Report['charts'][number]['spec'])).toContain('predicted P(y = 1)');
    }
  });
});

describe('reportHtml', () => {
  let report: Report;
  it('is one self-contained page: no script, no external resource, every chart inline', async () => {
    report = await twoReport();
    const html = reportHtml(report);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|@import|url\(/i);
    expect(
      html
        .match(/https?:\/\/[^"\s]+/g)
        ?.every((u) => u === 'http://www.w3.org/2000/svg' || u === 'http://www.w3.org/1999/xlink'),
    ).toBe(true);
    expect(html.match(/<svg /g)).toHaveLength(12);
    expect(html.match(/<p class="how">/g)?.length).toBe(15);
  });
  it('the table holds every number exactly (data-value) and marks the best of each row', () => {
    const html = reportHtml(report);
    const cell = (metric: string, model: number) =>
      new RegExp(`data-metric="${metric}" data-model="${model}" data-value="([^"]+)"( class="best")?`).exec(html);
    expect(Number(cell('ece', 1)?.[1])).toBe(report.models[1]?.evaluation.ece);
    expect(cell('ece', 1)?.[2]).toBe(' class="best"'); // logreg has the lower ECE
    expect(cell('accuracy', 0)?.[2]).toBe(' class="best"'); // mlp_overfit is more accurate
    expect(cell('ece', 0)?.[2]).toBeUndefined();
  });
  it('escapes text from the data', async () => {
    const r = await hostileReport();
    const html = reportHtml(r);
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('a&quot;b.csv');
  });
});

describe('reportMarkdown and reportJson', () => {
  it('Markdown: the metrics table with the best value in bold and the configuration', async () => {
    const text = reportMarkdown(await twoReport());
    expect(text).toContain('| metric | mlp\\_overfit | logreg |');
    expect(text).toMatch(/^\| ece \| 0\.038882 \| \*\*0\.013780\*\* \|$/m);
    expect(text).toContain('```json');
  });
  it('JSON: every number, the chart specs, no SVG; non-finite numbers as strings', async () => {
    // (made without drawings: the charts' `svg` field, '' here, is what the JSON must leave out)
    const r = await createReport(
      [
        {
          name: 'zero',
          labels: [0, 1, 1],
          scores: [
            [0, 1],
            [0.2, 0.8],
            [0.6, 0.4],
          ],
        },
      ],
      { svg: false },
    );
    const j = JSON.parse(reportJson(r)) as {
      models: { evaluation: { nll: unknown } }[];
      charts: Record<string, unknown>[];
    };
    expect(j.models[0]?.evaluation.nll).toBe('Infinity');
    expect(j.charts.every((c) => !('svg' in c) && typeof c.spec === 'object')).toBe(true);
  });
});

describe('svg: false (what um report --json and --md make)', () => {
  it('gives the same JSON and Markdown without rendering a chart; reportHtml refuses it', async () => {
    // the progress test's report: made with svg: false
    const r = await progressedReport();
    const full = await twoReport();
    expect(r.charts.map((c) => c.svg)).toEqual(full.charts.map(() => ''));
    expect(reportJson(r)).toBe(reportJson(full));
    expect(reportMarkdown(r)).toBe(reportMarkdown(full));
    expect(() => reportHtml(r)).toThrow(
      'reportHtml: report.charts[0].svg must be rendered (made without svg: false); got ""',
    );
    await expect(createReport(TWO, { svg: 'no' as never })).rejects.toThrow(
      'createReport: options.svg must be true or false; got "no"',
    );
  });
});

describe('a damaged report is a located UMError in every renderer', () => {
  it('each field the renderers read, replaced by a value of another kind (or BigInt anywhere)', async () => {
    // any small rendered report: the escaping test's
    const r = await hostileReport();
    const paths = [
      [],
      ['title'],
      ['version'],
      ['timestamp'],
      ['models'],
      ['models', 0],
      ['models', 0, 'name'],
      ['models', 0, 'source'],
      ['models', 0, 'n'],
      ['models', 0, 'numClasses'],
      ['models', 0, 'numMembers'],
      ['models', 0, 'evaluation'],
      ['models', 0, 'evaluation', 'config'],
      ['charts'],
      ['charts', 0],
      ['charts', 0, 'id'],
      ['charts', 0, 'title'],
      ['charts', 0, 'howToRead'],
      ['charts', 0, 'svg'],
      ['charts', 0, 'spec'],
      ['charts', 0, 'spec', 'width'],
      ['notes'],
      ['warnings'],
      ['summary'],
      ['summary', 'models'],
      ['summary', 'models', 0, 'lines'],
      ['summary', 'comparisons'],
      ['intervals'],
      ['intervals', 'resamples'],
      ['intervals', 'models'],
      ['intervals', 'models', 0],
      ['intervals', 'models', 0, 'ece'],
      ['intervals', 'models', 0, 'ece', 'lower'],
    ];
    const replaced = (x: unknown, path: (string | number)[], v: unknown): unknown => {
      if (path.length === 0) return v;
      const out = Array.isArray(x) ? [...x] : { ...(x as object) };
      (out as Record<string | number, unknown>)[path[0] as string] = replaced(
        (x as Record<string | number, unknown>)[path[0] as string],
        path.slice(1),
        v,
      );
      return out;
    };
    let rejected = 0;
    for (const render of [reportHtml, reportMarkdown, reportJson]) {
      for (const path of paths) {
        for (const v of [undefined, null, 5, 'x', {}, [], 10n, Symbol('s'), [null]]) {
          try {
            expect(typeof render(replaced(r, path, v) as Report)).toBe('string');
          } catch (e) {
            expect(e, `${render.name} ${path.join('.')} = ${String(v)}`).toBeInstanceOf(UMError);
            expect((e as UMError).message).toMatch(new RegExp(`^${render.name}: report`));
            rejected++;
          }
        }
      }
    }
    expect(rejected).toBeGreaterThan(400);
  });
});
