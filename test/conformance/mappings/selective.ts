/** Golden-value mappings of selective prediction (issue 4): AUROC and AUPR of correctness vs confidence. */
import { aupr, auroc } from '../../../src/index.js';
import { confCorrect, type ConformanceCase } from '../../helpers/conformance.js';
import type { Mapping } from './types.js';

/** Every prediction correct, or every one wrong: one class only. */
function singleClass(c: ConformanceCase): boolean {
  const { correct } = confCorrect(c.probs, c.labels);
  return correct.every((x) => x === 1) || correct.every((x) => x === 0);
}

const SINGLE = {
  reason:
    'one class only (all correct or all wrong): we raise UM_SINGLE_CLASS where sklearn 1.9 returns NaN/0/1 with a warning and torchmetrics 0 or 1',
  throws: 'UM_SINGLE_CLASS',
};
const single = (c: ConformanceCase) => (singleClass(c) ? SINGLE : undefined);

const mappings = (peer: string): Mapping[] => [
  {
    peer,
    metric: 'auroc_correct',
    compute: (c) => auroc(c.labels, c.probs),
    exceptions: single,
    onPeerError: (c) => expectSingle(c, () => auroc(c.labels, c.probs)),
  },
  {
    peer,
    metric: 'aupr_correct',
    compute: (c) => aupr(c.labels, c.probs, { positive: 'correct' }),
    exceptions: single,
  },
  { peer, metric: 'aupr_error', compute: (c) => aupr(c.labels, c.probs, { positive: 'error' }), exceptions: single },
];

/** Where sklearn 1.2 raised (one class), we raise UM_SINGLE_CLASS. */
function expectSingle(c: ConformanceCase, call: () => unknown): void {
  if (!singleClass(c)) throw new Error(`${c.id}: the peer raised on a case with both classes`);
  try {
    call();
  } catch (error) {
    if ((error as { code?: string }).code === 'UM_SINGLE_CLASS') return;
    throw error;
  }
  throw new Error(`${c.id}: expected UM_SINGLE_CLASS`);
}

const tf = { preset: 'uncertainty-metrics-tf' } as const;

export const SELECTIVE_MAPPINGS: Mapping[] = [
  ...mappings('sklearn'),
  ...mappings('sklearn_1_9'),
  ...mappings('torchmetrics'),
  // uncertainty_metrics' AUC is Keras' 200-threshold approximation in float32
  { peer: 'google_um_tf', metric: 'auroc_correct', compute: (c) => auroc(c.labels, c.probs, tf), exceptions: single },
  {
    peer: 'google_um_tf',
    metric: 'aupr_correct',
    compute: (c) => aupr(c.labels, c.probs, { ...tf, positive: 'correct' }),
    exceptions: single,
  },
  {
    peer: 'google_um_tf',
    metric: 'aupr_error',
    compute: (c) => aupr(c.labels, c.probs, { ...tf, positive: 'error' }),
    exceptions: single,
  },
];
