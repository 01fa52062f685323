/* eslint-disable no-sparse-arrays -- holes in series lists are among the bad inputs */
/** Helpers of the chart tests (test/plot/): rounded SVG snapshots, legend entries, damaged results. */
import { expect } from 'vitest';
import { UMError } from '../../src/index.js';
import type { VegaLiteSpec } from '../../src/plot/index.js';
import { failure } from './failure.js';

/** SVG with every number rounded to one decimal: stable across platforms, still catches a changed chart. */
export function rounded(svg: string): string {
  return svg.replace(/-?\d+\.\d+(e-?\d+)?/g, (m) => {
    const v = Math.round(Number(m) * 10) / 10;
    return Object.is(v, -0) ? '0' : String(v);
  });
}

/** The legend entries of an SVG: label text, symbol stroke colour and dash (internal to the tests). */
export function legendEntries(svg: string): { label: string; stroke: string; dash: string }[] {
  const out: { label: string; stroke: string; dash: string }[] = [];
  const re =
    /<g class="mark-symbol role-legend-symbol"[^>]*><path ([^>]*)\/><\/g><g class="mark-text role-legend-label"[^>]*><text[^>]*>([^<]*)<\/text>/g;
  for (const m of svg.matchAll(re)) {
    const attrs = m[1] as string;
    out.push({
      label: (m[2] as string).replace(/&amp;/g, '&'),
      stroke: /stroke="([^"]+)"/.exec(attrs)?.[1] ?? 'none',
      dash: /stroke-dasharray="([^"]+)"/.exec(attrs)?.[1] ?? 'solid',
    });
  }
  return out;
}

/**
 * Every field of each chart's data replaced by a hostile value (alone and in a series): a located UMError naming
 * the series, or a spec without NaN or undefined; holes in a series list are located too. Returns the errors seen.
 */
export function damagedResults(cases: [string, (s: never, o?: never) => VegaLiteSpec, unknown][]): number {
  const HOSTILE = [undefined, null, NaN, Infinity, -Infinity, 'x', {}, [], 10n];
  /** Paths to every value in `x` (arrays: first and last entry). */
  const paths = (x: unknown, at: (string | number)[] = []): (string | number)[][] => {
    if (x === null || typeof x !== 'object') return [at];
    const keys = Array.isArray(x) ? [...new Set([0, x.length - 1])].filter((i) => i >= 0) : Object.keys(x);
    return [at, ...keys.flatMap((k) => paths((x as Record<string | number, unknown>)[k], [...at, k]))];
  };
  const replaced = (x: unknown, path: (string | number)[], v: unknown): unknown => {
    if (path.length === 0) return v;
    const out = Array.isArray(x) ? [...x] : { ...(x as object) };
    (out as Record<string | number, unknown>)[path[0] as string] = replaced(
      (x as Record<string | number, unknown>)[path[0] as string],
      path.slice(1),
      v,
    );
    return out;
  };
  const bad = (x: unknown): boolean =>
    x === undefined ||
    (typeof x === 'number' && !Number.isFinite(x)) ||
    (x !== null && typeof x === 'object' && Object.values(x).some(bad));
  let checked = 0;
  for (const [fn, chart, data] of cases) {
    expect(failure(() => chart(data as never, null as never)).message).toBe(
      `${fn}: options must be an object; got null`,
    );
    // holes in a series list (map skipped them; the spec got undefined names)
    for (const holes of [
      [, ,],
      [{ name: 'm', data }, , { name: 'n', data }],
    ])
      expect(failure(() => chart(holes as never)).message).toMatch(
        new RegExp(`^${fn}: series\\[\\d\\] must be \\{ name: string, data \\}.*; got undefined`),
      );
    for (const path of paths(data).slice(1)) {
      for (const v of HOSTILE) {
        for (const series of [replaced(data, path, v), [{ name: 'm', data: replaced(data, path, v) }]]) {
          let spec: VegaLiteSpec | undefined;
          try {
            spec = chart(series as never);
          } catch (e) {
            expect(e, `${fn} ${path.join('.')} = ${String(v)}`).toBeInstanceOf(UMError);
            expect((e as UMError).message).toMatch(new RegExp(`^${fn}: series`));
            checked++;
            continue;
          }
          expect(bad(spec), `${fn} ${path.join('.')} = ${String(v)}: ${JSON.stringify(spec).slice(0, 200)}`).toBe(
            false,
          );
        }
      }
    }
  }
  return checked;
}
