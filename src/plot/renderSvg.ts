import { View, parse } from 'vega';
import { compile } from 'vega-lite';
import { fail } from '../errors/fail.js';
import type { VegaLiteSpec } from './types.js';

/**
 * Renders a Vega-Lite specification to an SVG string, headless: no browser, no canvas, no DOM.
 *
 * **Formula.** Not applicable (rendering): Vega-Lite → Vega → Vega's SVG string renderer.
 *
 * **Conventions.**
 * - Deterministic: the same specification gives the same SVG. Text widths are Vega's estimates (no fonts are
 *   measured), so layout does not depend on the machine.
 * - Text in the SVG is escaped by Vega's renderer.
 *
 * **References.**
 * - Satyanarayan, Moritz, Wongsuphasawat & Heer, "Vega-Lite: A Grammar of Interactive Graphics", IEEE TVCG 23 (2017),
 *   doi:10.1109/TVCG.2016.2599030.
 *
 * @param spec a Vega-Lite specification (from any chart function of this module).
 * @returns the SVG markup.
 * @throws {UMError} `UM_OPTION` when the specification is not valid Vega-Lite.
 * @example
 * ```js
 * import { renderSvg, rocChart } from 'uncertainty-metrics/plot';
 * import { rocCurve } from 'uncertainty-metrics';
 * const svg = await renderSvg(rocChart(rocCurve([0, 0, 1, 0], [[0.9, 0.1], [0.2, 0.8], [0.3, 0.7], [0.4, 0.6]])));
 * svg.startsWith('<svg'); // => true
 * ```
 */
export async function renderSvg(spec: VegaLiteSpec): Promise<string> {
  const fn = 'renderSvg';
  let vega;
  try {
    vega = compile(spec as never).spec;
  } catch (error) {
    fail('UM_OPTION', fn, 'spec', `be a valid Vega-Lite specification (${error instanceof Error ? error.message : String(error)})`);
  }
  const view = new View(parse(vega), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
