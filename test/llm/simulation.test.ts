/**
 * The acceptance simulation of issue 20: a seeded over-confident judge with known true label probabilities.
 * Temperature scaling of the label log-probabilities, fitted on one half, lowers ECE and NLL on the other half; the
 * outside-top-k mass and its bound hold on every row, for every top-k size.
 */
import { describe, expect, it } from 'vitest';
import { ece, nll } from '../../src/index.js';
import {
  applyLlmCalibrator,
  fitLlmCalibrator,
  goldLabels,
  judgeVerbalizer,
  labelProbabilities,
} from '../../src/llm/index.js';
import { JUDGE_LABELS, SPELLINGS, simulateJudge } from './simulate.js';

const v = judgeVerbalizer('pairwise', { variants: { tie: ['Tie'] } });

describe('an over-confident judge (true label probabilities known)', () => {
  const rows = simulateJudge(20, 4000, 3, 5);
  const fit = rows.slice(0, 2000);
  const held = rows.slice(2000);

  it('temperature scaling on the label log-probabilities lowers ECE and NLL on held-out rows', () => {
    const train = labelProbabilities(
      fit.map((r) => r.response),
      v,
    );
    const cal = fitLlmCalibrator(
      fit.map((r) => JUDGE_LABELS[r.gold] as string),
      train,
    );
    expect(cal.calibrator.kind).toBe('temperature');
    const t = cal.calibrator.kind === 'temperature' ? cal.calibrator.temperature : NaN;
    // the judge sharpened ln q by 3; the floor on labels left out of the top-5 softens it already: T ≈ 2.09
    expect(t).toBeGreaterThan(1.5);
    expect(t).toBeLessThan(3.5);
    const test = labelProbabilities(
      held.map((r) => r.response),
      v,
    );
    const y = goldLabels(
      test,
      held.map((r) => r.gold),
    );
    const after = applyLlmCalibrator(
      cal,
      held.map((r) => r.response),
    );
    const before = { ece: ece(y, test.probs), nll: nll(y, test.probs) };
    const calibrated = { ece: ece(y, after.probs), nll: nll(y, after.probs) };
    // the truth's own NLL: what a perfectly calibrated judge would score
    const oracle = held.reduce((s, r) => s - Math.log(r.q[r.gold] as number), 0) / held.length;
    expect(calibrated.ece).toBeLessThan(before.ece / 2);
    expect(calibrated.nll).toBeLessThan(before.nll - 0.1);
    // ECE 0.194 → 0.027, NLL 0.986 → 0.845 (truth 0.792: the top-5 hides part of the label mass)
    expect(calibrated.nll).toBeLessThan(oracle + 0.1);
    expect(before.ece).toBeGreaterThan(0.1);
  });

  it('on every row and every top-k size, the bound holds for each missing token and the outside mass for all', () => {
    for (const k of [1, 2, 3, 5, 8]) {
      const sim = simulateJudge(21 + k, 500, 3, k);
      const read = labelProbabilities(
        sim.map((r) => r.response),
        v,
      );
      expect(read.n).toBe(500);
      let missingRows = 0;
      sim.forEach((r, i) => {
        const top = new Set(
          (
            r.response as { choices: { logprobs: { content: { top_logprobs: { token: string }[] }[] } }[] }
          ).choices[0]?.logprobs.content[0]?.top_logprobs.map((t) => t.token),
        );
        // the true mass left out equals the reported outside mass (to rounding)
        const names = [...SPELLINGS.map((s) => s.token), ...Array.from({ length: 20 }, (_x, j) => `other${j}`)];
        const left = r.tokens.reduce((s, p, j) => s + (top.has(names[j] as string) ? 0 : p), 0);
        expect(Math.abs(left - (read.outside[i] as number)), `k ${k} row ${i}`).toBeLessThan(1e-12);
        for (let label = 0; label < 3; label++) {
          const spellings = SPELLINGS.map((s, j) => ({ ...s, p: r.tokens[j] as number })).filter(
            (s) => s.label === label,
          );
          if (spellings.some((s) => top.has(s.token))) continue;
          missingRows++;
          for (const s of spellings)
            expect(s.p, `k ${k} row ${i} ${s.token}`).toBeLessThanOrEqual((read.bound[i] as number) + 1e-15);
          const mass = spellings.reduce((x, s) => x + s.p, 0);
          expect(mass).toBeLessThanOrEqual((read.outside[i] as number) + 1e-12);
        }
      });
      expect(missingRows, `top-${k} leaves labels out`).toBeGreaterThan(k >= 8 ? 0 : 50);
    }
  });
});
