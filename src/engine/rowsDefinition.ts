import type { RowsStore } from '../accumulate/rowsStore.js';
import { fail } from '../errors/fail.js';
import type { MetricDefinition } from './definition.js';

/** A function of labelled probabilities recomputed on kept rows: `compute(labels, probs [N·C], options)`. */
export type RowsFunction<R> = (labels: Int32Array, probs: Float64Array, options: Record<string, unknown>) => R;

/** Options a state does not pass on to the function (the input was validated into probabilities). */
const INPUT = new Set(['input', 'numClasses', 'binary', 'sumTolerance', 'weights', 'onWarning', 'mode', 'cellBits']);

/**
 * The definition of a metric without a smaller sufficient statistic: its state keeps every row, and `result()` runs
 * the metric's own function on them in the canonical order — the function stays the one definition of the metric's
 * arithmetic (internal). Options are checked against `keys` when the state is made, and by the function at `result()`.
 */
export function rowsDefinition<R>(
  name: string,
  keys: readonly string[],
  compute: RowsFunction<R>,
): MetricDefinition<Record<string, unknown>, R> {
  return {
    name,
    keys,
    resolve: (_fn, options) =>
      Object.fromEntries(
        Object.entries(options).filter(([k, v]) => !INPUT.has(k) && typeof v !== 'function' && v !== undefined),
      ),
    requests: (fn, _cfg, mode) => {
      if (mode !== 'exact')
        fail('UM_OPTION', fn, 'options.mode', `be 'exact' for ${name} (its state keeps the rows)`, { value: mode });
      return [{ kind: 'rows' }];
    },
    finish: (cfg, [s], ctx) => {
      const store = s as RowsStore;
      if (store.rows === 0) fail('UM_EMPTY', ctx.fn, 'state', 'hold at least one row (call update first)');
      const rows = store.canonical();
      const options: Record<string, unknown> = { ...cfg, numClasses: rows.numClasses };
      if (rows.weights !== undefined) options.weights = rows.weights;
      return compute(rows.labels, rows.probs, options);
    },
  };
}
