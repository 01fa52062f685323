/* eslint-disable no-sparse-arrays -- arrays with holes are bad inputs under test */
/**
 * Bad input throws a UMError with a stable code and a message naming the function, the argument, the index and the
 * value — for every public function. The last test fails if a public function has no row here.
 */
import { describe, expect, it } from 'vitest';
import * as um from '../../src/index.js';
import { UMError, type UMErrorCode } from '../../src/index.js';
import { publicExports } from '../helpers/publicApi.js';
import { LLM_ROWS } from './llmRows.js';

interface Row {
  what: string;
  call: () => unknown;
  code: UMErrorCode;
  message: RegExp;
  /** The `fn` the error names when it is not the function under test (methods of a returned object). */
  fn?: string;
}

const P2 = [
  [0.9, 0.1],
  [0.3, 0.7],
];
const Y2 = [0, 1];

/** Rows shared by every (labels, scores, options) function; `f` is the function, `fn` its name. */
function labeledRows(
  fn: string,
  f: (labels: unknown, scores: unknown, options?: unknown) => unknown,
  hasPreset = true,
): Row[] {
  const call = (labels: unknown, scores: unknown, options?: unknown) => () => f(labels, scores, options);
  return [
    {
      what: 'a misspelt option',
      call: call(Y2, P2, { bin: 10 }),
      code: 'UM_OPTION',
      message: new RegExp(`^${fn}: options.bin must not be given: ${fn} has no such option \\(its options: input, `),
    },
    {
      what: 'options not an object',
      call: call(Y2, P2, 5),
      code: 'UM_OPTION',
      message: new RegExp(`^${fn}: options must be an object; got 5`),
    },
    {
      what: 'options null',
      call: call(Y2, P2, null),
      code: 'UM_OPTION',
      message: new RegExp(`^${fn}: options must be an object; got null`),
    },
    {
      what: 'scores not an array',
      call: call(Y2, 'abc'),
      code: 'UM_SHAPE',
      message: new RegExp(`^${fn}: probs must be a number\\[\\]\\[\\]`),
    },
    {
      what: 'no rows',
      call: call([], []),
      code: 'UM_EMPTY',
      message: new RegExp(`^${fn}: probs must hold at least one row`),
    },
    {
      what: 'ragged rows',
      call: call(Y2, [[0.5, 0.5], [1]]),
      code: 'UM_SHAPE',
      message: new RegExp(`^${fn}: probs\\[1\\] must be a row of 2 numbers`),
    },
    {
      what: 'NaN',
      call: call(Y2, [
        [0.5, NaN],
        [0.3, 0.7],
      ]),
      code: 'UM_NOT_FINITE',
      message: new RegExp(`^${fn}: probs\\[0\\]\\[1\\] must be a finite number; got NaN`),
    },
    {
      what: 'a string',
      call: call(Y2, [
        [0.5, '0.5'],
        [0.3, 0.7],
      ]),
      code: 'UM_NOT_FINITE',
      message: new RegExp(`^${fn}: probs\\[0\\]\\[1\\] must be a finite number; got "0.5"`),
    },
    {
      what: 'probability above 1',
      call: call(Y2, [
        [0.9, 0.1],
        [1.2, -0.2],
      ]),
      code: 'UM_PROB_RANGE',
      message: new RegExp(`^${fn}: probs\\[1\\]\\[0\\] must be in \\[0, 1\\]; got 1.2`),
    },
    {
      what: 'negative probability',
      call: call(Y2, [
        [-0.1, 1.1],
        [0.3, 0.7],
      ]),
      code: 'UM_PROB_RANGE',
      message: new RegExp(`^${fn}: probs\\[0\\]\\[0\\] must be in \\[0, 1\\]; got -0.1`),
    },
    {
      what: 'row not summing to 1',
      call: call(Y2, [
        [0.9, 0.1],
        [0.3, 0.6],
      ]),
      code: 'UM_ROW_SUM',
      message: new RegExp(`^${fn}: probs\\[1\\] must sum to 1 \\(tolerance 0.001\\); got 0.8999`),
    },
    {
      what: 'one class',
      call: call([0, 0], [[1], [1]]),
      code: 'UM_OPTION',
      message: new RegExp(`^${fn}: probs\\[0\\].length must be an integer ≥ 2`),
    },
    {
      what: 'a vector without binary: true',
      call: call(Y2, [0.9, 0.2]),
      code: 'UM_SHAPE',
      message: new RegExp(`^${fn}: probs\\[0\\] must be a matrix.*binary: true`),
    },
    {
      what: 'flat array without numClasses',
      call: call(Y2, new Float64Array(4)),
      code: 'UM_OPTION',
      message: new RegExp(`^${fn}: options.numClasses must be given when probs is a flat Float64Array`),
    },
    {
      what: 'flat array of the wrong length',
      call: call(Y2, new Float64Array(5), { numClasses: 2 }),
      code: 'UM_SHAPE',
      message: new RegExp(`^${fn}: probs must have a length that is a multiple of numClasses \\(2\\); got 5`),
    },
    {
      what: 'numClasses disagreeing with the rows',
      call: call(Y2, P2, { numClasses: 3 }),
      code: 'UM_SHAPE',
      message: new RegExp(`^${fn}: probs\\[0\\] must have rows of length numClasses \\(3\\)`),
    },
    {
      what: 'labels of the wrong length',
      call: call([0], P2),
      code: 'UM_SHAPE',
      message: new RegExp(`^${fn}: labels must have one entry per row of scores \\(2\\); got 1`),
    },
    {
      what: 'label out of range',
      call: call([0, 2], P2),
      code: 'UM_LABEL',
      message: new RegExp(`^${fn}: labels\\[1\\] must be an integer in \\[0, 2\\); got 2`),
    },
    {
      what: 'non-integer label',
      call: call([0.5, 1], P2),
      code: 'UM_LABEL',
      message: new RegExp(`^${fn}: labels\\[0\\] must be an integer in \\[0, 2\\); got 0.5`),
    },
    {
      what: 'negative label',
      call: call([-1, 1], P2),
      code: 'UM_LABEL',
      message: new RegExp(`^${fn}: labels\\[0\\] must be an integer in \\[0, 2\\); got -1`),
    },
    {
      what: 'NaN label',
      call: call([NaN, 1], P2),
      code: 'UM_LABEL',
      message: new RegExp(`^${fn}: labels\\[0\\] .* got NaN`),
    },
    {
      what: 'labels not an array',
      call: call(7, P2),
      code: 'UM_SHAPE',
      message: new RegExp(`^${fn}: labels must be an array of integer class labels; got 7`),
    },
    {
      what: 'labels missing',
      call: call(undefined, P2),
      code: 'UM_SHAPE',
      message: new RegExp(
        `^${fn}: labels must be an array of integer class labels( \\(a fit needs them\\))?; got undefined`,
      ),
    },
    {
      what: 'unknown input kind',
      call: call(Y2, P2, { input: 'probabilities' }),
      code: 'UM_OPTION',
      message: new RegExp(`^${fn}: options.input must be one of 'probs', 'logits', 'logprobs'; got "probabilities"`),
    },
    {
      what: 'NaN logit',
      call: call(
        Y2,
        [
          [1, NaN],
          [0, 0],
        ],
        { input: 'logits' },
      ),
      code: 'UM_NOT_FINITE',
      message: new RegExp(`^${fn}: logits\\[0\\]\\[1\\] must be a finite number or -Infinity; got NaN`),
    },
    {
      what: '+Infinity logit',
      call: call(
        Y2,
        [
          [1, 2],
          [Infinity, 0],
        ],
        { input: 'logits' },
      ),
      code: 'UM_NOT_FINITE',
      message: new RegExp(`^${fn}: logits\\[1\\]\\[0\\] .* got Infinity`),
    },
    {
      what: 'a row of -Infinity logits',
      call: call(
        Y2,
        [
          [1, 2],
          [-Infinity, -Infinity],
        ],
        { input: 'logits' },
      ),
      code: 'UM_NOT_FINITE',
      message: new RegExp(`^${fn}: logits\\[1\\] must contain at least one finite value`),
    },
    {
      what: 'positive log-probability',
      call: call(
        Y2,
        [
          [0.1, -2],
          [-1, -1],
        ],
        { input: 'logprobs' },
      ),
      code: 'UM_PROB_RANGE',
      message: new RegExp(`^${fn}: logprobs\\[0\\]\\[0\\] must be ≤ 0 \\(a log-probability\\); got 0.1`),
    },
    {
      what: 'log-probabilities not summing to 1',
      call: call(
        Y2,
        [
          [-1, -1],
          [Math.log(0.5), Math.log(0.5)],
        ],
        { input: 'logprobs' },
      ),
      code: 'UM_ROW_SUM',
      message: new RegExp(`^${fn}: logprobs\\[0\\] must log-sum-exp to 0`),
    },
    {
      what: 'negative sumTolerance',
      call: call(Y2, P2, { sumTolerance: -1 }),
      code: 'UM_OPTION',
      message: new RegExp(`^${fn}: options.sumTolerance must be a number ≥ 0; got -1`),
    },
    {
      what: 'binary with a matrix',
      call: call(Y2, P2, { binary: true }),
      code: 'UM_SHAPE',
      message: new RegExp(`^${fn}: probs\\[0\\] must be a number \\(binary: true takes a vector`),
    },
    {
      what: 'binary probability out of range',
      call: call(Y2, [0.2, 1.5], { binary: true }),
      code: 'UM_PROB_RANGE',
      message: new RegExp(`^${fn}: probs\\[1\\] must be in \\[0, 1\\]; got 1.5`),
    },
    {
      what: 'binary label 2',
      call: call([0, 2], [0.2, 0.5], { binary: true }),
      code: 'UM_LABEL',
      message: new RegExp(`^${fn}: labels\\[1\\] must be an integer in \\[0, 2\\); got 2`),
    },
    {
      what: 'binary with numClasses 3',
      call: call(Y2, [0.2, 0.5], { binary: true, numClasses: 3 }),
      code: 'UM_OPTION',
      message: new RegExp(`^${fn}: options.numClasses must be 2 \\(or omitted\\) with binary: true; got 3`),
    },
    hasPreset
      ? {
          what: 'unknown preset',
          call: call(Y2, P2, { preset: 'sklearn-2' }),
          code: 'UM_OPTION',
          message: new RegExp(`^${fn}: options.preset must be one of 'default', .*; got "sklearn-2"`),
        }
      : {
          what: 'a preset it does not take',
          call: call(Y2, P2, { preset: 'sklearn' }),
          code: 'UM_OPTION',
          message: new RegExp(`^${fn}: options.preset must not be given`),
        },
  ];
}

/** Rows for functions with a bins option over equal-width or equal-mass bins. */
function binsRows(fn: string, f: (labels: unknown, scores: unknown, options?: unknown) => unknown): Row[] {
  return [0, 1.5, -3, '15'].map((bins) => ({
    what: `bins = ${JSON.stringify(bins)}`,
    call: () => f(Y2, P2, { bins }),
    code: 'UM_OPTION' as const,
    message: new RegExp(
      `^${fn}: options.bins must be an integer in \\[1, 1048576\\]; got ${typeof bins === 'string' ? `"${bins}"` : bins}`,
    ),
  }));
}

const ROWS: Record<string, Row[]> = {};
const add = (fn: string, rows: Row[]) => (ROWS[fn] = [...(ROWS[fn] ?? []), ...rows]);

const fnOf = (fn: string) =>
  (um as unknown as Record<string, (a: unknown, b?: unknown, c?: unknown) => unknown>)[fn] as (
    a: unknown,
    b?: unknown,
    c?: unknown,
  ) => unknown;
for (const fn of [
  'gce',
  'ece',
  'mce',
  'rmsce',
  'sce',
  'ace',
  'tace',
  'uce',
  'aece',
  'amce',
  'reliability',
  'classwiseReliability',
  'evaluate',
  'debiasedEce',
  'bayesianEce',
  'brier',
  'brierPerExample',
  'brierDecomposition',
  'nll',
  'nllPerExample',
]) {
  add(fn, labeledRows(fn, fnOf(fn)));
  if (!['aece', 'amce', 'brier', 'brierPerExample', 'brierDecomposition', 'nll', 'nllPerExample'].includes(fn))
    add(fn, binsRows(fn, fnOf(fn)));
}
for (const fn of ['mmce', 'smoothEce', 'smoothReliability', 'accuracy']) add(fn, labeledRows(fn, fnOf(fn), false));
const g = um.gce as (l: unknown, s: unknown, o?: unknown) => unknown;
add('gce', [
  {
    what: 'unknown norm',
    call: () => g(Y2, P2, { norm: 'l3' }),
    code: 'UM_OPTION',
    message: /^gce: options.norm must be one of 'l1', 'l2', 'max'; got "l3"/,
  },
  {
    what: 'unknown binning',
    call: () => g(Y2, P2, { binning: 'even' }),
    code: 'UM_OPTION',
    message: /^gce: options.binning must be one of 'equal-width', 'equal-mass', 'ding', 'distinct'; got "even"/,
  },
  {
    what: 'NaN threshold',
    call: () => g(Y2, P2, { threshold: NaN }),
    code: 'UM_OPTION',
    message: /^gce: options.threshold must be a finite number or null; got NaN/,
  },
  {
    what: 'threshold leaving nothing',
    call: () => g(Y2, P2, { threshold: 1 }),
    code: 'UM_EMPTY',
    message: /^gce: probs must leave at least one entry to bin \(entries with p > 1\)/,
  },
  {
    what: 'threshold leaving nothing (class-conditional)',
    call: () => g(Y2, P2, { threshold: 1, classConditional: true }),
    code: 'UM_EMPTY',
    message: /^gce: probs must leave at least one entry to bin/,
  },
  {
    what: 'edges not increasing',
    call: () => g(Y2, P2, { binning: { edges: [0, 0.5, 0.5, 1] } }),
    code: 'UM_OPTION',
    message: /^gce: options.binning.edges\[2\] must be finite and strictly increasing; got 0.5/,
  },
  {
    what: 'a score outside the edges',
    call: () => g(Y2, P2, { binning: { edges: [0.8, 1] } }),
    code: 'UM_OUT_OF_BINS',
    message: /^gce: scores\[1\] must lie within the bin edges \[0.8, 1\]; got 0.7/,
  },
  {
    what: 'bins with Ding binning',
    call: () => g(Y2, P2, { binning: 'ding', bins: 10 }),
    code: 'UM_OPTION',
    message: /^gce: options.bins must be omitted with ding binning/,
  },
  {
    what: 'equal-width rule with equal-mass binning',
    call: () => g(Y2, P2, { binning: 'equal-mass', equalWidth: { one: 'own-bin' } }),
    code: 'UM_OPTION',
    message: /^gce: options.equalWidth must be omitted with equal-mass binning/,
  },
  {
    what: 'own bin with right-closed edges',
    call: () => g(Y2, P2, { equalWidth: { index: 'edges', closed: 'right', one: 'own-bin' } }),
    code: 'UM_OPTION',
    message: /^gce: options.equalWidth.one must be 'last-bin' with right-closed bins/,
  },
  {
    what: 'unknown equal-mass method',
    call: () => g(Y2, P2, { binning: 'equal-mass', equalMass: 'numpy' }),
    code: 'UM_OPTION',
    message: /^gce: options.equalMass must be one of 'quantile', .*; got "numpy"/,
  },
  {
    what: 'negative Ding z',
    call: () => g(Y2, P2, { binning: 'ding', ding: { z: -1 } }),
    code: 'UM_OPTION',
    message: /^gce: options.ding.z must be a finite number > 0; got -1/,
  },
  {
    what: 'unknown precision',
    call: () => g(Y2, P2, { precision: 'float16' }),
    code: 'UM_OPTION',
    message: /^gce: options.precision must be one of 'float64', 'float32'; got "float16"/,
  },
  {
    what: 'topLabel not boolean',
    call: () => g(Y2, P2, { topLabel: 'yes' }),
    code: 'UM_OPTION',
    message: /^gce: options.topLabel must be true or false; got "yes"/,
  },
]);
add('ece', [
  {
    what: 'a norm ece fixes',
    call: () => (um.ece as (l: unknown, s: unknown, o?: unknown) => unknown)(Y2, P2, { norm: 'l2' }),
    code: 'UM_OPTION',
    message: /^ece: options.norm must be "l1" or omitted \(ece fixes it; use gce to change it\); got "l2"/,
  },
  {
    what: 'an equal-mass method for equal-width bins',
    call: () => (um.ece as (l: unknown, s: unknown, o?: unknown) => unknown)(Y2, P2, { equalMass: 'sklearn' }),
    code: 'UM_OPTION',
    message: /^ece: options.equalMass must be omitted with equal-width binning/,
  },
]);
add('aece', [
  {
    what: 'bins for adaptive binning',
    call: () => (um.aece as (l: unknown, s: unknown, o?: unknown) => unknown)(Y2, P2, { bins: 10 }),
    code: 'UM_OPTION',
    message: /^aece: options.bins must be omitted with ding binning/,
  },
]);
add('uce', [
  {
    what: 'classwise not boolean',
    call: () => (um.uce as (l: unknown, s: unknown, o?: unknown) => unknown)(Y2, P2, { classwise: 1 }),
    code: 'UM_OPTION',
    message: /^uce: options.classwise must be true or false; got 1/,
  },
  {
    what: 'an unknown classAverage',
    call: () =>
      (um.uce as (l: unknown, s: unknown, o?: unknown) => unknown)(Y2, P2, { classwise: true, classAverage: 'mean' }),
    code: 'UM_OPTION',
    message: /^uce: options.classAverage must be one of 'all-classes', 'predicted-classes'; got "mean"/,
  },
]);
add('reliability', [
  {
    what: 'unknown measure',
    call: () => (um.reliability as (l: unknown, s: unknown, o?: unknown) => unknown)(Y2, P2, { measure: 'entropy' }),
    code: 'UM_OPTION',
    message: /^reliability: options.measure must be one of 'confidence', 'uncertainty'; got "entropy"/,
  },
  {
    what: 'unknown target',
    call: () => (um.reliability as (l: unknown, s: unknown, o?: unknown) => unknown)(Y2, P2, { target: 'all-classes' }),
    code: 'UM_OPTION',
    message: /^reliability: options.target must be one of 'top-label', 'uncertainty'; got "all-classes"/,
  },
  {
    what: 'an alias that disagrees with target',
    call: () =>
      (um.reliability as (l: unknown, s: unknown, o?: unknown) => unknown)(Y2, P2, {
        target: 'top-label',
        measure: 'uncertainty',
      }),
    code: 'UM_OPTION',
    message: /^reliability: options.target must agree with options.measure, which implies 'uncertainty'/,
  },
]);
add('gce', [
  {
    what: 'topLabel and target disagree',
    call: () => fnOf('gce')(Y2, P2, { topLabel: true, target: 'all-classes' }),
    code: 'UM_OPTION',
    message: /^gce: options.target must agree with options.topLabel, which implies 'top-label'/,
  },
  {
    what: 'unknown groupBy',
    call: () => fnOf('gce')(Y2, P2, { groupBy: 'row' }),
    code: 'UM_OPTION',
    message: /^gce: options.groupBy must be one of 'none', 'class'; got "row"/,
  },
]);
add('ece', [
  {
    what: 'a target ece fixes otherwise',
    call: () => fnOf('ece')(Y2, P2, { target: 'all-classes' }),
    code: 'UM_OPTION',
    message:
      /^ece: options.target must imply target "top-label" or be omitted \(ece fixes it; use gce to change it\); got "all-classes"/,
  },
]);
add('uce', [
  {
    what: 'classwise and groupBy disagree',
    call: () => fnOf('uce')(Y2, P2, { classwise: true, groupBy: 'none' }),
    code: 'UM_OPTION',
    message: /^uce: options.groupBy must agree with options.classwise, which implies 'class'/,
  },
]);

const cs = um.createState as (m: unknown, o?: unknown) => um.MetricState;
add('createState', [
  {
    what: 'unknown metric',
    call: () => cs('ecee'),
    code: 'UM_OPTION',
    message: /^createState: metric must be one of 'gce', 'ece'/,
  },
  {
    what: 'unknown mode',
    call: () => cs('ece', { mode: 'sketchy' }),
    code: 'UM_OPTION',
    message: /^createState: options.mode must be 'exact' or 'bounded'; got "sketchy"/,
  },
  {
    what: 'cellBits out of range',
    call: () => cs('auroc', { mode: 'bounded', cellBits: 20 }),
    code: 'UM_OPTION',
    message: /^createState: options.cellBits must be an integer in \[1, 12\]; got 20/,
  },
  {
    what: 'an option the metric lacks',
    call: () => cs('brier', { bins: 10 }),
    code: 'UM_OPTION',
    message: /^createState: options.bins must not be given/,
  },
  {
    what: "Keras' thresholded AUC on the bounded grid",
    call: () => cs('auroc', { preset: 'uncertainty-metrics', mode: 'bounded' }),
    code: 'UM_OPTION',
    message: /^createState: options.mode must be 'exact' for auroc with these options/,
  },
  {
    what: 'a metric with no proven bound in bounded mode',
    call: () => cs('rmsce', { mode: 'bounded' }),
    code: 'UM_OPTION',
    message: /^createState: options.mode must be 'exact' for rmsce with equal-mass bins and the l2 norm/,
  },
  {
    what: 'an inherited property as the metric',
    call: () => cs('constructor'),
    code: 'UM_OPTION',
    message: /^createState: metric must be one of 'gce'/,
  },
  {
    what: 'a classAverage without classwise',
    call: () => cs('uce', { classAverage: 'predicted-classes' }),
    code: 'UM_OPTION',
    message: /^createState: options.classAverage must be omitted unless classwise is true/,
  },
  {
    what: 'an out-of-range probability in update',
    call: () =>
      cs('ece').update(
        [0, 1],
        [
          [0.5, 0.5],
          [1.2, -0.2],
        ],
      ),
    code: 'UM_PROB_RANGE',
    message: /^ece\.update: probs\[1\]\[0\] must be in \[0, 1\]; got 1.2/,
    fn: 'ece.update',
  },
  {
    what: 'a label out of range in update',
    call: () => cs('brier').update([0, 2], P2),
    code: 'UM_LABEL',
    message: /^brier\.update: labels\[1\] must be/,
    fn: 'brier.update',
  },
  {
    what: 'weights of the wrong length in update',
    call: () => cs('nll').update(Y2, P2, { weights: [1] }),
    code: 'UM_SHAPE',
    message: /^nll\.update: options.weights must have one weight per row/,
    fn: 'nll.update',
  },
  {
    what: 'result of an empty state',
    call: () => cs('brier').result(),
    code: 'UM_EMPTY',
    message: /^brier: state must hold at least one row/,
    fn: 'brier',
  },
]);
const boot = um.bootstrap as (n: unknown, f: unknown, o?: unknown) => unknown;
add('bootstrap', [
  {
    what: 'no rows',
    call: () => boot(0, () => 1),
    code: 'UM_EMPTY',
    message: /^bootstrap: n must be an integer ≥ 1 \(the number of rows\); got 0/,
  },
  {
    what: 'metric not a function',
    call: () => boot(3, 'ece'),
    code: 'UM_OPTION',
    message: /^bootstrap: metric must be a function of the row weights; got "ece"/,
  },
  {
    what: 'one resample',
    call: () => boot(3, () => 1, { resamples: 1 }),
    code: 'UM_OPTION',
    message: /^bootstrap: options.resamples must be an integer in \[2, 100000\]; got 1/,
  },
  {
    what: 'a misspelt option',
    call: () => boot(3, () => 1, { resample: 10 }),
    code: 'UM_OPTION',
    message: /^bootstrap: options.resample must not be given: bootstrap has no such option/,
  },
  {
    what: 'a negative weight',
    call: () => boot(2, () => 1, { weights: [1, -1] }),
    code: 'UM_OPTION',
    message: /^bootstrap: options.weights\[1\] must be finite numbers ≥ 0; got -1/,
  },
]);
const cp = um.comparePaired as (y: unknown, a: unknown, b: unknown, o?: unknown) => unknown;
add('comparePaired', [
  {
    what: 'a misspelt option',
    call: () => cp(Y2, P2, P2, { resample: 10 }),
    code: 'UM_OPTION',
    message: /^comparePaired: options.resample must not be given: comparePaired has no such option/,
  },
  {
    what: 'too many resamples',
    call: () => cp(Y2, P2, P2, { resamples: 1e9 }),
    code: 'UM_OPTION',
    message: /^comparePaired: options.resamples must be an integer in \[2, 100000\]; got 1000000000/,
  },
  {
    what: 'models with different rows',
    call: () => cp(Y2, P2, P2.slice(1)),
    code: 'UM_SHAPE',
    message: /^comparePaired: scoresB must have the rows of scoresA \(2\); got 1/,
  },
  {
    what: 'a bad probability of B',
    call: () =>
      cp(Y2, P2, [
        [0.9, 0.1],
        [1.2, -0.2],
      ]),
    code: 'UM_PROB_RANGE',
    message: /^comparePaired: scoresB: probs\[1\]\[0\] must be in \[0, 1\]; got 1.2/,
  },
]);
const sj = um.stateFromJSON as (j: unknown) => unknown;
add('stateFromJSON', [
  { what: 'not JSON', call: () => sj('{oops'), code: 'UM_STATE', message: /^stateFromJSON: json must be valid JSON/ },
  {
    what: 'another format',
    call: () => sj({ format: 'other' }),
    code: 'UM_STATE',
    message: /^stateFromJSON: json.format must be 'uncertainty-metrics\/state'; got "other"/,
  },
  {
    what: 'another version',
    call: () => sj({ format: 'uncertainty-metrics/state', version: 1 }),
    code: 'UM_STATE',
    message:
      /^stateFromJSON: json.version must be 2 \(states of earlier versions cannot be read: compute them again\); got 1/,
  },
  {
    what: 'malformed statistics',
    call: () =>
      sj({
        format: 'uncertainty-metrics/state',
        version: 2,
        metric: 'brier',
        options: {},
        mode: 'exact',
        numClasses: 2,
        rows: 1,
        weighted: false,
        input: { input: 'probs', binary: false },
        stores: null,
      }),
    code: 'UM_STATE',
    message: /^stateFromJSON: json.stores must be an array; got null/,
  },
]);

for (const fn of ['toProbabilities', 'confidence', 'predictedClass', 'entropy', 'normalizedEntropy']) {
  const f = (um as unknown as Record<string, (s: unknown, o?: unknown) => unknown>)[fn] as (
    s: unknown,
    o?: unknown,
  ) => unknown;
  add(fn, [
    {
      what: 'no rows',
      call: () => f([]),
      code: 'UM_EMPTY',
      message: new RegExp(`^${fn}: probs must hold at least one row`),
    },
    {
      what: 'ragged rows',
      call: () => f([[0.5, 0.5], [1]]),
      code: 'UM_SHAPE',
      message: new RegExp(`^${fn}: probs\\[1\\] must be a row of 2 numbers`),
    },
    {
      what: 'probability above 1',
      call: () => f([[1.2, -0.2]]),
      code: 'UM_PROB_RANGE',
      message: new RegExp(`^${fn}: probs\\[0\\]\\[0\\] must be in \\[0, 1\\]; got 1.2`),
    },
    {
      what: 'Infinity',
      call: () => f([[Infinity, 0]]),
      code: 'UM_NOT_FINITE',
      message: new RegExp(`^${fn}: probs\\[0\\]\\[0\\] must be a finite number; got Infinity`),
    },
    {
      what: 'row sum',
      call: () => f([[0.2, 0.2]]),
      code: 'UM_ROW_SUM',
      message: new RegExp(`^${fn}: probs\\[0\\] must sum to 1`),
    },
    {
      what: 'flat array without numClasses',
      call: () => f(new Float32Array(4)),
      code: 'UM_OPTION',
      message: new RegExp(`^${fn}: options.numClasses must be given when probs is a flat Float32Array`),
    },
    {
      what: 'a number',
      call: () => f(3),
      code: 'UM_SHAPE',
      message: new RegExp(`^${fn}: probs must be a number\\[\\]\\[\\] or a Float32Array/Float64Array`),
    },
  ]);
}
add(
  'entropy',
  [0, 1, -2, NaN].map((base) => ({
    what: `base ${base}`,
    call: () => (um.entropy as (s: unknown, o?: unknown) => unknown)(P2, { base }),
    code: 'UM_OPTION' as const,
    message: new RegExp(`^entropy: options.base must be a finite number > 0 and ≠ 1; got ${base}`),
  })),
);
add('toProbabilities', [
  {
    what: 'binary with a validated matrix',
    call: () => um.toProbabilities(um.toProbabilities(P2), { binary: true }),
    code: 'UM_OPTION',
    message: /^toProbabilities: options.binary must be/,
  },
]);

for (const fn of ['binaryCalibrationError', 'binaryReliability']) {
  const f = (um as unknown as Record<string, (o: unknown, p: unknown, x?: unknown) => unknown>)[fn] as (
    o: unknown,
    p: unknown,
    x?: unknown,
  ) => unknown;
  add(fn, [
    {
      what: 'no probabilities',
      call: () => f([], []),
      code: 'UM_EMPTY',
      message: new RegExp(`^${fn}: probs must hold at least one probability`),
    },
    {
      what: 'lengths differ',
      call: () => f([0, 1], [0.5]),
      code: 'UM_SHAPE',
      message: new RegExp(`^${fn}: outcomes must have one entry per probability \\(1\\); got 2`),
    },
    {
      what: 'outcome 2',
      call: () => f([0, 2], [0.5, 0.5]),
      code: 'UM_LABEL',
      message: new RegExp(`^${fn}: outcomes\\[1\\] must be 0 or 1; got 2`),
    },
    {
      what: 'probability 1.5',
      call: () => f([0, 1], [0.5, 1.5]),
      code: 'UM_PROB_RANGE',
      message: new RegExp(`^${fn}: probs\\[1\\] must be in \\[0, 1\\]; got 1.5`),
    },
    {
      what: 'NaN probability',
      call: () => f([0, 1], [NaN, 0.5]),
      code: 'UM_NOT_FINITE',
      message: new RegExp(`^${fn}: probs\\[0\\] must be a finite number; got NaN`),
    },
    {
      what: 'outcomes not an array',
      call: () => f('01', [0.5, 0.5]),
      code: 'UM_SHAPE',
      message: new RegExp(`^${fn}: outcomes must be an array of 0/1 outcomes; got "01"`),
    },
    {
      what: 'bins 0',
      call: () => f([0, 1], [0.5, 0.5], { bins: 0 }),
      code: 'UM_OPTION',
      message: new RegExp(`^${fn}: options.bins must be an integer in \\[1, 1048576\\]; got 0`),
    },
    {
      what: 'unknown preset',
      call: () => f([0, 1], [0.5, 0.5], { preset: 'torch' }),
      code: 'UM_OPTION',
      message: new RegExp(`^${fn}: options.preset must be one of`),
    },
  ]);
}
add('binaryCalibrationError', [
  {
    what: 'unknown norm',
    call: () =>
      (um.binaryCalibrationError as (o: unknown, p: unknown, x?: unknown) => unknown)([0], [0.5], { norm: 'L1' }),
    code: 'UM_OPTION',
    message: /^binaryCalibrationError: options.norm must be one of 'l1', 'l2', 'max'; got "L1"/,
  },
]);

// ---- selective prediction
for (const fn of ['auroc', 'aupr', 'oracleCollaborativeAccuracy']) add(fn, labeledRows(fn, fnOf(fn)));
for (const fn of ['aurc', 'eAurc', 'riskCoverageCurve', 'rejectionCurve', 'rocCurve', 'precisionRecallCurve'])
  add(fn, labeledRows(fn, fnOf(fn), false));
const withOption = (fn: string, extra: Record<string, unknown>) => (l: unknown, s: unknown, o?: unknown) =>
  fnOf(fn)(l, s, o === undefined || (typeof o === 'object' && o !== null) ? { ...extra, ...(o as object) } : o);
add(
  'accuracyAtCoverage',
  labeledRows('accuracyAtCoverage', withOption('accuracyAtCoverage', { coverage: 0.5 }), false),
);
add('coverageAtRisk', labeledRows('coverageAtRisk', withOption('coverageAtRisk', { risk: 0.5 }), false));
const Y4 = [0, 0, 1, 0];
const P4 = [
  [0.9, 0.1],
  [0.2, 0.8],
  [0.3, 0.7],
  [0.4, 0.6],
];
for (const fn of [
  'auroc',
  'aupr',
  'aurc',
  'eAurc',
  'riskCoverageCurve',
  'rejectionCurve',
  'oracleCollaborativeAccuracy',
  'accuracyAtCoverage',
  'coverageAtRisk',
  'rocCurve',
  'precisionRecallCurve',
]) {
  const extra: Record<string, unknown> =
    fn === 'accuracyAtCoverage' ? { coverage: 0.5 } : fn === 'coverageAtRisk' ? { risk: 0.5 } : {};
  const f =
    (o: Record<string, unknown>, labels: unknown = Y4, scores: unknown = P4) =>
    () =>
      fnOf(fn)(labels, scores, { ...extra, ...o });
  add(fn, [
    {
      what: 'unknown measure',
      call: f({ by: 'variance' }),
      code: 'UM_OPTION',
      message: new RegExp(
        `^${fn}: options.by must be one of 'max-prob', 'margin', 'entropy', 'normalized-entropy', 'threshold-distance' or \\{ confidence \\} / \\{ uncertainty \\}; got "variance"`,
      ),
    },
    {
      what: 'by with both directions',
      call: f({ by: { confidence: [1, 2, 3, 4], uncertainty: [1, 2, 3, 4] } }),
      code: 'UM_OPTION',
      message: new RegExp(
        `^${fn}: options.by must have exactly one key, confidence or uncertainty \\(it states the direction\\); got "confidence, uncertainty"`,
      ),
    },
    {
      what: 'by values of the wrong length',
      call: f({ by: { uncertainty: [0.1, 0.2] } }),
      code: 'UM_SHAPE',
      message: new RegExp(`^${fn}: options.by.uncertainty must have one value per row \\(4\\); got 2`),
    },
    {
      what: 'NaN in by values',
      call: f({ by: { confidence: [0.1, NaN, 0.3, 0.4] } }),
      code: 'UM_NOT_FINITE',
      message: new RegExp(`^${fn}: options.by.confidence\\[1\\] must be a finite number; got NaN`),
    },
    {
      what: "input 'predicted' without values",
      call: f({ input: 'predicted' }, Y4, [0, 1, 1, 1]),
      code: 'UM_OPTION',
      message: new RegExp(
        `^${fn}: options.by must give per-sample values \\(\\{ confidence \\} or \\{ uncertainty \\}\\) with input 'predicted'`,
      ),
    },
    {
      what: 'a predicted class that is not an index',
      call: f({ input: 'predicted', by: { confidence: [1, 2, 3, 4] } }, Y4, [0, 1.5, 1, 1]),
      code: 'UM_LABEL',
      message: new RegExp(`^${fn}: predicted\\[1\\] must be a class index \\(an integer ≥ 0\\); got 1.5`),
    },
    {
      what: "labels of the wrong length with input 'predicted'",
      call: f({ input: 'predicted', by: { confidence: [1, 2, 3, 4] } }, [0, 1], [0, 1, 1, 1]),
      code: 'UM_SHAPE',
      message: new RegExp(`^${fn}: labels must have one entry per predicted class \\(4\\); got 2`),
    },
    {
      what: "numClasses with input 'predicted'",
      call: f({ input: 'predicted', numClasses: 2, by: { confidence: [1, 2, 3, 4] } }, Y4, [0, 1, 1, 1]),
      code: 'UM_OPTION',
      message: new RegExp(`^${fn}: options.numClasses must not be given with input 'predicted'; got 2`),
    },
    {
      what: 'decision threshold with three classes',
      call: f({ decisionThreshold: 0.3 }, [0], [[0.2, 0.3, 0.5]]),
      code: 'UM_OPTION',
      message: new RegExp(`^${fn}: options.decisionThreshold must be given for two classes only; got 0.3`),
    },
    {
      what: 'decision threshold 1',
      call: f({ decisionThreshold: 1 }),
      code: 'UM_OPTION',
      message: new RegExp(`^${fn}: options.decisionThreshold must be a number in \\[0, 1\\); got 1`),
    },
    {
      what: 'threshold distance with three classes',
      call: f({ by: 'threshold-distance' }, [0], [[0.2, 0.3, 0.5]]),
      code: 'UM_OPTION',
      message: new RegExp(
        `^${fn}: options.by must be 'threshold-distance' for two classes only; got "threshold-distance"`,
      ),
    },
  ]);
}
for (const fn of ['auroc', 'aupr']) {
  add(fn, [
    {
      what: 'every prediction correct',
      call: () => fnOf(fn)(Y2, P2),
      code: 'UM_SINGLE_CLASS',
      message: new RegExp(`^${fn}: labels must hold both .* predictions; got "no (correct|wrong) predictions"`),
    },
    {
      what: 'every prediction wrong (thresholded)',
      call: () => fnOf(fn)([1, 0], P2, { thresholds: 200 }),
      code: 'UM_SINGLE_CLASS',
      message: new RegExp(`^${fn}: labels must hold both`),
    },
    {
      what: 'thresholds 2',
      call: () => fnOf(fn)(Y4, P4, { thresholds: 2 }),
      code: 'UM_OPTION',
      message: new RegExp(
        `^${fn}: options.thresholds must be null \\(exact\\) or an integer in \\[3, 1048576\\]; got 2`,
      ),
    },
    {
      what: 'entropy beyond 1 for the approximation',
      call: () =>
        fnOf(fn)(
          [2, 0],
          [
            [0.3, 0.3, 0.4],
            [0.1, 0.1, 0.8],
          ],
          { by: 'entropy', thresholds: 10 },
        ),
      code: 'UM_OUT_OF_BINS',
      message: new RegExp(`^${fn}: entropy\\[0\\] must lie in \\[0, 1\\] for the thresholded approximation`),
    },
  ]);
}
for (const fn of ['rocCurve', 'precisionRecallCurve']) {
  add(fn, [
    {
      what: 'every prediction correct',
      call: () => fnOf(fn)(Y2, P2),
      code: 'UM_SINGLE_CLASS',
      message: new RegExp(`^${fn}: labels must hold both`),
    },
  ]);
}
add('precisionRecallCurve', [
  {
    what: 'unknown positive class',
    call: () => fnOf('precisionRecallCurve')(Y4, P4, { positive: 'wrong' }),
    code: 'UM_OPTION',
    message: /^precisionRecallCurve: options.positive must be 'error' or 'correct'; got "wrong"/,
  },
]);
add('aupr', [
  {
    what: 'unknown positive class',
    call: () => fnOf('aupr')(Y4, P4, { positive: 'wrong' }),
    code: 'UM_OPTION',
    message: /^aupr: options.positive must be 'error' or 'correct'; got "wrong"/,
  },
]);
for (const fn of ['aurc', 'eAurc', 'riskCoverageCurve']) {
  add(fn, [
    {
      what: 'unknown estimator',
      call: () => fnOf(fn)(Y4, P4, { estimator: 'trapezoid' }),
      code: 'UM_OPTION',
      message: new RegExp(
        `^${fn}: options.estimator must be one of 'mean-risk', 'geifman', 'fd-shifts', 'torch-uncertainty'; got "trapezoid"`,
      ),
    },
    {
      what: 'one prediction with the torch-uncertainty trapezoid',
      call: () => fnOf(fn)([0], [[0.9, 0.1]], { estimator: 'torch-uncertainty' }),
      code: 'UM_EMPTY',
      message: new RegExp(`^${fn}: labels must hold at least 2 predictions for estimator 'torch-uncertainty'; got 1`),
    },
  ]);
}
add(
  'accuracyAtCoverage',
  [undefined, 0, 1.5, '0.5'].map((coverage) => ({
    what: `coverage ${String(coverage)}`,
    call: () => fnOf('accuracyAtCoverage')(Y4, P4, { coverage }),
    code: 'UM_OPTION' as const,
    message: /^accuracyAtCoverage: options.coverage must be a number in \(0, 1\]/,
  })),
);
add(
  'coverageAtRisk',
  [undefined, -0.1, 2, NaN].map((risk) => ({
    what: `risk ${String(risk)}`,
    call: () => fnOf('coverageAtRisk')(Y4, P4, { risk }),
    code: 'UM_OPTION' as const,
    message: /^coverageAtRisk: options.risk must be a number in \[0, 1\]/,
  })),
);
add('rejectionCurve', [
  {
    what: 'thresholds not an array',
    call: () => fnOf('rejectionCurve')(Y4, P4, { thresholds: 0.5 }),
    code: 'UM_OPTION',
    message: /^rejectionCurve: options.thresholds must be an array of numbers; got 0.5/,
  },
  {
    what: 'a NaN threshold',
    call: () => fnOf('rejectionCurve')(Y4, P4, { thresholds: [0.5, NaN] }),
    code: 'UM_OPTION',
    message: /^rejectionCurve: options.thresholds\[1\] must be finite numbers; got NaN/,
  },
  // map skipped a hole: the curve had an empty point (found by the API fuzz)
  {
    what: 'a hole in the thresholds',
    call: () => fnOf('rejectionCurve')(Y4, P4, { thresholds: [, 0.5] }),
    code: 'UM_OPTION',
    message: /^rejectionCurve: options.thresholds\[0\] must be finite numbers; got undefined/,
  },
]);
add('oracleCollaborativeAccuracy', [
  {
    what: 'fraction 2',
    call: () => fnOf('oracleCollaborativeAccuracy')(Y4, P4, { fraction: 2 }),
    code: 'UM_OPTION',
    message: /^oracleCollaborativeAccuracy: options.fraction must be a number in \[0, 1\]; got 2/,
  },
  {
    what: 'bins 0',
    call: () => fnOf('oracleCollaborativeAccuracy')(Y4, P4, { bins: 0 }),
    code: 'UM_OPTION',
    message: /^oracleCollaborativeAccuracy: options.bins must be an integer in \[1, 1048576\]; got 0/,
  },
  {
    what: 'a preset without bins',
    call: () => fnOf('oracleCollaborativeAccuracy')(Y4, P4, { preset: 'sklearn' }),
    code: 'UM_OPTION',
    message: /^oracleCollaborativeAccuracy: options.preset must be given only with bins/,
  },
  {
    what: 'binning an entropy beyond 1',
    call: () => fnOf('oracleCollaborativeAccuracy')([2], [[0.3, 0.3, 0.4]], { bins: 10, by: 'entropy' }),
    code: 'UM_OUT_OF_BINS',
    message:
      /^oracleCollaborativeAccuracy: entropy\[0\] must lie in \[0, 1\] for equal-width bins \(options.bins\); got 1.08/,
  },
]);
add('margin', [
  {
    what: 'no rows',
    call: () => fnOf('margin')([]),
    code: 'UM_EMPTY',
    message: /^margin: probs must hold at least one row/,
  },
  {
    what: 'probability above 1',
    call: () => fnOf('margin')([[1.2, -0.2]]),
    code: 'UM_PROB_RANGE',
    message: /^margin: probs\[0\]\[0\] must be in \[0, 1\]; got 1.2/,
  },
  {
    what: 'a misspelt option',
    call: () => fnOf('margin')(P2, { by: 'x' }),
    code: 'UM_OPTION',
    message: /^margin: options.by must not be given/,
  },
]);

// ---- out-of-distribution detection
for (const fn of ['oodAuroc', 'fprAtTpr', 'oodCurve']) {
  const f = fnOf(fn);
  add(fn, [
    {
      what: 'an out-of-range probability on the OoD side',
      call: () =>
        f(P2, [
          [0.5, 0.5],
          [1.2, -0.2],
        ]),
      code: 'UM_PROB_RANGE',
      message: new RegExp(`^${fn}: outOfDistribution.probs\\[1\\]\\[0\\] must be in \\[0, 1\\]; got 1.2`),
    },
    {
      what: 'a ragged in-distribution side',
      call: () => f([[0.5, 0.5], [1]], P2),
      code: 'UM_SHAPE',
      message: new RegExp(`^${fn}: inDistribution.probs\\[1\\] must be a row of 2 numbers`),
    },
    {
      what: 'mixed forms',
      call: () => f({ uncertainty: [0.1] }, P2),
      code: 'UM_OPTION',
      message: new RegExp(
        `^${fn}: outOfDistribution must be of the same form as inDistribution \\(\\{ uncertainty \\}\\); got "scores"`,
      ),
    },
    {
      what: 'different classes',
      call: () => f(P2, [[0.2, 0.3, 0.5]]),
      code: 'UM_SHAPE',
      message: new RegExp(
        `^${fn}: outOfDistribution must have the classes of inDistribution \\(2\\): both come from one model; got 3`,
      ),
    },
    {
      what: 'an empty side',
      call: () => f({ uncertainty: [0.1] }, { uncertainty: [] }),
      code: 'UM_EMPTY',
      message: new RegExp(`^${fn}: outOfDistribution.uncertainty must hold at least one value; got 0`),
    },
    {
      what: 'an infinite value',
      call: () => f({ confidence: [0.1, Infinity] }, { confidence: [0.5] }),
      code: 'UM_NOT_FINITE',
      message: new RegExp(`^${fn}: inDistribution.confidence\\[1\\] must be a finite number; got Infinity`),
    },
    {
      what: 'input options with given values',
      call: () => f({ uncertainty: [0.1] }, { uncertainty: [0.5] }, { input: 'logits' }),
      code: 'UM_OPTION',
      message: new RegExp(
        `^${fn}: options.input must not be given with per-sample values \\(it applies to scores\\); got "logits"`,
      ),
    },
    {
      what: 'per-sample values as by',
      call: () => f(P2, P2, { by: { uncertainty: [0.1, 0.2] } }),
      code: 'UM_OPTION',
      message: new RegExp(`^${fn}: options.by must be a measure name; give per-sample values as the arguments instead`),
    },
    {
      what: 'threshold distance',
      call: () => f(P2, P2, { by: 'threshold-distance' }),
      code: 'UM_OPTION',
      message: new RegExp(`^${fn}: options.by must not be 'threshold-distance'`),
    },
    {
      what: 'a misspelt option',
      call: () => f(P2, P2, { measure: 'entropy' }),
      code: 'UM_OPTION',
      message: new RegExp(`^${fn}: options.measure must not be given: ${fn} has no such option`),
    },
  ]);
}
add('fprAtTpr', [
  {
    what: 'tpr 1.5',
    call: () => fnOf('fprAtTpr')(P2, P2, { tpr: 1.5 }),
    code: 'UM_OPTION',
    message: /^fprAtTpr: options.tpr must be a number in \(0, 1\]; got 1.5/,
  },
]);
add('oodCurve', [
  {
    what: 'batch larger than a side',
    call: () => fnOf('oodCurve')(P2, P2, { batchSize: 3 }),
    code: 'UM_OPTION',
    message: /^oodCurve: options.batchSize must be an integer in \[1, 2\]/,
  },
  {
    what: 'repeats 0',
    call: () => fnOf('oodCurve')(P2, P2, { batchSize: 2, repeats: 0 }),
    code: 'UM_OPTION',
    message: /^oodCurve: options.repeats must be an integer in \[1, 1048576\]; got 0/,
  },
  {
    what: 'negative seed',
    call: () => fnOf('oodCurve')(P2, P2, { batchSize: 2, seed: -1 }),
    code: 'UM_OPTION',
    message: /^oodCurve: options.seed must be an integer in \[0, 2³² − 1\]; got -1/,
  },
]);

const rule = { index: 'floor', edges: 'exact', closed: 'left', one: 'last-bin' };
const ab = um.assignBins as (s: unknown, spec: unknown) => unknown;
add('assignBins', [
  {
    what: 'unknown scheme',
    call: () => ab([0.5], { scheme: 'even', bins: 3 }),
    code: 'UM_OPTION',
    message: /^assignBins: spec.scheme must be one of 'equal-width', .*; got "even"/,
  },
  {
    what: 'bins 0',
    call: () => ab([0.5], { scheme: 'equal-width', bins: 0, rule, precision: 'float64' }),
    code: 'UM_OPTION',
    message: /^assignBins: spec.bins must be an integer in \[1, 1048576\]; got 0/,
  },
  {
    what: 'bad rule',
    call: () => ab([0.5], { scheme: 'equal-width', bins: 3, rule: { ...rule, index: 'round' }, precision: 'float64' }),
    code: 'UM_OPTION',
    message: /^assignBins: spec.rule.index must be one of 'floor', 'divide', 'edges'; got "round"/,
  },
  {
    what: 'no scores',
    call: () => ab([], { scheme: 'equal-width', bins: 3, rule, precision: 'float64' }),
    code: 'UM_EMPTY',
    message: /^assignBins: scores must hold at least one score/,
  },
  {
    what: 'NaN score',
    call: () => ab([0.5, NaN], { scheme: 'equal-mass', bins: 3, method: 'quantile' }),
    code: 'UM_NOT_FINITE',
    message: /^assignBins: scores\[1\] must be a finite number; got NaN/,
  },
  {
    what: 'score above 1 for equal-width bins',
    call: () => ab([1.5], { scheme: 'equal-width', bins: 3, rule, precision: 'float64' }),
    code: 'UM_OUT_OF_BINS',
    message: /^assignBins: scores\[0\] must be in \[0, 1\] for equal-width bins; got 1.5/,
  },
  {
    what: 'score outside edges',
    call: () => ab([0.1], { scheme: 'edges', edges: [0.2, 1], closed: 'left' }),
    code: 'UM_OUT_OF_BINS',
    message: /^assignBins: scores\[0\] must lie within the bin edges \[0.2, 1\]; got 0.1/,
  },
  {
    what: 'edges not increasing',
    call: () => ab([0.1], { scheme: 'edges', edges: [1, 0], closed: 'left' }),
    code: 'UM_OPTION',
    message: /^assignBins: spec.edges\[1\] must be finite and strictly increasing; got 0/,
  },
  {
    what: 'bad Ding parameters',
    call: () => ab([0.1], { scheme: 'ding', ding: { z: 1.6, minRemaining: -1, minGap: 0 } }),
    code: 'UM_OPTION',
    message: /^assignBins: spec.ding.minRemaining must be a finite number ≥ 0; got -1/,
  },
  {
    what: 'unknown equal-mass method',
    call: () => ab([0.1], { scheme: 'equal-mass', bins: 2, method: 'torch' }),
    code: 'UM_OPTION',
    message: /^assignBins: spec.method must be one of/,
  },
]);
const a3 = um.assignBins([0.1, 0.5, 0.9], {
  scheme: 'equal-width',
  bins: 2,
  rule: rule as um.EqualWidthRule,
  precision: 'float64',
});
const bs = um.binStatistics as (a: unknown, s: unknown, o: unknown, w?: unknown) => unknown;
add('binStatistics', [
  {
    what: 'not an assignment',
    call: () => bs({}, [0.1], [1]),
    code: 'UM_SHAPE',
    message: /^binStatistics: assignment must be a BinAssignment from assignBins/,
  },
  {
    what: 'scores of the wrong length',
    call: () => bs(a3, [0.1, 0.5], [1, 0, 1]),
    code: 'UM_SHAPE',
    message: /^binStatistics: scores must have one entry per sample \(3\); got 2/,
  },
  {
    what: 'NaN outcome',
    call: () => bs(a3, [0.1, 0.5, 0.9], [1, NaN, 1]),
    code: 'UM_NOT_FINITE',
    message: /^binStatistics: outcomes\[1\] must be a finite number; got NaN/,
  },
  {
    what: 'negative weight',
    call: () => bs(a3, [0.1, 0.5, 0.9], [1, 0, 1], [1, -1, 1]),
    code: 'UM_OPTION',
    message: /^binStatistics: weights\[1\] must be ≥ 0; got -1/,
  },
  {
    what: 'index out of range',
    call: () => bs({ ...a3, index: Int32Array.from([0, 5, 1]) }, [0.1, 0.5, 0.9], [1, 0, 1]),
    code: 'UM_SHAPE',
    message: /^binStatistics: assignment.index\[1\] must be in \[0, 2\); got 5/,
  },
  // edges are copied into the bins: a hole, NaN or a string passed through (found by the API fuzz)
  {
    what: 'a hole in the lower edges',
    call: () => bs({ ...a3, lower: [0, ,] }, [0.1, 0.5, 0.9], [1, 0, 1]),
    code: 'UM_NOT_FINITE',
    message: /^binStatistics: assignment.lower\[1\] must be finite numbers; got undefined/,
  },
  {
    what: 'a NaN upper edge',
    call: () => bs({ ...a3, upper: [0.5, NaN] }, [0.1, 0.5, 0.9], [1, 0, 1]),
    code: 'UM_NOT_FINITE',
    message: /^binStatistics: assignment.upper\[1\] must be finite numbers ≥ the lower edges; got NaN/,
  },
  {
    what: 'edges as a string',
    call: () => bs({ ...a3, lower: 'ab' }, [0.1, 0.5, 0.9], [1, 0, 1]),
    code: 'UM_SHAPE',
    message: /^binStatistics: assignment.lower must be an array of bin edges; got "ab"/,
  },
  {
    what: 'an upper edge below its lower edge',
    call: () => bs({ ...a3, upper: [0.5, 0.25] }, [0.1, 0.5, 0.9], [1, 0, 1]),
    code: 'UM_NOT_FINITE',
    message: /^binStatistics: assignment.upper\[1\] must be finite numbers ≥ the lower edges; got 0.25/,
  },
]);

// ---- proper scores and bin-free estimators
const T2 = { target: 'positive-class' };
add('mmce', [
  {
    what: 'kernel width 0',
    call: () => fnOf('mmce')(Y2, P2, { kernelWidth: 0 }),
    code: 'UM_OPTION',
    message: /^mmce: options.kernelWidth must be a finite number > 0; got 0/,
  },
  {
    what: 'weighted not boolean',
    call: () => fnOf('mmce')(Y2, P2, { weighted: 'yes' }),
    code: 'UM_OPTION',
    message: /^mmce: options.weighted must be true or false; got "yes"/,
  },
  {
    what: 'positive class with 3 classes',
    call: () => fnOf('mmce')([0], [[0.5, 0.3, 0.2]], T2),
    code: 'UM_OPTION',
    message: /^mmce: options.target must be 'top-label' with 3 classes/,
  },
]);
add('smoothEce', [
  {
    what: 'bandwidth 0',
    call: () => fnOf('smoothEce')(Y2, P2, { bandwidth: 0 }),
    code: 'UM_OPTION',
    message: /^smoothEce: options.bandwidth must be a number in \[2\^-10, 1\] \(0.0009765625 … 1\); got 0/,
  },
  {
    what: 'unknown target',
    call: () => fnOf('smoothEce')(Y2, P2, { target: 'class-1' }),
    code: 'UM_OPTION',
    message: /^smoothEce: options.target must be 'top-label' or 'positive-class'; got "class-1"/,
  },
]);
add('smoothReliability', [
  {
    what: 'bandwidth above 1',
    call: () => fnOf('smoothReliability')(Y2, P2, { bandwidth: 2 }),
    code: 'UM_OPTION',
    message: /^smoothReliability: options.bandwidth must be a number in \[2\^-10, 1\] \(0.0009765625 … 1\); got 2/,
  },
  {
    what: 'too many resamples',
    call: () => fnOf('smoothReliability')(Y2, P2, { resamples: 10_001 }),
    code: 'UM_OPTION',
    message: /^smoothReliability: options.resamples must be an integer in \[0, 10000\]; got 10001/,
  },
  {
    what: 'a level of 1',
    call: () => fnOf('smoothReliability')(Y2, P2, { level: 1 }),
    code: 'UM_OPTION',
    message: /^smoothReliability: options.level must be a number in \(0, 1\); got 1/,
  },
  {
    what: 'a negative seed',
    call: () => fnOf('smoothReliability')(Y2, P2, { seed: -1 }),
    code: 'UM_OPTION',
    message: /^smoothReliability: options.seed must be an integer in \[0, 2³² − 1\]; got -1/,
  },
]);
add('classwiseReliability', [
  {
    what: 'a class out of range',
    call: () => fnOf('classwiseReliability')(Y2, P2, { classes: [0, 2] }),
    code: 'UM_OPTION',
    message: /^classwiseReliability: options.classes\[1\] must be class indices in \[0, 2\); got 2/,
  },
  {
    what: 'classes not an array',
    call: () => fnOf('classwiseReliability')(Y2, P2, { classes: 1 }),
    code: 'UM_OPTION',
    message: /^classwiseReliability: options.classes must be a non-empty array of class indices; got 1/,
  },
  {
    what: 'an interval level without an interval',
    call: () => fnOf('classwiseReliability')(Y2, P2, { level: 0.9 }),
    code: 'UM_OPTION',
    message: /^classwiseReliability: options.level must be given only with options.interval/,
  },
]);
add('debiasedEce', [
  {
    what: 'unknown mode',
    call: () => fnOf('debiasedEce')(Y2, P2, { mode: 'classwise' }),
    code: 'UM_OPTION',
    message: /^debiasedEce: options.mode must be one of 'top-label', 'marginal', 'positive-class'; got "classwise"/,
  },
  {
    what: 'unknown smallBins',
    call: () => fnOf('debiasedEce')(Y2, P2, { smallBins: 'keep' }),
    code: 'UM_OPTION',
    message: /^debiasedEce: options.smallBins must be 'drop' or 'plugin'; got "keep"/,
  },
]);
add('bayesianEce', [
  {
    what: 'samples 0',
    call: () => fnOf('bayesianEce')(Y2, P2, { samples: 0 }),
    code: 'UM_OPTION',
    message: /^bayesianEce: options.samples must be an integer in \[1, 1048576\]; got 0/,
  },
  {
    what: 'negative seed',
    call: () => fnOf('bayesianEce')(Y2, P2, { seed: -1 }),
    code: 'UM_OPTION',
    message: /^bayesianEce: options.seed must be an integer in \[0, 2³² − 1\]; got -1/,
  },
  {
    what: 'quantile above 1',
    call: () => fnOf('bayesianEce')(Y2, P2, { quantiles: [0.5, 2] }),
    code: 'UM_OPTION',
    message: /^bayesianEce: options.quantiles\[1\] must be numbers in \[0, 1\]; got 2/,
  },
]);
add('brier', [
  {
    what: 'unknown form',
    call: () => fnOf('brier')(Y2, P2, { form: 'double' }),
    code: 'UM_OPTION',
    message: /^brier: options.form must be one of 'standard', 'half', 'minus-one', 'half-if-binary'; got "double"/,
  },
]);
add('brierPerExample', [
  {
    what: 'unknown form',
    call: () => fnOf('brierPerExample')(Y2, P2, { form: 'x' }),
    code: 'UM_OPTION',
    message: /^brierPerExample: options.form must be one of/,
  },
]);
add('brierDecomposition', [
  {
    what: 'unknown reliability',
    call: () => fnOf('brierDecomposition')(Y2, P2, { reliability: 'bröcker' }),
    code: 'UM_OPTION',
    message: /^brierDecomposition: options.reliability must be 'exact' or 'distance'; got "bröcker"/,
  },
  {
    what: 'negative epsilon',
    call: () => fnOf('brierDecomposition')(Y2, P2, { epsilon: -1 }),
    code: 'UM_OPTION',
    message: /^brierDecomposition: options.epsilon must be a finite number ≥ 0; got -1/,
  },
]);
for (const fn of ['nll', 'nllPerExample']) {
  add(fn, [
    {
      what: 'clip 0.5',
      call: () => fnOf(fn)(Y2, P2, { clip: 0.5 }),
      code: 'UM_OPTION',
      message: new RegExp(`^${fn}: options.clip must be a number in \\[0, 0.5\\), 'machine-epsilon' or null; got 0.5`),
    },
    {
      what: 'renormalize not boolean',
      call: () => fnOf(fn)(Y2, P2, { renormalize: 1 }),
      code: 'UM_OPTION',
      message: new RegExp(`^${fn}: options.renormalize must be true or false; got 1`),
    },
  ]);
}
add('binaryBrier', [
  {
    what: 'lengths differ',
    call: () => fnOf('binaryBrier')([0, 1], [0.5]),
    code: 'UM_SHAPE',
    message: /^binaryBrier: outcomes must have one entry per probability \(1\); got 2/,
  },
  {
    what: 'outcome 2',
    call: () => fnOf('binaryBrier')([2], [0.5]),
    code: 'UM_LABEL',
    message: /^binaryBrier: outcomes\[0\] must be 0 or 1; got 2/,
  },
  {
    what: 'unknown scale',
    call: () => fnOf('binaryBrier')([1], [0.5], { scale: 'half' }),
    code: 'UM_OPTION',
    message: /^binaryBrier: options.scale must be 'single' or 'double'; got "half"/,
  },
  {
    what: 'unknown option',
    call: () => fnOf('binaryBrier')([1], [0.5], { form: 'half' }),
    code: 'UM_OPTION',
    message: /^binaryBrier: options.form must not be given/,
  },
]);
add('semiparametricCalibrationError', [
  {
    what: 'too few of a class',
    call: () => fnOf('semiparametricCalibrationError')([0, 1, 1], [0.2, 0.6, 0.9]),
    code: 'UM_SHAPE',
    message:
      /^semiparametricCalibrationError: outcomes must hold at least 5 of each outcome for 5-fold cross-fitting; got 2/,
  },
  {
    what: 'folds 1',
    call: () => fnOf('semiparametricCalibrationError')([0, 1], [0.2, 0.6], { folds: 1 }),
    code: 'UM_OPTION',
    message: /^semiparametricCalibrationError: options.folds must be an integer in \[2, 1048576\]; got 1/,
  },
  {
    what: 'alpha 1',
    call: () => fnOf('semiparametricCalibrationError')([0, 1], [0.2, 0.6], { alpha: 1 }),
    code: 'UM_OPTION',
    message: /^semiparametricCalibrationError: options.alpha must be in \(0, 1\); got 1/,
  },
  {
    what: 'probability 2',
    call: () => fnOf('semiparametricCalibrationError')([0, 1], [0.2, 2]),
    code: 'UM_PROB_RANGE',
    message: /^semiparametricCalibrationError: probs\[1\] must be in \[0, 1\]; got 2/,
  },
]);
for (const fn of ['crps', 'crpsPerExample']) {
  const f = fnOf(fn);
  add(fn, [
    {
      what: 'no observations',
      call: () => f([], { mean: [], std: [] }),
      code: 'UM_EMPTY',
      message: new RegExp(`^${fn}: observations must hold at least one observation`),
    },
    {
      what: 'NaN observation',
      call: () => f([NaN], { mean: [0], std: [1] }),
      code: 'UM_NOT_FINITE',
      message: new RegExp(`^${fn}: observations\\[0\\] must be a finite number; got NaN`),
    },
    {
      what: 'negative std',
      call: () => f([0, 1], { mean: [0, 0], std: [1, -1] }),
      code: 'UM_OPTION',
      message: new RegExp(`^${fn}: forecast.std\\[1\\] must be ≥ 0; got -1`),
    },
    {
      what: 'mean of the wrong length',
      call: () => f([0, 1], { mean: [0], std: [1, 1] }),
      code: 'UM_SHAPE',
      message: new RegExp(`^${fn}: forecast.mean must have one entry per observation \\(2\\); got 1`),
    },
    {
      what: 'no forecast',
      call: () => f([0], {}),
      code: 'UM_SHAPE',
      message: new RegExp(`^${fn}: forecast must be \\{ mean, std \\} or \\{ samples \\}`),
    },
    {
      what: 'one draw with the fair estimator',
      call: () => f([0], { samples: [[1]] }),
      code: 'UM_SHAPE',
      message: new RegExp(
        `^${fn}: forecast.samples\\[0\\] must hold at least 2 draws per observation for the fair estimator; got 1`,
      ),
    },
    {
      what: 'NaN draw',
      call: () => f([0], { samples: [[1, NaN]] }),
      code: 'UM_NOT_FINITE',
      message: new RegExp(`^${fn}: forecast.samples\\[0\\]\\[1\\] must be a finite number; got NaN`),
    },
    // draws are read entry by entry: a string was converted silently, a BigInt or Symbol threw a TypeError
    ...(
      [
        ['"2"', '2'],
        ['2n', 2n],
        ['Symbol(d)', Symbol('d')],
        ['{}', {}],
        ['null', null],
      ] as const
    ).map(([shown, v]) => ({
      what: `a draw ${shown}`,
      call: () =>
        f([0, 1], {
          samples: [
            [1, 2],
            [1, v],
          ],
        }),
      code: 'UM_NOT_FINITE' as const,
      message: new RegExp(`^${fn}: forecast.samples\\[1\\]\\[1\\] must be a finite number; got `),
    })),
    {
      what: 'flat draws without numSamples',
      call: () => f([0], { samples: new Float64Array(2) }),
      code: 'UM_OPTION',
      message: new RegExp(`^${fn}: forecast.numSamples must be an integer ≥ 1 with a flat samples array`),
    },
    {
      what: 'unknown estimator',
      call: () => f([0], { samples: [[1, 2]] }, { estimator: 'pwm' }),
      code: 'UM_OPTION',
      message: new RegExp(`^${fn}: options.estimator must be 'fair', 'nrg' or 'cyclic'; got "pwm"`),
    },
    {
      what: 'samples and mean/std together',
      call: () => f([0], { mean: [0], std: [1], samples: [[1, 2]] } as never),
      code: 'UM_OPTION',
      message: new RegExp(
        `^${fn}: forecast must be either \\{ mean, std \\} or \\{ samples \\} \\(numSamples\\), not both; got "mean, std, samples"`,
      ),
    },
    {
      what: 'an unknown forecast key',
      call: () => f([0], { mean: [0], std: [1], sd: [1] } as never),
      code: 'UM_OPTION',
      message: new RegExp(`^${fn}: forecast.sd must not be given`),
    },
    {
      what: 'a CRPS beyond float64',
      call: () => f([1e308], { mean: [-1e308], std: [0] }),
      code: 'UM_NOT_FINITE',
      message: new RegExp(
        `^${fn}: observations\\[0\\] must give a CRPS within float64 \\(at most 1.8e308\\) with its forecast; got 1e\\+308`,
      ),
    },
  ]);
}

// ---- ensembles: [S, N, C]
const E = [
  [
    [0.9, 0.1],
    [0.3, 0.7],
  ],
  [
    [0.6, 0.4],
    [0.2, 0.8],
  ],
];
function ensembleRows(fn: string, call: (members: unknown, options?: unknown) => unknown): Row[] {
  return [
    {
      what: 'not stacked members',
      call: () => call('abc'),
      code: 'UM_SHAPE',
      message: new RegExp(`^${fn}: probs must be stacked member outputs \\[S, N, C\\]`),
    },
    {
      what: 'one model instead of members',
      call: () => call(P2),
      code: 'UM_SHAPE',
      message: new RegExp(
        `^${fn}: probs\\[0\\] must be stacked member outputs \\[S, N, C\\]: an array of member matrices`,
      ),
    },
    {
      what: 'no members',
      call: () => call([]),
      code: 'UM_EMPTY',
      message: new RegExp(`^${fn}: probs must hold at least one member`),
    },
    {
      what: 'members with different N',
      call: () => call([P2, [[0.5, 0.5]]]),
      code: 'UM_SHAPE',
      message: new RegExp(`^${fn}: probs\\[1\\] must have members of 2 rows like member 0`),
    },
    {
      what: 'ragged row in a member',
      call: () => call([P2, [[0.5, 0.5], [1]]]),
      code: 'UM_SHAPE',
      message: new RegExp(`^${fn}: probs\\[1\\]\\[1\\] must be a row of 2 numbers like row 0 of member 0`),
    },
    {
      what: 'probability above 1 in member 1',
      call: () =>
        call([
          P2,
          [
            [0.5, 0.5],
            [1.5, -0.5],
          ],
        ]),
      code: 'UM_PROB_RANGE',
      message: new RegExp(`^${fn}: probs\\[1\\]\\[1\\]\\[0\\] must be in \\[0, 1\\]; got 1.5`),
    },
    {
      what: 'row not summing to 1',
      call: () =>
        call([
          P2,
          [
            [0.5, 0.5],
            [0.5, 0.4],
          ],
        ]),
      code: 'UM_ROW_SUM',
      message: new RegExp(`^${fn}: probs\\[1\\]\\[1\\] must sum to 1`),
    },
    {
      what: 'NaN logit',
      call: () => call([[[0, NaN]]], { input: 'logits' }),
      code: 'UM_NOT_FINITE',
      message: new RegExp(`^${fn}: logits\\[0\\]\\[0\\]\\[1\\] must be a finite number or -Infinity; got NaN`),
    },
    {
      what: 'flat array without numMembers',
      call: () => call(new Float64Array(8), { numClasses: 2 }),
      code: 'UM_OPTION',
      message: new RegExp(`^${fn}: options.numMembers must be an integer ≥ 1`),
    },
    {
      what: 'flat array of the wrong length',
      call: () => call(new Float64Array(7), { numClasses: 2, numMembers: 2 }),
      code: 'UM_SHAPE',
      message: new RegExp(
        `^${fn}: probs must have a length that is a multiple of numMembers × numClasses \\(4\\); got 7`,
      ),
    },
    {
      what: 'a misspelt option',
      call: () => call(E, { member: 2 }),
      code: 'UM_OPTION',
      message: new RegExp(`^${fn}: options.member must not be given: ${fn} has no such option`),
    },
  ];
}
for (const fn of [
  'toEnsemble',
  'mcIntegrate',
  'modelUncertainty',
  'disagreement',
  'pairwiseKl',
  'cosineDistance',
  'lpDistance',
  'averagePairwiseDiversity',
  'ensembleVariance',
]) {
  add(
    fn,
    ensembleRows(fn, (m, o) => fnOf(fn)(m, o)),
  );
}
for (const fn of ['doubleFault', 'varianceBound', 'ensembleNll', 'gibbsNll', 'evaluateEnsemble']) {
  add(
    fn,
    ensembleRows(fn, (m, o) => fnOf(fn)(Y2, m, o)),
  );
  add(fn, [
    {
      what: 'labels of the wrong length',
      call: () => fnOf(fn)([0], E),
      code: 'UM_SHAPE',
      message: new RegExp(`^${fn}: labels must have one entry per row of scores \\(2\\); got 1`),
    },
    {
      what: 'label out of range',
      call: () => fnOf(fn)([0, 5], E),
      code: 'UM_LABEL',
      message: new RegExp(`^${fn}: labels\\[1\\] must be an integer in \\[0, 2\\); got 5`),
    },
  ]);
}
for (const fn of ['disagreement', 'pairwiseKl', 'cosineDistance', 'lpDistance', 'averagePairwiseDiversity']) {
  add(fn, [
    {
      what: 'a single member',
      call: () => fnOf(fn)([P2]),
      code: 'UM_SHAPE',
      message: new RegExp(`^${fn}: members must hold at least 2 members to compare; got 1`),
    },
  ]);
}
add('evaluateEnsemble', [
  {
    what: 'bins 0',
    call: () => fnOf('evaluateEnsemble')(Y2, E, { bins: 0 }),
    code: 'UM_OPTION',
    message: /^evaluateEnsemble: options.bins must be an integer in \[1, 1048576\]; got 0/,
  },
  {
    what: 'unknown preset',
    call: () => fnOf('evaluateEnsemble')(Y2, E, { preset: 'sklearn2' }),
    code: 'UM_OPTION',
    message: /^evaluateEnsemble: options.preset must be one of/,
  },
]);
add('doubleFault', [
  {
    what: 'a single member',
    call: () => fnOf('doubleFault')(Y2, [P2]),
    code: 'UM_SHAPE',
    message: /^doubleFault: members must hold at least 2 members to compare; got 1/,
  },
]);
add('pairwiseKl', [
  {
    what: 'clip 1',
    call: () => fnOf('pairwiseKl')(E, { clip: 1 }),
    code: 'UM_OPTION',
    message: /^pairwiseKl: options.clip must be a number in \[0, 1\); got 1/,
  },
]);
add('lpDistance', [
  {
    what: 'p 0.5',
    call: () => fnOf('lpDistance')(E, { p: 0.5 }),
    code: 'UM_OPTION',
    message: /^lpDistance: options.p must be a finite number ≥ 1; got 0.5/,
  },
]);
add('averagePairwiseDiversity', [
  {
    what: 'error rate 2',
    call: () => fnOf('averagePairwiseDiversity')(E, { error: 2 }),
    code: 'UM_OPTION',
    message: /^averagePairwiseDiversity: options.error must be an error rate in \[0, 1\]; got 2/,
  },
]);
add('ensembleVariance', [
  {
    what: 'ddof 2',
    call: () => fnOf('ensembleVariance')(E, { ddof: 2 }),
    code: 'UM_OPTION',
    message: /^ensembleVariance: options.ddof must be 0 or 1; got 2/,
  },
  {
    what: 'one member with ddof 1',
    call: () => fnOf('ensembleVariance')([P2]),
    code: 'UM_SHAPE',
    message: /^ensembleVariance: members must hold at least 2 members for ddof = 1; got 1/,
  },
]);
add('knowledgeUncertainty', [
  {
    what: 'alpha 0',
    call: () => fnOf('knowledgeUncertainty')([[1, 0]]),
    code: 'UM_OPTION',
    message: /^knowledgeUncertainty: alphas\[0\]\[1\] must be > 0 \(Dirichlet concentration\); got 0/,
  },
  {
    what: 'NaN alpha',
    call: () => fnOf('knowledgeUncertainty')([[1, NaN]]),
    code: 'UM_NOT_FINITE',
    message: /^knowledgeUncertainty: alphas\[0\]\[1\] must be a finite number; got NaN/,
  },
  {
    what: 'ragged',
    call: () => fnOf('knowledgeUncertainty')([[1, 2], [1]]),
    code: 'UM_SHAPE',
    message: /^knowledgeUncertainty: alphas\[1\] must be a row of 2 numbers/,
  },
  {
    what: 'no rows',
    call: () => fnOf('knowledgeUncertainty')([]),
    code: 'UM_EMPTY',
    message: /^knowledgeUncertainty: alphas must hold at least one row/,
  },
  {
    what: 'flat without numClasses',
    call: () => fnOf('knowledgeUncertainty')(new Float64Array(4)),
    code: 'UM_OPTION',
    message: /^knowledgeUncertainty: options.numClasses must be an integer ≥ 2 for a flat array/,
  },
]);
for (const fn of ['negativeWaic', 'iscv']) {
  const f = fnOf(fn);
  add(fn, [
    {
      what: 'no instances',
      call: () => f([]),
      code: 'UM_EMPTY',
      message: new RegExp(`^${fn}: logLikelihood must hold at least one instance and one member`),
    },
    {
      what: 'positive log-likelihood',
      call: () => f([[-1, 0.5]]),
      code: 'UM_PROB_RANGE',
      message: new RegExp(`^${fn}: logLikelihood\\[0\\]\\[1\\] must be ≤ 0 \\(the log of a probability\\); got 0.5`),
    },
    {
      what: '-Infinity',
      call: () => f([[-1, -Infinity]]),
      code: 'UM_NOT_FINITE',
      message: new RegExp(`^${fn}: logLikelihood\\[0\\]\\[1\\] must be a finite log-likelihood; got -Infinity`),
    },
    {
      what: 'ragged',
      call: () => f([[-1, -2], [-1]]),
      code: 'UM_SHAPE',
      message: new RegExp(`^${fn}: logLikelihood\\[1\\] must be a row of 2 log-likelihoods like row 0`),
    },
    {
      what: 'unknown sem',
      call: () => f([[-1, -2]], { sem: 'n' }),
      code: 'UM_OPTION',
      message: new RegExp(`^${fn}: options.sem must be 'instances' or 'members'; got "n"`),
    },
    {
      what: 'unknown preset',
      call: () => f([[-1, -2]], { preset: 'loo' }),
      code: 'UM_OPTION',
      message: new RegExp(`^${fn}: options.preset must be one of`),
    },
  ]);
}
add('negativeWaic', [
  {
    what: 'unknown type',
    call: () => fnOf('negativeWaic')([[-1, -2]], { type: 'waic3' }),
    code: 'UM_OPTION',
    message: /^negativeWaic: options.type must be 'waic1' or 'waic2'; got "waic3"/,
  },
  {
    what: 'one member with the sample variance',
    call: () => fnOf('negativeWaic')([[-1], [-2]]),
    code: 'UM_SHAPE',
    message: /^negativeWaic: logLikelihood must have at least 2 members for the variance; got 1/,
  },
  {
    what: 'a WAIC penalty beyond float64',
    call: () =>
      fnOf('negativeWaic')([
        [-1, -2],
        [-1e308, -1],
      ]),
    code: 'UM_NOT_FINITE',
    message:
      /^negativeWaic: logLikelihood\[1\] must give a WAIC term within float64 \(its penalty, the variance of the row, exceeds 1.8e308\); got -1e\+308/,
  },
]);
add('setWarningHandler', [
  {
    what: 'not a function',
    call: () => fnOf('setWarningHandler')(5),
    code: 'UM_OPTION',
    message: /^setWarningHandler: handler must be a function or undefined; got 5/,
  },
]);
add('useKernels', [
  {
    what: 'an unknown backend',
    call: () => fnOf('useKernels')('gpu'),
    code: 'UM_OPTION',
    message: /^useKernels: which must be 'wasm' or 'reference'; got "gpu"/,
  },
]);

// ---- recalibration
for (const fn of ['fitTemperature', 'fitPlatt', 'fitIsotonic', 'fitTopBinning'])
  add(fn, labeledRows(fn, fnOf(fn), false));
add('fitHistogramBinning', labeledRows('fitHistogramBinning', fnOf('fitHistogramBinning')));
add(
  'fitMcTemperature',
  ensembleRows('fitMcTemperature', (m, o) => fnOf('fitMcTemperature')(Y2, m, o)),
);
add('fitMcTemperature', [
  {
    what: 'labels of the wrong length',
    call: () => fnOf('fitMcTemperature')([0], E),
    code: 'UM_SHAPE',
    message: /^fitMcTemperature: labels must have one entry per row of scores \(2\); got 1/,
  },
  {
    what: 'unknown objective',
    call: () => fnOf('fitMcTemperature')(Y2, E, { objective: 'nll' }),
    code: 'UM_OPTION',
    message: /^fitMcTemperature: options.objective must be 'predictive' or 'mean-nll'; got "nll"/,
  },
]);
for (const fn of ['fitTemperature', 'fitMcTemperature']) {
  const data = fn === 'fitTemperature' ? P2 : E;
  add(fn, [
    {
      what: 'bounds not around 1',
      call: () => fnOf(fn)(Y2, data, { bounds: [2, 10] }),
      code: 'UM_OPTION',
      message: new RegExp(
        `^${fn}: options.bounds must be \\[T_min, T_max\\] with 0 < T_min < 1 < T_max < Infinity; got \\[2, 10\\]$`,
      ),
    },
    {
      what: 'infinite upper bound',
      call: () => fnOf(fn)(Y2, data, { bounds: [0.1, Infinity] }),
      code: 'UM_OPTION',
      message: new RegExp(`^${fn}: options.bounds must be`),
    },
    {
      what: 'tolerance 0',
      call: () => fnOf(fn)(Y2, data, { tolerance: 0 }),
      code: 'UM_OPTION',
      message: new RegExp(`^${fn}: options.tolerance must be a number in \\(0, 1\\); got 0`),
    },
    {
      what: 'two evaluations',
      call: () => fnOf(fn)(Y2, data, { maxEvaluations: 2 }),
      code: 'UM_OPTION',
      message: new RegExp(`^${fn}: options.maxEvaluations must be an integer in \\[3, 1048576\\]; got 2`),
    },
  ]);
}
add('fitPlatt', [
  {
    what: 'three classes',
    call: () => fnOf('fitPlatt')([0], [[0.2, 0.3, 0.5]]),
    code: 'UM_OPTION',
    message:
      /^fitPlatt: scores must be binary \(a vector with binary: true, or two columns\); for more classes use fitTemperature; got "3 classes"/,
  },
  {
    what: 'a probability of 1',
    call: () => fnOf('fitPlatt')([0, 1], [0.5, 1], { binary: true }),
    code: 'UM_NOT_FINITE',
    message: /^fitPlatt: probs\[1\] must give finite log-odds/,
  },
]);
add('fitHistogramBinning', [
  {
    what: 'bins 0',
    call: () => fnOf('fitHistogramBinning')(Y2, P2, { bins: 0 }),
    code: 'UM_OPTION',
    message: /^fitHistogramBinning: options.bins must be an integer in \[1, 1048576\]; got 0/,
  },
  {
    what: 'ding binning',
    call: () => fnOf('fitHistogramBinning')(Y2, P2, { binning: 'ding' }),
    code: 'UM_OPTION',
    message: /^fitHistogramBinning: options.binning must be 'equal-width' or 'equal-mass'; got "ding"/,
  },
]);
add('fitTopBinning', [
  {
    what: 'bins 1.5',
    call: () => fnOf('fitTopBinning')(Y2, P2, { bins: 1.5 }),
    code: 'UM_OPTION',
    message: /^fitTopBinning: options.bins must be an integer in \[1, 1048576\]; got 1.5/,
  },
  {
    what: 'delta 1',
    call: () => fnOf('fitTopBinning')(Y2, P2, { delta: 1 }),
    code: 'UM_OPTION',
    message: /^fitTopBinning: options.delta must be a number in \(0, 1\); got 1/,
  },
  {
    what: 'regularize "yes"',
    call: () => fnOf('fitTopBinning')(Y2, P2, { regularize: 'yes' }),
    code: 'UM_OPTION',
    message: /^fitTopBinning: options.regularize must be true or false; got "yes"/,
  },
  {
    what: 'unknown score',
    call: () => fnOf('fitTopBinning')(Y2, P2, { score: 'variance' }),
    code: 'UM_OPTION',
    message: /^fitTopBinning: options.score must be one of 'max-prob', .*; got "variance"/,
  },
  {
    what: 'score values of the wrong length',
    call: () => fnOf('fitTopBinning')(Y2, P2, { score: { uncertainty: [1] } }),
    code: 'UM_SHAPE',
    message: /^fitTopBinning: options.score.uncertainty must have one value per row \(2\); got 1/,
  },
  {
    what: 'a score with two directions',
    call: () => fnOf('fitTopBinning')(Y2, P2, { score: { confidence: [1, 2], uncertainty: [1, 2] } }),
    code: 'UM_OPTION',
    message: /^fitTopBinning: options.score must have exactly one key/,
  },
  {
    what: 'top = C',
    call: () => fnOf('fitTopBinning')(Y2, P2, { top: 2 }),
    code: 'UM_OPTION',
    message: /^fitTopBinning: options.top must be an integer in \[1, 1\] \(the Top-2 event is certain\); got 2/,
  },
]);

const TEMPERATURE = um.fitTemperature(Y2, P2);
const MC = um.fitMcTemperature(Y2, E);
const PLATT = um.fitPlatt([0, 1, 1], [0.2, 0.6, 0.9], { binary: true });
const HIST = um.fitHistogramBinning(Y2, P2);
const ISO = um.fitIsotonic(Y2, P2);
const TOP = um.fitTopBinning(
  [0, 1, 1],
  [
    [0.9, 0.1],
    [0.3, 0.7],
    [0.6, 0.4],
  ],
  { bins: 2 },
);
const APPLY: [string, unknown, unknown, Record<string, unknown>][] = [
  ['applyTemperature', TEMPERATURE, P2, {}],
  ['applyMcTemperature', MC, E, {}],
  ['applyPlatt', PLATT, [0.5], { binary: true }],
  ['applyHistogramBinning', HIST, P2, {}],
  ['applyIsotonic', ISO, P2, {}],
  ['applyTopBinning', TOP, P2, {}],
  ['applyCalibrator', TEMPERATURE, P2, {}],
];
for (const [fn, params, scores, options] of APPLY) {
  const f = fnOf(fn);
  const kind = (params as { kind: string }).kind;
  const other = kind === 'temperature' ? ISO : TEMPERATURE;
  add(fn, [
    {
      what: 'params not an object',
      call: () => f(5, scores, options),
      code: 'UM_CALIBRATOR',
      message: new RegExp(`^${fn}: params must be a calibrator object`),
    },
    {
      what: 'params of another format',
      call: () => f({ ...(params as object), format: 'x' }, scores, options),
      code: 'UM_CALIBRATOR',
      message: new RegExp(`^${fn}: params.format must be "uncertainty-metrics/calibrator"; got "x"`),
    },
    {
      what: 'params without fittedOn',
      call: () => f({ ...(params as object), fittedOn: undefined }, scores, options),
      code: 'UM_CALIBRATOR',
      message: new RegExp(`^${fn}: params.fittedOn.n must be an integer ≥ 1; got undefined`),
    },
    {
      what: 'a misspelt option',
      call: () => f(params, scores, { ...options, inputs: 'logits' }),
      code: 'UM_OPTION',
      message: new RegExp(`^${fn}: options.inputs must not be given`),
    },
    ...(fn === 'applyCalibrator'
      ? [
          {
            what: 'unknown kind',
            call: () => f({ ...(params as object), kind: 'x' }, scores, options),
            code: 'UM_CALIBRATOR' as const,
            message: /^applyCalibrator: params.kind must be one of "temperature", .*; got "x"/,
          },
        ]
      : [
          {
            what: 'a calibrator of another kind',
            call: () => f(other, scores, options),
            code: 'UM_CALIBRATOR' as const,
            message: new RegExp(`^${fn}: params.kind must be "${kind}"; got "${(other as { kind: string }).kind}"`),
          },
        ]),
    fn === 'applyMcTemperature'
      ? {
          what: 'members with another number of classes',
          call: () => f(params, [[[0.2, 0.3, 0.5]]], options),
          code: 'UM_CALIBRATOR',
          message: new RegExp(
            `^${fn}: scores must have the 2 classes the mc-temperature calibrator was fitted on; got "3 classes"`,
          ),
        }
      : fn === 'applyPlatt'
        ? {
            what: 'a matrix of three classes',
            call: () => f(params, [[0.2, 0.3, 0.5]], {}),
            code: 'UM_CALIBRATOR',
            message: /^applyPlatt: scores must have the 2 classes the platt calibrator was fitted on; got "3 classes"/,
          }
        : {
            what: 'scores with another number of classes',
            call: () => f(params, [[0.2, 0.3, 0.5]], options),
            code: 'UM_CALIBRATOR',
            message: new RegExp(
              `^${fn}: scores must have the 2 classes the ${kind} calibrator was fitted on; got "3 classes"`,
            ),
          },
    fn === 'applyMcTemperature'
      ? {
          what: 'a probability above 1',
          call: () => f(params, [[[1.2, -0.2]]], options),
          code: 'UM_PROB_RANGE',
          message: new RegExp(`^${fn}: probs\\[0\\]\\[0\\]\\[0\\] must be in \\[0, 1\\]; got 1.2`),
        }
      : fn === 'applyPlatt'
        ? {
            what: 'a probability above 1',
            call: () => f(params, [1.2], options),
            code: 'UM_PROB_RANGE',
            message: /^applyPlatt: probs\[0\] must be in \[0, 1\]; got 1.2/,
          }
        : {
            what: 'a probability above 1',
            call: () => f(params, [[1.2, -0.2]], options),
            code: 'UM_PROB_RANGE',
            message: new RegExp(`^${fn}: probs\\[0\\]\\[0\\] must be in \\[0, 1\\]; got 1.2`),
          },
  ]);
}
add('applyHistogramBinning', [
  {
    what: 'edges not reaching 1',
    call: () =>
      fnOf('applyHistogramBinning')({ ...HIST, histograms: [{ edges: [0, 0.5], values: [0.5], counts: [2] }] }, P2),
    code: 'UM_CALIBRATOR',
    message: /^applyHistogramBinning: params.histograms\[0\].edges must increase strictly from 0 to 1/,
  },
]);
add('applyIsotonic', [
  {
    what: 'decreasing map',
    call: () => fnOf('applyIsotonic')({ ...ISO, maps: [{ x: [0, 1], y: [1, 0] }] }, P2),
    code: 'UM_CALIBRATOR',
    message: /^applyIsotonic: params.maps\[0\].y\[1\] must be non-decreasing probabilities; got 0/,
  },
]);
add('applyTopBinning', [
  {
    what: 'cuts and bins of different lengths',
    call: () => fnOf('applyTopBinning')({ ...TOP, cuts: [] }, P2),
    code: 'UM_CALIBRATOR',
    message: /^applyTopBinning: params.bins must be an array of 1 bins \(one more than cuts\)/,
  },
  {
    what: 'another named score',
    call: () => fnOf('applyTopBinning')(TOP, P2, { score: 'entropy' }),
    code: 'UM_CALIBRATOR',
    message: /^applyTopBinning: options.score must be omitted or 'max-prob'/,
  },
]);
add('topBinningReport', [
  {
    what: 'params of another kind',
    call: () => fnOf('topBinningReport')(TEMPERATURE, Y2, P2),
    code: 'UM_CALIBRATOR',
    message: /^topBinningReport: params.kind must be "top-binning"; got "temperature"/,
  },
  {
    what: 'labels of the wrong length',
    call: () => fnOf('topBinningReport')(TOP, [0], P2),
    code: 'UM_SHAPE',
    message: /^topBinningReport: labels must have one entry per row of scores \(2\); got 1/,
  },
  {
    what: 'label out of range',
    call: () => fnOf('topBinningReport')(TOP, [0, 3], P2),
    code: 'UM_LABEL',
    message: /^topBinningReport: labels\[1\] must be an integer in \[0, 2\); got 3/,
  },
  {
    what: 'no labels (a TypeError before)',
    call: () => fnOf('topBinningReport')(TOP, undefined, P2),
    code: 'UM_SHAPE',
    message:
      /^topBinningReport: labels must be an array of integer class labels \(a report needs them\); got undefined/,
  },
  {
    what: 'delta 0',
    call: () =>
      (um.topBinningReport as (p: unknown, l: unknown, s: unknown, o: unknown) => unknown)(TOP, Y2, P2, { delta: 0 }),
    code: 'UM_OPTION',
    message: /^topBinningReport: options.delta must be a number in \(0, 1\); got 0/,
  },
]);
add('oddsRatio', [
  {
    what: 'p = 1',
    call: () => fnOf('oddsRatio')(1, 0.5),
    code: 'UM_PROB_RANGE',
    message: /^oddsRatio: p must be in \(0, 1\) \(odds of 0 or 1 are not finite\); got 1/,
  },
  {
    what: 'a = 0',
    call: () => fnOf('oddsRatio')(0.5, 0),
    code: 'UM_PROB_RANGE',
    message: /^oddsRatio: a must be in \(0, 1\)/,
  },
  {
    what: 'NaN',
    call: () => fnOf('oddsRatio')(NaN, 0.5),
    code: 'UM_NOT_FINITE',
    message: /^oddsRatio: p must be a finite number; got NaN/,
  },
]);
add('expectedOddsRatio', [
  {
    what: 'no bins',
    call: () => fnOf('expectedOddsRatio')([]),
    code: 'UM_EMPTY',
    message: /^expectedOddsRatio: probabilities must hold at least one bin; got 0/,
  },
  {
    what: 'a bin of probability 0',
    call: () => fnOf('expectedOddsRatio')([0.5, 0]),
    code: 'UM_PROB_RANGE',
    message: /^expectedOddsRatio: probabilities\[1\] must be in \(0, 1\)/,
  },
  {
    what: 'weights of the wrong length',
    call: () => fnOf('expectedOddsRatio')([0.5, 0.2], [1]),
    code: 'UM_SHAPE',
    message: /^expectedOddsRatio: weights must have one weight per probability \(2\)/,
  },
  {
    what: 'a negative weight',
    call: () => fnOf('expectedOddsRatio')([0.5, 0.2], [1, -1]),
    code: 'UM_OPTION',
    message: /^expectedOddsRatio: weights\[1\] must be finite numbers ≥ 0; got -1/,
  },
  {
    what: 'zero weights',
    call: () => fnOf('expectedOddsRatio')([0.5, 0.2], [0, 0]),
    code: 'UM_OPTION',
    message: /^expectedOddsRatio: weights must not all be 0/,
  },
]);
add('parseCalibrator', [
  {
    what: 'invalid JSON',
    call: () => fnOf('parseCalibrator')('{'),
    code: 'UM_CALIBRATOR',
    message: /^parseCalibrator: json must be valid JSON/,
  },
  {
    what: 'null',
    call: () => fnOf('parseCalibrator')(null),
    code: 'UM_CALIBRATOR',
    message: /^parseCalibrator: params must be a calibrator object; got null/,
  },
  {
    what: 'unknown kind',
    call: () => fnOf('parseCalibrator')({ kind: 'beta' }),
    code: 'UM_CALIBRATOR',
    message: /^parseCalibrator: params.kind must be one of/,
  },
]);

for (const [fn, rows] of Object.entries(LLM_ROWS)) add(fn, rows);

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
          expect(e.details.fn).toBe(row.fn ?? fn);
        });
      }
    });
  }

  it('covers every public function of the core and of uncertainty-metrics/llm', () => {
    const functions = publicExports({
      'uncertainty-metrics': 'src/index.ts',
      'uncertainty-metrics/llm': 'src/llm/index.ts',
    })
      .filter((e) => e.kind === 'function')
      .map((e) => e.name);
    expect(functions.filter((name) => (ROWS[name] ?? []).length === 0)).toEqual([]);
  });
});
