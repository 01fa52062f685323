/** Golden-value mappings of the binned calibration metrics and presets (issue 2). */
import { expect } from 'vitest';
import {
  ace,
  binaryCalibrationError,
  binaryReliability,
  ece,
  gce,
  mce,
  normalizedEntropy,
  rmsce,
  sce,
  tace,
  uce,
  type CalibrationErrorOptions,
} from '../../../src/index.js';
import { confCorrect, type ConformanceCase } from '../../helpers/conformance.js';
import type { Mapping } from './types.js';

export const pos = (c: ConformanceCase) => c.probs.map((r) => r[1] as number);
const distinctLabels = (c: ConformanceCase) => new Set(c.labels).size;

/** netcal treats any input with ≤ 2 distinct labels as binary and scores probs[:, 1] (CONVENTIONS.md §4.2). */
function netcalBinary(options: Parameters<typeof binaryCalibrationError>[2]) {
  return (c: ConformanceCase) =>
    distinctLabels(c) <= 2 && c.shape[1] === 2
      ? {
          reason: "netcal's binary auto-detection (≤ 2 distinct labels) scores the positive class, not the top label",
          compute: (k: ConformanceCase) => binaryCalibrationError(k.labels, pos(k), options),
        }
      : undefined;
}

const netcalRaisesOnFewLabels = (c: ConformanceCase) => {
  // netcal raises for a multiclass input with ≤ 2 distinct labels; we compute the top-label value.
  expect(distinctLabels(c)).toBeLessThanOrEqual(2);
  expect(Number.isFinite(ece(c.labels, c.probs, { preset: 'netcal' }))).toBe(true);
};

const gceName = /^gce\[(even|adaptive),max_prob=(True|False),class_cond=(True|False),thr=([0-9.]+),(l1|l2)\]@15$/;

export const CALIBRATION_MAPPINGS: Mapping[] = [
  // google/uncertainty-metrics, NumPy backend (float64)
  ...[10, 15, 30].map((b) => ({
    peer: 'google_um_numpy',
    metric: `ece@${b}`,
    compute: (c: ConformanceCase) => ece(c.labels, c.probs, { preset: 'uncertainty-metrics', bins: b }),
  })),
  {
    peer: 'google_um_numpy',
    metric: 'rmsce_adaptive@15',
    compute: (c) => rmsce(c.labels, c.probs, { preset: 'uncertainty-metrics', bins: 15 }),
  },
  {
    peer: 'google_um_numpy',
    metric: 'sce@15',
    compute: (c) => sce(c.labels, c.probs, { preset: 'uncertainty-metrics', bins: 15 }),
  },
  {
    peer: 'google_um_numpy',
    metric: 'ace_adaptive@15',
    compute: (c) => ace(c.labels, c.probs, { preset: 'uncertainty-metrics', bins: 15 }),
  },
  {
    peer: 'google_um_numpy',
    metric: 'tace@15',
    compute: (c) => tace(c.labels, c.probs, { preset: 'uncertainty-metrics', bins: 15, threshold: 0.01 }),
  },
  ...['even', 'adaptive'].flatMap((scheme) =>
    ['True', 'False'].flatMap((mp) =>
      ['True', 'False'].flatMap((cc) =>
        ['0.0', '0.01'].flatMap((thr) =>
          ['l1', 'l2'].map((norm) => {
            const metric = `gce[${scheme},max_prob=${mp},class_cond=${cc},thr=${thr},${norm}]@15`;
            const options: CalibrationErrorOptions = {
              preset: 'uncertainty-metrics',
              bins: 15,
              binning: scheme === 'even' ? 'equal-width' : 'equal-mass',
              topLabel: mp === 'True',
              classConditional: cc === 'True',
              threshold: Number(thr),
              norm: norm as 'l1' | 'l2',
            };
            expect(metric).toMatch(gceName);
            return {
              peer: 'google_um_numpy',
              metric,
              compute: (c: ConformanceCase) => gce(c.labels, c.probs, options),
            };
          }),
        ),
      ),
    ),
  ),

  // google/uncertainty-metrics, TensorFlow backend
  ...[10, 15].flatMap((b) => [
    {
      peer: 'google_um_tf',
      metric: `ece@${b}`,
      compute: (c: ConformanceCase) => ece(c.labels, c.probs, { preset: 'uncertainty-metrics-tf', bins: b }),
    },
    {
      peer: 'google_um_tf',
      metric: `ece@${b}[f64]`,
      compute: (c: ConformanceCase) =>
        ece(c.labels, c.probs, { preset: 'uncertainty-metrics-tf', precision: 'float64', bins: b }),
    },
  ]),
  {
    peer: 'google_um_tf',
    metric: 'ece_pos@15',
    // a [N] input is expanded to [1 − p, p] and scored top-label (CONVENTIONS.md §4.2)
    compute: (c) => ece(c.labels, pos(c), { binary: true, preset: 'uncertainty-metrics-tf' }),
  },

  // netcal 1.3.6
  ...[10, 15].flatMap((b) => [
    {
      peer: 'netcal',
      metric: `ece@${b}`,
      compute: (c: ConformanceCase) => ece(c.labels, c.probs, { preset: 'netcal', bins: b }),
      exceptions: netcalBinary({ preset: 'netcal', bins: b }),
      onPeerError: netcalRaisesOnFewLabels,
    },
    {
      peer: 'netcal',
      metric: `mce@${b}`,
      compute: (c: ConformanceCase) => mce(c.labels, c.probs, { preset: 'netcal', bins: b }),
      exceptions: netcalBinary({ preset: 'netcal', bins: b, norm: 'max' }),
      onPeerError: netcalRaisesOnFewLabels,
    },
  ]),
  {
    peer: 'netcal',
    metric: 'ece_quantile@15',
    compute: (c) => gce(c.labels, c.probs, { preset: 'netcal', bins: 15, binning: 'equal-mass' }),
    exceptions: netcalBinary({ preset: 'netcal', bins: 15, binning: 'equal-mass' }),
    onPeerError: (c) => {
      // netcal raises "The smallest edge difference is numerically 0" on repeated quantile edges (ties, N = 1, exact
      // 0/1); we keep the repeated edges as empty bins and return the calibration error.
      const v = gce(c.labels, c.probs, { preset: 'netcal', bins: 15, binning: 'equal-mass' });
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThanOrEqual(1);
    },
  },
  {
    peer: 'netcal',
    metric: 'ece@15[conf,correct]',
    compute: (c) => {
      const { conf, correct } = confCorrect(c.probs, c.labels);
      return binaryCalibrationError(correct, conf, { preset: 'netcal', bins: 15 });
    },
  },
  {
    peer: 'netcal',
    metric: 'mce@15[conf,correct]',
    compute: (c) => {
      const { conf, correct } = confCorrect(c.probs, c.labels);
      return binaryCalibrationError(correct, conf, { preset: 'netcal', bins: 15, norm: 'max' });
    },
  },
  {
    peer: 'netcal',
    metric: 'ece_pos@15',
    compute: (c) => binaryCalibrationError(c.labels, pos(c), { preset: 'netcal', bins: 15 }),
  },
  {
    peer: 'netcal',
    metric: 'ece@15[ensemble,uncertainty=mean]',
    // netcal averages the members' probabilities, then scores the mean prediction
    compute: (c) => {
      const members = c.member_probs as number[][][];
      const mean = members.map((ms) =>
        (ms[0] as number[]).map((_, k) => ms.reduce((a, m) => a + (m[k] as number), 0) / ms.length),
      );
      return ece(c.labels, mean, { preset: 'netcal', bins: 15 });
    },
    exceptions: netcalBinary({ preset: 'netcal', bins: 15 }),
  },

  // torchmetrics 1.9 (float32 multiclass path; binary path in the input dtype)
  ...[10, 15].flatMap((b) =>
    (['l1', 'l2', 'max'] as const).map((norm) => ({
      peer: 'torchmetrics',
      metric: `${norm === 'l1' ? 'ece' : norm === 'l2' ? 'ece_l2' : 'mce'}@${b}`,
      compute: (c: ConformanceCase) => gce(c.labels, c.probs, { preset: 'torchmetrics', bins: b, norm }),
    })),
  ),
  // binary_calibration_error keeps the input's precision (float64 here), unlike the float32 multiclass function
  {
    peer: 'torchmetrics',
    metric: 'ece_pos@15',
    compute: (c) => binaryCalibrationError(c.labels, pos(c), { preset: 'torchmetrics', bins: 15 }),
  },
  {
    peer: 'torchmetrics',
    metric: 'ece@15[logits]',
    compute: (c) => ece(c.labels, c.logits as number[][], { input: 'logits', preset: 'torchmetrics', bins: 15 }),
    exceptions: (c) =>
      c.id === 'logits_in_unit_interval'
        ? {
            reason:
              'torchmetrics applies softmax only when some value lies outside [0, 1]; these logits are all inside, so it takes them as probabilities (CONVENTIONS.md §4.14). We never guess: declared logits are softmaxed.',
            compute: (k) => {
              // reproduce the peer's quantity explicitly: the logits used as (unnormalized) probabilities
              const { conf, correct } = confCorrect(k.logits as number[][], k.labels);
              // the multiclass function's float32 arithmetic, which the binary function does not share
              return binaryCalibrationError(correct, conf, { preset: 'torchmetrics', precision: 'float32', bins: 15 });
            },
          }
        : undefined,
  },

  // verified_calibration 0.1.4
  ...[10, 15].map((b) => ({
    peer: 'verified_calibration',
    metric: `ece@${b}`,
    compute: (c: ConformanceCase) => ece(c.labels, c.probs, { preset: 'verified-calibration', bins: b }),
  })),
  {
    peer: 'verified_calibration',
    metric: 'ece_quantile@15',
    compute: (c) => gce(c.labels, c.probs, { preset: 'verified-calibration', bins: 15, binning: 'equal-mass' }),
  },
  {
    peer: 'verified_calibration',
    metric: 'ece_l2@15',
    compute: (c) => gce(c.labels, c.probs, { preset: 'verified-calibration', bins: 15, norm: 'l2' }),
  },
  {
    peer: 'verified_calibration',
    metric: 'ece_l2_equalmass@15',
    compute: (c) => rmsce(c.labels, c.probs, { preset: 'verified-calibration', bins: 15 }),
  },
  {
    peer: 'verified_calibration',
    metric: 'classwise_ece@15',
    compute: (c) => sce(c.labels, c.probs, { preset: 'verified-calibration', bins: 15 }),
  },
  {
    peer: 'verified_calibration',
    metric: 'ece_pos@15',
    compute: (c) => binaryCalibrationError(c.labels, pos(c), { preset: 'verified-calibration', bins: 15 }),
  },

  // relplot 1.0.3
  ...[10, 15].map((b) => ({
    peer: 'relplot',
    metric: `ece@${b}`,
    compute: (c: ConformanceCase) => ece(c.labels, c.probs, { preset: 'relplot', bins: b }),
  })),
  {
    peer: 'relplot',
    metric: 'ece_pos@15',
    compute: (c) => binaryCalibrationError(c.labels, pos(c), { preset: 'relplot', bins: 15 }),
  },

  // reference_numpy (textbook float64)
  {
    peer: 'reference_numpy',
    metric: 'normalized_entropy_mean',
    compute: (c) => {
      const u = normalizedEntropy(c.probs);
      return u.reduce((a, b) => a + b, 0) / u.length;
    },
  },
  ...[10, 15].map((b) => ({
    peer: 'reference_numpy',
    metric: `uce_entropy@${b}`,
    compute: (c: ConformanceCase) => uce(c.labels, c.probs, { bins: b }),
  })),
];

// scikit-learn calibration_curve, both versions: empty bins dropped from the peer's arrays.
for (const peer of ['sklearn', 'sklearn_1_9']) {
  for (const b of [10, 15]) {
    for (const strategy of ['uniform', 'quantile'] as const) {
      CALIBRATION_MAPPINGS.push({
        peer,
        metric: `calibration_curve[${strategy}]@${b}`,
        compute: (c) => {
          const { conf, correct } = confCorrect(c.probs, c.labels);
          const t = binaryReliability(correct, conf, {
            preset: 'sklearn',
            bins: b,
            binning: strategy === 'uniform' ? 'equal-width' : 'equal-mass',
          });
          const kept = t.bins.filter((bin) => bin.count > 0);
          return { prob_true: kept.map((bin) => bin.meanOutcome), prob_pred: kept.map((bin) => bin.meanScore) };
        },
      });
    }
  }
  CALIBRATION_MAPPINGS.push({
    peer,
    metric: 'calibration_curve_pos[uniform]@10',
    compute: (c) => {
      const t = binaryReliability(c.labels, pos(c), { preset: 'sklearn', bins: 10 });
      const kept = t.bins.filter((bin) => bin.count > 0);
      return { prob_true: kept.map((bin) => bin.meanOutcome), prob_pred: kept.map((bin) => bin.meanScore) };
    },
  });
}
