import { colorBy, dashBy, frame, thin } from './common.js';
import type { VegaLiteSpec } from './types.js';

/** One curve to draw: its label and its points (internal). */
export interface Curve {
  readonly label: string;
  readonly points: ReadonlyArray<Record<string, number | null>>;
}

/** A line chart of curves, one colour per model; extra layers (reference lines) are drawn underneath (internal). */
export function lineChart(
  title: string | undefined,
  curves: readonly Curve[],
  axes: {
    x: string;
    y: string;
    xTitle: string;
    yTitle: string;
    xDomain?: [number, number];
    yDomain?: [number, number];
    xReverse?: boolean;
    interpolate?: string;
  },
  dims: { width: number; height: number },
  under: unknown[] = [],
): VegaLiteSpec {
  const labels = curves.map((c) => c.label);
  const values = curves.flatMap((c) => thin(c.points).map((p, order) => ({ model: c.label, order, ...p })));
  const x = {
    field: axes.x,
    type: 'quantitative',
    title: axes.xTitle,
    scale: {
      ...(axes.xDomain === undefined ? {} : { domain: axes.xDomain }),
      ...(axes.xReverse === true ? { reverse: true } : {}),
    },
  };
  const y = {
    field: axes.y,
    type: 'quantitative',
    title: axes.yTitle,
    scale: axes.yDomain === undefined ? { zero: false } : { domain: axes.yDomain },
  };
  return frame(title, {
    width: dims.width,
    height: dims.height,
    layer: [
      ...under,
      {
        data: { values },
        mark: { type: 'line', ...(axes.interpolate === undefined ? {} : { interpolate: axes.interpolate }) },
        encoding: {
          x,
          y,
          color: colorBy(labels),
          strokeDash: dashBy(labels),
          order: { field: 'order', type: 'quantitative' },
        },
      },
    ],
  });
}

/** A dashed grey reference line through two points (internal). */
export function referenceLine(a: [number, number], b: [number, number], fields: { x: string; y: string }): unknown {
  return {
    data: {
      values: [
        { [fields.x]: a[0], [fields.y]: a[1] },
        { [fields.x]: b[0], [fields.y]: b[1] },
      ],
    },
    mark: { type: 'line', color: '#999', strokeDash: [4, 4] },
    encoding: { x: { field: fields.x, type: 'quantitative' }, y: { field: fields.y, type: 'quantitative' } },
  };
}
