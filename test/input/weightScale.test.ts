/**
 * Extreme weights: every weighted public function, with its weights multiplied by 2^k for k from the subnormal
 * range to the edge of float64, gives the result of the weights themselves — bit for bit where the metric is a
 * ratio of weighted sums (a power of two scales every sum exactly), with weight sums it reports scaled by 2^k — and
 * never NaN. Metrics that count samples converge as the counts grow and stay finite. The table is checked against
 * the declared options: a new weighted function without a row fails the last test.
 */
import { describe, expect, it } from 'vitest';
import * as um from '../../src/index.js';
import { UMError } from '../../src/index.js';
import { evaluateParallel } from '../../src/parallel/index.js';
import { randomProbs } from '../helpers/data.js';
import { uniforms } from '../helpers/minstd.js';
import { publicOptions } from '../helpers/publicOptions.js';

const N = 30;
const raw = randomProbs(1507, N, 3, 10); // ties: multiples of 1/10, kept off 0 (a finite NLL and log-likelihood)
const { labels } = raw;
const probs = raw.probs.map((r) => r.map((p) => (p + 0.01) / 1.03));
const u = uniforms(88, 4 * N);
/** Whole weights 0…3 (some 0) and dyadic fractions of them: exact at every scale down to 2^-1071. */
const whole = Array.from({ length: N }, (_, i) => Math.floor((u[i] as number) * 4));
whole[0] = 3;
whole[1] = 1;
const dyadic = whole.map((w, i) => w * ([1, 0.5, 1.25, 0.875][i % 4] as number));
/** Thirds: not whole numbers until 2^52 (dyadic fractions become whole at 2^3), exact from 2^-1020 on. */
const thirds = whole.map((w, i) => (w + (i % 3 === 0 ? 1 : 0)) / 3);
const binaryLabels = labels.map((y) => (y === 0 ? 1 : 0));
const binaryProbs = probs.map((r) => r[0] as number);
const members = [
  probs,
  probs.map((r) => [r[1], r[2], r[0]] as number[]),
  probs.map((r) => [r[2], r[0], r[1]] as number[]),
];
const logLik = labels.map((y, i) => members.map((m) => Math.log((m[i] as number[])[y] as number)));
const inside = { uncertainty: Array.from({ length: 12 }, (_, i) => (u[N + i] as number) * 0.6) };
const outside = { uncertainty: Array.from({ length: 10 }, (_, i) => 0.3 + (u[2 * N + i] as number) * 0.7) };

type Call = (w: number[]) => unknown;
/**
 * - `ratio`: a ratio of weighted sums: bit-identical at every scale.
 * - `sums`: also reports weight sums: `unscale` divides them by 2^k (then bit-identical); a total beyond float64 is
 *   UM_OPTION.
 * - `counts`: counts samples (whole weights): finite at every scale, converging as the counts grow.
 */
interface Row {
  kind: 'ratio' | 'sums' | 'counts';
  /**
   * A sample size inside (equal-mass cuts at whole samples, Ding's bin sizes, smooth ECE's density floor): weights
   * that are not whole numbers are relative, so the identity holds while the scaled weights are still not whole.
   */
  sampleSize?: boolean;
  call: Call;
  unscale?: (r: unknown, s: number) => unknown;
  /** Relative tolerance of the converged values of a `counts` row (default 1e-13). */
  tolerance?: number;
  /** Whole-number weights only. */
  whole?: boolean;
}

const o = (w: number[]) => ({ weights: w });
const binsUnscaled = (r: unknown, s: number) => ({
  ...(r as object),
  bins: (r as um.ReliabilityTable).bins.map((b) => ({ ...b, weight: b.weight / s })),
});
const pointsUnscaled = (r: unknown, s: number) => ({
  ...(r as object),
  points: (r as { points: { count: number }[] }).points.map((p) => ({ ...p, count: p.count / s })),
});

const ROWS: Record<string, Row> = {
  gce: {
    kind: 'ratio',
    sampleSize: true,
    call: (w) =>
      um.gce(labels, probs, { ...o(w), binning: 'equal-mass', norm: 'l2', topLabel: false, classConditional: true }),
  },
  ece: { kind: 'ratio', call: (w) => um.ece(labels, probs, o(w)) },
  'ece threshold': { kind: 'ratio', call: (w) => um.ece(labels, probs, { ...o(w), threshold: 0.1 }) },
  mce: { kind: 'ratio', call: (w) => um.mce(labels, probs, o(w)) },
  rmsce: { kind: 'ratio', sampleSize: true, call: (w) => um.rmsce(labels, probs, o(w)) },
  sce: { kind: 'ratio', call: (w) => um.sce(labels, probs, o(w)) },
  ace: { kind: 'ratio', sampleSize: true, call: (w) => um.ace(labels, probs, o(w)) },
  tace: { kind: 'ratio', sampleSize: true, call: (w) => um.tace(labels, probs, o(w)) },
  aece: { kind: 'ratio', sampleSize: true, call: (w) => um.aece(labels, probs, o(w)) },
  amce: { kind: 'ratio', sampleSize: true, call: (w) => um.amce(labels, probs, o(w)) },
  uce: { kind: 'ratio', call: (w) => um.uce(labels, probs, o(w)) },
  'uce classwise': { kind: 'ratio', call: (w) => um.uce(labels, probs, { ...o(w), classwise: true }) },
  binaryCalibrationError: { kind: 'ratio', call: (w) => um.binaryCalibrationError(binaryLabels, binaryProbs, o(w)) },
  mmce: { kind: 'ratio', call: (w) => um.mmce(labels, probs, o(w)) },
  'mmce weighted': { kind: 'ratio', call: (w) => um.mmce(labels, probs, { ...o(w), weighted: true }) },
  smoothEce: { kind: 'ratio', sampleSize: true, call: (w) => um.smoothEce(labels, probs, o(w)) },
  accuracy: { kind: 'ratio', call: (w) => um.accuracy(labels, probs, o(w)) },
  brier: { kind: 'ratio', call: (w) => um.brier(labels, probs, o(w)) },
  binaryBrier: { kind: 'ratio', call: (w) => um.binaryBrier(binaryLabels, binaryProbs, o(w)) },
  brierDecomposition: { kind: 'ratio', call: (w) => um.brierDecomposition(labels, probs, o(w)) },
  nll: { kind: 'ratio', call: (w) => um.nll(labels, probs, o(w)) },
  crps: {
    kind: 'ratio',
    call: (w) =>
      um.crps(binaryProbs, { mean: binaryProbs.map((p) => p * 0.9), std: binaryProbs.map((p) => 0.1 + p) }, o(w)),
  },
  disagreement: { kind: 'ratio', call: (w) => um.disagreement(members, o(w)) },
  doubleFault: { kind: 'ratio', call: (w) => um.doubleFault(labels, members, o(w)) },
  pairwiseKl: { kind: 'ratio', call: (w) => um.pairwiseKl(members, o(w)) },
  cosineDistance: { kind: 'ratio', call: (w) => um.cosineDistance(members, o(w)) },
  lpDistance: { kind: 'ratio', call: (w) => um.lpDistance(members, { ...o(w), p: 2 }) },
  averagePairwiseDiversity: { kind: 'ratio', call: (w) => um.averagePairwiseDiversity(members, o(w)) },
  varianceBound: { kind: 'ratio', call: (w) => um.varianceBound(labels, members, o(w)) },
  ensembleNll: { kind: 'ratio', call: (w) => um.ensembleNll(labels, members, o(w)) },
  gibbsNll: { kind: 'ratio', call: (w) => um.gibbsNll(labels, members, o(w)) },
  negativeWaic: { kind: 'ratio', sampleSize: true, call: (w) => um.negativeWaic(logLik, o(w)) },
  iscv: { kind: 'ratio', sampleSize: true, call: (w) => um.iscv(logLik, o(w)) },
  auroc: { kind: 'ratio', call: (w) => um.auroc(labels, probs, o(w)) },
  'auroc entropy': { kind: 'ratio', call: (w) => um.auroc(labels, probs, { ...o(w), by: 'entropy' }) },
  aupr: { kind: 'ratio', call: (w) => um.aupr(labels, probs, o(w)) },
  rocCurve: { kind: 'ratio', call: (w) => um.rocCurve(labels, probs, o(w)) },
  precisionRecallCurve: { kind: 'ratio', call: (w) => um.precisionRecallCurve(labels, probs, o(w)) },
  'aurc fd-shifts': { kind: 'ratio', call: (w) => um.aurc(labels, probs, { ...o(w), estimator: 'fd-shifts' }) },
  'eAurc fd-shifts': { kind: 'ratio', call: (w) => um.eAurc(labels, probs, { ...o(w), estimator: 'fd-shifts' }) },
  oodAuroc: {
    kind: 'ratio',
    call: (w) =>
      um.oodAuroc(inside, outside, { weights: { inDistribution: w.slice(0, 12), outOfDistribution: w.slice(12, 22) } }),
  },
  fprAtTpr: {
    kind: 'ratio',
    call: (w) =>
      um.fprAtTpr(inside, outside, {
        tpr: 0.6,
        weights: { inDistribution: w.slice(0, 12), outOfDistribution: w.slice(12, 22) },
      }),
  },
  reliability: {
    kind: 'sums',
    call: (w) => um.reliability(labels, probs, { ...o(w), bins: 5 }),
    unscale: binsUnscaled,
  },
  classwiseReliability: {
    kind: 'sums',
    call: (w) => um.classwiseReliability(labels, probs, { ...o(w), bins: 5 }),
    unscale: (r, s) => ({
      ...(r as object),
      classes: (r as um.ClasswiseReliability).classes.map((c) => ({
        ...c,
        support: c.support / s,
        table: binsUnscaled(c.table, s),
      })),
    }),
  },
  binaryReliability: {
    kind: 'sums',
    call: (w) => um.binaryReliability(binaryLabels, binaryProbs, { ...o(w), bins: 5 }),
    unscale: binsUnscaled,
  },
  'riskCoverageCurve fd-shifts': {
    kind: 'sums',
    call: (w) => um.riskCoverageCurve(labels, probs, { ...o(w), estimator: 'fd-shifts' }),
    unscale: pointsUnscaled,
  },
  coverageAtRisk: {
    kind: 'sums',
    call: (w) => um.coverageAtRisk(labels, probs, { ...o(w), risk: 0.5 }),
    unscale: (r, s) => ({ ...(r as object), count: (r as { count: number }).count / s }),
  },
  rejectionCurve: { kind: 'sums', call: (w) => um.rejectionCurve(labels, probs, o(w)), unscale: pointsUnscaled },
  'rejectionCurve thresholds': {
    kind: 'sums',
    call: (w) => um.rejectionCurve(labels, probs, { ...o(w), thresholds: [1, 0.5, 0.2] }),
    unscale: pointsUnscaled,
  },
  'ace whole': { kind: 'counts', whole: true, call: (w) => um.ace(labels, probs, o(w)) },
  'aece whole': { kind: 'counts', whole: true, call: (w) => um.aece(labels, probs, o(w)) },
  smoothReliability: {
    kind: 'ratio',
    sampleSize: true,
    call: (w) => um.smoothReliability(labels, probs, { ...o(w), resamples: 3 }),
  },
  'smoothEce whole': { kind: 'counts', whole: true, call: (w) => um.smoothEce(labels, probs, o(w)), tolerance: 1e-9 },
  'negativeWaic whole': { kind: 'counts', whole: true, call: (w) => um.negativeWaic(logLik, o(w)), tolerance: 1e-9 }, // its standard error falls as 1/√N
  aurc: { kind: 'counts', whole: true, call: (w) => um.aurc(labels, probs, o(w)) },
  'aurc geifman': {
    kind: 'counts',
    whole: true,
    call: (w) => um.aurc(labels, probs, { ...o(w), estimator: 'geifman' }),
  },
  'aurc torch-uncertainty': {
    kind: 'counts',
    whole: true,
    call: (w) => um.aurc(labels, probs, { ...o(w), estimator: 'torch-uncertainty' }),
  },
  eAurc: { kind: 'counts', whole: true, call: (w) => um.eAurc(labels, probs, o(w)) },
  riskCoverageCurve: {
    kind: 'counts',
    whole: true,
    call: (w) => ({ ...um.riskCoverageCurve(labels, probs, o(w)), points: null }),
  },
  accuracyAtCoverage: {
    kind: 'counts',
    whole: true,
    call: (w) => um.accuracyAtCoverage(labels, probs, { ...o(w), coverage: 0.3 }),
  },
  oracleCollaborativeAccuracy: {
    kind: 'counts',
    whole: true,
    call: (w) => um.oracleCollaborativeAccuracy(labels, probs, { ...o(w), fraction: 0.2 }),
  },
  'oracleCollaborativeAccuracy bins': {
    kind: 'counts',
    whole: true,
    call: (w) => um.oracleCollaborativeAccuracy(labels, probs, { ...o(w), fraction: 0.2, bins: 10 }),
  },
  debiasedEce: { kind: 'counts', whole: true, call: (w) => um.debiasedEce(labels, probs, o(w)) },
  bayesianEce: {
    kind: 'counts',
    call: (w) => um.bayesianEce(labels, probs, { ...o(w), samples: 40 }).quantiles,
    tolerance: 1e-7,
  },
  'reliability intervals': {
    kind: 'counts',
    call: (w) => um.reliability(labels, probs, { ...o(w), bins: 5, interval: 'wilson' }).intervals,
    tolerance: 1e-7,
  },
  oodCurve: {
    kind: 'counts',
    whole: true,
    call: (w) =>
      um.oodCurve(inside, outside, {
        batchSize: 5,
        repeats: 3,
        weights: { inDistribution: w.slice(0, 12), outOfDistribution: w.slice(12, 22) },
      }),
    tolerance: Infinity,
  },
  semiparametricCalibrationError: {
    kind: 'counts',
    whole: true,
    call: (w) =>
      um.semiparametricCalibrationError(binaryLabels, binaryProbs, { bootstrap: 4, folds: 2, sampleWeights: w }),
    tolerance: Infinity,
  },
  evaluate: { kind: 'counts', whole: true, call: (w) => um.evaluate(labels, probs, { ...o(w), onWarning: () => {} }) },
  comparePaired: {
    kind: 'counts',
    whole: true,
    call: (w) =>
      um
        .comparePaired(
          labels,
          probs,
          probs.map((r) => [...r].reverse()),
          // 2 resamples: the row compares the point estimates; the BCa jackknife (N per model) still runs at every scale
          { ...o(w), resamples: 2, onWarning: () => {} },
        )
        .metrics.map((m) => [m.a, m.b, m.difference]),
  },
  evaluateEnsemble: {
    kind: 'counts',
    whole: true,
    call: (w) => um.evaluateEnsemble(labels, members, { ...o(w), onWarning: () => {} }),
  },
  evaluateParallel: {
    kind: 'counts',
    whole: true,
    call: (w) =>
      evaluateParallel(labels, Float64Array.from(probs.flat()), {
        ...o(w),
        numClasses: 3,
        threads: 1,
        onWarning: () => {},
      }),
  },
};

/** 2^k for every k the test runs: the subnormal range, around the window [2^-100, 2^100] where weights are used as given, and the top of float64. */
const EXPONENTS = [
  -1074, -1073, -1071, -1060, -1023, -1022, -1020, -900, -500, -300, -101, -100, -99, -40, -1, 1, 2, 3, 20, 50, 52, 60,
  99, 100, 101, 300, 500, 900, 1000, 1018, 1021,
];

/** Every number of a result, in order (NaN and ±Infinity included). */
function numbers(x: unknown, out: number[] = []): number[] {
  if (typeof x === 'number') out.push(x);
  else if (ArrayBuffer.isView(x)) out.push(...Array.from(x as unknown as ArrayLike<number>));
  else if (Array.isArray(x)) x.forEach((v) => numbers(v, out));
  else if (x !== null && typeof x === 'object') Object.values(x).forEach((v) => numbers(v, out));
  return out;
}

async function attempt(call: () => unknown): Promise<{ value: unknown } | { error: UMError }> {
  try {
    return { value: await call() };
  } catch (e) {
    if (e instanceof UMError) return { error: e };
    throw e;
  }
}

describe('weights scaled by 2^k', () => {
  for (const [name, row] of Object.entries(ROWS)) {
    if (row.kind !== 'counts') {
      it(`${name}: bit-identical to the unscaled weights at every scale${row.kind === 'sums' ? ' (weight sums scaled by 2^k), UM_OPTION where their total overflows' : ''}`, async () => {
        // dyadic fractions (multiples of 1/8): exact from 2^-1071, whole from 2^3; thirds: exact from 2^-1020, whole from 2^52
        const bases: [number[], number, number][] = [
          [dyadic, -1071, row.sampleSize === true ? 2 : Infinity],
          [thirds, -1020, row.sampleSize === true ? 50 : Infinity],
        ];
        for (const [base, lowest, highest] of bases) {
          const expected = row.call(base);
          const total = base.reduce((a, b) => a + b, 0);
          for (const k of EXPONENTS.filter((e) => e >= lowest && e <= highest)) {
            const s = 2 ** k;
            const w = base.map((x) => x * s);
            if (row.kind === 'sums' && !Number.isFinite(total * s)) {
              const r = await attempt(() => row.call(w));
              expect('error' in r && r.error.code, `${name} at 2^${k}`).toBe('UM_OPTION');
              continue;
            }
            const got = row.call(w);
            expect(row.unscale === undefined ? got : row.unscale(got, s), `${name} at 2^${k}`).toEqual(
              row.unscale === undefined ? expected : row.unscale(expected, 1),
            );
          }
        }
      });
    } else {
      it(`${name}: finite at every scale of whole weights, converging as the counts grow`, async () => {
        const converged: unknown[] = [];
        for (const k of EXPONENTS.filter((e) => e >= 0)) {
          const s = 2 ** k;
          const r = await attempt(() => row.call(whole.map((x) => x * s)));
          if ('error' in r) {
            // only documented refusals: a reported total beyond float64, or more samples than an estimator that draws them one by one takes
            expect(r.error.code, `${name} at 2^${k}: ${r.error.message}`).toBe('UM_OPTION');
            expect(r.error.message, `${name} at 2^${k}`).toMatch(/have a finite sum|sum to at most 1048576/);
            continue;
          }
          const values = numbers(r.value).filter((v) => v !== null);
          expect(
            values.every((v) => Number.isFinite(v)),
            `${name} at 2^${k}: ${values.filter((v) => !Number.isFinite(v))}`,
          ).toBe(true);
          if (k >= 60) converged.push(r.value);
        }
        const tolerance = row.tolerance ?? 1e-13;
        if (converged.length > 1 && Number.isFinite(tolerance)) {
          const first = numbers(converged[0]);
          for (const c of converged.slice(1)) {
            numbers(c).forEach((v, j) => {
              const ref = first[j] as number;
              // weight sums (evaluate's n) grow with the counts: compare the other numbers
              if (Math.abs(ref) > 1e6) return;
              expect(Math.abs(v - ref), `${name}: number ${j}: ${v} vs ${ref}`).toBeLessThanOrEqual(
                tolerance * Math.max(1, Math.abs(ref)),
              );
            });
          }
        }
      });
    }
  }

  it('the examples of the issue: ece with three weights of 1e308 is 0.3 (was NaN or 0), auroc with weights 1e-200 (was NaN)', () => {
    const y = [0, 1, 1];
    const p = [
      [0.8, 0.2],
      [0.3, 0.7],
      [0.4, 0.6],
    ];
    expect(um.ece(y, p, { weights: [1e308, 1e308, 1e308] })).toBeCloseTo(0.3, 15);
    expect(um.ece(y, p, { weights: [1e308, 1e308, 1e308] })).toBe(um.ece(y, p, { weights: [2, 2, 2] }));
    // equal weights: the unweighted value (up to the rounding of sums of 1.11… instead of 1)
    expect(um.auroc(labels, probs, { weights: labels.map(() => 1e-200) })).toBeCloseTo(um.auroc(labels, probs), 14);
    expect(um.aurc(labels, probs, { weights: labels.map(() => 1e300) })).toBeGreaterThan(0);
  });

  it('weights below 2^-1074 of the largest are below float64 resolution and count as 0', () => {
    const w = whole.map((x, i) => (i === 2 ? Number.MIN_VALUE : x * 2 ** 1000));
    expect(um.ece(labels, probs, { weights: w })).toBe(
      um.ece(labels, probs, { weights: whole.map((x, i) => (i === 2 ? 0 : x)) }),
    );
  });

  it('mergeable states keep exact sums without a common scale: weights outside [2^-100, 2^100] are UM_OPTION, inside they are the function', () => {
    for (const bad of [2 ** 101, 1e308, 2 ** -101, Number.MIN_VALUE]) {
      const st = um.createState('ece');
      expect(() => st.update(labels, probs, { weights: whole.map((x, i) => (i === 4 ? bad : x)) })).toThrow(
        /^ece.update: options.weights\[4\] must be 0 or within \[2\^-100, 2\^100\]/,
      );
    }
    for (const k of [-100, 0, 98]) {
      const w = whole.map((x) => x * 2 ** k);
      const st = um.createState('ece').update(labels, probs, { weights: w });
      expect(st.result()).toBeCloseTo(um.ece(labels, probs, { weights: w }), 14);
    }
  });

  it('covers every public function with sample weights (read from the declared options)', () => {
    const weighted = new Set(
      publicOptions({ core: 'src/index.ts', parallel: 'src/parallel/index.ts' })
        .filter((x) => x.param === 'options' && (x.path === 'weights' || x.path === 'sampleWeights'))
        .map((x) => x.fn),
    );
    weighted.delete('bootstrap'); // its weights are the bootstrap's own (src/bootstrap, reworked elsewhere in issue 15)
    const covered = new Set(Object.keys(ROWS).map((k) => k.split(' ')[0]));
    expect([...weighted].filter((f) => !covered.has(f))).toEqual([]);
  });
});
