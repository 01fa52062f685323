/* eslint-disable no-sparse-arrays -- holes in option arrays and series lists are among the bad inputs */
/** Every chart kind: a valid Vega-Lite spec, a deterministic SVG (snapshot with rounded numbers), and escaped text. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  oodCurve,
  precisionRecallCurve,
  rejectionCurve,
  reliability,
  riskCoverageCurve,
  rocCurve,
  UMError,
} from '../../src/index.js';
import {
  binSweep,
  binSweepChart,
  oodChart,
  precisionRecallChart,
  rejectionChart,
  reliabilityDiagram,
  renderSvg,
  riskCoverageChart,
  rocChart,
  temperatureChart,
  temperatureSweep,
  type VegaLiteSpec,
} from '../../src/plot/index.js';
import { damagedResults, legendEntries, rounded } from '../helpers/charts.js';
import { failure } from '../helpers/failure.js';
import { randomProbs } from '../helpers/data.js';
import { uniforms } from '../helpers/minstd.js';

const A = randomProbs(101, 300, 4, 20);
const B = randomProbs(102, 300, 4, 20);
const logits = A.probs.map((r) => r.map((p) => Math.log(p + 1e-3) * 2));
const named = <T>(a: T, b: T) => [
  { name: 'model A', data: a },
  { name: 'model B', data: b },
];

const CHARTS: [string, () => VegaLiteSpec][] = [
  [
    'reliability-confidence',
    () => reliabilityDiagram(reliability(A.labels, A.probs, { bins: 10, interval: 'wilson' })),
  ],
  [
    'reliability-uncertainty',
    () => reliabilityDiagram(reliability(A.labels, A.probs, { bins: 10, measure: 'uncertainty' })),
  ],
  [
    'reliability-two-models',
    () =>
      reliabilityDiagram(
        named(reliability(A.labels, A.probs, { bins: 10 }), reliability(B.labels, B.probs, { bins: 10 })),
      ),
  ],
  [
    'reliability-two-models-intervals',
    () =>
      reliabilityDiagram(
        named(
          reliability(A.labels, A.probs, { bins: 10, interval: 'wilson' }),
          reliability(B.labels, B.probs, { bins: 10, interval: 'clopper-pearson' }),
        ),
      ),
  ],
  [
    'reliability-uncertainty-intervals',
    () =>
      reliabilityDiagram(
        reliability(B.labels, B.probs, { bins: 10, measure: 'uncertainty', interval: 'clopper-pearson' }),
      ),
  ],
  [
    'temperature-two-models',
    () =>
      temperatureChart(
        named(
          temperatureSweep(A.labels, logits, { input: 'logits' }),
          temperatureSweep(
            B.labels,
            B.probs.map((r) => r.map((p) => Math.log(p + 1e-3))),
            { input: 'logits' },
          ),
        ),
      ),
  ],
  [
    'risk-coverage',
    () => riskCoverageChart(named(riskCoverageCurve(A.labels, A.probs), riskCoverageCurve(B.labels, B.probs))),
  ],
  ['rejection', () => rejectionChart(rejectionCurve(A.labels, A.probs))],
  ['roc', () => rocChart(named(rocCurve(A.labels, A.probs), rocCurve(B.labels, B.probs)))],
  ['precision-recall', () => precisionRecallChart(precisionRecallCurve(A.labels, A.probs))],
  [
    'bin-sweep',
    () =>
      binSweepChart(
        named(
          binSweep(A.labels, A.probs, { bins: [2, 5, 10, 20] }),
          binSweep(B.labels, B.probs, { bins: [2, 5, 10, 20] }),
        ),
      ),
  ],
  [
    'temperature',
    () => temperatureChart(temperatureSweep(A.labels, logits, { input: 'logits', temperatures: [0.5, 1, 2, 4] })),
  ],
  [
    'ood',
    () =>
      oodChart(
        oodCurve(
          { uncertainty: uniforms(5, 50).map((u) => 0.4 * u) },
          { uncertainty: uniforms(6, 50).map((u) => 0.5 + 0.5 * u) },
          { batchSize: 10, repeats: 5 },
        ),
      ),
  ],
];

describe('chart snapshots', () => {
  for (const [name, make] of CHARTS) {
    it(name, async () => {
      const spec = make();
      expect(spec.$schema).toBe('https://vega.github.io/schema/vega-lite/v6.json');
      const svg = await renderSvg(spec);
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]* width="\d+" height="\d+"/);
      expect(await renderSvg(make())).toBe(svg); // deterministic
      await expect(rounded(svg)).toMatchFileSnapshot(`__snapshots__/${name}.svg`);
    });
  }
});

describe('what the charts draw', () => {
  it('the reliability diagram draws the same bins as the table whose error is the ECE', () => {
    const table = reliability(A.labels, A.probs, { bins: 10 });
    const spec = reliabilityDiagram(table) as { data: { values: { outcome: number; score: number; count: number }[] } };
    const filled = table.bins.filter((b) => b.count > 0);
    expect(spec.data.values.map((v) => [v.outcome, v.score, v.count])).toEqual(
      filled.map((b) => [b.meanOutcome, b.meanScore, b.count]),
    );
    expect(JSON.stringify(spec)).toContain(`ECE ${table.calibrationError.toFixed(4)}`);
  });
  it('curves longer than 500 points are thinned for drawing, keeping both ends', () => {
    const u = uniforms(77, 4000);
    const labels = u.slice(0, 2000).map((x) => (x < 0.5 ? 0 : 1));
    const probs = u.slice(2000).map((x) => [x, 1 - x]);
    const curve = riskCoverageCurve(labels, probs);
    const values =
      (riskCoverageChart(curve) as { layer: { data: { values: { coverage: number }[] } }[] }).layer[0]?.data.values ??
      [];
    expect(curve.points.length).toBe(2000);
    expect(values.length).toBe(500);
    expect(values[0]?.coverage).toBe(curve.points[0]?.coverage);
    expect(values.at(-1)?.coverage).toBe(1);
  });
  it('text from the data is escaped in the SVG', async () => {
    const svg = await renderSvg(
      riskCoverageChart([
        { name: '<script>alert(1)</script> & co', data: riskCoverageCurve(A.labels, A.probs) },
        { name: 'b', data: riskCoverageCurve(B.labels, B.probs) },
      ]),
    );
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&lt;script&gt;');
  });
});

describe('several models are told apart', () => {
  it('every legend entry of 2–6 models differs from every other in colour or dash (lines, reliability, temperature)', async () => {
    const tables = [101, 102, 103, 104, 105, 106].map((seed) => randomProbs(seed, 150, 3, 20));
    for (let k = 2; k <= 6; k++) {
      const models = tables.slice(0, k).map((t, j) => ({ name: `model ${j}`, t }));
      const charts: [string, VegaLiteSpec][] = [
        ['roc', rocChart(models.map((m) => ({ name: m.name, data: rocCurve(m.t.labels, m.t.probs) })))],
        [
          'reliability',
          reliabilityDiagram(
            models.map((m) => ({
              name: m.name,
              data: reliability(m.t.labels, m.t.probs, { bins: 5, interval: 'wilson' }),
            })),
          ),
        ],
        [
          'temperature',
          temperatureChart(
            models.map((m) => ({
              name: m.name,
              data: temperatureSweep(
                m.t.labels,
                m.t.probs.map((r) => r.map((p) => Math.log(p + 1e-3))),
                { input: 'logits', temperatures: [0.5, 1, 2] },
              ),
            })),
          ),
        ],
      ];
      for (const [what, spec] of charts) {
        const entries = legendEntries(await renderSvg(spec)).filter((e) => e.label.startsWith('model '));
        expect(
          entries.map((e) => e.label.slice(0, 7)),
          `${what} ${k}`,
        ).toEqual(models.map((m) => m.name));
        expect(
          entries.every((e) => e.stroke !== 'none' && e.stroke !== 'transparent'),
          `${what} ${k}: ${JSON.stringify(entries)}`,
        ).toBe(true);
        const keys = new Set(entries.map((e) => `${e.stroke} ${e.dash}`));
        expect(keys.size, `${what} ${k}: ${JSON.stringify(entries)}`).toBe(k);
        // colour and dash each tell the models apart (so print and colour-blind readers both can)
        expect(new Set(entries.map((e) => e.stroke)).size, what).toBe(k);
        expect(new Set(entries.map((e) => e.dash)).size, what).toBe(k);
      }
    }
  }, 60_000);
  it('the bin sweep: colour = metric, a dash legend per model (the same black dot for both models before)', async () => {
    const svg = await renderSvg(
      binSweepChart(
        named(binSweep(A.labels, A.probs, { bins: [2, 5] }), binSweep(B.labels, B.probs, { bins: [2, 5] })),
      ),
    );
    const models = legendEntries(svg).filter((e) => e.label.startsWith('model '));
    expect(models.map((e) => e.label)).toEqual(['model A', 'model B']);
    expect(models.every((e) => e.stroke !== 'none' && e.stroke !== 'transparent')).toBe(true);
    expect(new Set(models.map((e) => e.dash)).size).toBe(2);
    expect(
      legendEntries(svg)
        .filter((e) => ['ECE', 'ACE', 'UCE'].includes(e.label))
        .map((e) => e.stroke),
    ).toEqual(['#0072B2', '#D55E00', '#009E73']);
  });
});

describe('the reliability diagram says what it draws', () => {
  it('gap coloured by its side (confidence above or below accuracy; error above or below uncertainty) on seeded tables', () => {
    for (const seed of [201, 202, 203]) {
      const t = randomProbs(seed, 400, 4, 20);
      for (const measure of ['confidence', 'uncertainty'] as const) {
        const table = reliability(t.labels, t.probs, { bins: 12, measure, interval: 'wilson' });
        const spec = reliabilityDiagram(table) as {
          usermeta: { drawn: string };
          data: { values: { score: number; outcome: number; side: string }[] };
        };
        expect(spec.usermeta.drawn).toBe('bars');
        for (const v of spec.data.values) {
          const over = measure === 'confidence' ? v.score > v.outcome : v.outcome > v.score;
          expect(v.side.includes('over-confident'), `${measure} ${v.score} ${v.outcome}`).toBe(over);
        }
        const sides = new Set(spec.data.values.map((v) => v.side));
        expect(sides.size, `${seed} ${measure}`).toBeGreaterThan(0);
      }
      expect(
        (
          reliabilityDiagram(named(reliability(t.labels, t.probs), reliability(t.labels, t.probs))) as {
            usermeta: { drawn: string };
          }
        ).usermeta.drawn,
      ).toBe('lines');
    }
  });
  it('the legend of one model names the bars, both gaps, the interval and the diagonal; counts on a √ scale', async () => {
    const svg = await renderSvg(reliabilityDiagram(reliability(A.labels, A.probs, { bins: 10, interval: 'wilson' })));
    expect(legendEntries(svg).map((e) => e.label)).toEqual([
      'accuracy',
      'gap: accuracy below confidence (over-confident)',
      'gap: accuracy above confidence (under-confident)',
      '95% Wilson interval',
      'perfect calibration (diagonal)',
    ]);
    const spec = reliabilityDiagram(reliability(A.labels, A.probs)) as {
      vconcat: { encoding: { y: { scale: { type: string } } } }[];
    };
    expect(spec.vconcat[1]?.encoding.y.scale.type).toBe('sqrt');
  });
  it('the temperature axis spans the temperatures computed (not the nice powers of ten around them)', () => {
    const s = temperatureSweep(A.labels, logits, { input: 'logits' });
    const spec = temperatureChart(s) as { spec: { layer: { encoding: { x: { scale: { domain: number[] } } } }[] } };
    const ts = s.rows.map((r) => r.temperature);
    expect(spec.spec.layer[0]?.encoding.x.scale.domain).toEqual([Math.min(...ts), Math.max(...ts)]);
  });
});

describe('bad chart input', () => {
  it('rejects the wrong data, unknown options, bad sizes and mixed measures', () => {
    expect(failure(() => rocChart(riskCoverageCurve(A.labels, A.probs) as never)).message).toMatch(
      /^rocChart: series must be the result this chart draws/,
    );
    expect(failure(() => rocChart([] as never)).code).toBe('UM_EMPTY');
    expect(failure(() => rocChart(rocCurve(A.labels, A.probs), { colour: 'red' } as never)).message).toBe(
      'rocChart: options.colour must not be given: rocChart has no such option',
    );
    expect(failure(() => rocChart(rocCurve(A.labels, A.probs), { width: 10 })).message).toBe(
      'rocChart: options.width must be an integer in [40, 4000] (pixels); got 10',
    );
    const t = reliability(A.labels, A.probs);
    const u = reliability(A.labels, A.probs, { measure: 'uncertainty' });
    expect(failure(() => reliabilityDiagram(named(t, u))).message).toMatch(
      /^reliabilityDiagram: series must hold tables of one measure/,
    );
    expect(failure(() => binSweep(A.labels, A.probs, { bins: [] })).code).toBe('UM_OPTION');
    // a hole in an option array was skipped by the check, then read as undefined (the default bins; no temperature)
    expect(failure(() => binSweep(A.labels, A.probs, { bins: [2, , 5] as never })).message).toMatch(
      /^binSweep: options.bins\[1\] must be an integer in \[1, 1048576\]; got undefined/,
    );
    expect(failure(() => temperatureSweep(A.labels, A.probs, { temperatures: [1, , 2] as never })).message).toMatch(
      /^temperatureSweep: options.temperatures\[1\] must be finite numbers > 0; got undefined/,
    );
    expect(failure(() => temperatureSweep(A.labels, A.probs, { temperatures: [1, -2] })).message).toMatch(
      /^temperatureSweep: options.temperatures\[1\] must be finite numbers > 0; got -2/,
    );
  });
  it('a damaged result (any field replaced by a value of another kind) is a located UMError or a spec without NaN/undefined', () => {
    const sweep = temperatureSweep(A.labels, logits, { input: 'logits', temperatures: [0.5, 1, 2] });
    const table = reliability(A.labels.slice(0, 40), A.probs.slice(0, 40), { bins: 4, interval: 'wilson' });
    const cases: [string, (s: never, o?: never) => VegaLiteSpec, unknown][] = [
      ['reliabilityDiagram', reliabilityDiagram, table],
      ['riskCoverageChart', riskCoverageChart, riskCoverageCurve(A.labels.slice(0, 20), A.probs.slice(0, 20))],
      ['rejectionChart', rejectionChart, rejectionCurve(A.labels.slice(0, 20), A.probs.slice(0, 20))],
      ['rocChart', rocChart, rocCurve(A.labels.slice(0, 20), A.probs.slice(0, 20))],
      ['precisionRecallChart', precisionRecallChart, precisionRecallCurve(A.labels.slice(0, 20), A.probs.slice(0, 20))],
      ['binSweepChart', binSweepChart, binSweep(A.labels, A.probs, { bins: [2, 5] })],
      ['temperatureChart', temperatureChart, sweep],
      [
        'oodChart',
        oodChart,
        oodCurve({ uncertainty: [0.1, 0.2, 0.3] }, { uncertainty: [0.6, 0.7, 0.8] }, { batchSize: 2, repeats: 2 }),
      ],
    ];
    const checked = damagedResults(cases);
    expect(checked).toBeGreaterThan(500);
  });
  it('renderSvg rejects a specification that is not Vega-Lite', async () => {
    await expect(renderSvg({ mark: 'no-such-mark' })).rejects.toThrow(
      /^renderSvg: spec must be a valid Vega-Lite specification/,
    );
  });
  it('renderSvg: no file or network loads, and errors inside Vega fail the call (they were logged and the SVG returned)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'um-svg-'));
    const secret = join(dir, 'secret.csv');
    writeFileSync(secret, 'a\n424242\n');
    const text = { mark: 'text', encoding: { text: { field: 'a' } } };
    const bad: [unknown, RegExp][] = [
      [{ data: { url: `file://${secret}` }, ...text }, /no external data or images are loaded .*secret\.csv/],
      [{ data: { url: secret }, ...text }, /no external data or images are loaded/],
      [{ data: { url: 'http://127.0.0.1:9/x.csv' }, mark: 'point' }, /no external data or images are loaded/],
      [
        { data: { values: [{ u: `file://${secret}` }] }, mark: 'image', encoding: { url: { field: 'u' } } },
        /no external data or images are loaded/,
      ],
      [
        {
          data: { values: [{ a: 1 }] },
          transform: [{ aggregate: [{ op: 'nosuch', field: 'a', as: 'x' }] }],
          mark: 'point',
        },
        /AggregateOps/,
      ],
      [
        {
          data: { values: [{ a: 1 }] },
          mark: { type: 'line', color: 'constructor' },
          encoding: { x: { field: 'a', type: 'quantitative' } },
        },
        /Operator not defined/,
      ],
      [null, /^renderSvg: spec must be a Vega-Lite specification \(an object\); got null/],
      [[{ mark: 'point' }], /^renderSvg: spec must be a Vega-Lite specification \(an object\)/],
    ];
    for (const [spec, message] of bad) {
      const e = await renderSvg(spec as never).then(
        (svg) => svg,
        (x: unknown) => x,
      );
      expect(e, JSON.stringify(spec)).toBeInstanceOf(UMError);
      expect((e as UMError).message).toMatch(/^renderSvg: spec must be/);
      expect((e as UMError).message).toMatch(message);
    }
    rmSync(dir, { recursive: true, force: true });
  });
});
