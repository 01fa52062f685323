import { METRICS } from '../evaluate/metricInfo.js';
import type { Report } from './createReport.js';

/** A row of the metrics table (internal). */
export interface MetricRow {
  readonly key: string;
  readonly meaning: string;
  /** One value per model (`null` when the model has none). */
  readonly values: (number | null)[];
  /** Indices of the best models (empty for one model or a descriptive row). */
  readonly best: number[];
}

/** The metrics table of a report: the keys in `um metrics` order, values per model, best marked (internal). */
export function metricRows(report: Report): MetricRow[] {
  return Object.entries(METRICS).flatMap(([key, { meaning, better }]) => {
    const values = report.models.map((m) => {
      const v = (m.evaluation as unknown as Record<string, unknown>)[key];
      return typeof v === 'number' ? v : null;
    });
    if (values.every((v) => v === null)) return [];
    const finite = values.filter((v): v is number => v !== null && !Number.isNaN(v));
    let best: number[] = [];
    if (better !== null && report.models.length > 1 && finite.length > 1) {
      const target = better === 'lower' ? Math.min(...finite) : Math.max(...finite);
      best = values.flatMap((v, j) => (v === target ? [j] : []));
    }
    return [{ key, meaning, values, best }];
  });
}
