import { FixedBinsStore } from '../accumulate/fixedBins.js';
import { MeanStore } from '../accumulate/meanStore.js';
import type { BinSums } from '../binning/binSums.js';
import type { Accumulator } from '../engine/accumulator.js';
import type { StoreRequest } from '../engine/definition.js';
import { arrayOf, record } from '../errors/checkShape.js';
import { fail } from '../errors/fail.js';
import { UMError } from '../errors/UMError.js';

/** Rows as a database driver returns them. */
export type SqlRow = Record<string, unknown>;

/** The rows of each generated query. */
export interface MetricsRows {
  topLabel: SqlRow[];
  classwise: SqlRow[];
  uncertainty: SqlRow[];
  scores: SqlRow[];
  auroc: SqlRow[];
}

/** The five row lists, each an array of row objects. */
export const ROWS = record(
  Object.fromEntries(['topLabel', 'classwise', 'uncertainty', 'scores', 'auroc'].map((k) => [k, arrayOf(record({}))])),
);

/** −ln of the smallest positive double: the largest finite per-row NLL. */
const NLL_MAX = -Math.log(Number.MIN_VALUE) * (1 + 1e-12);

/**
 * A finite number ≥ `min` of a row (drivers return BIGINT as bigint and NUMERIC as a decimal string). Every sum the
 * queries return is finite: an Infinity or NaN (a hand-made or damaged row) would become the metric.
 */
export function num(fn: string, row: SqlRow | undefined, key: string, min = -Infinity): number {
  const v = row?.[key];
  const x = typeof v === 'bigint' ? Number(v) : typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof x !== 'number' || !Number.isFinite(x))
    fail('UM_OPTION', fn, `rows.${key}`, 'be a finite number (the database returned something else)', { value: v });
  if (x < min) fail('UM_OPTION', fn, `rows.${key}`, `be a number ≥ ${min}`, { value: v });
  return x;
}

/** A row index (bin, class) in [0, size). */
function index(fn: string, row: SqlRow, key: string, size: number): number {
  const x = num(fn, row, key);
  if (!Number.isInteger(x) || x < 0 || x >= size)
    fail('UM_OPTION', fn, `rows.${key}`, `be an integer in [0, ${size})`, { value: row[key] });
  return x;
}

/** The totals of the scores query, checked: invalid rows counted by the database throw, sums lie in their ranges. */
export interface ScoreTotals {
  /** Rows (COUNT(*)), rows of weight > 0 (those the metrics count, as in memory) and their total weight. */
  readonly rows: number;
  readonly weightedRows: number;
  readonly weight: number;
  /** Rows whose label has probability 0 (the NLL is then Infinity). */
  readonly zeroLabelRows: number;
  /** Σ w·value of each per-row mean the queries compute (names of the scores query). */
  readonly sums: Readonly<Record<'correct' | 'brier' | 'nll' | 'entropy', number>>;
}

export function scoreTotals(fn: string, rows: MetricsRows, numClasses: number, sumTolerance: number): ScoreTotals {
  const s = rows.scores[0];
  const n = num(fn, s, 'n', 0);
  const bad: [string, 'UM_PROB_RANGE' | 'UM_ROW_SUM' | 'UM_LABEL' | 'UM_OPTION', string][] = [
    ['bad_probability_rows', 'UM_PROB_RANGE', 'have probabilities that are numbers in [0, 1]'],
    ['bad_sum_rows', 'UM_ROW_SUM', `have probabilities that sum to 1 within ${sumTolerance}`],
    ['bad_label_rows', 'UM_LABEL', `have labels that are integers in [0, ${numClasses})`],
    ['bad_weight_rows', 'UM_OPTION', 'have weights that are numbers ≥ 0'],
  ];
  for (const [key, code, requirement] of bad) {
    const count = num(fn, s, key, 0);
    // reads "rows must have labels that are integers in [0, 3); got 2 (2 of 10 rows do not)"
    if (count > 0) fail(code, fn, 'rows', requirement, { value: count, hint: `${count} of ${n} rows do not` });
  }
  const weight = num(fn, s, 'weight', 0);
  if (n === 0 || !(weight > 0))
    fail('UM_EMPTY', fn, 'rows', 'come from a table with at least one row of weight > 0', { value: n });
  // sums of weight × a bounded per-row value are at most weight × its bound: a damaged row (or a tiny total weight
  // with larger sums) would otherwise divide into a mean outside the metric's range, even Infinity
  const bounded: ['correct' | 'brier' | 'nll' | 'entropy', number, string][] = [
    ['correct', 1, 'a sum of weight × 0/1'],
    ['brier', 2, 'a sum of weight × a Brier score in [0, 2]'],
    ['entropy', Math.log(numClasses), `a sum of weight × an entropy in [0, ln ${numClasses}]`],
    ['nll', NLL_MAX, 'a sum of weight × a finite NLL, at most −ln(5e-324) ≈ 744.4'],
  ];
  const zeroLabelRows = num(fn, s, 'zero_label_rows', 0);
  const sums = { correct: 0, brier: 0, nll: 0, entropy: 0 };
  for (const [key, bound, what] of bounded) {
    // with a label of probability 0 the database's NLL sum leaves those rows out: the NLL is Infinity
    if (key === 'nll' && zeroLabelRows > 0) continue;
    const v = num(fn, s, key, 0);
    if (v > weight * bound * (1 + 1e-9))
      fail('UM_OPTION', fn, `rows.${key}`, `be at most the total weight × ${Number(bound.toPrecision(6))} (${what})`, {
        value: v,
      });
    sums[key] = v;
  }
  const weightedRows = num(fn, s, 'weighted_rows', 0);
  if (weightedRows > n)
    fail('UM_OPTION', fn, 'rows.weighted_rows', `be at most the number of rows (${n})`, { value: weightedRows });
  return { rows: n, weightedRows, weight, zeroLabelRows, sums };
}

/** The default equal-width rule, the one the generated SQL computes: b = min(⌊B·x⌋, B − 1) in float64. */
function isSqlBinning(r: Extract<StoreRequest, { kind: 'fixed-bins' }>, bins: number): boolean {
  const s = r.spec;
  return (
    s.scheme === 'equal-width' &&
    s.bins === bins &&
    s.precision === 'float64' &&
    s.rule.index === 'floor' &&
    s.rule.one === 'last-bin'
  );
}

/** Which query's rows hold a fixed-bins request's sums (null: no query computes them). */
function binRowsOf(r: Extract<StoreRequest, { kind: 'fixed-bins' }>, rows: MetricsRows): SqlRow[] | null {
  const { target, groupBy, threshold } = r.selection;
  if (threshold !== null) return null;
  if (target === 'top-label' && groupBy === 'none') return rows.topLabel;
  if (target === 'all-classes' && groupBy === 'class') return rows.classwise;
  if (target === 'uncertainty' && groupBy === 'none') return rows.uncertainty;
  return null;
}

/** Fills one fixed-bins store from (k?, bin, n, weight, score, outcome) rows; each sum is at most its bin's weight. */
function fillBins(
  fn: string,
  store: FixedBinsStore,
  list: readonly SqlRow[],
  grouped: boolean,
  weighted: boolean,
): void {
  const bins = store.lower.length;
  for (const r of list) {
    const g = store.groups[grouped ? index(fn, r, 'k', store.groups.length) : 0] as BinSums;
    const b = index(fn, r, 'bin', bins);
    const weight = num(fn, r, 'weight', 0);
    g.count[b] = num(fn, r, 'n', 0);
    g.weight.at(b).add(weight);
    for (const key of ['score', 'outcome'] as const) {
      const sum = num(fn, r, key, 0);
      // sums of w·x over x in [0, 1]: at most the bin's weight (a damaged row would give means outside [0, 1])
      if (sum > weight * (1 + 1e-9))
        fail(
          'UM_OPTION',
          fn,
          `rows.${key}`,
          `be at most the bin's weight (${weight}): a sum of weight × a value in [0, 1]`,
          { value: r[key] },
        );
      g[key].at(b).add(sum);
    }
    if (weighted && !Number.isInteger(weight)) store.fractional = true;
  }
}

/** The column of the scores query that holds a mean request's Σ w·value (by the request's key). */
function meanColumn(key: string): 'correct' | 'brier' | 'nll' | 'entropy' | null {
  if (key === 'correct' || key === 'entropy') return key;
  // the queries compute the standard Brier score and the unclipped natural-log NLL
  if (key === 'brier:standard') return 'brier';
  if (key === 'nll:null|false|float64') return 'nll';
  return null;
}

/**
 * Fills the stores of an accumulator from the database's sums, so that the metrics' own definitions finish them: the
 * same bins, norms, class averages, `null`s and warnings as in memory. A request no query computes (another binning
 * rule, a preset) is an internal error; `entries` stores (AUROC) stay empty and the caller supplies the value.
 */
export function fillStores(
  fn: string,
  acc: Accumulator,
  rows: MetricsRows,
  totals: ScoreTotals,
  bins: number,
  weighted: boolean,
): void {
  acc.requests.forEach((r, i) => {
    const store = acc.stores[i];
    if (r.kind === 'fixed-bins' && store instanceof FixedBinsStore) {
      const list = binRowsOf(r, rows);
      if (list !== null && isSqlBinning(r, bins))
        return fillBins(fn, store, list, r.selection.groupBy === 'class', weighted);
    } else if (r.kind === 'mean' && store instanceof MeanStore) {
      const column = meanColumn(r.key);
      if (column !== null) {
        store.weight.add(totals.weight);
        const infinite = column === 'nll' && totals.zeroLabelRows > 0;
        store.weighted.add(infinite ? Infinity : totals.sums[column]);
        store.rows = totals.weightedRows;
        store.nonFinite = infinite ? totals.zeroLabelRows : 0;
        // the database does not say which row: the warning's details give −1
        return;
      }
    } else if (r.kind === 'entries') return;
    throw new UMError(
      'UM_OPTION',
      `${fn}: the generated SQL does not compute the ${r.kind} statistics of ${JSON.stringify(r.kind === 'mean' ? r.key : r.kind === 'fixed-bins' ? r.selection : r.kind)} (internal)`,
      { fn },
    );
  });
}
