import { describe, expect, it } from 'vitest';
import { UMError } from '../../src/index.js';
import { createReport, reportHtml, reportJson, reportMarkdown } from '../../src/report/index.js';
import { um } from '../helpers/cli.js';
import { randomProbs } from '../helpers/data.js';
import { withBlankSvg } from './twoModels.js';

/**
 * Few resamples, and no drawings: the names are read in the HTML's header, the Markdown and the JSON, none of which
 * depends on the charts' SVG (withBlankSvg for reportHtml, which refuses a report made with svg: false); the drawn
 * class-wise panels are test/report/diagrams.test.ts's.
 */
const FAST = { resamples: 20, svg: false };
const { labels, probs } = randomProbs(11, 300, 3);

describe('class names in the report', () => {
  it('are shown with the class count in HTML and Markdown (escaped) and kept in the JSON', async () => {
    const classes = ['cat', 'dog <b>', 'a*b'];
    const r = await createReport([{ name: 'm', labels, scores: probs, classes }], FAST);
    expect(r.models[0]?.classes).toEqual(classes);
    expect(reportHtml(withBlankSvg(r))).toContain('300 examples, 3 classes (cat, dog &lt;b&gt;, a*b)');
    expect(reportMarkdown(r)).toContain('300 examples, 3 classes \\(cat\\, dog \\<b\\>\\, a\\*b\\)');
    expect((JSON.parse(reportJson(r)) as { models: { classes: string[] }[] }).models[0]?.classes).toEqual(classes);
    // without names: the count only, and null in the JSON
    const plain = await createReport([{ name: 'm', labels, scores: probs }], FAST);
    expect(plain.models[0]?.classes).toBeNull();
    expect(reportHtml(withBlankSvg(plain))).toContain('300 examples, 3 classes</li>');
  });

  it.each([
    ['too few names', ['cat', 'dog']],
    ['a name that is not text', ['cat', 'dog', 3]],
    ['not an array', 'cat,dog,bird'],
  ])('refuses %s, naming the model', async (_what, classes) => {
    const e = await createReport([{ name: 'm', labels, scores: probs, classes: classes as never }], FAST).catch(
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(UMError);
    expect((e as UMError).code).toBe('UM_OPTION');
    expect((e as UMError).message).toMatch(
      /^createReport: models\[0\]\.classes must be 3 class names \(strings\), class 0 first/,
    );
  });

  it('um report --classes shows the names, in memory and streamed', async () => {
    const file = 'examples/data/iris_test.csv';
    for (const extra of [[], ['--stream']]) {
      const r = await um(
        ['report', file, '--classes', 'setosa,versicolor,virginica', '--md', '-o', '-', '--resamples', '20', ...extra],
        { built: extra.length > 0 },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('3 classes \\(setosa\\, versicolor\\, virginica\\)');
    }
  });
});
