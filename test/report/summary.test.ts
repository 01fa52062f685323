/**
 * The report's summary: per-model sentences (direction of miscalibration, temperature), the table's intervals, the
 * comparison verdicts (always those of their paired interval, and those of comparePaired itself) and the ★ rule.
 */
import { describe, expect, it } from 'vitest';
import { comparePaired, evaluate } from '../../src/index.js';
import { createReport, reportHtml, type Report } from '../../src/report/index.js';
import { reportWithoutCharts } from '../../src/report/createReport.js';
import { metricRows } from '../../src/report/metricRows.js';
import { VERDICT_METRICS } from '../../src/report/verdicts.js';
import { exampleCsv } from '../helpers/data.js';
import { uniforms } from '../helpers/minstd.js';
import { withBlankSvg } from './twoModels.js';

/** Labels drawn from softmax(z); a model predicts softmax(z·sharpness): > 1 over-confident, < 1 under-confident. */
function simulate(seed: number, n: number, c: number, sharpness: number[]): { labels: number[]; models: number[][][] } {
  const u = uniforms(seed, n * (c + 1));
  const softmax = (z: number[], s: number) => {
    const e = z.map((x) => Math.exp(s * x));
    const t = e.reduce((a, b) => a + b, 0);
    return e.map((x) => x / t);
  };
  const logits = Array.from({ length: n }, (_, i) =>
    Array.from({ length: c }, (_, k) => 3 * (u[i * (c + 1) + k] as number)),
  );
  const labels = logits.map((z, i) => {
    const q = softmax(z, 1);
    let r = u[i * (c + 1) + c] as number;
    for (let k = 0; k < c; k++) if ((r -= q[k] as number) < 0) return k;
    return c - 1;
  });
  return { labels, models: sharpness.map((s) => logits.map((z) => softmax(z, s))) };
}

const quiet = () => undefined;
/**
 * The summary, intervals and verdicts are these tests' subject: their reports are made without charts
 * (reportWithoutCharts, createReport's own computation short of the charts; the HTML test below checks that it is
 * createReport's report without its charts).
 */
const FEW = { resamples: 20 };

describe('the comparison verdicts', () => {
  it('say only what their paired interval supports, and equal comparePaired’s (um compare’s) on seeded simulations', async () => {
    let decided = 0;
    for (const [seed, sa, sb] of [
      [1, 1, 2.5],
      [2, 0.4, 1],
      [3, 1, 1.05],
      [4, 2, 0.5],
    ] as const) {
      const { labels, models } = simulate(seed, 300, 3, [sa, sb]);
      const r = await reportWithoutCharts(
        [
          { name: 'A', labels, scores: models[0] as number[][] },
          { name: 'B', labels, scores: models[1] as number[][] },
        ],
        { resamples: 60, seed },
      );
      const c = r.summary.comparisons[0];
      expect(c?.a).toBe('A');
      // with the class-wise errors (as um compare runs it), the same resamples give the same intervals
      const lib = comparePaired(labels, models[0] as number[][], models[1] as number[][], { resamples: 60, seed });
      expect(c?.sentences).toHaveLength(VERDICT_METRICS.length);
      for (const [j, key] of VERDICT_METRICS.entries()) {
        const m = c?.metrics.find((x) => x.metric === key);
        const l = lib.metrics.find((x) => x.metric === key);
        expect([m?.lower, m?.upper, m?.verdict], key).toEqual([l?.lower, l?.upper, l?.verdict]);
        const sentence = c?.sentences[j] as string;
        const lower = m?.lower as number;
        const upper = m?.upper as number;
        if (m?.verdict === 'no difference at this level') {
          expect(lower <= 0 && upper >= 0, `${seed} ${key}`).toBe(true);
          expect(sentence).toMatch(
            /: no difference at the 95% level between A \(.*\) and B \(.*\); the 95% paired interval of B − A: .* includes 0\.$/,
          );
        } else {
          decided++;
          expect(lower > 0 || upper < 0, `${seed} ${key}`).toBe(true);
          const winner = m?.verdict === 'B better' ? 'B' : 'A';
          expect(sentence.startsWith(`${winner} `), sentence).toBe(true);
          expect(sentence).toContain(`paired interval of B − A: ${lower.toFixed(4)} … ${upper.toFixed(4)}`);
          // the better direction agrees with the sign of B − A
          const bHigher = lower > 0;
          const better = l?.better === 'higher' ? bHigher : !bHigher;
          expect(winner, `${seed} ${key}`).toBe(better ? 'B' : 'A');
        }
      }
    }
    expect(decided).toBeGreaterThan(5); // the simulations are not all ties: verdicts both ways are exercised
  }, 120_000);

  it('on the bundled examples: logreg is better calibrated by ECE, mlp_overfit more accurate; UCE and NLL undecided', async () => {
    const mlp = exampleCsv('mlp_overfit_test');
    const logreg = exampleCsv('logreg_test');
    const r = await reportWithoutCharts(
      [
        { name: 'mlp_overfit', labels: mlp.labels, scores: mlp.probs },
        { name: 'logreg', labels: logreg.labels, scores: logreg.probs },
      ],
      { resamples: 100 },
    );
    const s = r.summary.comparisons[0]?.sentences ?? [];
    expect(s[0]).toMatch(
      /^logreg is better calibrated than mlp_overfit: ECE 0\.0138 vs 0\.0389, lower by 0\.0251 \(95% paired interval of logreg − mlp_overfit: -0\.\d{4} … -0\.\d{4}\)\.$/,
    );
    expect(s[1]).toMatch(/^UCE: no difference at the 95% level/);
    expect(s[2]).toMatch(/^mlp_overfit is more accurate than logreg: accuracy 0\.9520 vs 0\.9025/);
    expect(s[3]).toMatch(/^NLL: no difference/);
    const m = r.summary.models;
    expect(m[0]?.lines[1]).toMatch(/^Over-confident on average: mean confidence 0\.98\d\d, accuracy 0\.9520\.$/);
    expect(m[0]?.lines[2]).toMatch(/over-confident at confidence .*–1\.00 \(\d+ of 2000 predictions\)/);
    expect(m[0]?.lines[3]).toMatch(/^Temperature scaling with T = 3\.\d\d \(softening/);
  }, 120_000);
});

describe('the per-model summary', () => {
  it('names the direction of miscalibration and the temperature that fixes it, on seeded over- and under-confident models', async () => {
    for (const seed of [11, 12, 13]) {
      const { labels, models } = simulate(seed, 600, 4, [3, 0.3]);
      const r = await reportWithoutCharts([{ name: 'sharp', labels, scores: models[0] as number[][] }], FEW);
      const [accuracy, direction, where, temperature] = r.summary.models[0]?.lines ?? [];
      expect(accuracy).toMatch(/^Accuracy [\d.]+ \(95% interval [\d.]+ … [\d.]+\); ECE .*; UCE .*\.$/);
      expect(direction).toMatch(/^Over-confident on average/);
      expect(where).toMatch(/over-confident at confidence/);
      expect(temperature).toMatch(/^Temperature scaling with T = \d\.\d+ \(softening/);
      const u = await reportWithoutCharts([{ name: 'soft', labels, scores: models[1] as number[][] }], FEW);
      expect(u.summary.models[0]?.lines[1]).toMatch(/^Under-confident on average/);
      expect(u.summary.models[0]?.lines[3]).toMatch(/T = 0\.\d+ \(sharpening/);
    }
  }, 120_000);

  it('every metric gets an interval holding its estimate, within the metric’s range, stated in the HTML', async () => {
    const { labels, models } = simulate(21, 250, 3, [1.5]);
    const r = await createReport([{ name: 'm', labels, scores: models[0] as number[][] }], {
      resamples: 40,
      seed: 7,
      svg: false,
    });
    // the report the other tests read is this one without its charts (same checks, numbers and sentences)
    expect(
      await reportWithoutCharts([{ name: 'm', labels, scores: models[0] as number[][] }], { resamples: 40, seed: 7 }),
    ).toEqual({ ...r, charts: [] });
    const e = evaluate(labels, models[0] as number[][], { onWarning: quiet }) as unknown as Record<string, number>;
    const table = r.intervals.models[0] ?? {};
    expect(Object.keys(table).sort()).toEqual(
      Object.keys(e)
        .filter((k) => typeof e[k] === 'number' && k !== 'n' && k !== 'numClasses')
        .sort(),
    );
    for (const [k, i] of Object.entries(table)) {
      expect(i, k).not.toBeNull();
      expect(i?.lower, k).toBeGreaterThanOrEqual(0);
      expect(i?.lower as number, k).toBeLessThanOrEqual(e[k] as number);
      expect(i?.upper as number, k).toBeGreaterThanOrEqual(e[k] as number);
    }
    expect([r.intervals.resamples, r.intervals.seed, r.intervals.level]).toEqual([40, 7, 0.95]);
    // the intervals in the HTML do not depend on the drawings (withBlankSvg: reportHtml refuses svg: false)
    const html = reportHtml(withBlankSvg(r));
    expect(html).toContain('95% bootstrap interval (40 resamples of the rows, seed 7; BCa');
    expect(html.match(/<span class="ci" data-lower="[^"]+" data-upper="[^"]+"/g)?.length).toBe(
      Object.keys(table).length,
    );
  }, 60_000);
});

describe('★ marks a model best only beyond the noise', () => {
  const stars = (r: Report) => Object.fromEntries(metricRows(r).map((row) => [row.key, row.best]));
  it('never on ties (a model against itself), and with two models exactly where the paired verdict names one', async () => {
    const { labels, models } = simulate(31, 300, 3, [1, 1.1]);
    const same = await reportWithoutCharts(
      [
        { name: 'a', labels, scores: models[0] as number[][] },
        { name: 'b', labels, scores: models[0] as number[][] },
      ],
      { resamples: 30 },
    );
    expect(Object.values(stars(same)).flat()).toEqual([]);
    const close = await reportWithoutCharts(
      [
        { name: 'a', labels, scores: models[0] as number[][] },
        { name: 'b', labels, scores: models[1] as number[][] },
      ],
      { resamples: 30 },
    );
    const s = stars(close);
    for (const m of close.summary.comparisons[0]?.metrics ?? []) {
      expect(s[m.metric], m.metric).toEqual(m.verdict === 'A better' ? [0] : m.verdict === 'B better' ? [1] : []);
    }
  }, 120_000);
  it('with three models, only where the best interval does not overlap the others', async () => {
    const { labels, models } = simulate(32, 300, 3, [1, 4, 0.2]);
    const r = await reportWithoutCharts(
      models.map((scores, j) => ({ name: `m${j}`, labels, scores })),
      { resamples: 30 },
    );
    expect(r.summary.comparisons.map((c) => `${c.b} vs ${c.a}`)).toEqual(['m1 vs m0', 'm2 vs m0']);
    for (const row of metricRows(r)) {
      for (const j of row.best) {
        const i = row.intervals[j];
        for (const [k, other] of row.intervals.entries()) {
          if (k !== j)
            expect(
              row.better === 'lower'
                ? (i?.upper as number) < (other?.lower as number)
                : (i?.lower as number) > (other?.upper as number),
              row.key,
            ).toBe(true);
        }
      }
    }
    expect(metricRows(r).some((row) => row.best.length === 1)).toBe(true);
  }, 120_000);
});
