/**
 * Every preset × every public function that takes a preset: the conventions the function resolves (bins, precision,
 * edges, closed side, p = 1, equal-mass construction, threshold, positive-class arithmetic, debiasing, Keras' AUC,
 * Brier form, NLL clipping, CRPS estimator, standard errors) equal the table in conventions.ts, written from
 * CONVENTIONS.md. Each check compares the call with `preset` against the same call with the table's conventions given
 * explicitly (or a brute-force reference where the function has no such option); sensitivity.test.ts shows that the
 * probe data tells every convention apart, so a preset resolving any field differently fails here. The list of
 * functions is discovered from the entry points' types, and the last tests fail when a preset or a function is
 * missing from the table.
 */
import { describe, expect, it } from 'vitest';
import ts from 'typescript';
import { fileURLToPath } from 'node:url';
import * as um from '../../src/index.js';
import { presets, type PresetName } from '../../src/index.js';
import { binSweep } from '../../src/plot/index.js';
import { createReport } from '../../src/report/index.js';
import { evaluateParallel } from '../../src/parallel/index.js';
import { equalMassBins } from '../../src/binning/equalMass.js';
import { equalWidthEdges, equalWidthIndex } from '../../src/binning/equalWidth.js';
import { thresholdedAuc } from '../../src/selective/thresholdedAuc.js';
import { ENTRIES } from '../docs/entries.js';
import { programOf } from '../helpers/tsProgram.js';
import {
  ORACLE_PROBES,
  positivePrecision,
  probeMatrix,
  probeVector,
  TABLE,
  type PeerConventions,
} from './conventions.js';

type AnyFn = (...args: unknown[]) => unknown;
const f = (name: string) => (um as unknown as Record<string, AnyFn>)[name] as AnyFn;
const quiet = { onWarning: () => undefined };

const { labels: Y, probs: P } = probeMatrix();
const V = probeVector();
const P2 = V.probs.map((p) => [1 - p, p]);
const P2F32 = new Float32Array(P2.flat());
// exact zeros on the label (NLL clipping) in some rows
const PZ = P.map((r, i) =>
  i % 7 === 0 ? r.map((x, k) => (k === Y[i] ? 0 : x)).map((x, _k, a) => x / a.reduce((s, v) => s + v, 0)) : r,
);
const PZ_OK = PZ.every((r) => r.some((x) => x > 0));
const SAMPLES = Array.from({ length: 20 }, (_, i) => Array.from({ length: 5 }, (_, j) => Math.sin(i * 7 + j * 3) * 2));
const YREG = Array.from({ length: 20 }, (_, i) => Math.cos(i));
const LOGP = Array.from({ length: 30 }, (_, i) =>
  Array.from({ length: 6 }, (_, j) => -Math.abs(Math.sin(i + 2 * j)) - 0.1),
);

const ew = (t: PeerConventions) => ({
  bins: t.topLabel.bins,
  equalWidth: t.topLabel.rule,
  precision: t.topLabel.precision,
});
const em = (t: PeerConventions) => ({
  bins: t.topLabel.bins,
  equalMass: t.topLabel.equalMass,
  precision: t.topLabel.precision,
});
const thr = (t: PeerConventions) => ({ threshold: t.topLabel.threshold });
const top = (probs: number[][]) => probs.map((r) => r.reduce((b, x, k) => (x > (r[b] as number) ? k : b), 0));
const conf = P.map((r) => Math.max(...r));
const correct = top(P).map((k, i) => (k === Y[i] ? 1 : 0));

/** Keras' thresholded AUC on the probe (the function's engine, with the table's thresholds and precision). */
function keras(t: PeerConventions, thresholds: number, curve: 'roc' | 'pr'): number {
  const values = Float64Array.from(conf, (c) => (curve === 'roc' ? c : 1 - c));
  const positive = Uint8Array.from(correct, (c) => (curve === 'roc' ? c : 1 - c));
  return thresholdedAuc(values, positive, thresholds, curve, t.auc.precision);
}

/** Google's binned oracle-collaborative accuracy written out: refer whole bins from the least confident. */
function oracleReference(t: PeerConventions, bins: number, fraction: number): number {
  const edges = equalWidthEdges(bins, t.oracleBins.rule, t.oracleBins.precision);
  const count = new Array<number>(bins + 1).fill(0);
  const right = new Array<number>(bins + 1).fill(0);
  conf.forEach((c, i) => {
    const b = equalWidthIndex(
      t.oracleBins.precision === 'float32' ? Math.fround(c) : c,
      bins,
      t.oracleBins.rule,
      t.oracleBins.precision,
      edges,
    );
    count[b] = (count[b] as number) + 1;
    right[b] = (right[b] as number) + (correct[i] as number);
  });
  const m = Math.floor(conf.length * fraction);
  let used = 0;
  let total = m;
  let open = true;
  for (let b = 0; b <= bins; b++) {
    const n = count[b] as number;
    if (n === 0) continue;
    if (!open) total += right[b] as number;
    else if (used + n > m) {
      total += ((right[b] as number) / n) * (n - (m - used));
      open = false;
    } else used += n;
  }
  return total / conf.length;
}

/** One check per public function: the call with `preset` against the table's conventions. */
const CHECKS: Record<string, (preset: PresetName, t: PeerConventions) => void | Promise<void>> = {
  gce: (preset, t) => {
    expect(um.gce(Y, P, { preset })).toBe(um.gce(Y, P, { ...ew(t), ...thr(t) }));
    expect(um.gce(Y, P, { preset, topLabel: false })).toBe(um.gce(Y, P, { ...ew(t), ...thr(t), topLabel: false }));
    expect(um.gce(Y, P, { preset, binning: 'equal-mass', topLabel: false, classConditional: true })).toBe(
      um.gce(Y, P, { ...em(t), ...thr(t), binning: 'equal-mass', topLabel: false, classConditional: true }),
    );
  },
  ece: (preset, t) => expect(um.ece(Y, P, { preset })).toBe(um.ece(Y, P, { ...ew(t), ...thr(t) })),
  mce: (preset, t) => expect(um.mce(Y, P, { preset })).toBe(um.mce(Y, P, { ...ew(t), ...thr(t) })),
  rmsce: (preset, t) => expect(um.rmsce(Y, P, { preset })).toBe(um.rmsce(Y, P, { ...em(t), ...thr(t) })),
  sce: (preset, t) => expect(um.sce(Y, P, { preset })).toBe(um.sce(Y, P, { ...ew(t), ...thr(t) })),
  ace: (preset, t) => expect(um.ace(Y, P, { preset })).toBe(um.ace(Y, P, { ...em(t), ...thr(t) })),
  // TACE keeps its own threshold (0.01) under every preset
  tace: (preset, t) => expect(um.tace(Y, P, { preset })).toBe(um.tace(Y, P, { ...em(t), threshold: 0.01 })),
  aece: (preset, t) =>
    expect(um.aece(Y, P, { preset })).toBe(um.aece(Y, P, { precision: t.topLabel.precision, ...thr(t) })),
  amce: (preset, t) =>
    expect(um.amce(Y, P, { preset })).toBe(um.amce(Y, P, { precision: t.topLabel.precision, ...thr(t) })),
  uce: (preset, t) => {
    expect(um.uce(Y, P, { preset })).toBe(um.uce(Y, P, ew(t)));
    expect(um.uce(Y, P, { preset, classwise: true })).toBe(um.uce(Y, P, { ...ew(t), classwise: true }));
  },
  reliability: (preset, t) => {
    const r = um.reliability(Y, P, { preset });
    expect(r.config).toEqual({
      preset,
      binning: 'equal-width',
      bins: t.topLabel.bins,
      equalWidth: t.topLabel.rule,
      precision: t.topLabel.precision,
    });
    expect(r.calibrationError).toBeCloseTo(um.ece(Y, P, ew(t)), 14);
    expect(um.reliability(Y, P, { preset, measure: 'uncertainty' }).calibrationError).toBeCloseTo(
      um.uce(Y, P, ew(t)),
      14,
    );
  },
  // the SCE's bins, class by class, with zeros kept (the diagram shows the bin at 0)
  classwiseReliability: (preset, t) => {
    const r = um.classwiseReliability(Y, P, { preset });
    expect(r.classes[0]?.table.config).toEqual({
      preset,
      binning: 'equal-width',
      bins: t.topLabel.bins,
      equalWidth: t.topLabel.rule,
      precision: t.topLabel.precision,
    });
    const mean = r.classes.reduce((a, c) => a + c.table.calibrationError, 0) / r.numClasses;
    expect(mean).toBeCloseTo(um.sce(Y, P, { ...ew(t), threshold: null }), 14);
  },
  binaryCalibrationError: (preset, t) => {
    for (const [probs, input] of [
      [V.probs, 'numbers'],
      [new Float32Array(V.probs), 'float32'],
    ] as const) {
      const explicit = { bins: t.topLabel.bins, equalWidth: t.topLabel.rule, precision: positivePrecision(t, input) };
      expect(um.binaryCalibrationError(V.outcomes, probs, { preset })).toBe(
        um.binaryCalibrationError(V.outcomes, probs, explicit),
      );
    }
  },
  binaryReliability: (preset, t) => {
    for (const [probs, input] of [
      [V.probs, 'numbers'],
      [new Float32Array(V.probs), 'float32'],
    ] as const) {
      const r = um.binaryReliability(V.outcomes, probs, { preset });
      expect(r.config).toEqual({
        preset,
        binning: 'equal-width',
        bins: t.topLabel.bins,
        equalWidth: t.topLabel.rule,
        precision: positivePrecision(t, input),
      });
    }
  },
  debiasedEce: (preset, t) => {
    const d = t.debiased;
    const binning = d.binning === 'equal-width' ? { binning: d.binning, ...ew(t) } : { binning: d.binning, ...em(t) };
    expect(um.debiasedEce(Y, P, { preset })).toBe(um.debiasedEce(Y, P, { ...binning, smallBins: d.smallBins }));
    // with single-sample bins, where the small-bin rule matters
    expect(um.debiasedEce(Y, P, { preset, bins: 200 })).toBe(
      um.debiasedEce(Y, P, { ...binning, bins: 200, smallBins: d.smallBins }),
    );
    for (const [probs, input] of [
      [P2, 'numbers'],
      [P2F32, 'float32'],
    ] as const) {
      const o = { mode: 'positive-class' as const, ...(input === 'float32' ? { numClasses: 2 } : {}) };
      expect(um.debiasedEce(V.outcomes, probs, { ...o, preset })).toBe(
        um.debiasedEce(V.outcomes, probs, {
          ...o,
          ...binning,
          smallBins: d.smallBins,
          precision: positivePrecision(t, input),
        }),
      );
    }
  },
  bayesianEce: (preset, t) => {
    // the quirks are not options: compare with the preset that has them (or none), and the 15 bins of every preset
    const reference = t.bayesianQuirks ? 'uncertainty-metrics' : 'default';
    expect(um.bayesianEce(Y, P, { preset, samples: 40 }).samples).toEqual(
      um.bayesianEce(Y, P, { preset: reference, bins: 15, samples: 40 }).samples,
    );
  },
  brier: (preset, t) => expect(um.brier(Y, P, { preset })).toBe(um.brier(Y, P, { form: t.brier })),
  brierPerExample: (preset, t) =>
    expect(um.brierPerExample(Y, P, { preset })).toEqual(um.brierPerExample(Y, P, { form: t.brier })),
  brierDecomposition: (preset, t) =>
    expect(um.brierDecomposition(Y, P, { preset })).toEqual(um.brierDecomposition(Y, P, t.brierDecomposition)),
  nll: (preset, t) => {
    expect(PZ_OK).toBe(true);
    const clip = (input: 'numbers' | 'float32') =>
      t.nll.clip === 'machine-epsilon' ? (input === 'float32' ? 2 ** -23 : 2 ** -52) : t.nll.clip;
    expect(um.nll(Y, PZ, { preset, ...quiet })).toBe(
      um.nll(Y, PZ, { clip: clip('numbers'), renormalize: t.nll.renormalize, ...quiet }),
    );
    const z32 = new Float32Array(PZ.flat());
    expect(um.nll(Y, z32, { preset, numClasses: 4, sumTolerance: 1e-6, ...quiet })).toBe(
      um.nll(Y, z32, {
        clip: clip('float32'),
        renormalize: t.nll.renormalize,
        numClasses: 4,
        sumTolerance: 1e-6,
        ...quiet,
      }),
    );
  },
  nllPerExample: (preset, t) => {
    const clip = t.nll.clip === 'machine-epsilon' ? 2 ** -52 : t.nll.clip;
    expect(um.nllPerExample(Y, PZ, { preset, ...quiet })).toEqual(
      um.nllPerExample(Y, PZ, { clip, renormalize: t.nll.renormalize, ...quiet }),
    );
  },
  crps: (preset, t) =>
    expect(um.crps(YREG, { samples: SAMPLES }, { preset })).toBe(
      um.crps(YREG, { samples: SAMPLES }, { estimator: t.crps }),
    ),
  crpsPerExample: (preset, t) =>
    expect(um.crpsPerExample(YREG, { samples: SAMPLES }, { preset })).toEqual(
      um.crpsPerExample(YREG, { samples: SAMPLES }, { estimator: t.crps }),
    ),
  negativeWaic: (preset, t) =>
    expect(um.negativeWaic(LOGP, { preset })).toEqual(um.negativeWaic(LOGP, t.informationCriteria)),
  iscv: (preset, t) => expect(um.iscv(LOGP, { preset })).toEqual(um.iscv(LOGP, t.informationCriteria)),
  auroc: (preset, t) => {
    expect(um.auroc(Y, P, { preset })).toBe(
      t.auc.thresholds === null ? um.auroc(Y, P) : keras(t, t.auc.thresholds, 'roc'),
    );
    expect(um.auroc(Y, P, { preset, thresholds: 50 })).toBe(keras(t, 50, 'roc'));
  },
  aupr: (preset, t) => {
    expect(um.aupr(Y, P, { preset })).toBe(
      t.auc.thresholds === null ? um.aupr(Y, P) : keras(t, t.auc.thresholds, 'pr'),
    );
    expect(um.aupr(Y, P, { preset, thresholds: 50 })).toBe(keras(t, 50, 'pr'));
  },
  oracleCollaborativeAccuracy: (preset, t) => {
    for (const [bins, fraction] of ORACLE_PROBES)
      expect(um.oracleCollaborativeAccuracy(Y, P, { preset, bins, fraction })).toBeCloseTo(
        oracleReference(t, bins, fraction),
        14,
      );
  },
  fitHistogramBinning: (preset, t) => {
    // the preset supplies only the equal-mass construction; 15 bins and edges b/B under every preset
    const s = V.probs;
    expect(um.fitHistogramBinning(V.outcomes, s, { preset, binary: true }).histograms[0]?.edges).toEqual(
      Array.from({ length: 16 }, (_, b) => b / 15),
    );
    // the preset's equal-mass construction decides which scores share a bin; the cuts lie halfway between the bins'
    // own calibration scores (largest of one non-empty bin, smallest of the next)
    const a = equalMassBins(s, 15, t.topLabel.equalMass);
    const lo = new Array<number>(a.numBins).fill(Infinity);
    const hi = new Array<number>(a.numBins).fill(-Infinity);
    s.forEach((v, i) => {
      const b = a.index[i] as number;
      lo[b] = Math.min(lo[b] as number, v);
      hi[b] = Math.max(hi[b] as number, v);
    });
    const edges = [0];
    let below = -Infinity;
    for (let b = 0; b < a.numBins; b++) {
      if (!((hi[b] as number) >= (lo[b] as number))) continue;
      if (below > -Infinity) {
        // halfway (hi/2 + lo/2), or the next bin's smallest score where the midpoint rounds onto the previous one
        const l = lo[b] as number;
        const mid = below / 2 + l / 2;
        const cut = mid > below && mid <= l ? mid : l;
        if (cut > (edges[edges.length - 1] as number) && cut < 1) edges.push(cut);
      }
      below = Math.max(below, hi[b] as number);
    }
    edges.push(1);
    expect(
      um.fitHistogramBinning(V.outcomes, s, { preset, binary: true, binning: 'equal-mass' }).histograms[0]?.edges,
    ).toEqual(edges);
  },
  evaluate: (preset, t) => checkEvaluation(um.evaluate(Y, P, { preset, ...quiet }), preset, t),
  comparePaired: (preset, t) => {
    // the paired comparison evaluates each model as evaluate does, under the same preset (percentile intervals: the
    // evaluations are this check's subject, and BCa's jackknife would add 200 of them)
    const e = um.evaluate(Y, P, { preset, ...quiet });
    const r = um.comparePaired(Y, P, P, { preset, resamples: 2, method: 'percentile', ...quiet });
    for (const m of r.metrics)
      expect(m.a, m.metric).toBe((e as unknown as Record<string, number | null>)[m.metric] ?? null);
    checkEvaluation(e, preset, t);
  },
  evaluateEnsemble: (preset, t) => checkEvaluation(um.evaluateEnsemble(Y, [P, P], { preset, ...quiet }), preset, t),
  evaluateParallel: async (preset, t) =>
    checkEvaluation(
      await evaluateParallel(Y, new Float64Array(P.flat()), { numClasses: 4, threads: 1, preset, ...quiet }),
      preset,
      t,
    ),
  binSweep: (preset, t) => {
    const rows = binSweep(Y, P, { preset, bins: [3, 7] }).rows;
    const tl = t.topLabel;
    const want = [3, 7].flatMap((bins) => [
      { metric: 'ECE', bins, value: um.ece(Y, P, { bins, equalWidth: tl.rule, precision: tl.precision, ...thr(t) }) },
      {
        metric: 'ACE',
        bins,
        value: um.ace(Y, P, { bins, equalMass: tl.equalMass, precision: tl.precision, ...thr(t) }),
      },
      { metric: 'UCE', bins, value: um.uce(Y, P, { bins, equalWidth: tl.rule, precision: tl.precision }) },
    ]);
    expect(rows).toEqual(want);
  },
  createReport: async (preset, t) => {
    // 2 resamples and no SVG: the check reads the evaluation, which neither the resamples nor the rendering change
    const report = await createReport([{ name: 'probe', labels: Y, scores: P }], { preset, resamples: 2, svg: false });
    checkEvaluation(report.models[0]?.evaluation as um.Evaluation, preset, t);
  },
  createState: (preset) => {
    // every preset has a mergeable state, float32 presets and Keras' thresholded AUC included: the state runs the
    // function's own definition, so its result equals the function's (exactly: one batch through the same stores)
    for (const [metric, call] of STATE_FUNCTIONS) {
      const state = um.createState(metric, { preset });
      const [first, second] = metric.startsWith('binary') ? [V.outcomes, new Float32Array(V.probs)] : [Y, P];
      state.update(first, second);
      const v = state.result() as unknown;
      // the JSON form carries everything, including that the batches were float32 (an input-precision preset)
      expect(um.stateFromJSON(JSON.parse(JSON.stringify(state.toJSON()))).result(), `${metric} from JSON`).toEqual(v);
      const want = call(first, second, { preset });
      if (typeof want === 'number') expect(v as number, metric).toBe(want);
      else expect((v as { config?: unknown }).config, metric).toEqual((want as { config?: unknown }).config);
    }
  },
};

const STATE_FUNCTIONS: [um.StateMetric, AnyFn][] = (
  [
    'ece',
    'sce',
    'rmsce',
    'tace',
    'uce',
    'reliability',
    'brier',
    'auroc',
    'binaryCalibrationError',
    'binaryReliability',
  ] as const
).map((m) => [m, f(m)]);

/** An evaluation's config and numbers under a preset: the table's conventions, and equal to the named functions. */
function checkEvaluation(r: um.Evaluation, preset: PresetName, t: PeerConventions): void {
  const c = r.config;
  expect([c.preset, c.bins, c.precision, c.equalWidth, c.equalMass, c.threshold, c.taceThreshold, c.brierForm]).toEqual(
    [
      preset,
      t.topLabel.bins,
      t.topLabel.precision,
      t.topLabel.rule,
      t.topLabel.equalMass,
      t.topLabel.threshold,
      0.01,
      t.brier,
    ],
  );
  expect([c.selective.aucThresholds, c.selective.aucPrecision]).toEqual([
    t.auc.thresholds,
    t.auc.thresholds === null ? null : t.auc.precision,
  ]);
  expect(r.ece).toBeCloseTo(um.ece(Y, P, { ...ew(t), ...thr(t) }), 14);
  expect(r.rmsce).toBeCloseTo(um.rmsce(Y, P, { ...em(t), ...thr(t) }), 14);
  expect(r.sce as number).toBeCloseTo(um.sce(Y, P, { ...ew(t), ...thr(t) }), 14);
  expect(r.uce).toBeCloseTo(um.uce(Y, P, ew(t)), 14);
  expect(r.auroc as number).toBeCloseTo(
    t.auc.thresholds === null ? um.auroc(Y, P) : keras(t, t.auc.thresholds, 'roc'),
    14,
  );
}

const PRESETS = Object.keys(presets) as PresetName[];

describe('every preset × every function that takes one', () => {
  for (const name of Object.keys(CHECKS)) {
    for (const preset of PRESETS) {
      it(`${name} × ${preset}`, async () => {
        const t = TABLE[preset];
        expect(t, `TABLE has no row for ${preset}`).toBeDefined();
        await CHECKS[name]?.(preset, t);
      });
    }
  }
});

/** Every exported function of the entry points whose options have a `preset` (createState takes any metric's options). */
function presetFunctions(): string[] {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const files = Object.values(ENTRIES).map((e) => `${root}${e}`);
  // the worker's one program over the entry points (shared with the docs and errors tests)
  const program = programOf(files);
  const checker = program.getTypeChecker();
  const names = new Set<string>(['createState']);
  for (const file of files) {
    const sf = program.getSourceFile(file);
    const mod = sf === undefined ? undefined : checker.getSymbolAtLocation(sf);
    if (mod === undefined) throw new Error(`cannot load ${file}`);
    for (const exported of checker.getExportsOfModule(mod)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const decl = symbol.valueDeclaration;
      if (decl === undefined) continue;
      for (const sig of checker.getTypeOfSymbolAtLocation(symbol, decl).getCallSignatures()) {
        const takesPreset = sig
          .getParameters()
          .some(
            (p) =>
              checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(p, decl)).getProperty('preset') !==
              undefined,
          );
        if (takesPreset) names.add(exported.name);
      }
    }
  }
  return [...names].sort();
}

describe('the table is complete', () => {
  it('has a row for every preset', () => {
    expect(Object.keys(TABLE).sort()).toEqual([...PRESETS].sort());
  });
  it('checks every public function that takes a preset', { timeout: 60_000 }, () => {
    const found = presetFunctions();
    expect(found.length).toBeGreaterThan(30);
    expect(Object.keys(CHECKS).sort()).toEqual(found);
  });
});
