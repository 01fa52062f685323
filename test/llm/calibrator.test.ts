/**
 * LLM calibrators: derived from the library's calibrators (the same numbers bit for bit), storing the reading so that
 * apply reproduces the fit's mapping (through JSON too), refusing mixed provenance unless asked, and every corrupted
 * field named.
 */
import { describe, expect, it } from 'vitest';
import { applyIsotonic, applyTemperature, fitIsotonic, fitTemperature } from '../../src/index.js';
import {
  applyLlmCalibrator,
  fitLlmCalibrator,
  goldLabels,
  labelProbabilities,
  parseLlmCalibrator,
  verbalizer,
} from '../../src/llm/index.js';
import { failure } from '../helpers/failure.js';
import { JUDGE_LABELS, simulateJudge } from './simulate.js';

const sim = simulateJudge(5, 300, 3, 3);
const responses = sim.map((r) => r.response);
const gold = sim.map((r) => JUDGE_LABELS[r.gold] as string);
const v = verbalizer(['A', 'B', 'tie']);
const say = (t: string) => ({ choices: [{ message: { content: t } }] });

describe('fitLlmCalibrator / applyLlmCalibrator', () => {
  it('temperature: the library fit on the label log-probabilities, applied bit for bit as applyTemperature', () => {
    const read = labelProbabilities(responses, v, { missing: 'floor' });
    const cal = fitLlmCalibrator(gold, read);
    const direct = fitTemperature(goldLabels(read, gold), read.probs);
    expect(cal.calibrator).toEqual(direct);
    const applied = applyLlmCalibrator(cal, responses);
    expect(Array.from(applied.probs.data)).toEqual(Array.from(applyTemperature(direct, read.probs).data));
    expect(applied.calibrated).toBe('temperature');
    expect(Array.from(applied.outside)).toEqual(Array.from(read.outside));
  });
  it('stores the reading: a JSON round trip applies the same mapping, and another reading is refused', () => {
    const options = { position: 0, sumTolerance: 0.01 } as const;
    const read = labelProbabilities(responses, v, options);
    const cal = fitLlmCalibrator(gold, read);
    expect(cal.reading).toEqual(read.config);
    const back = parseLlmCalibrator(JSON.stringify(cal));
    expect(back).toEqual(cal);
    // the stored reading (position 0, tolerance 0.01) is used without being told again
    const a = applyLlmCalibrator(back, responses);
    expect(Array.from(a.probs.data)).toEqual(Array.from(applyLlmCalibrator(cal, read).probs.data));
    const other = labelProbabilities(responses, v);
    expect(failure(() => applyLlmCalibrator(cal, other)).message).toBe(
      'applyLlmCalibrator: responses must be read as at fitting (params.reading), uncalibrated; got "label probabilities read another way" (pass the raw responses to read them with the stored reading)',
    );
    expect(failure(() => applyLlmCalibrator(cal, a)).code).toBe('UM_CALIBRATOR');
  });
  it('refuses to fit across provenance unless asked, and to apply to another provenance', () => {
    const mixed = [...responses.slice(0, 20), say('A, confidence 90%'), say('tie (60%)')];
    const read = labelProbabilities(mixed, v);
    const g = [...gold.slice(0, 20), 'A', 'B'];
    const e = failure(() => fitLlmCalibrator(g, read));
    expect(e.code).toBe('UM_OPTION');
    expect(e.message).toBe(
      'fitLlmCalibrator: read must hold rows of one provenance: their confidences mean different things; got "20 logprob, 2 verbal" (fit one calibrator per provenance, or pass allowMixed: true)',
    );
    expect(fitLlmCalibrator(g, read, { allowMixed: true, method: 'temperature' }).provenance).toBe('mixed');
    const logprobOnly = fitLlmCalibrator(gold.slice(0, 20), labelProbabilities(responses.slice(0, 20), v));
    expect(failure(() => applyLlmCalibrator(logprobOnly, mixed)).message).toBe(
      'applyLlmCalibrator: responses[20] must give logprob rows, as the calibrator was fitted on; got "verbal" (pass allowMixed: true to apply it anyway)',
    );
    expect(applyLlmCalibrator(logprobOnly, mixed, { allowMixed: true }).n).toBe(22);
  });
  it('verbal confidences: isotonic by default (the library fit, bit for bit), histogram when asked', () => {
    const texts = ['yes, 90%', 'no, 80%', 'yes, 70%', 'yes, 95%', 'no, 60%', 'yes 90%'];
    const read = labelProbabilities(texts.map(say), ['yes', 'no']);
    const g = ['yes', 'no', 'no', 'yes', 'yes', 'yes'];
    const cal = fitLlmCalibrator(g, read);
    expect(cal.calibrator).toEqual(fitIsotonic(goldLabels(read, g), read.probs));
    expect(Array.from(applyLlmCalibrator(cal, texts.map(say)).probs.data)).toEqual(
      Array.from(applyIsotonic(fitIsotonic(goldLabels(read, g), read.probs), read.probs).data),
    );
    const h = fitLlmCalibrator(g, read, { method: 'histogram', bins: 2 });
    expect(h.calibrator.kind).toBe('histogram-binning');
    expect(failure(() => fitLlmCalibrator(g, read, { bins: 3 })).message).toBe(
      "fitLlmCalibrator: options.bins must not be given with method 'isotonic'",
    );
  });
  it('at inference, refusals can be left out and listed instead of stopping the run', () => {
    const cal = fitLlmCalibrator(gold, labelProbabilities(responses, v));
    const refusal = { choices: [{ message: { content: null, refusal: 'I cannot judge this.' } }] };
    expect(failure(() => applyLlmCalibrator(cal, [responses[0], refusal])).code).toBe('UM_RESPONSE');
    const r = applyLlmCalibrator(cal, [responses[0], refusal], { onInvalid: 'exclude' });
    expect([r.n, r.excluded.map((x) => x.reason)]).toEqual([1, ['refusal']]);
  });
});

describe('parseLlmCalibrator names every corrupted field (UM_CALIBRATOR)', () => {
  const cal = fitLlmCalibrator(gold, labelProbabilities(responses, v));
  const edit = (f: (c: Record<string, unknown>) => void): unknown => {
    const c = JSON.parse(JSON.stringify(cal)) as Record<string, unknown>;
    f(c);
    return c;
  };
  const reading = (c: Record<string, unknown>) => c.reading as Record<string, unknown>;
  const rows: [string, unknown, RegExp][] = [
    ['not JSON', '{', /^parseLlmCalibrator: params must be valid JSON; got "\{"/],
    ['another format', edit((c) => (c.format = 'uncertainty-metrics/calibrator')), /params\.format must be/],
    ['another version', edit((c) => (c.version = 2)), /params\.version must be 1; got 2/],
    ['a provenance', edit((c) => (c.provenance = 'guess')), /params\.provenance must be/],
    ['a reading field left out', edit((c) => delete reading(c).missing), /params\.reading\.missing must be given/],
    ['a policy', edit((c) => (reading(c).missing = 'drop')), /params\.reading\.missing must be one of/],
    [
      'duplicate labels',
      edit((c) => ((reading(c).verbalizer as { labels: string[] }).labels = ['A', 'A', 'tie'])),
      /params\.reading\.verbalizer\.labels\[1\] must be distinct labels; got "A"/,
    ],
    [
      'fewer labels than classes',
      edit((c) => ((reading(c).verbalizer as { labels: string[] }).labels = ['A', 'B'])),
      /params\.calibrator\.fittedOn\.numClasses must be the number of labels \(2\); got 3/,
    ],
    ['a temperature', edit((c) => ((c.calibrator as { temperature: number }).temperature = -1)), /temperature must be/],
    [
      'a confidence word',
      edit((c) => ((reading(c).confidence as { words: object }).words = { high: 2 })),
      /params\.reading\.confidence\.words\.high must be a confidence in \[0, 1\]; got 2/,
    ],
  ];
  for (const [what, value, message] of rows)
    it(what, () => {
      const e = failure(() => parseLlmCalibrator(value as object));
      expect(e.code).toBe('UM_CALIBRATOR');
      expect(e.message).toMatch(message);
      expect(e.message.startsWith('parseLlmCalibrator: ')).toBe(true);
    });
});
