/** mcPredict: different passes with dropout active, identical passes without dropout; its output feeds the core. */
import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { mcIntegrate, modelUncertainty, UMError } from '../../src/index.js';
import { mcPredict } from '../../src/tfjs/index.js';

tf.setBackend('cpu');

function model(dropout: boolean): tf.Sequential {
  const m = tf.sequential();
  m.add(
    tf.layers.dense({
      inputShape: [4],
      units: 16,
      activation: 'relu',
      kernelInitializer: tf.initializers.glorotUniform({ seed: 1 }),
    }),
  );
  if (dropout) m.add(tf.layers.dropout({ rate: 0.5 }));
  m.add(tf.layers.dense({ units: 3, kernelInitializer: tf.initializers.glorotUniform({ seed: 2 }) }));
  return m;
}

const x = tf.tensor2d(Array.from({ length: 20 }, (_, i) => [Math.sin(i), Math.cos(i), i / 20, 1]));

describe('mcPredict', () => {
  it('with dropout the passes differ; the stack is member-major [S, N, C] and feeds the ensemble functions', () => {
    const r = mcPredict(model(true), x, 5);
    expect([r.numMembers, r.numClasses, r.scores.length]).toEqual([5, 3, 5 * 20 * 3]);
    const first = r.scores.subarray(0, 60);
    const second = r.scores.subarray(60, 120);
    expect(Array.from(first)).not.toEqual(Array.from(second));
    const options = { input: 'logits' as const, numMembers: 5, numClasses: 3 };
    expect(mcIntegrate(r.scores, options).n).toBe(20);
    const u = modelUncertainty(r.scores, options);
    expect(u.mutualInformation.some((v) => v > 1e-6)).toBe(true); // dropout makes the passes disagree
  });
  it('without dropout every pass is identical, and equals model.predict', () => {
    const m = model(false);
    const r = mcPredict(m, x, 3);
    const once = Array.from((m.predict(x) as tf.Tensor).dataSync());
    for (let s = 0; s < 3; s++) expect(Array.from(r.scores.subarray(s * 60, (s + 1) * 60))).toEqual(once);
  });
  it('rejects passes 0 (UM_OPTION) and a model whose output is not [N, C] (UM_SHAPE)', () => {
    expect(() => mcPredict(model(true), x, 0)).toThrow(UMError);
    const flat = tf.sequential({
      layers: [tf.layers.dense({ inputShape: [4], units: 3 }), tf.layers.reshape({ targetShape: [3, 1] })],
    });
    expect(() => mcPredict(flat, x, 2)).toThrow(/^mcPredict: model output must be a 2-D tensor \[N, C\]/);
  });
});
