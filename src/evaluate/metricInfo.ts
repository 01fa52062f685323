/**
 * What each key of an {@link Evaluation} means and whether larger is better (`null`: descriptive, not a score). One
 * table for `um metrics`, the report and their documentation (internal).
 */
export const METRICS: Record<string, { meaning: string; better: 'lower' | 'higher' | null }> = {
  accuracy: { meaning: 'share of rows whose top class is the label', better: 'higher' },
  ece: { meaning: 'expected calibration error (equal-width bins)', better: 'lower' },
  mce: { meaning: 'maximum calibration error (equal-width bins)', better: 'lower' },
  rmsce: { meaning: 'root-mean-square calibration error (equal-mass bins)', better: 'lower' },
  sce: { meaning: 'static (class-wise) calibration error', better: 'lower' },
  ace: { meaning: 'adaptive (class-wise, equal-mass) calibration error', better: 'lower' },
  tace: { meaning: 'thresholded ACE (p > 0.01)', better: 'lower' },
  uce: {
    meaning: 'uncertainty calibration error (normalized entropy vs top-1 error; all rows binned together)',
    better: 'lower',
  },
  aece: { meaning: 'adaptive-binning ECE (Ding et al.)', better: 'lower' },
  amce: { meaning: 'adaptive-binning MCE (Ding et al.)', better: 'lower' },
  brier: { meaning: 'Brier score (the preset’s form)', better: 'lower' },
  nll: { meaning: 'negative log-likelihood, nats (never clipped)', better: 'lower' },
  meanEntropy: { meaning: 'mean entropy of the predictions, nats', better: null },
  auroc: { meaning: 'AUROC of correct vs confidence (max prob)', better: 'higher' },
  aupr: { meaning: 'AUPR of errors vs uncertainty (1 − max prob)', better: 'higher' },
  aurc: { meaning: 'area under the risk–coverage curve', better: 'lower' },
  eaurc: { meaning: 'AURC minus that of a perfect ranking', better: 'lower' },
  numMembers: { meaning: 'ensemble members (metrics above: of their mean prediction)', better: null },
  totalUncertainty: { meaning: 'mean entropy of the mean prediction, nats', better: null },
  expectedDataUncertainty: { meaning: 'mean of the members’ entropies, nats', better: null },
  mutualInformation: { meaning: 'model uncertainty: total − expected data, nats', better: null },
  disagreement: { meaning: 'share of member pairs predicting different classes', better: null },
  gibbsNll: { meaning: 'mean NLL of the members, nats', better: 'lower' },
};
