import type { View, loader as vegaLoader } from 'vega';
import { fail } from '../errors/fail.js';
import { loadDependency } from '../errors/loadDependency.js';
import { UMError } from '../errors/UMError.js';
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
 * - Vega and Vega-Lite are optional packages, loaded on the first call (the chart functions return plain
 *   specifications and need neither).
 * - Only inline data is drawn: a `url` (data or image) is refused, so a specification cannot read local files into
 *   the SVG or make requests. An error inside Vega's dataflow (an unknown aggregate, a bad expression) fails the call.
 *
 * **References.**
 * - Satyanarayan, Moritz, Wongsuphasawat & Heer, "Vega-Lite: A Grammar of Interactive Graphics", IEEE TVCG 23 (2017),
 *   doi:10.1109/TVCG.2016.2599030.
 *
 * @param spec a Vega-Lite specification (from any chart function of this module).
 * @returns the SVG markup.
 * @throws {UMError} `UM_DEPENDENCY` when `vega` or `vega-lite` is not installed; `UM_OPTION` when the specification is not valid Vega-Lite, loads a URL, or fails in Vega's dataflow.
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
  const invalid = (error: unknown): never =>
    fail(
      'UM_OPTION',
      fn,
      'spec',
      `be a valid Vega-Lite specification (${(error instanceof Error ? error.message : String(error)).split('\n')[0]})`,
    );
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec))
    fail('UM_OPTION', fn, 'spec', 'be a Vega-Lite specification (an object)', { value: spec });
  // errors inside Vega's dataflow are logged, not thrown: they are collected here and fail the call (the SVG drawn
  // without the failing data used to be returned, with the error printed to the console)
  const errors: unknown[] = [];
  const logger = {
    level: () => logger,
    error: (...a: unknown[]) => void errors.push(a[0]),
    warn: () => logger,
    info: () => logger,
    debug: () => logger,
  };
  const { View, loader, parse } = await loadDependency(fn, 'vega', () => import('vega'), 'vega vega-lite');
  const { compile } = await loadDependency(fn, 'vega-lite', () => import('vega-lite'), 'vega vega-lite');
  let view: View;
  try {
    view = new View(parse(compile(spec as never).spec), {
      renderer: 'none',
      loader: noLoads(loader, errors),
      logger: logger as never,
    });
  } catch (error) {
    return invalid(error);
  }
  try {
    const svg = await view.toSVG();
    if (errors.length > 0) invalid(errors[0]);
    return svg;
  } catch (error) {
    if (error instanceof UMError) throw error;
    return invalid(error);
  } finally {
    view.finalize();
  }
}

/**
 * A loader that loads nothing: a specification is data, and its `url`s (data, images) would otherwise read local
 * files into the SVG (`file:///…` or a plain path) or make network requests. The library's charts hold their
 * data inline.
 */
function noLoads(loader: typeof vegaLoader, errors: unknown[]): ReturnType<typeof vegaLoader> {
  const l = loader();
  const refuse = async (uri: unknown): Promise<never> => {
    // Vega reports a failed load as a warning and draws without the data: the call fails instead
    const error = new Error(
      `no external data or images are loaded (inline the values); got the URL ${JSON.stringify(String(uri))}`,
    );
    errors.push(error);
    throw error;
  };
  l.load = refuse;
  l.sanitize = refuse;
  return l;
}
