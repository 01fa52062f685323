import type { MeanStore } from '../accumulate/meanStore.js';
import type { MetricDefinition } from '../engine/definition.js';
import { rowEntropy } from '../measures/rowEntropy.js';
import { meanOf } from './accuracy.js';

/**
 * The definition of the mean Shannon entropy of the predictions, in nats (0·ln 0 = 0) — `evaluate`'s `meanEntropy`
 * (internal; per-row entropies are the public `entropy`).
 */
export const MEAN_ENTROPY: MetricDefinition<Record<string, never>, number> = {
  name: 'meanEntropy',
  keys: [],
  resolve: () => ({}),
  statsMode: () => 2,
  requests: () => [{ kind: 'mean', key: 'entropy', values: ({ p }) => rowEntropy(p) }],
  finish: (_cfg, [store], ctx) => meanOf(ctx.fn, store as MeanStore),
};
