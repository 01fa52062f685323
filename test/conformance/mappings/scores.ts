/** Golden-value mappings of proper scores, ensemble and Bayesian uncertainty, and the bin-free estimators (issue 3). */
import {
  binaryBrier,
  brier,
  brierDecomposition,
  brierPerExample,
  crps,
  crpsPerExample,
  debiasedEce,
  ensembleNll,
  gibbsNll,
  iscv,
  mmce,
  modelUncertainty,
  negativeWaic,
  nll,
  smoothEce,
  type CrpsForecast,
} from '../../../src/index.js';
import { confCorrect, type ConformanceCase } from '../../helpers/conformance.js';
import { pos } from './calibration.js';
import type { Mapping } from './types.js';

const noWarn = { onWarning: () => undefined };
/**
 * `smoothEce` with its bandwidth search, once per case (the cases are cached): smece and smece_sigma are the value and
 * the bandwidth of the same call, and the search is most of the file's time.
 */
const searched = new WeakMap<ConformanceCase, ReturnType<typeof smoothEce>>();
const searchedSmoothEce = (c: ConformanceCase) => {
  let r = searched.get(c);
  if (r === undefined) {
    r = smoothEce(c.labels, c.probs);
    searched.set(c, r);
  }
  return r;
};
const members = (c: ConformanceCase, field: 'logits' | 'member_probs') => {
  // cases store [N][M][C]; our layout is [S][N][C]
  const x = c[field] as number[][][];
  const m = (x[0] as number[][]).length;
  return Array.from({ length: m }, (_, s) => x.map((row) => row[s] as number[]));
};
const logitsOf = (c: ConformanceCase) => c.logits as number[][];
const mean = (v: ArrayLike<number>) => Array.from(v).reduce((a, b) => a + b, 0) / v.length;
const normal = (c: ConformanceCase): CrpsForecast => ({ mean: c.mean as number[], std: c.std as number[] });
const samples = (c: ConformanceCase): CrpsForecast => ({ samples: c.samples as number[][] });
const y = (c: ConformanceCase) => c.y as number[];
const um = { preset: 'uncertainty-metrics' } as const;

/** verified_calibration's is_discrete: every column has fewer distinct values than N/4. */
function isDiscrete(probs: number[][]): boolean {
  const c = (probs[0] as number[]).length;
  for (let k = 0; k < c; k++) if (new Set(probs.map((r) => r[k])).size >= probs.length / 4) return false;
  return true;
}

const MU_KEYS = { mutualInformation: 'mutual_information', total: 'total', expectedData: 'data' };

export const SCORE_MAPPINGS: Mapping[] = [
  // ---- Brier
  { peer: 'reference_numpy', metric: 'brier_mean', compute: (c) => brier(c.labels, c.probs) },
  { peer: 'sklearn_1_9', metric: 'brier_mean', compute: (c) => brier(c.labels, c.probs) },
  {
    peer: 'sklearn_1_9',
    metric: 'brier_mean_sklearn',
    compute: (c) => brier(c.labels, c.probs, { preset: 'sklearn' }),
  },
  { peer: 'google_um_tf', metric: 'brier_mean', compute: (c) => brier(c.labels, c.probs, um) },
  { peer: 'google_um_tf', metric: 'brier_per_example', compute: (c) => brierPerExample(c.labels, c.probs, um) },
  {
    peer: 'google_um_tf',
    metric: 'brier_mean[logits]',
    compute: (c) => brier(c.labels, logitsOf(c), { ...um, input: 'logits' }),
  },
  {
    peer: 'verified_calibration',
    metric: 'brier_marginal_mean',
    compute: (c) => brier(c.labels, c.probs, { preset: 'verified-calibration' }),
  },
  {
    peer: 'verified_calibration',
    metric: 'brier_top_label',
    compute: (c) => {
      const { conf, correct } = confCorrect(c.probs, c.labels);
      return binaryBrier(correct, conf);
    },
  },
  ...['sklearn', 'sklearn_1_9'].map((peer) => ({
    peer,
    metric: 'brier_pos_binary',
    compute: (c: ConformanceCase) => binaryBrier(c.labels, pos(c)),
  })),

  // ---- Brier decomposition
  {
    peer: 'google_um_tf',
    metric: 'brier_decomposition',
    tolerance: 1e-6, // float32 TensorFlow
    compute: (c) => brierDecomposition(c.labels, c.probs, um),
  },
  {
    peer: 'reference_numpy',
    metric: 'brier_decomposition[google_axis]',
    // the float64 replica of Google's formula omits its +1e-7 in the cell denominators
    compute: (c) => brierDecomposition(c.labels, c.probs, { ...um, epsilon: 0 }),
  },
  {
    peer: 'reference_numpy',
    metric: 'brier_decomposition',
    // the textbook decomposition as written in the conformance set: Bröcker's distance reliability, no epsilon
    compute: (c) =>
      brierDecomposition(c.labels, c.probs, {
        form: 'minus-one',
        reliability: 'distance',
        resolution: 'correct',
        epsilon: 0,
      }),
  },

  // ---- NLL
  { peer: 'reference_numpy', metric: 'nll', compute: (c) => nll(c.labels, c.probs, noWarn) },
  { peer: 'torch', metric: 'nll', compute: (c) => nll(c.labels, c.probs, noWarn) },
  { peer: 'torch', metric: 'nll[f32]', compute: (c) => nll(c.labels, c.probs, { ...noWarn, precision: 'float32' }) },
  { peer: 'torch', metric: 'nll[logits]', compute: (c) => nll(c.labels, logitsOf(c), { ...noWarn, input: 'logits' }) },
  { peer: 'google_um_tf', metric: 'nll', compute: (c) => nll(c.labels, c.probs, noWarn) },
  {
    peer: 'google_um_tf',
    metric: 'nll[logits]',
    compute: (c) => nll(c.labels, logitsOf(c), { ...noWarn, input: 'logits' }),
  },
  // scikit-learn 1.2 clips to machine epsilon and renormalises the rows; 1.9 only clips
  { peer: 'sklearn', metric: 'nll', compute: (c) => nll(c.labels, c.probs, { preset: 'sklearn', renormalize: true }) },
  { peer: 'sklearn_1_9', metric: 'nll', compute: (c) => nll(c.labels, c.probs, { preset: 'sklearn' }) },

  // ---- CRPS
  { peer: 'reference_numpy', metric: 'crps_normal', compute: (c) => crpsPerExample(y(c), normal(c)) },
  { peer: 'reference_numpy', metric: 'crps_normal_mean', compute: (c) => crps(y(c), normal(c)) },
  { peer: 'google_um_tf', metric: 'crps_normal', compute: (c) => crpsPerExample(y(c), normal(c)) },
  { peer: 'google_um_tf', metric: 'crps_normal_mean', compute: (c) => crps(y(c), normal(c)) },
  { peer: 'reference_numpy', metric: 'crps_samples_fair_mean', compute: (c) => crps(y(c), samples(c)) },
  {
    peer: 'reference_numpy',
    metric: 'crps_samples_nrg_mean',
    compute: (c) => crps(y(c), samples(c), { estimator: 'nrg' }),
  },
  {
    peer: 'torchmetrics',
    metric: 'crps_samples_mean',
    compute: (c) => crps(y(c), samples(c), { preset: 'torchmetrics' }),
  },
  { peer: 'google_um_tf', metric: 'crps_samples', compute: (c) => crpsPerExample(y(c), samples(c), um) },
  { peer: 'google_um_tf', metric: 'crps_samples_mean', compute: (c) => crps(y(c), samples(c), um) },

  // ---- ensembles
  {
    peer: 'reference_numpy',
    metric: 'model_uncertainty',
    keys: MU_KEYS,
    compute: (c) => modelUncertainty(members(c, 'member_probs')),
  },
  {
    peer: 'reference_numpy',
    metric: 'model_uncertainty_mean',
    keys: MU_KEYS,
    compute: (c) => {
      const u = modelUncertainty(members(c, 'member_probs'));
      return { mutualInformation: mean(u.mutualInformation), total: mean(u.total), expectedData: mean(u.expectedData) };
    },
  },
  {
    peer: 'google_um_tf',
    metric: 'model_uncertainty',
    keys: MU_KEYS,
    tolerance: 1e-6,
    compute: (c) => modelUncertainty(members(c, 'logits'), { input: 'logits' }),
  },
  {
    peer: 'google_um_tf',
    metric: 'model_uncertainty_mean',
    keys: MU_KEYS,
    tolerance: 1e-6,
    compute: (c) => {
      const u = modelUncertainty(members(c, 'logits'), { input: 'logits' });
      return { mutualInformation: mean(u.mutualInformation), total: mean(u.total), expectedData: mean(u.expectedData) };
    },
  },
  {
    peer: 'google_um_tf',
    metric: 'ensemble_nll',
    compute: (c) => ensembleNll(c.labels, members(c, 'logits'), { input: 'logits' }),
  },
  {
    peer: 'google_um_tf',
    metric: 'gibbs_nll',
    compute: (c) => gibbsNll(c.labels, members(c, 'logits'), { input: 'logits' }),
  },

  // ---- information criteria (uncertainty_metrics: population variance, standard error over members)
  { peer: 'google_um_tf', metric: 'neg_waic1', compute: (c) => negativeWaic(c.logp as number[][], um) },
  {
    peer: 'google_um_tf',
    metric: 'neg_waic2',
    compute: (c) => negativeWaic(c.logp as number[][], { ...um, type: 'waic2' }),
  },
  { peer: 'google_um_tf', metric: 'iscv', compute: (c) => iscv(c.logp as number[][], um) },

  // ---- bin-free and debiased calibration estimators
  {
    peer: 'netcal',
    metric: 'mmce',
    compute: (c) => mmce(c.labels, c.probs),
    exceptions: (c) =>
      c.id === 'binary_const_60_40'
        ? {
            reason:
              'MMCE is exactly 0 here (constant p = (0.6, 0.4), 60/40 labels); the peer keeps a 1.2e-17 rounding residue under the square root (3.4e-9 after it), we get 0: the squares agree to 1e-16',
            tolerance: 1e-8,
          }
        : undefined,
  },
  { peer: 'relplot', metric: 'smece', compute: (c) => searchedSmoothEce(c).value },
  { peer: 'relplot', metric: 'smece_sigma', compute: (c) => searchedSmoothEce(c).bandwidth },
  {
    peer: 'relplot',
    metric: 'smece@sigma=0.05',
    compute: (c) => smoothEce(c.labels, c.probs, { bandwidth: 0.05 }).value,
  },
  {
    peer: 'relplot',
    metric: 'smece[logits]',
    compute: (c) => smoothEce(c.labels, logitsOf(c), { input: 'logits' }).value,
  },
  {
    peer: 'relplot',
    metric: 'smece_pos',
    compute: (c) => smoothEce(c.labels, c.probs, { target: 'positive-class' }).value,
  },
  {
    peer: 'verified_calibration',
    metric: 'debiased_ece_l2@15',
    compute: (c) =>
      debiasedEce(c.labels, c.probs, { preset: 'verified-calibration', binning: 'equal-width', bins: 15 }),
  },
  {
    peer: 'verified_calibration',
    metric: 'debiased_ece_l2_equalmass@15',
    compute: (c) => debiasedEce(c.labels, c.probs, { preset: 'verified-calibration', bins: 15 }),
  },
  {
    peer: 'verified_calibration',
    metric: 'debiased_top_ce_l2[auto]',
    // verified's is_discrete heuristic picks distinct-value bins or 15 equal-mass bins; we make the choice explicit
    compute: (c) =>
      debiasedEce(
        c.labels,
        c.probs,
        isDiscrete(c.probs)
          ? { preset: 'verified-calibration', binning: 'distinct' }
          : { preset: 'verified-calibration', bins: 15 },
      ),
  },
  {
    peer: 'verified_calibration',
    metric: 'debiased_marginal_ce_l2[auto]',
    compute: (c) =>
      debiasedEce(c.labels, c.probs, {
        mode: 'marginal',
        ...(isDiscrete(c.probs)
          ? { preset: 'verified-calibration', binning: 'distinct' }
          : { preset: 'verified-calibration', bins: 15 }),
      }),
  },
  // the torchmetrics preset bins by equal width by default: its debiased estimator has no other binning
  {
    peer: 'torchmetrics',
    metric: 'debiased_ece_l2@15',
    compute: (c) => debiasedEce(c.labels, c.probs, { preset: 'torchmetrics', bins: 15 }),
  },
];
