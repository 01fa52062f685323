/** The TensorFlow.js temperature fit agrees with the core fit; the TemperatureScaling layer divides by exp(τ). */
import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { fitTemperature } from '../../src/index.js';
import { fitTemperatureTf, TemperatureScaling } from '../../src/tfjs/index.js';
import { uniforms } from '../helpers/minstd.js';

tf.setBackend('cpu');

describe('fitTemperatureTf', () => {
  // seeds where stopping at the first small step (Adam turning back past the minimum) left T off by 7.6e-4 and
  // 6.0e-4 relative: the fit runs until it is still
  for (const [seed, scale] of [
    [23, 8],
    [16, 1.5],
  ] as const) {
    it(`logits × ${scale}: T matches the core fitTemperature within 1e-4 relative`, () => {
      const n = 400;
      const c = 5;
      const u = uniforms(seed, n * (c + 1));
      const logits = Array.from({ length: n }, (_, i) =>
        Array.from({ length: c }, (_, k) =>
          Math.fround(scale * ((u[i * c + k] as number) - 0.5) + (k === i % c ? scale / 2 : 0)),
        ),
      );
      const labels = Array.from({ length: n }, (_, i) => ((u[n * c + i] as number) < 0.7 ? i % c : (i + 1) % c));
      const core = fitTemperature(labels, logits, { input: 'logits' }).temperature;
      const r = fitTemperatureTf(tf.tensor1d(labels), tf.tensor2d(logits), { maxSteps: 4000 });
      expect(Math.abs(r.temperature - core) / core).toBeLessThan(1e-4);
    });
  }
});

describe('TemperatureScaling layer', () => {
  it('divides by exp(τ); T = 1 at start; set weights change it', () => {
    const layer = new TemperatureScaling();
    const z = tf.tensor2d([[2, 4]]);
    expect(layer.apply(z) instanceof tf.Tensor).toBe(true);
    expect(layer.temperature()).toBe(1);
    layer.setWeights([tf.scalar(Math.log(2))]);
    expect((layer.apply(z) as tf.Tensor).arraySync()).toEqual([[1, 2]]);
    expect(layer.temperature()).toBeCloseTo(2, 6);
  });
});
