/**
 * Bad-input rows of `uncertainty-metrics/llm` for badInputs.test.ts (kept here so that file stays one table per
 * entry point): every public function, each row a typed UMError naming the function, argument, row and value.
 */
import type { UMErrorCode } from '../../src/index.js';
import * as llm from '../../src/llm/index.js';

export interface LlmRow {
  what: string;
  call: () => unknown;
  code: UMErrorCode;
  message: RegExp;
}

const f = llm as unknown as Record<string, (...a: unknown[]) => unknown>;
const call =
  (fn: string, ...args: unknown[]) =>
  () =>
    (f[fn] as (...a: unknown[]) => unknown)(...args);

const YN = ['yes', 'no'];
const judge = (p: number) => ({
  choices: [
    {
      logprobs: {
        content: [
          {
            token: 'yes',
            logprob: Math.log(p),
            top_logprobs: [
              { token: 'yes', logprob: Math.log(p) },
              { token: 'no', logprob: Math.log(1 - p) },
            ],
          },
        ],
      },
    },
  ],
});
const say = (t: string) => ({ choices: [{ message: { content: t } }] });
const read = () => llm.labelProbabilities([judge(0.9), judge(0.8)], YN);
const calibrator = () => llm.fitLlmCalibrator(['yes', 'no'], read());

export const LLM_ROWS: Record<string, LlmRow[]> = {
  verbalizer: [
    {
      what: 'labels not an array',
      call: call('verbalizer', 'yes,no'),
      code: 'UM_OPTION',
      message: /^verbalizer: labels must be an array of label names; got "yes,no"/,
    },
    {
      what: 'one label',
      call: call('verbalizer', ['yes']),
      code: 'UM_OPTION',
      message: /^verbalizer: labels must hold at least two labels/,
    },
    {
      what: 'a duplicate',
      call: call('verbalizer', ['yes', 'no', 'yes']),
      code: 'UM_OPTION',
      message: /^verbalizer: labels\[2\] must be distinct labels; got "yes"/,
    },
    {
      what: 'an empty label',
      call: call('verbalizer', ['yes', ' ']),
      code: 'UM_OPTION',
      message: /^verbalizer: labels\[1\] must be a non-empty string; got " "/,
    },
    {
      what: 'a misspelt option',
      call: call('verbalizer', YN, { variant: {} }),
      code: 'UM_OPTION',
      message: /^verbalizer: options\.variant must not be given/,
    },
    {
      what: 'caseSensitive not a boolean',
      call: call('verbalizer', YN, { caseSensitive: 1 }),
      code: 'UM_OPTION',
      message: /^verbalizer: options\.caseSensitive must be true or false; got 1/,
    },
    {
      what: 'variants not strings',
      call: call('verbalizer', YN, { variants: { yes: [3] } }),
      code: 'UM_OPTION',
      message: /^verbalizer: options\.variants\.yes\[0\] must hold non-empty strings; got 3/,
    },
  ],
  labelProbabilities: [
    {
      what: 'responses not an array',
      call: call('labelProbabilities', judge(0.5), YN),
      code: 'UM_SHAPE',
      message: /^labelProbabilities: responses must be an array of responses/,
    },
    {
      what: 'no responses',
      call: call('labelProbabilities', [], YN),
      code: 'UM_EMPTY',
      message: /^labelProbabilities: responses must hold at least one response/,
    },
    {
      what: 'a verbalizer of another type',
      call: call('labelProbabilities', [judge(0.5)], 'yes'),
      code: 'UM_OPTION',
      message: /^labelProbabilities: verbalizer must be a label array or a verbalizer/,
    },
    {
      what: 'an unknown policy',
      call: call('labelProbabilities', [judge(0.5)], YN, { missing: 'drop' }),
      code: 'UM_OPTION',
      message: /^labelProbabilities: options\.missing must be one of 'renormalize', 'floor', 'reject'; got "drop"/,
    },
    {
      what: 'a negative position',
      call: call('labelProbabilities', [judge(0.5)], YN, { position: -1 }),
      code: 'UM_OPTION',
      message: /^labelProbabilities: options\.position must be 'label' or an integer/,
    },
    {
      what: 'a misspelt option',
      call: call('labelProbabilities', [judge(0.5)], YN, { policy: 'floor' }),
      code: 'UM_OPTION',
      message: /^labelProbabilities: options\.policy must not be given/,
    },
    {
      what: 'a malformed log-probability',
      call: call(
        'labelProbabilities',
        [judge(0.5), { choices: [{ logprobs: { content: [{ token: 'yes', logprob: '-1' }] } }] }],
        YN,
      ),
      code: 'UM_RESPONSE',
      message:
        /^labelProbabilities: responses\[1\]\.choices\[0\]\.logprobs\.content\[0\]\.logprob must be a log-probability \(a number ≤ 0\); got "-1"/,
    },
    {
      what: 'a refusal',
      call: call('labelProbabilities', [{ choices: [{ message: { refusal: 'No.' } }] }], YN),
      code: 'UM_RESPONSE',
      message: /^labelProbabilities: responses\[0\]\.choices\[0\]\.message\.refusal must be an answer; got "No\."/,
    },
    {
      what: 'every row excluded',
      call: call('labelProbabilities', [say('hmm')], YN, { onInvalid: 'exclude' }),
      code: 'UM_EMPTY',
      message:
        /^labelProbabilities: responses must hold at least one response with label probabilities; got "1 excluded \(no-confidence\)"/,
    },
    {
      what: 'an unknown confidence option',
      call: call('labelProbabilities', [say('yes 80%')], YN, { confidence: { scales: 100 } }),
      code: 'UM_OPTION',
      message: /^labelProbabilities: options\.scales must not be given/,
    },
  ],
  parseConfidence: [
    {
      what: 'text not a string',
      call: call('parseConfidence', 0.8),
      code: 'UM_OPTION',
      message: /^parseConfidence: text must be a string; got 0\.8/,
    },
    {
      what: 'a confidence above 1',
      call: call('parseConfidence', 'sure: 130%'),
      code: 'UM_RESPONSE',
      message: /^parseConfidence: text must state a confidence in \[0, 1\]; got "130%"/,
    },
    {
      what: 'scale 0',
      call: call('parseConfidence', '8', { scale: 0 }),
      code: 'UM_OPTION',
      message: /^parseConfidence: options\.scale must be a finite number > 0; got 0/,
    },
    {
      what: 'a word above 1',
      call: call('parseConfidence', 'high', { words: { high: 2 } }),
      code: 'UM_OPTION',
      message: /^parseConfidence: options\.words\.high must be a confidence in \[0, 1\]; got 2/,
    },
  ],
  goldLabels: [
    {
      what: 'read not label probabilities',
      call: call('goldLabels', { probs: [] }, ['yes']),
      code: 'UM_OPTION',
      message: /^goldLabels: read must be label probabilities/,
    },
    {
      what: 'gold of another length',
      call: () => llm.goldLabels(read(), ['yes']),
      code: 'UM_SHAPE',
      message: /^goldLabels: gold must hold one label per response read \(2\); got "1 labels"/,
    },
    {
      what: 'an unknown label',
      call: () => llm.goldLabels(read(), ['yes', 'Yes']),
      code: 'UM_LABEL',
      message: /^goldLabels: gold\[1\] must be a label \(yes, no\) or a class index in \[0, 2\); got "Yes"/,
    },
  ],
  judgeVerbalizer: [
    {
      what: 'an unknown kind',
      call: call('judgeVerbalizer', 'ranking'),
      code: 'UM_OPTION',
      message: /^judgeVerbalizer: kind must be 'pairwise' or 'graded'; got "ranking"/,
    },
    {
      what: 'a scale of one grade',
      call: call('judgeVerbalizer', 'graded', { min: 2, max: 2 }),
      code: 'UM_OPTION',
      message: /^judgeVerbalizer: options\.max must be an integer in \(min, min \+ 100\]/,
    },
    {
      what: 'tie for a graded judge',
      call: call('judgeVerbalizer', 'graded', { tie: true }),
      code: 'UM_OPTION',
      message: /^judgeVerbalizer: options\.tie must not be given for a 'graded' judge/,
    },
  ],
  positionBias: [
    {
      what: 'forward not label probabilities',
      call: call('positionBias', [0.5], read()),
      code: 'UM_OPTION',
      message: /^positionBias: forward must be label probabilities/,
    },
    {
      what: 'no label A',
      call: () => llm.positionBias(read(), read()),
      code: 'UM_OPTION',
      message: /^positionBias: options\.first must name a label \(yes, no\); got "A"/,
    },
    {
      what: 'the same label twice',
      call: () => llm.positionBias(read(), read(), { first: 'yes', second: 'yes' }),
      code: 'UM_OPTION',
      message: /^positionBias: options\.second must differ from options\.first/,
    },
  ],
  fitLlmCalibrator: [
    {
      what: 'mixed provenance',
      call: () => llm.fitLlmCalibrator(['yes', 'no'], llm.labelProbabilities([judge(0.9), say('no, 70%')], YN)),
      code: 'UM_OPTION',
      message: /^fitLlmCalibrator: read must hold rows of one provenance/,
    },
    {
      what: 'an unknown gold label',
      call: () => llm.fitLlmCalibrator(['yes', 'maybe'], read()),
      code: 'UM_LABEL',
      message: /^fitLlmCalibrator: gold\[1\] must be a label/,
    },
    {
      what: 'an unknown method',
      call: () => llm.fitLlmCalibrator(['yes', 'no'], read(), { method: 'platt' as 'isotonic' }),
      code: 'UM_OPTION',
      message: /^fitLlmCalibrator: options\.method must be one of 'temperature', 'histogram', 'isotonic'; got "platt"/,
    },
    {
      what: 'bad bounds',
      call: () => llm.fitLlmCalibrator(['yes', 'no'], read(), { bounds: [2, 1] }),
      code: 'UM_OPTION',
      message: /^fitLlmCalibrator: options\.bounds/,
    },
  ],
  applyLlmCalibrator: [
    {
      what: 'params of another kind',
      call: call('applyLlmCalibrator', { kind: 'temperature' }, [judge(0.5)]),
      code: 'UM_CALIBRATOR',
      message: /^applyLlmCalibrator: params\.format must be "uncertainty-metrics\/llm-calibrator"/,
    },
    {
      what: 'rows of another provenance',
      call: () => llm.applyLlmCalibrator(calibrator(), [say('yes, 80%')]),
      code: 'UM_CALIBRATOR',
      message: /^applyLlmCalibrator: responses\[0\] must give logprob rows/,
    },
    {
      what: 'an unknown onInvalid',
      call: () => llm.applyLlmCalibrator(calibrator(), [judge(0.5)], { onInvalid: 'skip' as 'error' }),
      code: 'UM_OPTION',
      message: /^applyLlmCalibrator: options\.onInvalid must be 'error' or 'exclude'; got "skip"/,
    },
  ],
  parseLlmCalibrator: [
    {
      what: 'invalid JSON',
      call: call('parseLlmCalibrator', '{"format"'),
      code: 'UM_CALIBRATOR',
      message: /^parseLlmCalibrator: params must be valid JSON/,
    },
    {
      what: 'null',
      call: call('parseLlmCalibrator', null),
      code: 'UM_CALIBRATOR',
      message: /^parseLlmCalibrator: params must be an LLM calibrator/,
    },
    {
      what: 'a reading without a verbalizer',
      call: () =>
        llm.parseLlmCalibrator({ ...calibrator(), reading: { ...calibrator().reading, verbalizer: undefined } }),
      code: 'UM_CALIBRATOR',
      message: /^parseLlmCalibrator: params\.reading\.verbalizer must be a label array or a verbalizer/,
    },
  ],
};
