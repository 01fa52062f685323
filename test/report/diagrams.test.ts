/**
 * The report's diagrams of issue 19 (equal-mass view beside the equal-width one, relplot's smooth curve, Guo's
 * histogram, class-wise panels) drawn from the library's own results with texts that say what is drawn; warnings
 * listed at the top and shown next to the rows and charts they concern. Those of the main job's report (twoReport)
 * are in test/report/report.test.ts, the one file that builds it.
 */
import { describe, expect, it } from 'vitest';
import { UMError } from '../../src/index.js';
import { renderSvg } from '../../src/plot/index.js';
import { createReport, reportHtml, reportJson, reportMarkdown, type Report } from '../../src/report/index.js';
import { randomProbs } from '../helpers/data.js';
import { FAST, withBlankSvg } from './twoModels.js';

/** Only the drawing of one chart is read: made with svg: false, the chart is drawn as createReport draws it. */
const NO_SVG = { ...FAST, svg: false };
const drawing = (c: Report['charts'][number]) => renderSvg(c.spec);

type Spec = { usermeta: { drawn: string; classes?: number[] }; data: { values: unknown[] } };
const chart = (r: Report, id: string) => r.charts.find((c) => c.id === id) as Report['charts'][number];

describe('class-wise panels', () => {
  it('more than 20 classes: the 20 most frequent labels, in class order, named in the text', async () => {
    const t = randomProbs(7, 600, 25);
    // skew the labels: class k appears about (k + 1) times as often as class 0 … the largest last
    const labels = t.labels.map((y, i) => (i % 5 === 0 ? 24 - (y % 5) : y));
    const names = Array.from({ length: 25 }, (_, k) => `c${k}`);
    const r = await createReport([{ name: 'm', labels, scores: t.probs, classes: names }], NO_SVG);
    const counts = names.map((_, k) => labels.filter((y) => y === k).length);
    const top = names
      .map((_, k) => k)
      .sort((a, b) => (counts[b] as number) - (counts[a] as number) || a - b)
      .slice(0, 20)
      .sort((a, b) => a - b);
    const cw = chart(r, 'classwise');
    expect((cw.spec as unknown as Spec).usermeta.classes).toEqual(top);
    expect(cw.howToRead).toContain(
      `The 20 most frequent of the 25 classes are shown (by number of labels): ${top.map((k) => `c${k}`).join(', ')}.`,
    );
    expect(await drawing(cw)).toContain(`c${top[0]} · n = ${counts[top[0] as number]}`);
  });
  it('two classes: none (the positive-class diagram is the class-wise one); the smooth curve of P(y = 1) beside it', async () => {
    const r = await createReport(
      [{ name: 'b', labels: [0, 1, 1, 0], scores: [0.2, 0.7, 0.6, 0.4], options: { binary: true } }],
      { svg: false },
    );
    expect(r.charts.map((c) => c.id)).not.toContain('classwise');
    expect(r.charts.map((c) => c.id).slice(0, 4)).toEqual([
      'positive-class',
      'smooth',
      'reliability',
      'reliability-equal-mass',
    ]);
    expect(chart(r, 'smooth').howToRead).toMatch(/The frequency of y = 1 is smoothed over the predicted P\(y = 1\)/);
    expect(await drawing(chart(r, 'smooth'))).toContain('frequency of y = 1 (smoothed)');
  });
});

describe('warnings at the top and next to what they affect', () => {
  const t = randomProbs(9, 120, 3);
  // 'zero' gives its first row's label probability 0 (NLL infinite); 'perfect' is always right (AUROC undefined)
  const zero = t.probs.map((p, i) => (i === 0 ? p.map((_, k) => (k === t.labels[0] ? 0 : 0.5)) : p));
  const perfect = t.labels.map((y) => [0, 1, 2].map((k) => (k === y ? 0.8 : 0.1)));
  const models = [
    { name: 'zero', labels: t.labels, scores: zero },
    { name: 'fine', labels: t.labels, scores: t.probs },
    { name: 'perfect', labels: t.labels, scores: perfect },
  ];
  let r: Report;
  it('each warning names its model, the metric rows and the charts it concerns', async () => {
    // the warnings' places in the HTML do not depend on the drawings: made without them (withBlankSvg for reportHtml)
    r = await createReport(models, NO_SVG);
    expect(r.warnings.map(({ code, model, metrics, charts }) => ({ code, model, metrics, charts }))).toEqual([
      { code: 'UM_W_INFINITE', model: 'zero', metrics: ['nll'], charts: ['temperature'] },
      { code: 'UM_W_DEGENERATE', model: 'perfect', metrics: ['auroc', 'aupr'], charts: ['roc', 'pr'] },
    ]);
  });
  it('HTML: listed first with links to where they apply; a ⚠ in the model’s cells; the text above the charts', () => {
    const html = reportHtml(withBlankSvg(r));
    expect(html.indexOf('<section id="warnings"')).toBeLessThan(html.indexOf('<section id="summary"'));
    expect(html).toMatch(
      /<li id="warning-1" class="warn">zero: evaluate: 1 of 120 rows give probability exactly 0 to their label; .*\[UM_W_INFINITE\] — see <a href="#metrics-section">nll in the table<\/a>, <a href="#chart-temperature">Metrics vs temperature<\/a><\/li>/,
    );
    const cell = (metric: string, model: number) =>
      new RegExp(
        `<td data-metric="${metric}" data-model="${model}"[^>]*>[^<]*(<span[^>]*>★</span>)? <a class="warn" href="#warning-\\d"`,
      );
    expect(html).toMatch(cell('nll', 0));
    expect(html).not.toMatch(cell('nll', 1));
    expect(html).toMatch(cell('auroc', 2));
    expect(html).toMatch(cell('aupr', 2));
    const section = (id: string) =>
      html.slice(html.indexOf(`<section id="chart-${id}"`)).split('</section>')[0] as string;
    expect(section('temperature')).toMatch(
      /<p class="warn"><a class="warn" href="#warning-1">⚠<\/a> zero: evaluate: 1 of 120/,
    );
    expect(section('roc')).toMatch(
      /<p class="warn"><a class="warn" href="#warning-2">⚠<\/a> perfect: evaluate: every prediction is correct/,
    );
    expect(section('reliability')).not.toContain('class="warn"');
  });
  it('Markdown: listed before the summary; ⚠ in the cells and after the charts they concern; JSON keeps them', () => {
    const md = reportMarkdown(r).split('\n');
    expect(md.indexOf('## Warnings and notes')).toBeLessThan(md.indexOf('## Summary'));
    expect(md.find((l) => l.startsWith('| nll |'))).toMatch(/^\| nll \| Infinity ⚠ \| [\d.]+ \| [\d.]+ \|$/);
    expect(md.find((l) => l.startsWith('- **Metrics vs temperature**'))).toMatch(/⚠ zero\\: evaluate\\: 1 of 120/);
    expect(JSON.parse(reportJson(r)).warnings[1]).toEqual(r.warnings[1]);
  });
  it('a damaged warning is a located UMError in every renderer', () => {
    for (const field of ['model', 'metrics', 'charts'] as const) {
      const bad = { ...withBlankSvg(r), warnings: [{ ...r.warnings[0], [field]: 5 }] } as unknown as Report;
      for (const render of [reportHtml, reportMarkdown, reportJson]) {
        const e = (() => {
          try {
            render(bad);
          } catch (x) {
            return x;
          }
          return undefined;
        })();
        expect(e, `${render.name} ${field}`).toBeInstanceOf(UMError);
        expect((e as UMError).message).toMatch(new RegExp(`^${render.name}: report.warnings\\[0\\].${field} must be`));
      }
    }
  });
});
