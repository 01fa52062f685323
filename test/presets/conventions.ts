/**
 * What each preset must resolve to, per peer function, written from the conformance CONVENTIONS.md (test/fixtures/
 * conformance) and not from src/presets: §1 (arithmetic, edges, closed side, p = 1, default bins, binary handling),
 * note 1 (torchmetrics' binary function keeps the input dtype; golden `ece_pos@15` is float64), §4.3 (equal-mass
 * constructions), §4.5 (threshold 0 drops exact zeros), §4.6 (debiased ECE), §4.7 (NLL clipping), §4.8–4.9 (Brier),
 * §4.10 (Keras' AUC), §4.11 (WAIC/ISCV), §4.12 (CRPS), and the google sources for OracleCollaborativeAccuracy (a
 * Keras ExpectedCalibrationError subclass: ⌊B·p⌋ in the metric dtype, float32) and bayesian_expected_calibration_error.
 */
import type { EqualMassMethod, EqualWidthRule, Precision } from '../../src/binning/types.js';
import type { BrierForm, PresetName } from '../../src/index.js';
import { uniforms } from '../helpers/minstd.js';

/** One peer's conventions, one entry per peer function our functions reproduce. */
export interface PeerConventions {
  /** The top-label (multiclass) calibration error: ece, mce, gce, rmsce, sce, ace, tace, aece/amce, uce, reliability. */
  topLabel: {
    bins: number;
    rule: EqualWidthRule;
    precision: Precision;
    equalMass: EqualMassMethod;
    threshold: number | null;
  };
  /** The positive-class (vector) calibration error: binaryCalibrationError, binaryReliability; `'input'` = the input's dtype. */
  positiveClass: { precision: Precision | 'input' };
  /**
   * Binary handling: which of our functions reproduces the peer's call on a vector of P(y = 1) (`ece_pos@15`):
   * `'top-label'` = `ece(…, { binary: true })` ([1 − p, p], then the top label), `'positive-class'` =
   * `binaryCalibrationError`. Our functions never change meaning with the preset.
   */
  binary: 'top-label' | 'positive-class';
  debiased: { smallBins: 'drop' | 'plugin'; binning: 'equal-width' | 'equal-mass' };
  auc: { thresholds: number | null; precision: Precision };
  oracleBins: { rule: EqualWidthRule; precision: Precision };
  /** uncertainty_metrics' bayesian ECE quirks (prior variance w/12, bins weighted by correct mass). */
  bayesianQuirks: boolean;
  brier: BrierForm;
  brierDecomposition: {
    form: 'standard' | 'minus-one';
    reliability: 'exact' | 'distance';
    resolution: 'correct' | 'transposed';
    epsilon: number;
  };
  nll: { clip: number | 'machine-epsilon' | null; renormalize: boolean };
  crps: 'fair' | 'nrg' | 'cyclic';
  informationCriteria: { varianceDdof: 0 | 1; sem: 'instances' | 'members' };
}

const floor: EqualWidthRule = { index: 'floor', edges: 'exact', closed: 'left', one: 'last-bin' };
const keras = { rule: floor, precision: 'float32' } as const;

/** Our own conventions, for every function a peer does not have. */
const ours = {
  debiased: { smallBins: 'drop', binning: 'equal-mass' },
  auc: { thresholds: null, precision: 'float64' },
  bayesianQuirks: false,
  brier: 'standard',
  brierDecomposition: { form: 'standard', reliability: 'exact', resolution: 'correct', epsilon: 0 },
  nll: { clip: null, renormalize: false },
  crps: 'fair',
  informationCriteria: { varianceDdof: 1, sem: 'instances' },
} as const;

/** google/uncertainty-metrics' scores: the TensorFlow functions, in both presets (its NumPy backend has none). */
const google = {
  debiased: ours.debiased,
  auc: { thresholds: 200, precision: 'float32' }, // §4.10: Keras' AUC, 200 thresholds, float32
  oracleBins: keras,
  bayesianQuirks: true,
  brier: 'minus-one', // §4.8
  brierDecomposition: { form: 'minus-one', reliability: 'distance', resolution: 'transposed', epsilon: 1e-7 }, // §4.9
  nll: { clip: null, renormalize: false },
  crps: 'cyclic', // §4.12
  informationCriteria: { varianceDdof: 0, sem: 'members' }, // §4.11
} as const;

function row(top: PeerConventions['topLabel'], rest: Partial<PeerConventions> = {}): PeerConventions {
  return {
    topLabel: top,
    positiveClass: { precision: top.precision },
    binary: 'positive-class',
    oracleBins: { rule: top.rule, precision: top.precision },
    ...ours,
    ...rest,
  };
}

export const TABLE: Record<PresetName, PeerConventions> = {
  default: row({ bins: 15, rule: floor, precision: 'float64', equalMass: 'quantile', threshold: null }),
  // §1 "google numpy": input dtype (f64), linspace values, [a, b) (digitize), p = 1 in bin B + 1, 30 bins, p > 0 kept
  'uncertainty-metrics': row(
    {
      bins: 30,
      rule: { index: 'edges', edges: 'numpy', closed: 'left', one: 'own-bin' },
      precision: 'float64',
      equalMass: 'uncertainty-metrics',
      threshold: 0,
    },
    { ...google, binary: 'top-label' },
  ),
  // §1 "google TF": float32 (Keras), ⌊B·p⌋, p = 1 in the last bin, 15 bins; a [N] input → [1 − p, p] → top label
  'uncertainty-metrics-tf': row(
    { bins: 15, rule: floor, precision: 'float32', equalMass: 'uncertainty-metrics', threshold: null },
    { ...google, binary: 'top-label' },
  ),
  // §1 torchmetrics: float32 linspace edges, bucketize(right=True) − 1, p = 1 in bin B + 1, 15 bins; note 1: the
  // binary function keeps the input dtype; §4.6: debiasing only in _ce_compute (equal width), n_b = 1 keeps its
  // plug-in error; §4.12: NRG CRPS; §4.10: exact AUROC in the input dtype
  torchmetrics: row(
    {
      bins: 15,
      rule: { index: 'edges', edges: 'torch', closed: 'left', one: 'own-bin' },
      precision: 'float32',
      equalMass: 'quantile',
      threshold: null,
    },
    { positiveClass: { precision: 'input' }, debiased: { smallBins: 'plugin', binning: 'equal-width' }, crps: 'nrg' },
  ),
  // §1 netcal: input dtype, linspace values, histogramdd ([a, b), last bin closed), 10 bins; §4.3 numpy.quantile edges
  netcal: row({
    bins: 10,
    rule: { index: 'edges', edges: 'numpy', closed: 'left', one: 'last-bin' },
    precision: 'float64',
    equalMass: 'netcal',
    threshold: null,
  }),
  // §1 sklearn calibration_curve: linspace values, (a, b] (searchsorted), 5 bins; §4.3 percentile edges; §4.7–4.8
  sklearn: row(
    {
      bins: 5,
      rule: { index: 'edges', edges: 'numpy', closed: 'right', one: 'last-bin' },
      precision: 'float64',
      equalMass: 'sklearn',
      threshold: null,
    },
    { brier: 'half-if-binary', nll: { clip: 'machine-epsilon', renormalize: false } },
  ),
  // §1 verified: i·1.0/B edges, (a, b], 15 bins; §4.3 get_equal_bins; §4.6 drops n_b < 2; §4.8 marginal Brier/2
  'verified-calibration': row(
    {
      bins: 15,
      rule: { index: 'edges', edges: 'exact', closed: 'right', one: 'last-bin' },
      precision: 'float64',
      equalMass: 'verified-calibration',
      threshold: null,
    },
    { brier: 'half' },
  ),
  // §1 relplot binnedECE: int(p / (1/B)), p = 1 in bin B + 1, 10 bins, f64
  relplot: row({
    bins: 10,
    rule: { index: 'divide', edges: 'exact', closed: 'left', one: 'own-bin' },
    precision: 'float64',
    equalMass: 'quantile',
    threshold: null,
  }),
};

/** The precision a positive-class function must use for an input. */
export function positivePrecision(c: PeerConventions, input: 'numbers' | 'float32'): Precision {
  const p = c.positiveClass.precision;
  return p === 'input' ? (input === 'float32' ? 'float32' : 'float64') : p;
}

/** The double `steps` units in the last place away from x (x > 0). */
function ulps(x: number, steps: number): number {
  const b = new DataView(new ArrayBuffer(8));
  b.setFloat64(0, x);
  b.setBigInt64(0, b.getBigInt64(0) + BigInt(steps));
  return b.getFloat64(0);
}

/**
 * Probe values: every k/B for the presets' bin counts, their numpy (k·(1/B)) and float32 roundings, and the doubles
 * 1 and 2 ulps either side of each (where ⌊B·p⌋, p/(1/B) and edge comparisons part), with 0 and 1 (1 once, so an
 * own bin for p = 1 holds one sample).
 */
export function probeValues(): number[] {
  const v = new Set<number>([0]);
  for (const b of [5, 10, 15, 30]) {
    for (let k = 1; k < b; k++) {
      for (const e of [k / b, k * (1 / b), Math.fround(k / b)]) for (const d of [-2, -1, 0, 1, 2]) v.add(ulps(e, d));
    }
    for (const d of [-2, -1]) v.add(ulps(1, d));
  }
  return [...v].filter((x) => x >= 0 && x < 1).sort((a, b) => a - b);
}

/**
 * The true frequency behind a probability p of the probes: over- and underconfident by turns across [0, 1], so the gaps
 * of neighbouring bins have opposite signs and every binning gives another error (with gaps of one sign the ECE is
 * |Σ residuals|/N whatever the bins).
 */
function truth(p: number): number {
  return Math.min(1, Math.max(0, p + 0.3 * Math.sin(23 * p)));
}

/**
 * Probe predictions over 4 classes: a top-label confidence on every probe value ≥ 1/4 (twice, at a random class), the
 * rest split unevenly with exact zeros in some rows, seeded labels; plus random rows. Every convention of the table
 * changes some metric on these (checked by the sensitivity test).
 */
export function probeMatrix(seed = 7): { labels: number[]; probs: number[][] } {
  const u = uniforms(seed, 8000);
  let at = 0;
  const next = () => u[at++ % u.length] as number;
  const labels: number[] = [];
  const probs: number[][] = [];
  const push = (top: number) => {
    const rest = 1 - top;
    const a = top >= 0.5 ? next() : 1 / 3;
    const b = top >= 0.5 ? next() * (1 - a) : 1 / 3;
    const others = next() < 0.3 && top >= 0.5 ? [rest, 0, 0] : [rest * a, rest * b, rest - rest * a - rest * b];
    const k = Math.floor(next() * 4);
    probs.push([...others.slice(0, k), top, ...others.slice(k)]);
    labels.push(next() < truth(top) ? k : (k + 1 + Math.floor(next() * 3)) % 4);
  };
  for (const v of probeValues()) if (v >= 0.25) push(v);
  push(1);
  // the one row at p = 1 is wrong, so an own bin for it (gap 1) and a shared last bin give different errors
  labels[labels.length - 1] = ((probs[probs.length - 1] as number[]).indexOf(1) + 1) % 4;
  for (let i = 0; i < 150; i++) push(0.25 + 0.75 * next());
  return { labels, probs };
}

/** Probe vector of P(y = 1): every probe value twice, with seeded outcomes, plus random values. */
export function probeVector(seed = 9): { outcomes: number[]; probs: number[] } {
  const u = uniforms(seed, 5000);
  const probs = [...probeValues(), 1, ...u.slice(0, 100)];
  const outcomes = probs.map((p, i) => ((u[2000 + i] as number) < truth(p) ? 1 : 0));
  outcomes[probs.indexOf(1)] = 0; // p = 1 with outcome 0: alone in an own bin, a gap of 1
  return { probs, outcomes };
}

/** (bins, fraction) pairs at which the binned oracle-collaborative accuracy is compared. */
export const ORACLE_PROBES: readonly (readonly [number, number])[] = [10, 15, 30].flatMap((b) =>
  [0.1, 0.3, 0.5, 0.7].map((f) => [b, f] as const),
);
