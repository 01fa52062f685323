/** A Vega-Lite specification (plain JSON; render it with {@link renderSvg} or any Vega-Lite viewer). */
export type VegaLiteSpec = Record<string, unknown>;

/** One model's data for a chart that compares several. */
export interface Named<T> {
  readonly name: string;
  readonly data: T;
}

/** A chart's data: one result, or several named ones drawn together with a legend. */
export type Series<T> = T | ReadonlyArray<Named<T>>;

/** Options every chart takes. */
export interface ChartOptions {
  /** Title above the chart. */
  title?: string;
  /** Width of the plotting area in pixels (default 360). */
  width?: number;
  /** Height of the plotting area in pixels (default 260). */
  height?: number;
}
