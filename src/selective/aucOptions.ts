import { checkCount } from '../errors/checkCount.js';
import { presetOf } from '../options/binning.js';
import type { Precision } from '../binning/types.js';
import type { PresetName } from '../presets/presets.js';
import { unitMeasure, type SelectiveData } from './selectiveInput.js';
import { thresholdedAuc } from './thresholdedAuc.js';

/** Options of {@link auroc} and {@link aupr} beyond the selective input. */
export interface AucOptions {
  /**
   * `null` (default): exact, one point per distinct value. A number T ≥ 3: Keras' thresholded approximation with
   * T evenly spaced thresholds (uncertainty_metrics' `AUC` uses 200); the ranking values must lie in [0, 1].
   */
  thresholds?: number | null;
  /**
   * Compatibility preset supplying `thresholds` and the arithmetic of the approximation: both uncertainty-metrics
   * presets give Keras' `AUC` (200 thresholds, float32); the others are exact, and an explicit `thresholds` runs the
   * approximation in float64.
   */
  preset?: PresetName;
}

/** Resolves `thresholds` against the preset (internal). */
export function resolveAuc(fn: string, options: AucOptions): { thresholds: number | null; precision: Precision } {
  const preset = presetOf(fn, options.preset);
  const t = options.thresholds === undefined ? preset.auc.thresholds : options.thresholds;
  if (t !== null) checkCount(fn, 'options.thresholds', t, { min: 3, or: 'null (exact)' });
  return { thresholds: t, precision: preset.auc.precision };
}

/**
 * The thresholded area for selective data: positives `correct` ranked by confidence, or `error` ranked by
 * uncertainty, with the values Keras is fed (confidence, 1 − confidence, uncertainty or 1 − uncertainty).
 */
export function thresholdedSelectiveAuc(
  fn: string,
  d: SelectiveData,
  positive: 'correct' | 'error',
  curve: 'roc' | 'pr',
  thresholds: number,
  precision: Precision,
): number {
  const values = new Float64Array(d.n);
  const labels = new Uint8Array(d.n);
  const measure = unitMeasure(fn, d, 'the thresholded approximation (options.thresholds)');
  for (let i = 0; i < d.n; i++) {
    // the value that grows with the positive class: the measure itself when it points that way, else 1 − measure
    const m = measure[i] as number;
    values[i] = (d.sign === 1) === (positive === 'correct') ? m : 1 - m;
    labels[i] = positive === 'correct' ? (d.correct[i] as number) : 1 - (d.correct[i] as number);
  }
  return thresholdedAuc(values, labels, thresholds, curve, precision, d.weights);
}
