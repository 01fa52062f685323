/** Temperature scaling (single model, MC dropout / ensembles) on hand cases and the bundled MNIST predictions. */
import { describe, expect, it } from 'vitest';
import {
  applyMcTemperature,
  applyTemperature,
  ece,
  fitMcTemperature,
  fitTemperature,
  mcIntegrate,
  nll,
  toProbabilities,
  uce,
  type UMWarning,
} from '../../src/index.js';
import { randomProbs } from '../helpers/data.js';
import { uniforms } from '../helpers/minstd.js';
import { bundled } from '../helpers/npy.js';

const L10 = { input: 'logits' as const, numClasses: 10 };
const M5 = { input: 'logits' as const, numClasses: 10, numMembers: 5 };

describe('fitTemperature: Newton passes', () => {
  // logits z ~ scale·(uniform − ½)·6, labels drawn from softmax(z / T0): the fitted T should land near T0
  const data = (scale: number, t0: number) => {
    const u = uniforms(Math.round(scale * 100 + t0), 3000 * 7);
    const labels: number[] = [];
    const logits: number[][] = [];
    for (let i = 0; i < 3000; i++) {
      const z = Array.from({ length: 6 }, (_, k) => scale * 6 * ((u[i * 7 + k] as number) - 0.5));
      const top = Math.max(...z);
      const e = z.map((v) => Math.exp((v - top) / t0));
      const total = e.reduce((x, y) => x + y, 0);
      let r = (u[i * 7 + 6] as number) * total;
      let y = 0;
      while (y < 5 && r > (e[y] as number)) r -= e[y++] as number;
      labels.push(y);
      logits.push(z);
    }
    return { labels, logits };
  };
  for (const [scale, t0] of [
    [0.3, 0.5],
    [1, 1],
    [1, 3],
    [5, 2],
    [40, 30],
    [40, 0.01],
  ] as const) {
    it(`logits × ${scale}, labels from softmax(z / ${t0}): a minimum (NLL not lower at T·(1 ± 1e-5)) in fewer than 20 passes`, () => {
      const { labels, logits } = data(scale, t0);
      const seen: UMWarning[] = [];
      const params = fitTemperature(labels, logits, { input: 'logits', onWarning: (w) => seen.push(w) });
      const at = (t: number) =>
        nll(labels, applyTemperature({ ...params, temperature: t }, logits, { input: 'logits' }));
      expect(params.diagnostics.evaluations).toBeLessThan(20);
      expect(params.diagnostics.converged).toBe(true);
      expect(at(params.temperature)).toBeCloseTo(params.diagnostics.nllAfter, 13);
      if (params.diagnostics.atBound === null) {
        for (const f of [1 - 1e-5, 1 + 1e-5])
          expect(at(params.temperature * f)).toBeGreaterThanOrEqual(params.diagnostics.nllAfter - 1e-15);
        expect(Math.abs(Math.log(params.temperature / t0))).toBeLessThan(1); // a sanity check: within a factor e of T0
      }
      expect(seen.map((w) => w.code)).toEqual(params.diagnostics.atBound === null ? [] : ['UM_W_BOUND']);
    });
  }
});

describe('fitTemperature on the bundled MNIST predictions (fit on val, evaluate on test)', () => {
  // T* and the NLL at T* from scipy.optimize.minimize_scalar (bounded, xatol 1e-12) on the same float32 logits
  const SCIPY: Record<string, [number, number]> = {
    mlp_overfit: [3.654132560165933, 0.15850892979121295],
    mlp_dropout: [2.128840342580333, 0.11898799660020268],
    deep_ensemble: [2.0194525875699667, 0.15300478208870635],
  };
  for (const [model, [t, loss]] of Object.entries(SCIPY)) {
    it(`${model}: T matches scipy, and test ECE and UCE fall`, async () => {
      const val = await bundled(`${model}_val_logits`, 'val');
      const test = await bundled(`${model}_test_logits`, 'test');
      const params = fitTemperature(val.labels, val.scores as Float32Array, L10);
      expect(Math.abs(params.temperature - t) / t).toBeLessThan(1e-6);
      expect(params.diagnostics.nllAfter).toBeCloseTo(loss, 12);
      expect(params.diagnostics).toMatchObject({ converged: true, atBound: null });
      expect(params.diagnostics.nllAfter).toBeLessThan(params.diagnostics.nllBefore);
      // Newton on the convex NLL(1/T): few passes over the data (the performance issue asks for fewer than 20)
      expect(params.diagnostics.evaluations).toBeLessThan(12);
      const before = toProbabilities(test.scores as Float32Array, L10);
      const after = applyTemperature(params, test.scores as Float32Array, L10);
      expect(ece(test.labels, after)).toBeLessThan(ece(test.labels, before));
      expect(uce(test.labels, after)).toBeLessThan(uce(test.labels, before));
      expect(nll(test.labels, after)).toBeLessThan(nll(test.labels, before));
    });
  }
  it('gnb_raw (logits near ±5e10): finite parameters and a bound warning instead of NaN', async () => {
    const val = await bundled('gnb_raw_val_logits', 'val');
    const seen: UMWarning[] = [];
    const params = fitTemperature(val.labels, val.scores as Float32Array, { ...L10, onWarning: (w) => seen.push(w) });
    expect(params.temperature).toBe(1000);
    expect(params.diagnostics.atBound).toBe('upper');
    expect(params.diagnostics.evaluations).toBeLessThan(20);
    expect(Number.isFinite(params.diagnostics.nllAfter)).toBe(true);
    expect(params.diagnostics.nllAfter).toBeLessThan(params.diagnostics.nllBefore);
    expect(seen.map((w) => w.code)).toEqual(['UM_W_BOUND']);
    const out = applyTemperature(params, val.scores as Float32Array, L10);
    expect(Array.from(out.data).every(Number.isFinite)).toBe(true);
  });
});

describe('fitTemperature properties', () => {
  it('never worse than T = 1 and never changes the predicted class', () => {
    for (const seed of [1, 2, 3, 4]) {
      const { labels, probs } = randomProbs(seed, 200, 4);
      const t = fitTemperature(labels, probs);
      expect(t.diagnostics.nllAfter).toBeLessThanOrEqual(t.diagnostics.nllBefore);
      const out = applyTemperature(t, probs);
      for (let i = 0; i < 200; i++) {
        const row = Array.from(out.data.subarray(i * 4, i * 4 + 4));
        expect(row.indexOf(Math.max(...row))).toBe((probs[i] as number[]).indexOf(Math.max(...(probs[i] as number[]))));
      }
    }
  });
  it('already calibrated data keeps T = 1 when that is the best point', () => {
    // four identical rows predicting P(class 0) = 3/4, and 3 of the 4 labels are 0: calibrated, NLL minimal at T = 1
    const t = fitTemperature(
      [0, 0, 0, 1],
      Array.from({ length: 4 }, () => [Math.log(3), 0]),
      { input: 'logits' },
    );
    expect(t.temperature).toBeCloseTo(1, 8);
  });
  it('a binary head (σ(z / T)) gives the temperature of the equivalent two-column softmax', () => {
    const z = [2.5, -1, 0.3, 4, -3, 1.2, -0.2, 0.8];
    const y = [1, 0, 0, 1, 0, 0, 1, 1];
    const binary = fitTemperature(y, z, { binary: true, input: 'logits' });
    const matrix = fitTemperature(
      y,
      z.map((v) => [0, v]),
      { input: 'logits' },
    );
    // the NLL is flat at its minimum: its location is determined to about √ε relative
    expect(Math.abs(binary.temperature - matrix.temperature) / matrix.temperature).toBeLessThan(1e-7);
    const a = applyTemperature(binary, z, { binary: true, input: 'logits' }).data;
    const b = applyTemperature(
      binary,
      z.map((v) => [0, v]),
      { input: 'logits' },
    ).data;
    a.forEach((v, i) => expect(v).toBeCloseTo(b[i] as number, 14));
  });
  it('an exact zero at a label: Infinity at every T, T = 1 kept with a warning', () => {
    const seen: string[] = [];
    const t = fitTemperature([1], [[1, 0]], { onWarning: (w) => seen.push(w.code) });
    expect([t.temperature, t.diagnostics.nllAfter, seen]).toEqual([1, Infinity, ['UM_W_INFINITE']]);
  });
});

describe('fitMcTemperature on the bundled 5-member deep ensemble', () => {
  it('both objectives match scipy and lower test ECE and UCE; they differ as documented', async () => {
    const val = await bundled('deep_ensemble_val_member_logits', 'val');
    const test = await bundled('deep_ensemble_test_member_logits', 'test');
    const before = mcIntegrate(test.members as Float32Array, M5);
    const expected = {
      predictive: [2.0784372516336727, 0.15327078848752493],
      'mean-nll': [2.1424514040401754, 0.1577928832059626],
    } as const;
    for (const objective of ['predictive', 'mean-nll'] as const) {
      const params = fitMcTemperature(val.labels, val.members as Float32Array, { ...M5, objective });
      const [t, loss] = expected[objective];
      expect(Math.abs(params.temperature - t) / t).toBeLessThan(1e-6);
      expect(params.diagnostics.nllAfter).toBeCloseTo(loss, 12);
      const after = applyMcTemperature(params, test.members as Float32Array, M5);
      expect(ece(test.labels, after)).toBeLessThan(ece(test.labels, before));
      expect(uce(test.labels, after)).toBeLessThan(uce(test.labels, before));
    }
  });
  it('with one member it is ordinary temperature scaling', () => {
    const { labels, probs } = randomProbs(8, 150, 3);
    const single = fitTemperature(labels, probs);
    const mc = fitMcTemperature(labels, [probs]);
    // both solve f′(β) = 0 (Newton steps on the log-mean-exp objective, Halley steps on the mean NLL) and stop within
    // the tolerance of 1e-10 in ln T: the same zero (Brent's derivative-free search, used before, agreed only to ~1e-6)
    expect(Math.abs(mc.temperature - single.temperature) / single.temperature).toBeLessThan(1e-9);
    const a = applyMcTemperature(mc, [probs]).data;
    const b = applyTemperature({ ...single, temperature: mc.temperature }, probs).data;
    a.forEach((v, i) => expect(v).toBeCloseTo(b[i] as number, 14));
  });
});
