/**
 * Vega-Lite charts of the metrics' tables and curves, and a headless SVG renderer (browsers and Node).
 *
 * @module uncertainty-metrics/plot
 */
// uncertainty-metrics/plot — Vega-Lite charts of the metrics' tables and curves, and a headless SVG renderer.
// Re-exports only.
export { reliabilityDiagram } from './reliabilityDiagram.js';
export { riskCoverageChart } from './riskCoverageChart.js';
export { rejectionChart } from './rejectionChart.js';
export { rocChart } from './rocChart.js';
export { precisionRecallChart } from './precisionRecallChart.js';
export { binSweep } from './binSweep.js';
export type { BinSweep, BinSweepOptions } from './binSweep.js';
export { binSweepChart } from './binSweepChart.js';
export { temperatureSweep } from './temperatureSweep.js';
export type { TemperatureSweep, TemperatureSweepOptions } from './temperatureSweep.js';
export { temperatureChart } from './temperatureChart.js';
export { oodChart } from './oodChart.js';
export { smoothReliabilityChart } from './smoothReliabilityChart.js';
export { classwiseReliabilityChart } from './classwiseReliabilityChart.js';
export type { ClasswiseChartOptions } from './classwiseReliabilityChart.js';
export { confidenceHistogram } from './confidenceHistogram.js';
export { renderSvg } from './renderSvg.js';
export type { ChartOptions, Named, Series, VegaLiteSpec } from './types.js';
