/** evaluate and evaluateEnsemble: each key equals the library function it summarizes; ensemble keys match numpy. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ace,
  aece,
  amce,
  aupr,
  auroc,
  aurc,
  brier,
  eAurc,
  disagreement,
  ece,
  entropy,
  evaluate,
  evaluateEnsemble,
  gibbsNll,
  mce,
  mcIntegrate,
  modelUncertainty,
  nll,
  rmsce,
  sce,
  tace,
  uce,
  type UMWarning,
} from '../../src/index.js';
import { exampleCsv } from '../helpers/data.js';
import { uniforms } from '../helpers/minstd.js';

const M = JSON.parse(readFileSync('test/fixtures/files/members.json', 'utf8')) as {
  labels: number[];
  member_probs: number[][][];
};
const mean = (v: Float64Array) => v.reduce((a, b) => a + b, 0) / v.length;

describe('evaluate', () => {
  it('every key is the value of the function of the same name, with the same bins and preset', () => {
    const { labels, probs } = exampleCsv('logreg_test');
    for (const preset of ['default', 'uncertainty-metrics', 'torchmetrics'] as const) {
      const o = { bins: 10, preset };
      const r = evaluate(labels, probs, o);
      expect([r.ece, r.mce, r.rmsce, r.sce, r.ace, r.tace, r.uce, r.aece, r.amce]).toEqual([
        ece(labels, probs, o),
        mce(labels, probs, o),
        rmsce(labels, probs, o),
        sce(labels, probs, o),
        ace(labels, probs, o),
        tace(labels, probs, o),
        uce(labels, probs, o),
        aece(labels, probs, { preset }),
        amce(labels, probs, { preset }),
      ]);
      expect([r.brier, r.nll]).toEqual([brier(labels, probs, { preset }), nll(labels, probs)]);
      expect([r.auroc, r.aupr, r.aurc, r.eaurc]).toEqual([
        auroc(labels, probs, { preset }),
        aupr(labels, probs, { preset }),
        aurc(labels, probs),
        eAurc(labels, probs),
      ]);
      expect(r.config.selective.aucThresholds).toBe(preset === 'default' || preset === 'torchmetrics' ? null : 200);
    }
  });
  it('shared bins and sorts (ECE/MCE, SCE/ACE, TACE from ACE, AECE/AMCE) give exactly the separate values: ties, entries at the TACE threshold, weights, float32', () => {
    // quantized rows: many ties, many zeros, entries exactly at 0.01 (TACE keeps p > 0.01) and just above it
    const u = uniforms(21, 400 * 6);
    const c = 5;
    const rows: number[][] = [];
    const labels: number[] = [];
    for (let i = 0; i < 400; i++) {
      const q = Array.from({ length: c }, (_, k) => Math.floor((u[i * 6 + k] as number) * 6));
      if (i % 7 === 0) rows.push([0.01, 0.01, 0.47, 0.5, 0.01]);
      else if (i % 11 === 0) rows.push([0.0125, 0.0125, 0.475, 0.25, 0.25]);
      else {
        const z = q.reduce((a, b) => a + b, 0);
        rows.push(z === 0 ? [0.2, 0.2, 0.2, 0.2, 0.2] : q.map((v) => v / z));
      }
      labels.push(Math.floor((u[i * 6 + 5] as number) * c));
    }
    const flat32 = Float32Array.from(rows.flat());
    const intWeights = labels.map((_, i) => 1 + (i % 3));
    const realWeights = labels.map((_, i) => 0.25 + ((i * 7) % 5) / 3);
    const cases: [string, number[][] | Float32Array, Record<string, unknown>][] = [
      ['float64 rows', rows, {}],
      ['float32 flat', flat32, { numClasses: c, sumTolerance: 1e-5 }],
      ['whole-number weights', rows, { weights: intWeights }],
      ['real weights', rows, { weights: realWeights }],
    ];
    for (const [what, probs, extra] of cases) {
      // the peers' equal-mass constructions have no weighted form
      for (const preset of extra.weights === undefined
        ? (['default', 'uncertainty-metrics', 'torchmetrics'] as const)
        : (['default'] as const)) {
        const o = { bins: 10, preset, ...extra };
        const r = evaluate(labels, probs, { ...o, onWarning: () => undefined }); // real weights: AURC is null, with a warning
        const d = { ...extra, preset };
        expect([r.ece, r.mce, r.rmsce, r.sce, r.ace, r.tace, r.aece, r.amce], `${what}, ${preset}`).toEqual([
          ece(labels, probs, o),
          mce(labels, probs, o),
          rmsce(labels, probs, o),
          sce(labels, probs, o),
          ace(labels, probs, o),
          tace(labels, probs, o),
          aece(labels, probs, d),
          amce(labels, probs, d),
        ]);
      }
    }
  });
  it('meanEntropy is the mean of entropy(); classwise: false makes SCE/ACE/TACE null and changes nothing else', () => {
    const { labels, probs } = exampleCsv('logreg_test');
    const all = evaluate(labels, probs);
    expect(all.meanEntropy).toBeCloseTo(mean(entropy(probs)), 14);
    expect(all.config.classwise).toBe(true);
    const some = evaluate(labels, probs, { classwise: false });
    expect([some.sce, some.ace, some.tace, some.config.classwise]).toEqual([null, null, null, false]);
    expect({ ...some, sce: all.sce, ace: all.ace, tace: all.tace, config: all.config }).toEqual(all);
    expect(() => evaluate(labels, probs, { classwise: 'no' as unknown as boolean })).toThrow(
      /evaluate: options.classwise must be true or false; got "no"/,
    );
  });
  it('an exact zero at a label: nll is Infinity and one UM_W_INFINITE warning goes to onWarning', () => {
    const seen: UMWarning[] = [];
    const r = evaluate(
      [0, 1],
      [
        [0, 1],
        [0.2, 0.8],
      ],
      { onWarning: (w) => seen.push(w) },
    );
    expect(r.nll).toBe(Infinity);
    expect(seen.map((w) => [w.code, w.fn])).toEqual([['UM_W_INFINITE', 'evaluate']]);
  });
});

describe('evaluate on degenerate data', () => {
  it('every prediction correct: AUROC and AUPR are null with one UM_W_DEGENERATE warning; AURC is 0', () => {
    const seen: string[] = [];
    const r = evaluate(
      [0, 1],
      [
        [0.9, 0.1],
        [0.2, 0.8],
      ],
      { onWarning: (w) => seen.push(w.message) },
    );
    expect([r.auroc, r.aupr, r.aurc, r.eaurc]).toEqual([null, null, 0, 0]);
    expect(seen).toEqual(['evaluate: every prediction is correct; AUROC and AUPR are undefined (null)']);
  });
});

describe('evaluateEnsemble', () => {
  it('matches numpy on test/fixtures/files/members.json (S = 3, N = 6, C = 3)', () => {
    const r = evaluateEnsemble(M.labels, M.member_probs);
    // numpy 2.4: p̄ = p.mean(0); H with 0·log 0 = 0; pairwise disagreement over the 3 pairs; −log p_s(y) averaged.
    expect(r.numMembers).toBe(3);
    expect(r.accuracy).toBeCloseTo(0.6666666666666666, 15);
    expect(r.totalUncertainty).toBeCloseTo(1.0043710582896639, 14);
    expect(r.expectedDataUncertainty).toBeCloseTo(0.5812890276024949, 14);
    expect(r.mutualInformation).toBeCloseTo(0.423082030687169, 14);
    expect(r.disagreement).toBeCloseTo(0.7777777777777778, 15);
    expect(r.gibbsNll).toBeCloseTo(1.5388242701992116, 14);
    expect(r.nll).toBeCloseTo(0.9003224398836007, 14);
    expect(r.brier).toBeCloseTo(0.5362989172771851, 14);
  });
  it('its calibration keys are evaluate on the mean prediction, its ensemble keys the ensemble functions', () => {
    const r = evaluateEnsemble(M.labels, M.member_probs, { bins: 5 });
    const { config: _a, ...single } = evaluate(M.labels, mcIntegrate(M.member_probs), { bins: 5 });
    const {
      config: _b,
      numMembers: _s,
      totalUncertainty,
      expectedDataUncertainty,
      mutualInformation,
      disagreement: d,
      gibbsNll: g,
      ...calibration
    } = r;
    expect(calibration).toEqual(single);
    const u = modelUncertainty(M.member_probs);
    // means are rounded once from exact sums; the plain float mean of the reference may differ in the last bit
    [totalUncertainty, expectedDataUncertainty, mutualInformation].forEach((v, k) =>
      expect(v).toBeCloseTo(mean([u.total, u.expectedData, u.mutualInformation][k] as Float64Array), 14),
    );
    expect([d, g]).toEqual([disagreement(M.member_probs), gibbsNll(M.labels, M.member_probs)]);
  });
  it('one member: mutual information and disagreement are 0, Gibbs NLL equals the NLL', () => {
    const one = [M.member_probs[0] as number[][]];
    const r = evaluateEnsemble(M.labels, one);
    expect([r.numMembers, r.mutualInformation, r.disagreement]).toEqual([1, 0, 0]);
    expect(r.gibbsNll).toBe(r.nll);
  });
  it('a member with probability 0 at a label makes gibbsNll Infinity with a warning, while the mean stays finite', () => {
    const z = JSON.parse(readFileSync('test/fixtures/files/members_zero.json', 'utf8')) as {
      labels: number[];
      member_probs: number[][][];
    };
    const seen: string[] = [];
    const r = evaluateEnsemble(z.labels, z.member_probs, { onWarning: (w) => seen.push(`${w.fn} ${w.code}`) });
    expect(r.gibbsNll).toBe(Infinity);
    expect(Number.isFinite(r.nll)).toBe(true);
    expect(seen).toEqual(['evaluateEnsemble UM_W_INFINITE']);
  });
});
