import { INPUT_KEYS, WEIGHT_KEYS, checkOptions } from '../errors/checkOptions.js';
import type { InputOptions, Labels, Scores } from '../input/types.js';
import type { WeightRules } from '../input/weights.js';
import type { RowStats } from '../kernels/rowStatsTypes.js';
import { emitWarning, type UMWarning, type WarningHandler, type WarningOptions } from '../warnings/warnings.js';
import { Computation, type Member, type Outcome } from './computation.js';
import type { Batch, MetricDefinition, StateMode } from './definition.js';
import { labeledBatch, valueOf, weightedRows, weightRulesOf, type RunOptions } from './inputs.js';
import { OrderCache, RowOrigin, setOrigin } from '../accumulate/orderHints.js';
import { labelArray } from '../input/labelArray.js';
import { probMatrix } from '../input/probMatrix.js';

/** What a suite's `assemble` may use besides the members' outcomes. */
export interface SuiteContext {
  readonly fn: string;
  readonly computation: Computation;
  warn(warning: UMWarning): void;
}

/**
 * One or more metrics computed together from one set of stores: a single metric (its function and state) or a suite
 * such as `evaluate` — the in-memory call, `createState`, `evaluateParallel`, `um metrics --stream` and `bootstrap`
 * all run the same suite, so their options, key names, warnings and `null`s cannot diverge (internal).
 */
export interface Suite<R> {
  readonly name: string;
  /** Option keys beyond the input options, `weights` and `onWarning`. */
  readonly keys: readonly string[];
  /** The members for these options (each validated and resolved by its definition). */
  members(fn: string, options: Readonly<Record<string, unknown>>, mode: StateMode): Member[];
  /** The result from the members' outcomes. */
  assemble(outcomes: Map<string, Outcome>, context: SuiteContext): R;
  /** What the weights must be (default: every member's rules); a suite may report a member null instead. */
  weightRules?(members: readonly Member[]): WeightRules;
}

/** The weight rules of a suite's input. */
export function suiteWeightRules(suite: Suite<unknown>, members: readonly Member[]): WeightRules {
  return suite.weightRules?.(members) ?? weightRulesOf(members);
}

/** The suite of one metric: its value, or its error thrown. */
export function single<C, R>(def: MetricDefinition<C, R>): Suite<R> {
  return {
    name: def.name,
    keys: def.keys,
    members: (fn, options) => [{ key: def.name, def: def as MetricDefinition, config: def.resolve(fn, options) }],
    assemble: (outcomes) => valueOf(outcomes.get(def.name)) as R,
  };
}

/**
 * Runs a suite on one set of labelled probabilities — what a public function does; `stats` are row statistics already
 * computed (the threaded pass) (internal).
 */
export function runSuite<R>(
  suite: Suite<R>,
  fn: string,
  labels: Labels,
  scores: Scores,
  options: RunOptions = {},
  stats?: RowStats,
): R {
  checkOptions(fn, options, INPUT_KEYS, WEIGHT_KEYS, ['onWarning'], suite.keys);
  const members = suite.members(fn, options as Readonly<Record<string, unknown>>, 'exact');
  const computation = new Computation(fn, members, 'exact');
  return finishOne(
    suite,
    computation,
    labeledBatch(fn, labels, scores, options, computation.statsMode(), suiteWeightRules(suite, members), stats),
    options,
  );
}

/**
 * A suite prepared for many weightings of the same rows (a bootstrap's resamples): options checked and resolved,
 * scores and labels validated and their row statistics computed once; each call validates only its weights, and gives
 * what `runSuite(suite, fn, labels, scores, { ...options, weights, onWarning })` gives (internal).
 */
export function prepareSuite<R>(
  suite: Suite<R>,
  fn: string,
  labels: Labels,
  scores: Scores,
  options: InputOptions & Readonly<Record<string, unknown>> = {},
): (weights: ArrayLike<number> | undefined, onWarning?: WarningHandler) => R {
  checkOptions(fn, options, INPUT_KEYS, suite.keys);
  const members = suite.members(fn, options as Readonly<Record<string, unknown>>, 'exact');
  const statsMode = new Computation(fn, members, 'exact').statsMode();
  const rules = suiteWeightRules(suite, members);
  // ln p kept at the labels only, as in labeledBatch
  const p = probMatrix(fn, scores, options, statsMode, undefined, { labels });
  const y = labelArray(fn, labels, p.n, p.numClasses);
  // the sort orders of the rows' key columns, computed once and carried over to every weighting's kept rows
  const orders = new OrderCache();
  const source = { p, y, w: undefined };
  setOrigin(p, new RowOrigin(source, undefined, orders));
  return (weights, onWarning) => {
    const computation = new Computation(fn, members, 'exact');
    const { batch, rows } = weightedRows(fn, p, y, weights, statsMode, rules);
    if (batch.p !== p) setOrigin(batch.p, new RowOrigin(source, rows, orders));
    return finishOne(suite, computation, batch, onWarning === undefined ? {} : { onWarning });
  };
}

/** Runs a suite on one validated batch (internal; `evaluateEnsemble` on the mean prediction). */
export function runSuiteOnBatch<R>(
  suite: Suite<R>,
  fn: string,
  batch: Batch,
  options: Readonly<Record<string, unknown>> & WarningOptions,
): R {
  const computation = new Computation(fn, suite.members(fn, options, 'exact'), 'exact');
  return finishOne(suite, computation, batch, options);
}

function finishOne<R>(suite: Suite<R>, computation: Computation, batch: Batch, options: WarningOptions): R {
  computation.add(batch);
  const warn = (w: UMWarning) => emitWarning(options, w);
  return suite.assemble(computation.finish(warn), { fn: computation.fn, computation, warn });
}
