import type { Store } from '../accumulate/store.js';
import { JsonPath } from '../accumulate/store.js';
import { UMError } from '../errors/UMError.js';
import type { ScoreKind } from '../input/types.js';
import type { RowStatsMode } from '../kernels/rowStatsTypes.js';
import type { UMWarning } from '../warnings/warnings.js';
import { Accumulator } from './accumulator.js';
import type { Batch, FinishContext, MetricDefinition, StateMode, StoreRequest } from './definition.js';

/** One metric of a computation: its definition and resolved configuration, under a key (its result's name). */
export interface Member {
  readonly key: string;
  readonly def: MetricDefinition;
  readonly config: unknown;
}

/** A member's outcome: its value, or the typed error its finish threw (a suite may report it as null). */
export type Outcome = { readonly value: unknown } | { readonly error: UMError };

/** The requests each list of members was planned into, per mode, cell bits and function (kept with the list). */
const PLANS = new WeakMap<
  readonly Member[],
  Map<string, { requests: StoreRequest[]; offsets: number[]; counts: number[] }>
>();

/**
 * One or more metrics accumulated together: their requests planned into shared stores, fed batch by batch, merged and
 * finished. The public functions run one batch through it, `evaluate` runs its suite through it, and a mergeable
 * state keeps one — so every form of a metric is the same code on the same stores (internal).
 */
export class Computation {
  private readonly requests: StoreRequest[];
  private readonly offsets: number[] = [];
  private readonly counts: number[] = [];
  private accumulator: Accumulator | undefined;
  /** Whether any batch carried weights. */
  weighted = false;
  /** The declared kind of the scores and whether they were one P(y = 1) per row (from the first batch). */
  input: { input: ScoreKind; binary: boolean } = { input: 'probs', binary: false };

  constructor(
    readonly fn: string,
    readonly members: readonly Member[],
    readonly mode: StateMode,
    readonly cellBits?: number,
    /** The function named by errors of the plan (a state's `createState`); default `fn`. */
    planFn = fn,
  ) {
    const key = `${mode}|${cellBits ?? ''}|${planFn}`;
    let plans = PLANS.get(members);
    const known = plans?.get(key);
    if (known !== undefined) {
      // the same members planned alike (a prepared suite's every weighting): requests are plain descriptions
      this.requests = known.requests;
      this.offsets = known.offsets;
      this.counts = known.counts;
      return;
    }
    this.requests = [];
    for (const m of members) {
      const own = m.def.requests(planFn, m.config, mode, cellBits);
      this.offsets.push(this.requests.length);
      this.counts.push(own.length);
      this.requests.push(...own);
    }
    if (plans === undefined) PLANS.set(members, (plans = new Map()));
    plans.set(key, { requests: this.requests, offsets: this.offsets, counts: this.counts });
  }

  /** The row statistics the members need from the validating pass (levels: 1 adds Σp², 2 adds Σp·ln p too). */
  statsMode(): RowStatsMode {
    let mode: RowStatsMode = 0;
    for (const m of this.members) mode = Math.max(mode, m.def.statsMode?.(m.config) ?? 0) as RowStatsMode;
    return mode;
  }

  get numClasses(): number | undefined {
    return this.accumulator?.numClasses;
  }

  /** Fixes the number of classes (the stores are made then). */
  ensure(numClasses: number): Accumulator {
    this.accumulator ??= new Accumulator(this.fn, this.requests, numClasses);
    return this.accumulator;
  }

  /** Every store (none before the first batch) — for the CLI's two passes over a file (state/twoPass.ts). */
  get stores(): readonly Store[] {
    return this.accumulator?.stores ?? [];
  }

  /** Rows added (of weight > 0). */
  rows = 0;

  /**
   * Adds a validated batch. Without `keep` the batch is lent until {@link finish} (see `Accumulator.add`): its arrays
   * must not change before then — true of a function call, which finishes before its caller runs again; a state, whose
   * user may reuse the arrays between updates, passes `keep`.
   */
  add(batch: Batch, keep = false): void {
    for (const m of this.members) m.def.checkBatch?.(this.fn, m.config, batch);
    this.rows += batch.p.n;
    if (batch.w !== undefined) this.weighted = true;
    if (this.accumulator === undefined) this.input = { input: batch.p.input, binary: batch.p.binary };
    this.ensure(batch.p.numClasses).add(batch, keep);
  }

  merge(other: Computation): void {
    if (other.accumulator === undefined) return;
    if (this.accumulator === undefined) this.input = other.input;
    this.weighted ||= other.weighted;
    this.rows += other.rows;
    this.ensure(other.accumulator.numClasses).merge(other.accumulator);
  }

  private context(warn: (w: UMWarning) => void): FinishContext {
    return {
      fn: this.fn,
      numClasses: this.accumulator?.numClasses ?? 0,
      mode: this.mode,
      weighted: this.weighted,
      warn,
    };
  }

  private storesOf(k: number): Store[] {
    return (this.accumulator as Accumulator).storesOf(this.offsets[k] as number, this.counts[k] as number);
  }

  /**
   * Every member's value or typed error (other errors propagate). The members' warnings are passed on once every member
   * has finished, so no handler of the caller runs while a lent batch is still being read.
   */
  finish(warn: (w: UMWarning) => void): Map<string, Outcome> {
    const out = new Map<string, Outcome>();
    const warnings: UMWarning[] = [];
    const context = this.context((w) => warnings.push(w));
    try {
      this.members.forEach((m, k) => {
        try {
          out.set(m.key, { value: m.def.finish(m.config, this.storesOf(k), context) });
        } catch (error) {
          if (!(error instanceof UMError)) throw error;
          out.set(m.key, { error });
        }
      });
    } finally {
      for (const w of warnings) warn(w);
    }
    return out;
  }

  /** Per member: its bound (0 where every store is exact; null where none is proven). */
  bounds(warn: (w: UMWarning) => void): Map<string, number | null> {
    const out = new Map<string, number | null>();
    const context = this.context(warn);
    this.members.forEach((m, k) => {
      out.set(
        m.key,
        this.mode === 'exact' || m.def.bound === undefined ? 0 : m.def.bound(m.config, this.storesOf(k), context),
      );
    });
    return out;
  }

  /** Whether no batch was added. */
  isEmpty(): boolean {
    return this.accumulator === undefined;
  }

  toJSON(typed = false): unknown[] | null {
    return this.accumulator?.toJSON(typed) ?? null;
  }

  /** Restores the stores from {@link toJSON} for `numClasses` classes, checking every field. */
  load(json: unknown, numClasses: number, at: JsonPath): void {
    this.accumulator = Accumulator.fromJSON(this.fn, this.requests, numClasses, json, at);
  }
}

/** A JSON path for messages about a state's stores. */
export function storesPath(fn: string): JsonPath {
  return new JsonPath(fn, 'state.stores');
}
