import type { MeanStore } from '../accumulate/meanStore.js';
import type { MetricDefinition } from '../engine/definition.js';
import { runMetric } from '../engine/run.js';
import type { Labels, Scores } from '../input/types.js';
import type { WeightOptions } from '../input/weights.js';
import { meanOf } from './accuracy.js';
import { nllRows, resolveNllOptions, type NllOptions, type NllSettings } from './nllPerExample.js';

/**
 * Negative log-likelihood (log loss, cross-entropy) of the labels: the mean of −ln p(y | x).
 *
 * **Formula.** NLL = −(1/N)·Σ_i ln p_{i,y_i}; from logits −ln softmax(z_i)\_{y_i} = LSE(z_i) − z_{i,y_i}.
 *
 * **Conventions.**
 * - Natural logarithm. No clipping and no renormalisation by default: an exact 0 gives Infinity plus a
 *   `UM_W_INFINITE` warning; `clip` bounds it explicitly. `preset: 'sklearn'` clips at machine epsilon
 *   (scikit-learn ≥ 1.5; add `renormalize: true` for 1.2–1.4).
 * - Logits and log-probabilities are used in log space (no underflow).
 *
 * **References.**
 * - Good, J. R. Stat. Soc. B 1952, doi:10.1111/j.2517-6161.1952.tb00104.x.
 * - Gneiting & Raftery, JASA 2007, doi:10.1198/016214506000001437.
 *
 * @param labels N integer labels in [0, C).
 * @param scores [N, C] scores of the declared kind.
 * @param options `clip`, `renormalize`, `precision`, `preset`, `onWarning` and input options.
 * @returns the mean NLL in nats.
 * @throws {UMError} on invalid input or options.
 * @example
 * ```js
 * import { nll } from 'uncertainty-metrics';
 * nll([0, 1], [[0.5, 0.5], [0.9, 0.1]]); // ≈ 1.4978661368
 * nll([0], [[0, 1]], { clip: 1e-15, onWarning: () => {} }); // ≈ 34.5387763949
 * ```
 */
export function nll(labels: Labels, scores: Scores, options: NllOptions & WeightOptions = {}): number {
  return runMetric(NLL, 'nll', labels, scores, options);
}

/** The definition of the NLL (internal; the function, state and `evaluate` entry derive from it). */
export const NLL: MetricDefinition<NllSettings, number> = {
  name: 'nll',
  keys: ['clip', 'renormalize', 'precision', 'preset'],
  resolve: (fn, options) => resolveNllOptions(fn, options as NllOptions),
  requests: (_fn, cfg) => [
    {
      kind: 'mean',
      key: `nll:${String(cfg.clip)}|${cfg.renormalize}|${cfg.precision}`,
      // the warning is given once, from every batch's count, when finishing
      values: ({ p, y }, fn) => nllRows(fn, p, y, cfg, { onWarning: () => {} }),
    },
  ],
  finish: (_cfg, [s], ctx) => {
    const store = s as MeanStore;
    if (store.nonFinite > 0) {
      ctx.warn({
        code: 'UM_W_INFINITE',
        fn: ctx.fn,
        // (where the first one is depends on how a state's batches were merged: it is in the details, not the message)
        message: `${ctx.fn}: ${store.nonFinite} of ${store.rows} rows give probability exactly 0 to their label; the NLL is Infinity — pass clip to bound it`,
        details: { rows: store.nonFinite, first: store.firstNonFinite },
      });
    }
    return meanOf(ctx.fn, store);
  },
};
