import { describe, expect, it } from 'vitest';
import * as um from '../../src/index.js';
import { randomProbs } from '../helpers/data.js';

/** One vocabulary for what is scored: every old option name is an alias giving exactly the new name's result. */
describe('target and groupBy, and their aliases', () => {
  const { labels, probs } = randomProbs(31, 200, 4, 20);
  const same = (a: unknown, b: unknown) => expect(a).toEqual(b);
  it('gce: topLabel / classConditional', () => {
    for (const topLabel of [true, false]) {
      for (const classConditional of [true, false]) {
        const target = topLabel ? 'top-label' : 'all-classes';
        const groupBy = classConditional ? 'class' : 'none';
        same(um.gce(labels, probs, { topLabel, classConditional }), um.gce(labels, probs, { target, groupBy }));
        same(um.gce(labels, probs, { topLabel, groupBy }), um.gce(labels, probs, { target, classConditional }));
      }
    }
    // the named members are gce with their structure fixed, whichever name states it
    same(um.sce(labels, probs), um.gce(labels, probs, { target: 'all-classes', groupBy: 'class' }));
    same(um.sce(labels, probs, { target: 'all-classes', topLabel: false } as never), um.sce(labels, probs));
  });
  it('uce: classwise', () => {
    same(um.uce(labels, probs, { classwise: true }), um.uce(labels, probs, { groupBy: 'class' }));
    same(um.uce(labels, probs, { classwise: false }), um.uce(labels, probs, { groupBy: 'none' }));
  });
  it('reliability: measure', () => {
    same(
      um.reliability(labels, probs, { measure: 'uncertainty' }),
      um.reliability(labels, probs, { target: 'uncertainty' }),
    );
    same(
      um.reliability(labels, probs, { measure: 'confidence' }),
      um.reliability(labels, probs, { target: 'top-label' }),
    );
  });
  it('debiasedEce: mode', () => {
    same(um.debiasedEce(labels, probs, { mode: 'marginal' }), um.debiasedEce(labels, probs, { target: 'all-classes' }));
    same(
      um.debiasedEce(labels, probs, { mode: 'marginal' }),
      um.debiasedEce(labels, probs, { target: 'all-classes', groupBy: 'class' }),
    );
    const y2 = labels.map((y) => y % 2);
    const p2 = probs.map((r) => [(r[0] as number) + (r[2] as number), (r[1] as number) + (r[3] as number)]);
    same(um.debiasedEce(y2, p2, { mode: 'positive-class' }), um.debiasedEce(y2, p2, { target: 'positive-class' }));
  });
});
