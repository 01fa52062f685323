/** One example of a help page: what it shows, and the arguments after `um` (run by test/cli/ergonomics.test.ts). */
export interface Example {
  what: string;
  argv: readonly string[];
}

const D = 'examples/data';
const IRIS = 'setosa,versicolor,virginica';

/**
 * The examples of each help page, on the bundled files of examples/data (internal). Every one is run by the tests:
 * the `um calibrate fit` ones first, since later ones read the calibrators they write.
 */
export const EXAMPLES: Readonly<Record<string, readonly Example[]>> = {
  'um metrics': [
    {
      what: "the metrics of a logistic regression's MNIST test predictions (CSV: label, p_0 … p_9)",
      argv: ['metrics', `${D}/logreg_test.csv`],
    },
    {
      what: 'string labels and score columns named after the classes',
      argv: ['metrics', `${D}/iris_test.csv`, '--classes', IRIS],
    },
    {
      what: 'logits in a NumPy file, labels in another; one JSON object',
      argv: [
        'metrics',
        `${D}/mlp_overfit_test_logits.npy`,
        '--labels',
        `${D}/test_labels.npy`,
        '--input',
        'logits',
        '--json',
      ],
    },
    {
      what: "95% bootstrap intervals, with scikit-learn's binning",
      argv: ['metrics', `${D}/logreg_test.csv`, '--preset', 'sklearn', '--ci', '0.95', '--resamples', '200'],
    },
    {
      what: 'a deep ensemble: member logits [S, N, C]',
      argv: [
        'metrics',
        `${D}/deep_ensemble_test_member_logits.npy`,
        '--labels',
        `${D}/test_labels.npy`,
        '--input',
        'logits',
      ],
    },
    {
      what: 'the metrics after a calibrator (fitted by um calibrate fit)',
      argv: [
        'metrics',
        `${D}/mlp_overfit_test_logits.npy`,
        '--labels',
        `${D}/test_labels.npy`,
        '--input',
        'logits',
        '--calibration',
        'temperature.json',
      ],
    },
    {
      what: 'an LLM judge: raw chat completions with top_logprobs joined to gold labels (refusals left out, counted)',
      argv: ['metrics', `${D}/llm_judge_test.jsonl`, '--labels', 'A,B,tie', '--on-invalid', 'exclude'],
    },
  ],
  'um report': [
    {
      what: 'two models in one HTML page of metrics and charts',
      argv: ['report', `${D}/logreg_test.csv`, `${D}/mlp_overfit_test.csv`, '-o', 'report.html'],
    },
    {
      what: 'Markdown on stdout, classes by name',
      argv: ['report', `${D}/iris_test.csv`, '--classes', IRIS, '--md', '-o', '-'],
    },
    {
      what: 'an LLM judge, with a note of what its top-k left out',
      argv: [
        'report',
        `${D}/llm_judge_test.jsonl`,
        '--labels',
        'A,B,tie',
        '--on-invalid',
        'exclude',
        '-o',
        'judge.html',
      ],
    },
  ],
  'um compare': [
    {
      what: 'is the MLP better calibrated than the logistic regression? (paired bootstrap)',
      argv: ['compare', `${D}/logreg_test.csv`, `${D}/mlp_overfit_test.csv`, '--resamples', '200'],
    },
  ],
  'um calibrate fit': [
    {
      what: 'temperature scaling on validation logits',
      argv: [
        'calibrate',
        'fit',
        '--method',
        'temperature',
        `${D}/mlp_overfit_val_logits.npy`,
        '--labels',
        `${D}/val_labels.npy`,
        '--input',
        'logits',
        '-o',
        'temperature.json',
      ],
    },
    {
      what: 'isotonic regression on a CSV with class names',
      argv: [
        'calibrate',
        'fit',
        '--method',
        'isotonic',
        `${D}/iris_val.csv`,
        '--classes',
        IRIS,
        '-o',
        'iris-isotonic.json',
      ],
    },
    {
      what: "temperature scaling of an LLM judge's label log-probabilities (the calibrator keeps how responses are read)",
      argv: [
        'calibrate',
        'fit',
        '--method',
        'temperature',
        `${D}/llm_judge_val.jsonl`,
        '--labels',
        'A,B,tie',
        '--on-invalid',
        'exclude',
        '-o',
        'judge-temperature.json',
      ],
    },
  ],
  'um calibrate apply': [
    {
      what: 'calibrated probabilities of the test logits, as CSV',
      argv: [
        'calibrate',
        'apply',
        'temperature.json',
        `${D}/mlp_overfit_test_logits.npy`,
        '--labels',
        `${D}/test_labels.npy`,
        '--input',
        'logits',
        '-o',
        'calibrated.csv',
      ],
    },
    {
      what: 'the CSV written back with its own columns, scores calibrated',
      argv: [
        'calibrate',
        'apply',
        'iris-isotonic.json',
        `${D}/iris_test.csv`,
        '--classes',
        IRIS,
        '-o',
        'iris-calibrated.csv',
      ],
    },
    {
      what: 'calibrated label probabilities of new LLM responses, one JSON line each (refusals listed as excluded)',
      argv: ['calibrate', 'apply', 'judge-temperature.json', `${D}/llm_judge_test.jsonl`, '--on-invalid', 'exclude'],
    },
  ],
};

/** The root page's examples: one per main job. */
export const ROOT_EXAMPLES: readonly Example[] = [
  EXAMPLES['um metrics']?.[0] as Example,
  EXAMPLES['um calibrate fit']?.[0] as Example,
  EXAMPLES['um report']?.[0] as Example,
];
