/**
 * Bad input throws a UMError with a stable code and a message naming the function, the argument, the index and the
 * value — for every public function. The last test fails if a public function has no row here.
 */
import { describe, expect, it } from 'vitest';
import * as um from '../../src/index.js';
import { UMError, type UMErrorCode } from '../../src/index.js';
import { publicExports } from '../helpers/publicApi.js';

interface Row {
  what: string;
  call: () => unknown;
  code: UMErrorCode;
  message: RegExp;
}

const P2 = [
  [0.9, 0.1],
  [0.3, 0.7],
];
const Y2 = [0, 1];

/** Rows shared by every (labels, scores, options) function; `f` is the function, `fn` its name. */
function labeledRows(fn: string, f: (labels: unknown, scores: unknown, options?: unknown) => unknown): Row[] {
  const call = (labels: unknown, scores: unknown, options?: unknown) => () => f(labels, scores, options);
  return [
    { what: 'scores not an array', call: call(Y2, 'abc'), code: 'UM_SHAPE', message: new RegExp(`^${fn}: probs must be a number\\[\\]\\[\\]`) },
    { what: 'no rows', call: call([], []), code: 'UM_EMPTY', message: new RegExp(`^${fn}: probs must hold at least one row`) },
    { what: 'ragged rows', call: call(Y2, [[0.5, 0.5], [1]]), code: 'UM_SHAPE', message: new RegExp(`^${fn}: probs\\[1\\] must be a row of 2 numbers`) },
    { what: 'NaN', call: call(Y2, [[0.5, NaN], [0.3, 0.7]]), code: 'UM_NOT_FINITE', message: new RegExp(`^${fn}: probs\\[0\\]\\[1\\] must be a finite number; got NaN`) },
    { what: 'a string', call: call(Y2, [[0.5, '0.5'], [0.3, 0.7]]), code: 'UM_NOT_FINITE', message: new RegExp(`^${fn}: probs\\[0\\]\\[1\\] must be a finite number; got "0.5"`) },
    { what: 'probability above 1', call: call(Y2, [[0.9, 0.1], [1.2, -0.2]]), code: 'UM_PROB_RANGE', message: new RegExp(`^${fn}: probs\\[1\\]\\[0\\] must be in \\[0, 1\\]; got 1.2`) },
    { what: 'negative probability', call: call(Y2, [[-0.1, 1.1], [0.3, 0.7]]), code: 'UM_PROB_RANGE', message: new RegExp(`^${fn}: probs\\[0\\]\\[0\\] must be in \\[0, 1\\]; got -0.1`) },
    { what: 'row not summing to 1', call: call(Y2, [[0.9, 0.1], [0.3, 0.6]]), code: 'UM_ROW_SUM', message: new RegExp(`^${fn}: probs\\[1\\] must sum to 1 \\(tolerance 0.001\\); got 0.8999`) },
    { what: 'one class', call: call([0, 0], [[1], [1]]), code: 'UM_OPTION', message: new RegExp(`^${fn}: probs\\[0\\].length must be an integer ≥ 2`) },
    { what: 'a vector without binary: true', call: call(Y2, [0.9, 0.2]), code: 'UM_SHAPE', message: new RegExp(`^${fn}: probs\\[0\\] must be a matrix.*binary: true`) },
    { what: 'flat array without numClasses', call: call(Y2, new Float64Array(4)), code: 'UM_OPTION', message: new RegExp(`^${fn}: options.numClasses must be given when probs is a flat Float64Array`) },
    { what: 'flat array of the wrong length', call: call(Y2, new Float64Array(5), { numClasses: 2 }), code: 'UM_SHAPE', message: new RegExp(`^${fn}: probs must have a length that is a multiple of numClasses \\(2\\); got 5`) },
    { what: 'numClasses disagreeing with the rows', call: call(Y2, P2, { numClasses: 3 }), code: 'UM_SHAPE', message: new RegExp(`^${fn}: probs\\[0\\] must have rows of length numClasses \\(3\\)`) },
    { what: 'labels of the wrong length', call: call([0], P2), code: 'UM_SHAPE', message: new RegExp(`^${fn}: labels must have one entry per row of scores \\(2\\); got 1`) },
    { what: 'label out of range', call: call([0, 2], P2), code: 'UM_LABEL', message: new RegExp(`^${fn}: labels\\[1\\] must be an integer in \\[0, 2\\); got 2`) },
    { what: 'non-integer label', call: call([0.5, 1], P2), code: 'UM_LABEL', message: new RegExp(`^${fn}: labels\\[0\\] must be an integer in \\[0, 2\\); got 0.5`) },
    { what: 'negative label', call: call([-1, 1], P2), code: 'UM_LABEL', message: new RegExp(`^${fn}: labels\\[0\\] must be an integer in \\[0, 2\\); got -1`) },
    { what: 'NaN label', call: call([NaN, 1], P2), code: 'UM_LABEL', message: new RegExp(`^${fn}: labels\\[0\\] .* got NaN`) },
    { what: 'labels not an array', call: call(7, P2), code: 'UM_SHAPE', message: new RegExp(`^${fn}: labels must be an array of integer class labels; got 7`) },
    { what: 'unknown input kind', call: call(Y2, P2, { input: 'probabilities' }), code: 'UM_OPTION', message: new RegExp(`^${fn}: options.input must be one of 'probs', 'logits', 'logprobs'; got "probabilities"`) },
    { what: 'NaN logit', call: call(Y2, [[1, NaN], [0, 0]], { input: 'logits' }), code: 'UM_NOT_FINITE', message: new RegExp(`^${fn}: logits\\[0\\]\\[1\\] must be a finite number or -Infinity; got NaN`) },
    { what: '+Infinity logit', call: call(Y2, [[1, 2], [Infinity, 0]], { input: 'logits' }), code: 'UM_NOT_FINITE', message: new RegExp(`^${fn}: logits\\[1\\]\\[0\\] .* got Infinity`) },
    { what: 'a row of -Infinity logits', call: call(Y2, [[1, 2], [-Infinity, -Infinity]], { input: 'logits' }), code: 'UM_NOT_FINITE', message: new RegExp(`^${fn}: logits\\[1\\] must contain at least one finite value`) },
    { what: 'positive log-probability', call: call(Y2, [[0.1, -2], [-1, -1]], { input: 'logprobs' }), code: 'UM_PROB_RANGE', message: new RegExp(`^${fn}: logprobs\\[0\\]\\[0\\] must be ≤ 0 \\(a log-probability\\); got 0.1`) },
    { what: 'log-probabilities not summing to 1', call: call(Y2, [[-1, -1], [Math.log(0.5), Math.log(0.5)]], { input: 'logprobs' }), code: 'UM_ROW_SUM', message: new RegExp(`^${fn}: logprobs\\[0\\] must log-sum-exp to 0`) },
    { what: 'negative sumTolerance', call: call(Y2, P2, { sumTolerance: -1 }), code: 'UM_OPTION', message: new RegExp(`^${fn}: options.sumTolerance must be a number ≥ 0; got -1`) },
    { what: 'binary with a matrix', call: call(Y2, P2, { binary: true }), code: 'UM_SHAPE', message: new RegExp(`^${fn}: probs\\[0\\] must be a number \\(binary: true takes a vector`) },
    { what: 'binary probability out of range', call: call(Y2, [0.2, 1.5], { binary: true }), code: 'UM_PROB_RANGE', message: new RegExp(`^${fn}: probs\\[1\\] must be in \\[0, 1\\]; got 1.5`) },
    { what: 'binary label 2', call: call([0, 2], [0.2, 0.5], { binary: true }), code: 'UM_LABEL', message: new RegExp(`^${fn}: labels\\[1\\] must be an integer in \\[0, 2\\); got 2`) },
    { what: 'binary with numClasses 3', call: call(Y2, [0.2, 0.5], { binary: true, numClasses: 3 }), code: 'UM_OPTION', message: new RegExp(`^${fn}: options.numClasses must be 2 \\(or omitted\\) with binary: true; got 3`) },
    { what: 'unknown preset', call: call(Y2, P2, { preset: 'sklearn-2' }), code: 'UM_OPTION', message: new RegExp(`^${fn}: options.preset must be one of 'default', .*; got "sklearn-2"`) },
  ];
}

/** Rows for functions with a bins option over equal-width or equal-mass bins. */
function binsRows(fn: string, f: (labels: unknown, scores: unknown, options?: unknown) => unknown): Row[] {
  return [0, 1.5, -3, '15'].map((bins) => ({
    what: `bins = ${JSON.stringify(bins)}`,
    call: () => f(Y2, P2, { bins }),
    code: 'UM_OPTION' as const,
    message: new RegExp(`^${fn}: options.bins must be an integer ≥ 1; got ${typeof bins === 'string' ? `"${bins}"` : bins}`),
  }));
}

const ROWS: Record<string, Row[]> = {};
const add = (fn: string, rows: Row[]) => (ROWS[fn] = [...(ROWS[fn] ?? []), ...rows]);

for (const fn of ['gce', 'ece', 'mce', 'rmsce', 'sce', 'ace', 'tace', 'uce', 'aece', 'amce', 'reliability', 'evaluate']) {
  const f = (um as unknown as Record<string, (l: unknown, s: unknown, o?: unknown) => unknown>)[fn] as (l: unknown, s: unknown, o?: unknown) => unknown;
  add(fn, labeledRows(fn, f));
  if (fn !== 'aece' && fn !== 'amce') add(fn, binsRows(fn, f));
}
const g = um.gce as (l: unknown, s: unknown, o?: unknown) => unknown;
add('gce', [
  { what: 'unknown norm', call: () => g(Y2, P2, { norm: 'l3' }), code: 'UM_OPTION', message: /^gce: options.norm must be one of 'l1', 'l2', 'max'; got "l3"/ },
  { what: 'unknown binning', call: () => g(Y2, P2, { binning: 'even' }), code: 'UM_OPTION', message: /^gce: options.binning must be one of 'equal-width', 'equal-mass', 'ding'; got "even"/ },
  { what: 'NaN threshold', call: () => g(Y2, P2, { threshold: NaN }), code: 'UM_OPTION', message: /^gce: options.threshold must be a finite number or null; got NaN/ },
  { what: 'threshold leaving nothing', call: () => g(Y2, P2, { threshold: 1 }), code: 'UM_EMPTY', message: /^gce: probs must leave at least one entry to bin \(entries with p > 1\)/ },
  { what: 'threshold leaving nothing (class-conditional)', call: () => g(Y2, P2, { threshold: 1, classConditional: true }), code: 'UM_EMPTY', message: /^gce: probs must leave at least one entry to bin/ },
  { what: 'edges not increasing', call: () => g(Y2, P2, { binning: { edges: [0, 0.5, 0.5, 1] } }), code: 'UM_OPTION', message: /^gce: options.binning.edges\[2\] must be finite and strictly increasing; got 0.5/ },
  { what: 'a score outside the edges', call: () => g(Y2, P2, { binning: { edges: [0.8, 1] } }), code: 'UM_OUT_OF_BINS', message: /^gce: scores\[1\] must lie within the bin edges \[0.8, 1\]; got 0.7/ },
  { what: 'bins with Ding binning', call: () => g(Y2, P2, { binning: 'ding', bins: 10 }), code: 'UM_OPTION', message: /^gce: options.bins must be omitted with ding binning/ },
  { what: 'equal-width rule with equal-mass binning', call: () => g(Y2, P2, { binning: 'equal-mass', equalWidth: { one: 'own-bin' } }), code: 'UM_OPTION', message: /^gce: options.equalWidth must be omitted with equal-mass binning/ },
  { what: 'own bin with right-closed edges', call: () => g(Y2, P2, { equalWidth: { index: 'edges', closed: 'right', one: 'own-bin' } }), code: 'UM_OPTION', message: /^gce: options.equalWidth.one must be 'last-bin' with right-closed bins/ },
  { what: 'unknown equal-mass method', call: () => g(Y2, P2, { binning: 'equal-mass', equalMass: 'numpy' }), code: 'UM_OPTION', message: /^gce: options.equalMass must be one of 'quantile', .*; got "numpy"/ },
  { what: 'negative Ding z', call: () => g(Y2, P2, { binning: 'ding', ding: { z: -1 } }), code: 'UM_OPTION', message: /^gce: options.ding.z must be a finite number > 0; got -1/ },
  { what: 'unknown precision', call: () => g(Y2, P2, { precision: 'float16' }), code: 'UM_OPTION', message: /^gce: options.precision must be one of 'float64', 'float32'; got "float16"/ },
  { what: 'topLabel not boolean', call: () => g(Y2, P2, { topLabel: 'yes' }), code: 'UM_OPTION', message: /^gce: options.topLabel must be true or false; got "yes"/ },
]);
add('ece', [
  { what: 'a norm ece fixes', call: () => (um.ece as (l: unknown, s: unknown, o?: unknown) => unknown)(Y2, P2, { norm: 'l2' }), code: 'UM_OPTION', message: /^ece: options.norm must be "l1" or omitted \(ece fixes it; use gce to change it\); got "l2"/ },
  { what: 'an equal-mass method for equal-width bins', call: () => (um.ece as (l: unknown, s: unknown, o?: unknown) => unknown)(Y2, P2, { equalMass: 'sklearn' }), code: 'UM_OPTION', message: /^ece: options.equalMass must be omitted with equal-width binning/ },
]);
add('aece', [{ what: 'bins for adaptive binning', call: () => (um.aece as (l: unknown, s: unknown, o?: unknown) => unknown)(Y2, P2, { bins: 10 }), code: 'UM_OPTION', message: /^aece: options.bins must be omitted with ding binning/ }]);
add('uce', [{ what: 'classwise not boolean', call: () => (um.uce as (l: unknown, s: unknown, o?: unknown) => unknown)(Y2, P2, { classwise: 1 }), code: 'UM_OPTION', message: /^uce: options.classwise must be true or false; got 1/ }]);
add('reliability', [{ what: 'unknown measure', call: () => (um.reliability as (l: unknown, s: unknown, o?: unknown) => unknown)(Y2, P2, { measure: 'entropy' }), code: 'UM_OPTION', message: /^reliability: options.measure must be 'confidence' or 'uncertainty'; got "entropy"/ }]);

for (const fn of ['toProbabilities', 'confidence', 'predictedClass', 'entropy', 'normalizedEntropy']) {
  const f = (um as unknown as Record<string, (s: unknown, o?: unknown) => unknown>)[fn] as (s: unknown, o?: unknown) => unknown;
  add(fn, [
    { what: 'no rows', call: () => f([]), code: 'UM_EMPTY', message: new RegExp(`^${fn}: probs must hold at least one row`) },
    { what: 'ragged rows', call: () => f([[0.5, 0.5], [1]]), code: 'UM_SHAPE', message: new RegExp(`^${fn}: probs\\[1\\] must be a row of 2 numbers`) },
    { what: 'probability above 1', call: () => f([[1.2, -0.2]]), code: 'UM_PROB_RANGE', message: new RegExp(`^${fn}: probs\\[0\\]\\[0\\] must be in \\[0, 1\\]; got 1.2`) },
    { what: 'Infinity', call: () => f([[Infinity, 0]]), code: 'UM_NOT_FINITE', message: new RegExp(`^${fn}: probs\\[0\\]\\[0\\] must be a finite number; got Infinity`) },
    { what: 'row sum', call: () => f([[0.2, 0.2]]), code: 'UM_ROW_SUM', message: new RegExp(`^${fn}: probs\\[0\\] must sum to 1`) },
    { what: 'flat array without numClasses', call: () => f(new Float32Array(4)), code: 'UM_OPTION', message: new RegExp(`^${fn}: options.numClasses must be given when probs is a flat Float32Array`) },
    { what: 'a number', call: () => f(3), code: 'UM_SHAPE', message: new RegExp(`^${fn}: probs must be a number\\[\\]\\[\\] or a Float32Array/Float64Array`) },
  ]);
}
add('entropy', [0, 1, -2, NaN].map((base) => ({ what: `base ${base}`, call: () => (um.entropy as (s: unknown, o?: unknown) => unknown)(P2, { base }), code: 'UM_OPTION' as const, message: new RegExp(`^entropy: options.base must be a finite number > 0 and ≠ 1; got ${base}`) })));
add('toProbabilities', [{ what: 'binary with a validated matrix', call: () => um.toProbabilities(um.toProbabilities(P2), { binary: true }), code: 'UM_OPTION', message: /^toProbabilities: options.binary must be/ }]);

for (const fn of ['binaryCalibrationError', 'binaryReliability']) {
  const f = (um as unknown as Record<string, (o: unknown, p: unknown, x?: unknown) => unknown>)[fn] as (o: unknown, p: unknown, x?: unknown) => unknown;
  add(fn, [
    { what: 'no probabilities', call: () => f([], []), code: 'UM_EMPTY', message: new RegExp(`^${fn}: probs must hold at least one probability`) },
    { what: 'lengths differ', call: () => f([0, 1], [0.5]), code: 'UM_SHAPE', message: new RegExp(`^${fn}: outcomes must have one entry per probability \\(1\\); got 2`) },
    { what: 'outcome 2', call: () => f([0, 2], [0.5, 0.5]), code: 'UM_LABEL', message: new RegExp(`^${fn}: outcomes\\[1\\] must be 0 or 1; got 2`) },
    { what: 'probability 1.5', call: () => f([0, 1], [0.5, 1.5]), code: 'UM_PROB_RANGE', message: new RegExp(`^${fn}: probs\\[1\\] must be in \\[0, 1\\]; got 1.5`) },
    { what: 'NaN probability', call: () => f([0, 1], [NaN, 0.5]), code: 'UM_NOT_FINITE', message: new RegExp(`^${fn}: probs\\[0\\] must be a finite number; got NaN`) },
    { what: 'outcomes not an array', call: () => f('01', [0.5, 0.5]), code: 'UM_SHAPE', message: new RegExp(`^${fn}: outcomes must be an array of 0/1 outcomes; got "01"`) },
    { what: 'bins 0', call: () => f([0, 1], [0.5, 0.5], { bins: 0 }), code: 'UM_OPTION', message: new RegExp(`^${fn}: options.bins must be an integer ≥ 1; got 0`) },
    { what: 'unknown preset', call: () => f([0, 1], [0.5, 0.5], { preset: 'torch' }), code: 'UM_OPTION', message: new RegExp(`^${fn}: options.preset must be one of`) },
  ]);
}
add('binaryCalibrationError', [{ what: 'unknown norm', call: () => (um.binaryCalibrationError as (o: unknown, p: unknown, x?: unknown) => unknown)([0], [0.5], { norm: 'L1' }), code: 'UM_OPTION', message: /^binaryCalibrationError: options.norm must be one of 'l1', 'l2', 'max'; got "L1"/ }]);

const rule = { index: 'floor', edges: 'exact', closed: 'left', one: 'last-bin' };
const ab = um.assignBins as (s: unknown, spec: unknown) => unknown;
add('assignBins', [
  { what: 'unknown scheme', call: () => ab([0.5], { scheme: 'even', bins: 3 }), code: 'UM_OPTION', message: /^assignBins: spec.scheme must be one of 'equal-width', .*; got "even"/ },
  { what: 'bins 0', call: () => ab([0.5], { scheme: 'equal-width', bins: 0, rule, precision: 'float64' }), code: 'UM_OPTION', message: /^assignBins: spec.bins must be an integer ≥ 1; got 0/ },
  { what: 'bad rule', call: () => ab([0.5], { scheme: 'equal-width', bins: 3, rule: { ...rule, index: 'round' }, precision: 'float64' }), code: 'UM_OPTION', message: /^assignBins: spec.rule.index must be one of 'floor', 'divide', 'edges'; got "round"/ },
  { what: 'no scores', call: () => ab([], { scheme: 'equal-width', bins: 3, rule, precision: 'float64' }), code: 'UM_EMPTY', message: /^assignBins: scores must hold at least one score/ },
  { what: 'NaN score', call: () => ab([0.5, NaN], { scheme: 'equal-mass', bins: 3, method: 'quantile' }), code: 'UM_NOT_FINITE', message: /^assignBins: scores\[1\] must be a finite number; got NaN/ },
  { what: 'score above 1 for equal-width bins', call: () => ab([1.5], { scheme: 'equal-width', bins: 3, rule, precision: 'float64' }), code: 'UM_OUT_OF_BINS', message: /^assignBins: scores\[0\] must be in \[0, 1\] for equal-width bins; got 1.5/ },
  { what: 'score outside edges', call: () => ab([0.1], { scheme: 'edges', edges: [0.2, 1], closed: 'left' }), code: 'UM_OUT_OF_BINS', message: /^assignBins: scores\[0\] must lie within the bin edges \[0.2, 1\]; got 0.1/ },
  { what: 'edges not increasing', call: () => ab([0.1], { scheme: 'edges', edges: [1, 0], closed: 'left' }), code: 'UM_OPTION', message: /^assignBins: spec.edges\[1\] must be finite and strictly increasing; got 0/ },
  { what: 'bad Ding parameters', call: () => ab([0.1], { scheme: 'ding', ding: { z: 1.6, minRemaining: -1, minGap: 0 } }), code: 'UM_OPTION', message: /^assignBins: spec.ding.minRemaining must be a finite number ≥ 0; got -1/ },
  { what: 'unknown equal-mass method', call: () => ab([0.1], { scheme: 'equal-mass', bins: 2, method: 'torch' }), code: 'UM_OPTION', message: /^assignBins: spec.method must be one of/ },
]);
const a3 = um.assignBins([0.1, 0.5, 0.9], { scheme: 'equal-width', bins: 2, rule: rule as um.EqualWidthRule, precision: 'float64' });
const bs = um.binStatistics as (a: unknown, s: unknown, o: unknown, w?: unknown) => unknown;
add('binStatistics', [
  { what: 'not an assignment', call: () => bs({}, [0.1], [1]), code: 'UM_SHAPE', message: /^binStatistics: assignment must be a BinAssignment from assignBins/ },
  { what: 'scores of the wrong length', call: () => bs(a3, [0.1, 0.5], [1, 0, 1]), code: 'UM_SHAPE', message: /^binStatistics: scores must have one entry per sample \(3\); got 2/ },
  { what: 'NaN outcome', call: () => bs(a3, [0.1, 0.5, 0.9], [1, NaN, 1]), code: 'UM_NOT_FINITE', message: /^binStatistics: outcomes\[1\] must be a finite number; got NaN/ },
  { what: 'negative weight', call: () => bs(a3, [0.1, 0.5, 0.9], [1, 0, 1], [1, -1, 1]), code: 'UM_OPTION', message: /^binStatistics: weights\[1\] must be ≥ 0; got -1/ },
  { what: 'index out of range', call: () => bs({ ...a3, index: Int32Array.from([0, 5, 1]) }, [0.1, 0.5, 0.9], [1, 0, 1]), code: 'UM_SHAPE', message: /^binStatistics: assignment.index\[1\] must be in \[0, 2\); got 5/ },
]);

describe('bad input throws typed, located errors', () => {
  for (const [fn, rows] of Object.entries(ROWS)) {
    describe(fn, () => {
      for (const row of rows) {
        it(row.what, () => {
          let caught: unknown;
          try {
            row.call();
          } catch (e) {
            caught = e;
          }
          expect(caught, 'must throw').toBeInstanceOf(UMError);
          const e = caught as UMError;
          expect(e.code).toBe(row.code);
          expect(e.message).toMatch(row.message);
          expect(e.details.fn).toBe(fn);
        });
      }
    });
  }

  it('covers every public function of the core', () => {
    const functions = publicExports({ 'uncertainty-metrics': 'src/index.ts' })
      .filter((e) => e.kind === 'function')
      .map((e) => e.name);
    expect(functions.filter((name) => (ROWS[name] ?? []).length === 0)).toEqual([]);
  });
});
