/** Platt, histogram binning, isotonic regression, JSON round trips and calibrator validation. */
import { describe, expect, it } from 'vitest';
import { failure } from '../helpers/failure.js';
import {
  applyCalibrator,
  applyHistogramBinning,
  applyIsotonic,
  applyMcTemperature,
  applyPlatt,
  applyTemperature,
  applyTopBinning,
  fitHistogramBinning,
  fitIsotonic,
  fitMcTemperature,
  fitPlatt,
  fitTemperature,
  fitTopBinning,
  parseCalibrator,
  type CalibratorParams,
} from '../../src/index.js';
import { VERSION } from '../../src/version.js';
import { randomProbs } from '../helpers/data.js';
import { readFileSync } from 'node:fs';

describe('fitPlatt', () => {
  it("matches Newton's method on Platt's objective in numpy (gradient 3e-16)", () => {
    const f = [-2.1, -1.3, -0.4, 0.2, 0.9, 1.7, 2.5, -0.8, 0.3, 1.1, -1.9, 2.2];
    const y = [0, 0, 1, 0, 1, 1, 1, 0, 0, 1, 0, 1];
    const p = fitPlatt(y, f, { binary: true, input: 'logits' });
    expect(p.a).toBeCloseTo(-1.0191348679725711, 12);
    expect(p.b).toBeCloseTo(0.21285056270395705, 12);
    expect(p.diagnostics.loss).toBeCloseTo(0.5056994075181777, 12);
    expect(p.diagnostics.converged).toBe(true);
    // the same problem given as probabilities: f = ln(p / (1 − p))
    const probs = f.map((v) => 1 / (1 + Math.exp(-v)));
    const q = fitPlatt(y, probs, { binary: true });
    expect(q.a).toBeCloseTo(p.a, 8);
    const out = applyPlatt(p, [0], { binary: true, input: 'logits' });
    expect(out.data[1]).toBeCloseTo(1 / (1 + Math.exp(p.b)), 14);
  });
  it('rejects more than two classes and probabilities of exactly 0 or 1', () => {
    expect(failure(() => fitPlatt([0], [[0.2, 0.3, 0.5]])).message).toMatch(/^fitPlatt: scores must be binary/);
    expect(failure(() => fitPlatt([0, 1], [0.5, 1], { binary: true })).message).toBe(
      'fitPlatt: probs[1] must give finite log-odds (a probability of exactly 0 or 1 has none; give logits); got 1',
    );
  });
});

describe('fitHistogramBinning', () => {
  it('equal-width bins: each bin its frequency, empty bins their midpoint; applying to the fit data gives the frequencies', () => {
    const h = fitHistogramBinning([0, 1, 1, 1, 0], [0.05, 0.15, 0.8, 0.9, 0.85], { binary: true, bins: 4 });
    expect(h.histograms[0]?.edges).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(h.histograms[0]?.counts).toEqual([2, 0, 0, 3]);
    expect(h.histograms[0]?.values).toEqual([0.5, 0.375, 0.625, 2 / 3]);
    const out = applyHistogramBinning(h, [0.05, 0.3, 0.9], { binary: true }).data;
    [0.5, 0.5, 0.625, 0.375, 1 / 3, 2 / 3].forEach((v, i) => expect(out[i]).toBeCloseTo(v, 15));
  });
  it('equal-mass bins never split tied scores; multiclass rows are renormalised', () => {
    const { labels, probs } = randomProbs(4, 300, 3, 10);
    const h = fitHistogramBinning(labels, probs, { bins: 5, binning: 'equal-mass' });
    expect(h.histograms).toHaveLength(3);
    const out = applyHistogramBinning(h, probs);
    for (let i = 0; i < 300; i++)
      expect(Array.from(out.data.subarray(3 * i, 3 * i + 3)).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 14);
    for (const hist of h.histograms)
      for (const e of hist.edges.slice(1, -1)) expect(probs.some((r) => r.includes(e))).toBe(false);
  });
});

describe('fitIsotonic', () => {
  it('PAV on a hand case, and the properties: non-decreasing, mean preserved, ties pooled', () => {
    const m = fitIsotonic([1, 0, 0, 1, 1, 0, 1], [0.1, 0.2, 0.2, 0.4, 0.6, 0.7, 0.9], { binary: true }).maps[0];
    // blocks: {0.1, 0.2, 0.2} mean 1/3, {0.4, 0.6, 0.7} mean 2/3, {0.9} 1
    expect(m?.x).toEqual([0.1, 0.2, 0.4, 0.7, 0.9]);
    expect(m?.y).toEqual([1 / 3, 1 / 3, 2 / 3, 2 / 3, 1]);
    const { labels, probs } = randomProbs(6, 400, 2, 20);
    const fitted = fitIsotonic(labels, probs);
    const out = applyIsotonic(fitted, probs);
    const p1 = probs.map((r) => r[1] as number);
    const order = p1.map((_, i) => i).sort((a, b) => (p1[a] as number) - (p1[b] as number));
    for (let j = 1; j < order.length; j++)
      expect(out.data[2 * (order[j] as number) + 1]).toBeGreaterThanOrEqual(
        out.data[2 * (order[j - 1] as number) + 1] as number,
      );
    const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
    expect(mean(p1.map((_, i) => out.data[2 * i + 1] as number))).toBeCloseTo(mean(labels), 12);
  });
});

describe('every calibrator: a JSON round trip gives identical outputs', () => {
  const { labels, probs } = randomProbs(12, 200, 3);
  const { labels: yb, probs: pb } = randomProbs(13, 200, 2);
  const binaryP = pb.map((r) => r[1] as number);
  const members = [probs, randomProbs(14, 200, 3).probs];
  const CASES: [string, CalibratorParams, () => unknown, (p: CalibratorParams) => unknown][] = [
    ['temperature', fitTemperature(labels, probs), () => 0, (p) => applyCalibrator(p, probs)],
    ['mc-temperature', fitMcTemperature(labels, members), () => 0, (p) => applyCalibrator(p, members)],
    ['platt', fitPlatt(yb, binaryP, { binary: true }), () => 0, (p) => applyCalibrator(p, binaryP, { binary: true })],
    [
      'histogram-binning',
      fitHistogramBinning(labels, probs, { binning: 'equal-mass' }),
      () => 0,
      (p) => applyCalibrator(p, probs),
    ],
    ['isotonic', fitIsotonic(labels, probs), () => 0, (p) => applyCalibrator(p, probs)],
    [
      'top-binning',
      fitTopBinning(labels, probs, { bins: 8, score: 'entropy' }),
      () => 0,
      (p) => applyCalibrator(p, probs),
    ],
  ];
  for (const [kind, params, , apply] of CASES) {
    it(kind, () => {
      const copy = parseCalibrator(JSON.stringify(params));
      expect(copy).toEqual(params);
      expect(apply(copy)).toEqual(apply(params));
      expect(params).toMatchObject({ format: 'uncertainty-metrics/calibrator', version: 1, library: VERSION, kind });
    });
  }
  it('each kind-specific apply equals applyCalibrator', () => {
    const t = fitTemperature(labels, probs);
    expect(applyTemperature(t, probs)).toEqual(applyCalibrator(t, probs));
    const m = fitMcTemperature(labels, members);
    expect(applyMcTemperature(m, members)).toEqual(applyCalibrator(m, members));
    const b = fitTopBinning(labels, probs);
    expect(applyTopBinning(b, probs)).toEqual(applyCalibrator(b, probs));
  });
});

describe('corrupted or mismatched calibrators are rejected with UM_CALIBRATOR', () => {
  const t = JSON.parse(readFileSync('test/fixtures/files/temperature.json', 'utf8')) as Record<string, unknown>;
  const ROWS: [string, unknown, RegExp][] = [
    ['not JSON', '{"kind": "temp', /^parseCalibrator: json must be valid JSON/],
    ['an array', [], /^parseCalibrator: params must be a calibrator object/],
    [
      'unknown kind',
      { ...t, kind: 'temperature-scaling' },
      /^parseCalibrator: params.kind must be one of "temperature", .*; got "temperature-scaling"/,
    ],
    [
      'another format',
      { ...t, format: 'sklearn' },
      /^parseCalibrator: params.format must be "uncertainty-metrics\/calibrator"; got "sklearn"/,
    ],
    [
      'a newer layout',
      { ...t, version: 2 },
      /^parseCalibrator: params.version must be 1 \(the calibrator layout this library reads\); got 2/,
    ],
    [
      'a negative temperature',
      { ...t, temperature: -1 },
      /^parseCalibrator: params.temperature must be a finite number > 0; got -1/,
    ],
    [
      'a missing fittedOn.n',
      { ...t, fittedOn: { ...(t.fittedOn as object), n: undefined } },
      /^parseCalibrator: params.fittedOn.n must be an integer ≥ 1/,
    ],
    ['no diagnostics', { ...t, diagnostics: null }, /^parseCalibrator: params.diagnostics must be an object; got null/],
  ];
  for (const [what, value, message] of ROWS) {
    it(what, () => {
      const e = failure(() => parseCalibrator(value as string));
      expect(e.code).toBe('UM_CALIBRATOR');
      expect(e.message).toMatch(message);
    });
  }
  it('a calibrator applied to data with another number of classes', () => {
    const e = failure(() => applyTemperature(t as never, [[0.5, 0.5]]));
    expect([e.code, e.message]).toEqual([
      'UM_CALIBRATOR',
      'applyTemperature: scores must have the 10 classes the temperature calibrator was fitted on; got "2 classes"',
    ]);
  });
  it('a calibrator of another kind given to a specific apply', () => {
    const e = failure(() => applyPlatt(t as never, [0.5], { binary: true }));
    expect(e.message).toBe(
      'applyPlatt: params.kind must be "platt"; got "temperature" (apply it with the temperature calibrator)',
    );
  });
  it('a top-binning calibrator fitted on values needs the values again', () => {
    const b = fitTopBinning(
      [0, 1, 0, 1],
      [
        [0.9, 0.1],
        [0.8, 0.2],
        [0.7, 0.3],
        [0.6, 0.4],
      ],
      { score: { uncertainty: [0.1, 0.2, 0.3, 0.4] }, bins: 2 },
    );
    expect(failure(() => applyTopBinning(b, [[0.9, 0.1]])).message).toMatch(
      /^applyTopBinning: options.score must give the \{ uncertainty \} values again/,
    );
    expect(applyTopBinning(b, [[0.9, 0.1]], { score: { uncertainty: [0.05] } }).bin[0]).toBe(0);
  });
});
