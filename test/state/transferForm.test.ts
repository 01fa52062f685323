import { describe, expect, it } from 'vitest';
import { createState, stateFromJSON } from '../../src/index.js';
import { transferForm } from '../../src/state/createState.js';
import { randomProbs } from '../helpers/data.js';

/** The longest plain array anywhere in `value` (typed arrays are not counted: they are copied as memory). */
function longestArray(value: unknown): number {
  if (Array.isArray(value)) return Math.max(value.length, ...value.map(longestArray));
  if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value))
    return Math.max(0, ...Object.values(value).map(longestArray));
  return 0;
}

describe('transferForm (a state posted between threads)', () => {
  const rows = 4000;
  const { labels, probs } = randomProbs(7, rows, 5);

  for (const [name, options] of [
    ['evaluate (exact: kept entries)', { mode: 'exact' }],
    ['evaluate (bounded: grids)', { mode: 'bounded' }],
  ] as const) {
    it(`${name}: holds no list per entry as heap numbers, and reads back to the same result`, () => {
      const s = createState('evaluate', { ...options, numClasses: 5 });
      s.update(labels, probs);
      const form = transferForm(s);
      // a million-row chunk's entries as heap numbers overflowed a worker's heap (issue 17): only small lists stay arrays
      expect(longestArray(form)).toBeLessThan(rows);
      const back = stateFromJSON(structuredClone(form));
      expect(back.result()).toEqual(s.result());
      expect(JSON.parse(JSON.stringify(stateFromJSON(structuredClone(form))))).toEqual(JSON.parse(JSON.stringify(s)));
    });
  }

  // every multi-class state built on the engine's stores (kept entries, fixed bins, grids, means), in both modes
  const ENGINE_STATES = [
    'ece',
    'mce',
    'rmsce',
    'sce',
    'ace',
    'tace',
    'aece',
    'amce',
    'gce',
    'uce',
    'reliability',
    'accuracy',
    'brier',
    'nll',
    'brierDecomposition',
    'auroc',
    'aupr',
    'aurc',
    'eAurc',
    'rocCurve',
    'precisionRecallCurve',
    'riskCoverageCurve',
    'rejectionCurve',
    'accuracyAtCoverage',
    'coverageAtRisk',
    'oracleCollaborativeAccuracy',
    'mmce',
    'debiasedEce',
    'smoothEce',
    'bayesianEce',
  ] as const;
  it.each(ENGINE_STATES)(
    '%s: no list per row or entry as heap numbers, in exact and bounded mode; reads back alike',
    (metric) => {
      for (const mode of ['exact', 'bounded'] as const) {
        let s;
        try {
          s = createState(metric, { mode, numClasses: 5 });
        } catch (e) {
          if (mode === 'exact') throw e;
          continue; // a metric without a bounded mode
        }
        s.update(labels, probs);
        const form = transferForm(s);
        expect(longestArray(form), mode).toBeLessThan(rows / 10);
        expect(JSON.stringify(stateFromJSON(structuredClone(form)))).toBe(JSON.stringify(s));
      }
    },
  );

  it('is checked on reading like JSON: a bad value in a typed list names its place', () => {
    const s = createState('ace', { numClasses: 5 });
    s.update(labels, probs);
    const form = structuredClone(transferForm(s)) as unknown as { stores: { groups: { scores: Float64Array }[] }[] };
    const scores = form.stores[0]?.groups[0]?.scores as Float64Array;
    expect(scores).toBeInstanceOf(Float64Array);
    scores[3] = Number.NaN;
    expect(() => stateFromJSON(form as never)).toThrow(
      /json\.stores\[0\]\.groups\[0\]\.scores\[3\] must be a finite number; got NaN/,
    );
  });
});
