import { KeptEntriesStore } from '../accumulate/keptEntries.js';
import { JsonPath } from '../accumulate/store.js';
import { Computation } from '../engine/computation.js';
import type { StateMode } from '../engine/definition.js';
import { labeledBatch } from '../engine/inputs.js';
import { suiteWeightRules, type Suite } from '../engine/suite.js';
import { INPUT_KEYS, checkOptions } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import type { InputOptions, Labels, ScoreKind, Scores } from '../input/types.js';
import { emitWarning, type UMWarning, type WarningOptions } from '../warnings/warnings.js';
import type { MetricState, StateJSON, StateOptions } from './types.js';

const STATE_KEYS = ['mode', 'cellBits', 'onWarning'] as const;
const INPUT = new Set<string>([...INPUT_KEYS, ...STATE_KEYS]);

/** JSON with object keys sorted, so equal configurations compare equal whatever the order they were written in. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as object).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/**
 * The mergeable state of a labelled-probability metric or suite: the same `Computation` (definitions, planner,
 * stores) its public function runs, fed batch by batch (internal; made by `createState`).
 */
export class EngineState<R> implements MetricState<R> {
  readonly mode: StateMode;
  readonly cellBits: number;
  private readonly computation: Computation;
  private readonly input: InputOptions;
  private readonly own: Record<string, unknown>;
  private readonly warnings: WarningOptions;

  constructor(
    readonly metric: string,
    private readonly suite: Suite<R>,
    options: StateOptions,
  ) {
    const fn = 'createState';
    checkOptions(fn, options, INPUT_KEYS, STATE_KEYS, suite.keys);
    const mode = options.mode ?? 'exact';
    if (mode !== 'exact' && mode !== 'bounded')
      fail('UM_OPTION', fn, 'options.mode', "be 'exact' or 'bounded'", { value: mode });
    const cellBits = options.cellBits ?? 8;
    if (typeof cellBits !== 'number' || !Number.isInteger(cellBits) || cellBits < 1 || cellBits > 12)
      fail('UM_OPTION', fn, 'options.cellBits', 'be an integer in [1, 12]', { value: cellBits });
    this.mode = mode;
    this.cellBits = cellBits;
    this.own = Object.fromEntries(
      Object.entries(options).filter(([k, v]) => !INPUT.has(k) && v !== undefined && typeof v !== 'function'),
    );
    this.input = Object.fromEntries(
      Object.entries(options).filter(([k, v]) => (INPUT_KEYS as readonly string[]).includes(k) && v !== undefined),
    ) as InputOptions;
    this.warnings = { ...(options.onWarning === undefined ? {} : { onWarning: options.onWarning }) };
    this.computation = new Computation(metric, suite.members(fn, this.own, mode), mode, cellBits, fn);
  }

  get numClasses(): number | null {
    return this.computation.numClasses ?? null;
  }

  update(labels: unknown, scores: unknown, batch: Record<string, unknown> = {}): this {
    const fn = `${this.metric}.update`;
    checkOptions(fn, batch, ['weights']);
    const c = this.numClasses;
    const input: InputOptions =
      c === null || this.input.binary === true ? this.input : { ...this.input, numClasses: c };
    const rules = { ...suiteWeightRules(this.suite, this.computation.members), exact: true, allowZeroTotal: true };
    const b = labeledBatch(
      fn,
      labels as Labels,
      scores as Scores,
      { ...input, ...(batch.weights === undefined ? {} : { weights: batch.weights as ArrayLike<number> }) },
      this.computation.statsMode(),
      rules,
    );
    if (c !== null && b.p.numClasses !== c)
      fail('UM_SHAPE', fn, 'scores', `have ${c} classes like the state's earlier rows`, { value: b.p.numClasses });
    // the caller owns the arrays and may change them before result(): the stores keep copies of what they keep
    this.computation.add(b, true);
    return this;
  }

  /** The configuration two states must share to merge. */
  private signature(): string {
    return stableJson({
      metric: this.metric,
      mode: this.mode,
      cellBits: this.mode === 'bounded' ? this.cellBits : null,
      options: this.own,
      input: this.input.input ?? 'probs',
      binary: this.input.binary ?? false,
    });
  }

  merge(other: MetricState<R>): this {
    const fn = `${this.metric}.merge`;
    if (!(other instanceof EngineState))
      return fail('UM_STATE', fn, 'other', `be a '${this.metric}' state made by createState or stateFromJSON`, {
        value: other,
      });
    if (other === this)
      fail(
        'UM_STATE',
        fn,
        'other',
        'be another state (merging a state with itself would count its rows twice; merge stateFromJSON(state.toJSON()) for that)',
      );
    const o = other as EngineState<R>;
    if (o.signature() !== this.signature())
      fail('UM_STATE', fn, 'other', `have the same metric and configuration (${this.signature()})`, {
        value: o.signature(),
      });
    if (this.numClasses !== null && o.numClasses !== null && o.numClasses !== this.numClasses)
      fail('UM_STATE', fn, 'other', `have ${this.numClasses} classes`, { value: o.numClasses });
    this.computation.merge(o.computation);
    return this;
  }

  /** The stores keeping entries, in the computation's order (internal: the CLI's two passes, state/twoPass.ts). */
  keptStores(): KeptEntriesStore[] {
    return this.computation.stores.filter((s): s is KeptEntriesStore => s instanceof KeptEntriesStore);
  }

  /**
   * Pass 1 of two (internal; state/twoPass.ts): the class-column stores read only in equal-mass bins count their
   * entries per bucket instead of keeping them. Call before the first update, for probabilities (not logits or
   * binary input: the stores are made here, before a batch says what it is). Returns those stores.
   */
  countClassColumns(numClasses: number): KeptEntriesStore[] {
    this.computation.ensure(numClasses);
    return this.keptStores().filter((s) => s.countColumns());
  }

  private warn = (w: UMWarning): void => emitWarning(this.warnings, w);

  result(): R {
    if (this.computation.rows === 0)
      fail('UM_EMPTY', this.metric, 'state', 'hold at least one row (call update first)');
    return this.suite.assemble(this.computation.finish(this.warn), {
      fn: this.metric,
      computation: this.computation,
      warn: this.warn,
    });
  }

  errorBound(): number | null {
    if (this.mode === 'exact') return 0;
    if (this.computation.rows === 0)
      fail('UM_EMPTY', this.metric, 'state', 'hold at least one row (call update first)');
    const bounds = [...this.computation.bounds(this.warn).values()];
    return bounds.some((b) => b === null) ? null : Math.max(0, ...(bounds as number[]));
  }

  /**
   * {@link toJSON} with the stores' long number lists as `Float64Array`s (internal): the form a worker thread posts,
   * its arrays' memory moved to the main thread (cli/transferList.ts), not one heap number per value; `stateFromJSON`
   * reads it as it reads JSON.
   */
  toTransfer(): StateJSON {
    return this.plain(true);
  }

  toJSON(): StateJSON {
    return this.plain(false);
  }

  private plain(typed: boolean): StateJSON {
    const c = this.computation;
    return {
      format: 'uncertainty-metrics/state',
      version: 2,
      metric: this.metric,
      options: {
        ...this.input,
        ...this.own,
        ...(this.mode === 'bounded' ? { mode: this.mode, cellBits: this.cellBits } : {}),
      },
      mode: this.mode,
      numClasses: this.numClasses,
      rows: c.rows,
      weighted: c.weighted,
      input: { input: c.input.input, binary: c.input.binary },
      stores: c.toJSON(typed),
    };
  }

  /** Restores the stores and counters of {@link toJSON}, checking every field. */
  load(json: Readonly<Record<string, unknown>>): void {
    const at = new JsonPath('stateFromJSON', 'json');
    const c = json.numClasses;
    if (c === null || c === undefined) {
      if (json.stores !== null) at.at('stores').fail('be null for a state without rows', json.stores);
      return;
    }
    const classes = at.at('numClasses').integer(c, 1, 2 ** 20);
    const rows = at.at('rows').integer(json.rows, 0, Number.MAX_SAFE_INTEGER);
    if (typeof json.weighted !== 'boolean') at.at('weighted').fail('be true or false', json.weighted);
    const input = at.at('input').object(json.input);
    if (!['probs', 'logits', 'logprobs'].includes(input.input as string))
      at.at('input').at('input').fail("be 'probs', 'logits' or 'logprobs'", input.input);
    if (typeof input.binary !== 'boolean') at.at('input').at('binary').fail('be true or false', input.binary);
    this.computation.load(json.stores, classes, at.at('stores'));
    this.computation.rows = rows;
    this.computation.weighted = json.weighted as boolean;
    this.computation.input = { input: input.input as ScoreKind, binary: input.binary as boolean };
  }
}
