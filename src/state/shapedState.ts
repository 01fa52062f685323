import { MeanStore } from '../accumulate/meanStore.js';
import { JsonPath } from '../accumulate/store.js';
import { checkOptions } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import { weightInput } from '../input/weights.js';
import { emitWarning, type WarningOptions } from '../warnings/warnings.js';
import { canonicalRows, rowsFromJSON, rowsOf, type Row, type RowsLayout } from './rowsOfShape.js';
import { OodSides } from './oodSides.js';
import type { MetricState, StateJSON } from './types.js';

/** A metric of another input shape whose state keeps its rows and recomputes its function on them. */
export interface RowsShape<R> {
  readonly kind: 'rows';
  readonly layout: RowsLayout;
  /** Whether `update` needs labels (or outcomes). */
  readonly labeled: boolean;
  /** The option the function takes its frequency weights by (default `weights`). */
  readonly weightKey?: string;
  readonly keys: readonly string[];
  /** Whether every batch of pairs was a Float32Array matters to the function (torchmetrics keeps the precision). */
  readonly keepsFloat32?: boolean;
  call(
    first: number[] | null,
    second: number[] | Float32Array | number[][] | number[][][],
    options: Record<string, unknown>,
  ): R;
}

/** An OoD metric: both sides' samples are kept. */
export interface OodShape<R> {
  readonly kind: 'ood';
  readonly keys: readonly string[];
  call(inside: unknown, outside: unknown, options: Record<string, unknown>): R;
}

/** A mean of per-row values (ensemble NLLs, uncertainty summaries, CRPS) from exact sums: O(1) memory. */
export interface MeansShape<R> {
  readonly kind: 'means';
  readonly keys: readonly string[];
  /** The named per-row values of a batch and its number of rows (the function's own validation). */
  values(
    fn: string,
    first: unknown,
    second: unknown,
    options: Record<string, unknown>,
  ): { values: Record<string, Float64Array>; n: number };
  /** The result from the means (and the warnings it gives). */
  finish(fn: string, means: Record<string, number>, options: WarningOptions): R;
}

export type Shape<R> = RowsShape<R> | OodShape<R> | MeansShape<R>;

const OWN = new Set(['mode', 'cellBits', 'onWarning']);

/** The mergeable state of a metric of another shape (internal; made by `createState`). */
export class ShapedState<R> implements MetricState<R> {
  readonly mode = 'exact' as const;
  readonly numClasses = null;
  private rows: Row[] = [];
  private float32: boolean | null = null;
  private readonly sides = new OodSides();
  private means = new Map<string, MeanStore>();
  private readonly own: Record<string, unknown>;

  constructor(
    readonly metric: string,
    private readonly shape: Shape<R>,
    private readonly options: Record<string, unknown>,
  ) {
    const fn = 'createState';
    checkOptions(fn, options, ['mode', 'cellBits', 'onWarning'], shape.keys);
    if (options.mode !== undefined && options.mode !== 'exact')
      fail(
        'UM_OPTION',
        fn,
        'options.mode',
        `be 'exact' for ${metric} (its state keeps ${shape.kind === 'means' ? 'exact sums' : 'the rows'})`,
        { value: options.mode },
      );
    this.own = Object.fromEntries(Object.entries(options).filter(([k, v]) => !OWN.has(k) && v !== undefined));
  }

  update(first: unknown, second: unknown, batch: Record<string, unknown> = {}): this {
    const fn = `${this.metric}.update`;
    const shape = this.shape;
    if (shape.kind === 'ood') {
      checkOptions(fn, batch, ['weights']);
      this.sides.add(fn, first, second, batch.weights);
      return this;
    }
    checkOptions(fn, batch, ['weights']);
    if (shape.kind === 'means') {
      const { values, n } = shape.values(fn, first, second, this.own);
      const w = weightInput(fn, batch.weights, n, { exact: true, allowZeroTotal: true })?.w;
      for (const [k, v] of Object.entries(values)) {
        const keep = w === undefined ? v : v.filter((_, i) => (w[i] as number) > 0);
        const store = this.means.get(k) ?? new MeanStore();
        store.add(
          keep,
          w?.filter((x) => x > 0),
        );
        this.means.set(k, store);
      }
      return this;
    }
    const rows = rowsOf(fn, shape.layout, first, second, shape.labeled);
    const w = weightInput(fn, batch.weights, rows.length, { exact: true, allowZeroTotal: true })?.w;
    if (shape.layout === 'pairs') this.float32 = (this.float32 ?? true) && second instanceof Float32Array;
    rows.forEach((r, i) => {
      const weight = w === undefined ? 1 : (w[i] as number);
      if (weight > 0) this.rows.push({ ...r, weight });
    });
    return this;
  }

  merge(other: MetricState<R>): this {
    const fn = `${this.metric}.merge`;
    if (!(other instanceof ShapedState))
      return fail('UM_STATE', fn, 'other', `be a '${this.metric}' state`, { value: other });
    if (other === this)
      fail(
        'UM_STATE',
        fn,
        'other',
        'be another state (merging a state with itself would count its rows twice; merge stateFromJSON(state.toJSON()) for that)',
      );
    const o = other as ShapedState<R>;
    if (o.metric !== this.metric || JSON.stringify(o.own) !== JSON.stringify(this.own))
      fail('UM_STATE', fn, 'other', `have the same metric and options (${this.metric} ${JSON.stringify(this.own)})`, {
        value: `${o.metric} ${JSON.stringify(o.own)}`,
      });
    for (const r of o.rows) this.rows.push(r);
    if (o.float32 !== null) this.float32 = (this.float32 ?? true) && o.float32;
    this.sides.merge(fn, o.sides);
    for (const [k, s] of o.means) {
      const mine = this.means.get(k) ?? new MeanStore();
      mine.merge(s);
      this.means.set(k, mine);
    }
    return this;
  }

  result(): R {
    const fn = this.metric;
    const shape = this.shape;
    const warnings: WarningOptions = { onWarning: (w) => emitWarning(this.options as WarningOptions, w) };
    if (shape.kind === 'ood') {
      const c = this.sides.canonical(fn);
      return shape.call(c.inside, c.outside, {
        ...this.own,
        ...(c.weights === undefined ? {} : { weights: c.weights }),
      });
    }
    if (shape.kind === 'means') {
      const first = [...this.means.values()][0];
      if (first === undefined || first.rows === 0)
        fail('UM_EMPTY', fn, 'state', 'hold at least one row (call update first)');
      return shape.finish(fn, Object.fromEntries([...this.means].map(([k, s]) => [k, s.mean()])), warnings);
    }
    if (this.rows.length === 0) fail('UM_EMPTY', fn, 'state', 'hold at least one row (call update first)');
    const rows = canonicalRows(this.rows);
    const w = rows.map((r) => r.weight);
    const options = w.every((v) => v === 1) ? { ...this.own } : { ...this.own, [shape.weightKey ?? 'weights']: w };
    const firsts = shape.labeled || shape.layout === 'pairs' ? rows.map((r) => r.first as number) : null;
    if (shape.layout === 'members') {
      const s = (rows[0]?.second as number[][]).length;
      return shape.call(
        firsts,
        Array.from({ length: s }, (_, m) => rows.map((r) => (r.second as number[][])[m] as number[])),
        options,
      );
    }
    const seconds = rows.map((r) => r.second);
    return shape.call(
      firsts,
      this.float32 === true && shape.keepsFloat32 === true
        ? Float32Array.from(seconds as number[])
        : (seconds as number[] | number[][]),
      options,
    );
  }

  errorBound(): number {
    return 0;
  }

  toJSON(): StateJSON {
    const stores =
      this.shape.kind === 'ood'
        ? this.sides.toJSON()
        : this.shape.kind === 'means'
          ? Object.fromEntries([...this.means].map(([k, s]) => [k, s.toJSON()]))
          : {
              rows: this.rows.map((r) => [r.first, r.second, r.weight]),
              ...(this.float32 === null ? {} : { float32: this.float32 }),
            };
    return {
      format: 'uncertainty-metrics/state',
      version: 2,
      metric: this.metric,
      options: this.own,
      mode: 'exact',
      numClasses: null,
      stores,
    };
  }

  /** Restores the kept data from {@link toJSON}'s `stores`, checking every field. */
  load(json: unknown): void {
    const at = new JsonPath('stateFromJSON', 'json.stores');
    if (this.shape.kind === 'ood') {
      this.sides.load(json, at);
      return;
    }
    const o = at.object(json);
    if (this.shape.kind === 'means') {
      this.means = new Map(Object.entries(o).map(([k, s]) => [k, MeanStore.fromJSON(s, at.at(k))]));
      return;
    }
    this.rows = rowsFromJSON(o.rows, at.at('rows'), this.shape.layout);
    if (o.float32 !== undefined && typeof o.float32 !== 'boolean') at.at('float32').fail('be true or false', o.float32);
    this.float32 = (o.float32 as boolean | undefined) ?? null;
  }
}
