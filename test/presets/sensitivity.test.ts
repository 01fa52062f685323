/**
 * The probes of presetMatrix.test.ts tell every convention of the table apart: for each field, every two values the
 * table uses give different numbers on the probe data. So a preset that resolved any field to another value of the
 * table would fail the matrix (these tests keep that matrix from passing vacuously).
 */
import { describe, expect, it } from 'vitest';
import * as um from '../../src/index.js';
import type { EqualWidthRule, Precision } from '../../src/binning/types.js';
import { equalWidthEdges, equalWidthIndex } from '../../src/binning/equalWidth.js';
import { thresholdedAuc } from '../../src/selective/thresholdedAuc.js';
import { ORACLE_PROBES, probeMatrix, probeVector, TABLE } from './conventions.js';

const { labels: Y, probs: P } = probeMatrix();
const V = probeVector();
const rows = Object.values(TABLE);
const distinct = <T>(xs: T[]) => [...new Map(xs.map((x) => [JSON.stringify(x), x])).values()];

/**
 * Every two options are told apart by at least one probe: `values[i]` holds option i's numbers on the probes, and no
 * two options may agree on all of them.
 */
function toldApart(values: number[][], names: string[], what: string): void {
  for (let i = 0; i < values.length; i++) {
    for (let j = i + 1; j < values.length; j++) {
      const same = (values[i] as number[]).every((v, k) => Object.is(v, (values[j] as number[])[k]));
      expect(same, `${what}: ${names[i]} and ${names[j]} give the same numbers`).toBe(false);
    }
  }
}
const allDifferent = (values: number[], what: string) =>
  toldApart(
    values.map((v) => [v]),
    values.map((_, i) => String(i)),
    what,
  );

/** The double `steps` units in the last place away from x. */
function ulps(x: number, steps: number): number {
  const b = new DataView(new ArrayBuffer(8));
  b.setFloat64(0, x);
  b.setBigInt64(0, b.getBigInt64(0) + BigInt(steps));
  return b.getFloat64(0);
}

/**
 * Two float64 rules that give every double the same bin at this B: every rule here steps within a few ulps of k/B (one
 * rounded product, quotient or edge each), so agreeing on ±64 ulps around every k/B, k·(1/B) and on p = 1 means
 * agreeing everywhere — then no probe can (or needs to) tell them apart. Float32 rules must always be told apart.
 */
function sameForEveryDouble(
  a: { rule: EqualWidthRule; precision: Precision },
  b: { rule: EqualWidthRule; precision: Precision },
  bins: number,
): boolean {
  if (a.precision !== 'float64' || b.precision !== 'float64') return false;
  const ea = equalWidthEdges(bins, a.rule, 'float64');
  const eb = equalWidthEdges(bins, b.rule, 'float64');
  for (let k = 1; k <= bins; k++) {
    for (const c of [k / bins, k * (1 / bins)]) {
      for (let d = -64; d <= 64; d++) {
        const p = ulps(c, d);
        if (p < 0 || p > 1) continue;
        if (equalWidthIndex(p, bins, a.rule, 'float64', ea) !== equalWidthIndex(p, bins, b.rule, 'float64', eb))
          return false;
      }
    }
  }
  return true;
}

/** (rule, precision) pairs the table uses anywhere: top label, positive class (both inputs), oracle bins. */
const binnings: { rule: EqualWidthRule; precision: Precision }[] = distinct(
  rows.flatMap((t) => [
    { rule: t.topLabel.rule, precision: t.topLabel.precision },
    { rule: t.oracleBins.rule, precision: t.oracleBins.precision },
    ...(['float32', 'float64'] as const).map((p) => ({
      rule: t.topLabel.rule,
      precision: t.positiveClass.precision === 'input' ? p : t.positiveClass.precision,
    })),
  ]),
);
const binCounts = distinct(rows.map((t) => t.topLabel.bins));

describe('the probes tell every convention of the table apart', () => {
  it('uses several rules, precisions and bin counts', () => {
    expect(binnings.length).toBeGreaterThanOrEqual(8);
    expect(binCounts.sort((a, b) => a - b)).toEqual([5, 10, 15, 30]);
  });
  for (const t of rows) {
    const bins = t.topLabel.bins;
    it(`every equal-width rule and precision apart from ${JSON.stringify(t.topLabel.rule)} ${t.topLabel.precision}, at its ${bins} bins`, () => {
      const f32 = new Float32Array(V.probs);
      const numbers = (b: (typeof binnings)[number]) => {
        const o = { bins, equalWidth: b.rule, precision: b.precision };
        return [
          um.ece(Y, P, o),
          um.mce(Y, P, o),
          um.binaryCalibrationError(V.outcomes, V.probs, o),
          um.binaryCalibrationError(V.outcomes, f32, o),
        ];
      };
      const own = { rule: t.topLabel.rule, precision: t.topLabel.precision };
      const mine = numbers(own);
      for (const other of binnings) {
        if (JSON.stringify(other) === JSON.stringify(own) || sameForEveryDouble(own, other, bins)) continue;
        expect(numbers(other), `${JSON.stringify(other)} is not told apart`).not.toEqual(mine);
      }
    });
  }
  it('a Float32Array input in float32 or float64 arithmetic (torchmetrics keeps the input precision)', () => {
    const f32 = new Float32Array(V.probs);
    const keeping = rows.filter((t) => t.positiveClass.precision === 'input');
    expect(keeping.length).toBeGreaterThan(0);
    for (const t of keeping) {
      const [x, z] = (['float32', 'float64'] as const).map((precision) =>
        um.binaryCalibrationError(V.outcomes, f32, { bins: t.topLabel.bins, equalWidth: t.topLabel.rule, precision }),
      );
      expect(x, JSON.stringify(t.topLabel.rule)).not.toBe(z);
    }
  });
  it('every bin count, for every rule', () => {
    for (const b of binnings) {
      const values = binCounts.map((bins) => [
        um.ece(Y, P, { bins, equalWidth: b.rule, precision: b.precision }),
        um.mce(Y, P, { bins, equalWidth: b.rule, precision: b.precision }),
      ]);
      toldApart(values, binCounts.map(String), JSON.stringify(b));
    }
  });
  it('every equal-mass construction, and the threshold (exact zeros dropped or kept)', () => {
    const methods = distinct(rows.map((t) => t.topLabel.equalMass));
    expect(methods.length).toBe(5);
    // at each preset's own bins, its construction against every other
    for (const t of rows) {
      const bins = t.topLabel.bins;
      // the bins themselves (of every class probability and of the confidences), not only the errors: ACE and RMSCE
      // on these probes coincide for some pairs of constructions (equal up to the rounding of float sums)
      const flat = P.flat();
      const conf = P.map((r) => Math.max(...r));
      const numbers = (equalMass: (typeof methods)[number]) => [
        um.ace(Y, P, { bins, equalMass }),
        um.rmsce(Y, P, { bins, equalMass }),
        Array.from(um.assignBins(flat, { scheme: 'equal-mass', bins, method: equalMass }).index),
        Array.from(um.assignBins(conf, { scheme: 'equal-mass', bins, method: equalMass }).index),
      ];
      for (const other of methods)
        if (other !== t.topLabel.equalMass)
          expect(numbers(other), `${other} vs ${t.topLabel.equalMass} @${bins}`).not.toEqual(
            numbers(t.topLabel.equalMass),
          );
    }
    allDifferent(
      distinct(rows.map((t) => t.topLabel.threshold)).map((threshold) => um.gce(Y, P, { topLabel: false, threshold })),
      'threshold',
    );
  });
  it('debiased ECE: small bins and default binning', () => {
    const d = distinct(rows.map((t) => t.debiased));
    expect(d.length).toBe(2);
    allDifferent(
      d.map((x) => um.debiasedEce(Y, P, { binning: x.binning, smallBins: x.smallBins })),
      'debiasedEce',
    );
    // 200 bins leave single-sample bins under either binning (the matrix checks at 200 bins too)
    for (const binning of ['equal-width', 'equal-mass'] as const)
      allDifferent(
        (['drop', 'plugin'] as const).map((smallBins) => um.debiasedEce(Y, P, { binning, bins: 200, smallBins })),
        `smallBins, ${binning}`,
      );
  });
  it("Keras' AUC: thresholds and precision", () => {
    const conf = P.map((r) => Math.max(...r));
    const correct = Uint8Array.from(P, (r, i) => (r.indexOf(Math.max(...r)) === Y[i] ? 1 : 0));
    for (const t of [200, 50]) {
      const [a, b] = (['float32', 'float64'] as const).map((p) =>
        thresholdedAuc(Float64Array.from(conf), correct, t, 'roc', p),
      );
      expect(a, `roc@${t}`).not.toBe(b);
      const [c, d] = (['float32', 'float64'] as const).map((p) =>
        thresholdedAuc(
          Float64Array.from(conf, (x) => 1 - x),
          Uint8Array.from(correct, (x) => 1 - x),
          t,
          'pr',
          p,
        ),
      );
      expect(c, `pr@${t}`).not.toBe(d);
    }
    expect(um.auroc(Y, P)).not.toBe(um.auroc(Y, P, { thresholds: 200 }));
  });
  it('oracle-collaborative accuracy: every rule and precision of the table', () => {
    const oracle = distinct(rows.map((t) => t.oracleBins));
    expect(oracle.length).toBeGreaterThanOrEqual(7);
    // the function takes the rule only through a preset: one preset per distinct rule
    const presetOf = (o: (typeof oracle)[number]) =>
      (Object.keys(TABLE) as um.PresetName[]).find(
        (k) => JSON.stringify(TABLE[k].oracleBins) === JSON.stringify(o),
      ) as um.PresetName;
    toldApart(
      oracle.map((o) =>
        ORACLE_PROBES.map(([bins, fraction]) =>
          um.oracleCollaborativeAccuracy(Y, P, { bins, fraction, preset: presetOf(o) }),
        ),
      ),
      oracle.map((o) => JSON.stringify(o)),
      'oracle bins',
    );
  });
  it('scores: Brier forms, decompositions, NLL clipping, CRPS estimators, WAIC/ISCV standard errors, Bayesian quirks', () => {
    // 'half-if-binary' is 'standard' on 4 classes and 'half' on 2: told apart by the two probes together
    const forms = distinct(rows.map((t) => t.brier));
    toldApart(
      forms.map((form) => [
        um.brier(Y, P, { form }),
        um.brier(
          V.outcomes,
          V.probs.map((p) => [1 - p, p]),
          { form },
        ),
      ]),
      forms,
      'brier',
    );
    const decompositions = distinct(rows.map((t) => t.brierDecomposition)).map((d) => um.brierDecomposition(Y, P, d));
    expect(decompositions.length).toBe(2);
    expect(decompositions[0]).not.toEqual(decompositions[1]);
    const z = P.map((r, i) =>
      i === 0 ? r.map((x, k) => (k === Y[0] ? 0 : x)).map((x, _k, a) => x / a.reduce((s, v) => s + v, 0)) : r,
    );
    allDifferent(
      distinct(rows.map((t) => t.nll.clip)).map((clip) => um.nll(Y, z, { clip, onWarning: () => undefined })),
      'nll clip',
    );
    const samples = Array.from({ length: 20 }, (_, i) =>
      Array.from({ length: 5 }, (_, j) => Math.sin(i * 7 + j * 3) * 2),
    );
    const y = Array.from({ length: 20 }, (_, i) => Math.cos(i));
    allDifferent(
      distinct(rows.map((t) => t.crps)).map((estimator) => um.crps(y, { samples }, { estimator })),
      'crps',
    );
    const logp = Array.from({ length: 30 }, (_, i) =>
      Array.from({ length: 6 }, (_, j) => -Math.abs(Math.sin(i + 2 * j)) - 0.1),
    );
    const ic = distinct(rows.map((t) => t.informationCriteria));
    expect(ic.length).toBe(2);
    allDifferent(
      ic.map((o) => um.negativeWaic(logp, o).value),
      'waic value (ddof)',
    );
    allDifferent(
      ic.map((o) => um.iscv(logp, o).sem as number),
      'iscv sem',
    );
    const q = (preset: um.PresetName) => um.bayesianEce(Y, P, { preset, samples: 40 }).mean;
    expect(q('default')).not.toBe(q('uncertainty-metrics'));
  });
});
