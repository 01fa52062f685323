import { METRICS } from '../evaluate/metricInfo.js';
import type { Report } from './createReport.js';
import type { ReportInterval } from './summary.js';

/** Names a reader knows, shown beside the identifiers of `um metrics` (internal). */
export const FRIENDLY: Readonly<Record<string, string>> = {
  accuracy: 'Accuracy',
  ece: 'Expected calibration error',
  mce: 'Maximum calibration error',
  rmsce: 'RMS calibration error',
  sce: 'Static (class-wise) calibration error',
  ace: 'Adaptive calibration error',
  tace: 'Thresholded adaptive calibration error',
  uce: 'Uncertainty calibration error',
  aece: 'Adaptive-binning ECE',
  amce: 'Adaptive-binning MCE',
  brier: 'Brier score',
  nll: 'Negative log-likelihood',
  meanEntropy: 'Mean entropy',
  auroc: 'AUROC (confidence ranks correct above wrong)',
  aupr: 'AUPR (uncertainty finds the errors)',
  aurc: 'Area under risk–coverage',
  eaurc: 'Excess AURC',
  numMembers: 'Ensemble members',
  totalUncertainty: 'Total uncertainty',
  expectedDataUncertainty: 'Expected data uncertainty',
  mutualInformation: 'Model uncertainty (mutual information)',
  disagreement: 'Member disagreement',
  gibbsNll: 'Mean member NLL',
};

/** A row of the metrics table (internal). */
export interface MetricRow {
  readonly key: string;
  readonly name: string;
  readonly meaning: string;
  readonly better: 'lower' | 'higher' | null;
  /** One value per model (`null` when the model has none). */
  readonly values: (number | null)[];
  /** One bootstrap interval per model (`null` when there is none). */
  readonly intervals: (ReportInterval | null)[];
  /** Indices of the models that are best beyond the noise (empty when no model is: ties, overlapping intervals). */
  readonly best: number[];
}

/**
 * The metrics table of a report: the keys in `um metrics` order, values and intervals per model (internal).
 *
 * A model is marked best only when the data say so: with two models, when the paired comparison's interval names it
 * (the verdict of `um compare`); otherwise (three or more models, or a metric the comparison leaves out) when its
 * value is the unique best and its interval does not overlap any other model's. Ties are never marked.
 */
export function metricRows(report: Report): MetricRow[] {
  const comparison = report.models.length === 2 ? report.summary.comparisons[0] : undefined;
  return Object.entries(METRICS).flatMap(([key, { meaning, better }]) => {
    const values = report.models.map((m) => {
      const v = (m.evaluation as unknown as Record<string, unknown>)[key];
      return typeof v === 'number' ? v : null;
    });
    if (values.every((v) => v === null)) return [];
    const intervals = report.models.map((_, j) => report.intervals.models[j]?.[key] ?? null);
    let best: number[] = [];
    const paired = comparison?.metrics.find((m) => m.metric === key);
    if (better !== null && paired !== undefined) {
      best = paired.verdict === 'A better' ? [0] : paired.verdict === 'B better' ? [1] : [];
    } else if (better !== null && report.models.length > 1) {
      const finite = values.flatMap((v, j) => (v !== null && !Number.isNaN(v) ? [j] : []));
      const sign = better === 'lower' ? 1 : -1;
      const order = [...finite].sort((a, b) => sign * ((values[a] as number) - (values[b] as number)));
      const top = order[0];
      const i = top === undefined ? null : intervals[top];
      const apart = (j: number) => {
        const k = intervals[j];
        return (
          i !== null &&
          i !== undefined &&
          k !== null &&
          k !== undefined &&
          (better === 'lower' ? i.upper < k.lower : i.lower > k.upper)
        );
      };
      if (top !== undefined && finite.length === values.length && order.slice(1).every(apart)) best = [top];
    }
    return [{ key, name: FRIENDLY[key] ?? key, meaning, better, values, intervals, best }];
  });
}
