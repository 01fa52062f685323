/**
 * Every golden metric is compared by some mapping, or listed here with the reason it is not: another quantity, or
 * not an exact target. The test fails when a golden metric is neither, so coverage is explicit.
 */
import { describe, expect, it } from 'vitest';
import { caseIds, FLOAT32_TOLERANCE_MAX_ROWS, loadCase, loadGolden } from '../helpers/conformance.js';
import { CALIBRATION_MAPPINGS } from './mappings/calibration.js';
import { SCORE_MAPPINGS } from './mappings/scores.js';
import { SELECTIVE_MAPPINGS } from './mappings/selective.js';

const NOT_COMPARED: Record<string, string> = {
  'netcal netcal_ace_avg_bins@10':
    "another quantity: netcal's ACE is the unweighted mean of |acc − conf| over non-empty bins (Neumann et al.), not Nixon's adaptive calibration error",
  'netcal netcal_ace_avg_bins@15': "another quantity: netcal's unweighted mean over non-empty bins",
  'netcal uce_regression@10':
    "another quantity: netcal's UCE is Laves 2020's regression UCE (binned variance vs MSE), outside the specification",
  'netcal uce_regression@15': 'regression UCE, outside the specification',
  'netcal ence@10': 'regression calibration (ENCE), outside the specification',
  'netcal nll_gaussian': 'Gaussian regression NLL, outside the specification',
  'verified_calibration debiased_ece_l1_equalmass@15[seed0]':
    "Monte-Carlo estimator with numpy's global RNG: not an exact target (conformance README §4.5)",
};

describe('conformance inventory', () => {
  it('every golden metric is compared here or listed with a reason', () => {
    const mapped = new Set(
      [...CALIBRATION_MAPPINGS, ...SCORE_MAPPINGS, ...SELECTIVE_MAPPINGS].map((m) => `${m.peer} ${m.metric}`),
    );
    const unaccounted: string[] = [];
    for (const peer of [
      'google_um_numpy',
      'google_um_tf',
      'netcal',
      'torchmetrics',
      'torch',
      'verified_calibration',
      'relplot',
      'sklearn',
      'sklearn_1_9',
      'reference_numpy',
    ]) {
      const names = new Set(Object.values(loadGolden(peer).results).flatMap((m) => Object.keys(m)));
      for (const name of names) {
        const key = `${peer} ${name}`;
        if (!mapped.has(key) && NOT_COMPARED[key] === undefined) unaccounted.push(key);
        if (mapped.has(key) && NOT_COMPARED[key] !== undefined) unaccounted.push(`${key} (both compared and excused)`);
      }
    }
    expect(unaccounted).toEqual([]);
  });
  it('every case is small enough for the 1e-6 float32 tolerance (float32 sums drift with N)', () => {
    const rows = caseIds().map((id) => ({
      id,
      n: (loadCase(id).shape as number[] | undefined)?.[0] ?? (loadCase(id).y as unknown[]).length,
    }));
    expect(rows.filter((r) => r.n > FLOAT32_TOLERANCE_MAX_ROWS)).toEqual([]);
    expect(Math.max(...rows.map((r) => r.n))).toBeGreaterThan(1000);
  });
});
