import { checkCount, MAX_COUNT } from '../errors/checkCount.js';
import { calibrationDefinition } from '../calibration/calibrationError.js';
import { UCE } from '../calibration/uce.js';
import type { MetricDefinition } from '../engine/definition.js';
import { valueOf } from '../engine/inputs.js';
import { runSuite, type Suite } from '../engine/suite.js';
import { fail } from '../errors/fail.js';
import { INPUT_KEYS, checkOptions } from '../errors/checkOptions.js';
import { within } from '../errors/within.js';
import { toProbabilities } from '../input/toProbabilities.js';
import type { InputOptions, Labels, Scores } from '../input/types.js';
import type { PresetName } from '../presets/presets.js';

/** Calibration errors at several numbers of bins. */
export interface BinSweep {
  /** One row per (metric, number of bins). */
  readonly rows: ReadonlyArray<{
    readonly metric: 'ECE' | 'ACE' | 'UCE';
    readonly bins: number;
    readonly value: number;
  }>;
}

/** Options of {@link binSweep}. */
export interface BinSweepOptions extends InputOptions {
  /** Numbers of bins (default 2, 4, …, 40). */
  bins?: readonly number[];
  /** Binning conventions (default `'default'`). */
  preset?: PresetName;
}

/**
 * ECE, ACE and UCE at several numbers of bins — the data of the UCE paper's Fig. 1 (how sensitive each metric is to the
 * binning), for {@link binSweepChart}.
 *
 * **Formula.** For each B: {@link uncertainty-metrics!ece}, {@link uncertainty-metrics!ace} and
 * {@link uncertainty-metrics!uce} with `bins: B`.
 *
 * **Conventions.**
 * - The input is validated once; each value equals the metric function called with the same options.
 *
 * **References.**
 * - "Uncertainty Calibration Error: A New Metric for Multi-Class Classification", ICLR 2020 submission, Fig. 1.
 *
 * @param labels N integer labels.
 * @param scores [N, C] scores of the declared kind.
 * @param options `bins` (list), `preset`, input options.
 * @returns a {@link BinSweep}.
 * @throws {UMError} on invalid input or options.
 * @example
 * ```js
 * import { binSweep } from 'uncertainty-metrics/plot';
 * binSweep([0, 1, 1], [[0.9, 0.1], [0.2, 0.8], [0.6, 0.4]], { bins: [2, 5] }).rows.length; // => 6
 * ```
 */
export function binSweep(labels: Labels, scores: Scores, options: BinSweepOptions = {}): BinSweep {
  const fn = 'binSweep';
  checkOptions(fn, options, INPUT_KEYS, ['bins', 'preset']);
  const { bins = Array.from({ length: 20 }, (_, i) => 2 * (i + 1)), preset, ...input } = options;
  if (!Array.isArray(bins) || bins.length === 0)
    fail('UM_OPTION', fn, 'options.bins', 'be a non-empty array of integers ≥ 1', { value: bins });
  if (bins.length > MAX_COUNT)
    fail('UM_OPTION', fn, 'options.bins', `hold at most ${MAX_COUNT} numbers of bins`, { value: bins });
  for (let j = 0; j < bins.length; j++) checkCount(fn, 'options.bins', bins[j], {}, [j]);
  return within(fn, () => {
    const p = toProbabilities(scores, input);
    // every (metric, bins) pair as a member of one computation on one batch: the labels are read and the row statistics
    // computed once, and the ACE's kept entries (every probability, sorted: most of a sweep's time) are one store
    // shared by its 20 bin counts, not sorted again for each (measured on logreg's 2000 × 10 probabilities, default
    // bins: 43 → 14 ms a sweep, the same numbers). Each value is the metric function's with these options: its own
    // definition, the kept entries read in its own bins
    const members = bins.flatMap((b) => {
      const o = { bins: b, ...(preset === undefined ? {} : { preset }) };
      return METRICS.map((metric) => ({
        key: `${metric}:${b}`,
        def: DEFINITIONS[metric],
        config: DEFINITIONS[metric].resolve(fn, o),
      }));
    });
    const suite: Suite<BinSweep['rows']> = {
      name: fn,
      keys: [],
      members: () => members,
      assemble: (outcomes) =>
        bins.flatMap((b) =>
          METRICS.map((metric) => ({ metric, bins: b, value: valueOf(outcomes.get(`${metric}:${b}`)) as number })),
        ),
    };
    return { rows: runSuite(suite, fn, labels, p) };
  });
}

const METRICS = ['ECE', 'ACE', 'UCE'] as const;
const DEFINITIONS: Record<(typeof METRICS)[number], MetricDefinition> = {
  ECE: calibrationDefinition('ece') as MetricDefinition,
  ACE: calibrationDefinition('ace') as MetricDefinition,
  UCE: UCE as MetricDefinition,
};
