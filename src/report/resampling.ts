import {
  forEachJackknifeGroup,
  forEachResample,
  numbersOf,
  Resampled,
  tryNumbers,
  type Numbers,
} from '../bootstrap/bootstrap.js';
import {
  methodFor,
  pairedDifference,
  pairedResult,
  pairedSetup,
  type PairedComparison,
  type PairedSetup,
} from '../bootstrap/comparePaired.js';
import type { BootstrapInterval, BootstrapMethod } from '../bootstrap/intervals.js';
import { prepareSuite } from '../engine/suite.js';
import type { Evaluation } from '../evaluate/evaluate.js';
import { METRICS } from '../evaluate/metricInfo.js';
import { EVALUATE } from '../evaluate/suite.js';
import { JACKKNIFE_EVALUATE, jackknifeNeed } from '../bootstrap/jackknifeSuite.js';
import type { Labels, ProbMatrix } from '../input/types.js';
import type { PresetName } from '../presets/presets.js';

/** Level of the report's intervals. */
export const LEVEL = 0.95;

/** An interval of one metric in the report's table (internal shape of `Report.intervals`). */
export interface ReportInterval {
  readonly lower: number;
  readonly upper: number;
  /** How it was read from the resamples: BCa for smooth metrics, the conservative union for binned errors. */
  readonly method: BootstrapMethod;
}

/** A model whose rows are in memory (internal). */
export interface ResampledModel {
  readonly labels: Labels;
  readonly p: ProbMatrix;
}

/** What the report's bootstraps give (internal). */
export interface ReportResampling<M> {
  /** Per model, its table's intervals. */
  readonly tables: Map<M, Record<string, ReportInterval | null>>;
  /** Per compared model, its paired comparison with the baseline. */
  readonly comparisons: Map<M, PairedComparison>;
}

/** What the report bootstraps (internal). */
export interface ResamplingPlan<M> {
  /** The models in memory, in the report's order. */
  readonly models: readonly M[];
  /** The first model (when in memory) and the models compared with it (same rows and labels). */
  readonly baseline: M | undefined;
  readonly compared: readonly M[];
  readonly binning: { readonly bins?: number; readonly preset?: PresetName };
  readonly tableResamples: number;
  readonly compareResamples: number;
  readonly seed: number;
  /** Called when a model's table (or comparison) is complete. */
  readonly done: (what: 'table' | 'comparison', model: M) => void;
  /** Runs a model's computation with its name in errors. */
  readonly at: <T>(model: M, call: () => T) => T;
}

type Prepared = (weights: ArrayLike<number> | undefined, onWarning?: () => void) => Evaluation;

const quiet = () => undefined;
const tableMethod = (k: string) => methodFor(k, 'auto');

/** The evaluation, or null where it throws (a resample the metrics are undefined on). */
function tryEvaluate(f: Prepared, w: Float64Array): Evaluation | null {
  try {
    return f(w, quiet);
  } catch {
    return null;
  }
}

/**
 * The report's bootstraps — each model's table intervals (every metric of `evaluate`; 'auto' methods as
 * comparePaired: BCa, and the union for the binned errors) and each compared model's paired comparison with the
 * baseline (exactly comparePaired's, the class-wise errors left out) — in one pass over the resamples (internal).
 * Bootstraps of rows of one length with one seed draw the same resamples, so each model is evaluated once per resample
 * and once per jackknife group whatever the number of bootstraps reading it: the table's resample b (its evaluation
 * with the class-wise errors) is also the comparisons' resample b. Its other metrics are the same numbers as an
 * evaluation without them (every metric has its own stores); where it throws, the comparison evaluates without them,
 * as comparePaired does.
 */
export function reportResampling<M extends ResampledModel>(plan: ResamplingPlan<M>): ReportResampling<M> {
  const { binning, tableResamples, compareResamples, seed, at } = plan;
  const states = plan.models.map((m) =>
    at(m, () => {
      const full: Prepared = prepareSuite(EVALUATE, 'evaluate', m.labels, m.p, { ...binning, classwise: true });
      const lean: Prepared = prepareSuite(EVALUATE, 'evaluate', m.labels, m.p, { ...binning, classwise: false });
      // the evaluation BCa's jackknife needs for the model's BCa keys (its table's and its comparisons'): without the
      // binned errors unless one of them has a BCa interval ('auto' gives them union ones), bit for bit evaluate's
      const jackknife = (bca: readonly string[]): Prepared => {
        const need = jackknifeNeed(bca);
        if (need === 'full') return full;
        return need === 'lean'
          ? lean
          : prepareSuite(JACKKNIFE_EVALUATE, 'evaluate', m.labels, m.p, { ...binning, classwise: false });
      };
      const estimate = full(new Float64Array(m.p.n).fill(1), quiet);
      return {
        m,
        full,
        lean,
        jackknife,
        table: new Resampled(numbersOf(estimate as unknown as Record<string, unknown>)),
      };
    }),
  );
  type State = (typeof states)[number];
  const stateOf = (m: M) => states.find((s) => s.m === m) as State;
  const pairs = plan.compared.map((m) =>
    at(m, () => {
      const a = plan.baseline as M;
      const setup: PairedSetup = pairedSetup(a.labels, a.p, m.p, {
        ...binning,
        classwise: false,
        resamples: compareResamples,
        seed,
        onWarning: quiet,
      });
      const r = new Resampled(numbersOf(pairedDifference(setup.keys, setup.ea, setup.eb)));
      const bca = r.keys.filter((k) => methodFor(k, setup.settings.method) === 'bca');
      return { m, a: stateOf(a), b: stateOf(m), setup, r, bca };
    }),
  );
  // the resamples depend on the rows' number (the base weights are 1 each): one pass per length
  for (const n of new Set(states.map((s) => s.m.p.n))) {
    const group = states.filter((s) => s.m.p.n === n);
    const groupPairs = pairs.filter((x) => x.b.m.p.n === n);
    const inPairs = new Set(groupPairs.flatMap((x) => [x.a, x.b]));
    const tableBca = new Map(group.map((s) => [s, s.table.keys.filter((k) => tableMethod(k) === 'bca')]));
    const base = new Float64Array(n).fill(1);
    // the jackknife first (its evaluations do not depend on the resamples), so each bootstrap completes at its last one
    const jackknifed = group.filter((s) => (tableBca.get(s)?.length ?? 0) > 0 || inPairs.has(s));
    if (jackknifed.length > 0) {
      const bcaOf = (s: State) => [
        ...(tableBca.get(s) ?? []),
        ...groupPairs.filter((x) => x.a === s || x.b === s).flatMap((x) => x.bca),
      ];
      const prepared = new Map(jackknifed.map((s) => [s, at(s.m, () => s.jackknife(bcaOf(s)))]));
      forEachJackknifeGroup(base, (w) => {
        const jack = new Map(jackknifed.map((s) => [s, tryEvaluate(prepared.get(s) as Prepared, w)]));
        for (const s of group) {
          const bca = tableBca.get(s) ?? [];
          const e = jack.get(s);
          if (bca.length > 0) s.table.addGroup(e === null || e === undefined ? null : numbersOf(asRecord(e)), bca);
        }
        for (const x of groupPairs)
          if (x.bca.length > 0) x.r.addGroup(difference(x.setup, jack.get(x.a), jack.get(x.b)), x.bca);
      });
    }
    const count = Math.max(tableResamples, groupPairs.length > 0 ? compareResamples : 0);
    forEachResample(n, base, seed, count, (w, b) => {
      const forPairs = new Map<State, Evaluation | null>();
      for (const s of group) {
        let e: Evaluation | null = null;
        if (b < tableResamples) {
          e = tryEvaluate(s.full, w);
          s.table.add(e === null ? null : numbersOf(asRecord(e)));
        }
        if (b < compareResamples && inPairs.has(s)) forPairs.set(s, e ?? tryEvaluate(s.lean, w));
      }
      if (b < compareResamples)
        for (const x of groupPairs) x.r.add(difference(x.setup, forPairs.get(x.a), forPairs.get(x.b)));
      if (b === tableResamples - 1) for (const s of group) plan.done('table', s.m);
      if (b === compareResamples - 1) for (const x of groupPairs) plan.done('comparison', x.m);
    });
  }
  const tables = new Map(states.map((s) => [s.m, tableOf(s.table)]));
  const comparisons = new Map(pairs.map((x) => [x.m, pairedResult(x.setup, x.r)]));
  return { tables, comparisons };
}

const asRecord = (e: Evaluation) => e as unknown as Record<string, unknown>;

/** B − A of a resample or jackknife group, or null when either evaluation threw. */
function difference(
  setup: PairedSetup,
  a: Evaluation | null | undefined,
  b: Evaluation | null | undefined,
): Numbers | null {
  if (a === null || a === undefined || b === null || b === undefined) return null;
  return tryNumbers(() => pairedDifference(setup.keys, a, b));
}

/** The table's intervals: the metrics of {@link METRICS} (n and numClasses are the data's), clipped at 0. */
function tableOf(r: Resampled): Record<string, ReportInterval | null> {
  const out: Record<string, ReportInterval | null> = {};
  for (const [k, i] of Object.entries(r.intervals(LEVEL, tableMethod) as Record<string, BootstrapInterval>)) {
    if (!(k in METRICS)) continue;
    // every metric of the table is ≥ 0: the union interval of a small error can reach below 0, which no value can
    out[k] =
      i.lower === null || i.upper === null
        ? null
        : { lower: Math.max(0, i.lower), upper: i.upper, method: i.method ?? tableMethod(k) };
  }
  return out;
}

/** Whether two label arrays are the same rows (a paired comparison's precondition) (internal). */
export function sameRows(a: Labels, b: Labels): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (Number(a[i]) !== Number(b[i])) return false;
  return true;
}
