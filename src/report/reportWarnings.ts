import type { UMWarning, WarningHandler } from '../warnings/warnings.js';

/** A warning of a report: what a computation said, whose it is, and where the report shows it. */
export interface ReportWarning {
  /** Stable warning code (`UM_W_…`). */
  readonly code: string;
  /** The message, starting with the function that warned. */
  readonly message: string;
  /** The model whose computation warned (`null`: the report as a whole). */
  readonly model: string | null;
  /** Keys of the metrics table's rows it concerns (its ⚠ sits in the model's cell of each). */
  readonly metrics: string[];
  /** Ids of the charts it concerns (it is repeated above each). */
  readonly charts: string[];
}

/** The charts that draw a metric's curve or its inputs (internal). */
const CHARTS_OF: Readonly<Record<string, readonly string[]>> = {
  nll: ['temperature'],
  auroc: ['roc'],
  aupr: ['pr'],
  aurc: ['risk-coverage'],
  eaurc: ['risk-coverage'],
};

/**
 * What a warning concerns (internal): the metric keys it lists in `details.metrics` (the evaluate suite's nulls),
 * or for an infinite NLL the NLL row (`evaluateEnsemble`'s own warning is the Gibbs NLL's); the charts drawing
 * those metrics. Anything else concerns the report as a whole and is listed at the top only.
 */
export function concerns(w: UMWarning): { metrics: string[]; charts: string[] } {
  const listed = w.details?.metrics;
  const metrics = Array.isArray(listed)
    ? listed.filter((k): k is string => typeof k === 'string')
    : w.code === 'UM_W_INFINITE'
      ? [w.fn === 'evaluateEnsemble' ? 'gibbsNll' : 'nll']
      : [];
  return { metrics, charts: [...new Set(metrics.flatMap((k) => CHARTS_OF[k] ?? []))] };
}

/** A warning handler collecting a model's warnings into `list`, each message once per model (internal). */
export function warningSink(list: ReportWarning[], model: string | null): WarningHandler {
  return (w) => {
    if (!list.some((x) => x.model === model && x.message === w.message))
      list.push({ code: w.code, message: w.message, model, ...concerns(w) });
  };
}
