import { resample } from '../bootstrap/bootstrap.js';
import { comparePaired, methodFor } from '../bootstrap/comparePaired.js';
import type { BootstrapInterval, BootstrapMethod } from '../bootstrap/intervals.js';
import { applyTemperature } from '../calibrate/applyTemperature.js';
import { fitTemperature } from '../calibrate/fitTemperature.js';
import { ece } from '../calibration/ece.js';
import type { ReliabilityTable } from '../calibration/reliability.js';
import { evaluate, type Evaluation } from '../evaluate/evaluate.js';
import { METRICS } from '../evaluate/metricInfo.js';
import type { Labels, ProbMatrix } from '../input/types.js';
import type { PresetName } from '../presets/presets.js';
import { fixed, verdictSentences } from './verdicts.js';

/** An interval of one metric in the report's table (internal shape of `Report.intervals`). */
export interface ReportInterval {
  readonly lower: number;
  readonly upper: number;
  /** How it was read from the resamples: BCa for smooth metrics, the conservative union for binned errors. */
  readonly method: BootstrapMethod;
}

/** How the table's intervals were made (stated in the report). */
export interface ReportIntervals {
  readonly resamples: number;
  readonly level: number;
  readonly seed: number;
  /** Per model (in order), per metric key: its interval, or null (no rows in memory, or undefined). */
  readonly models: (Readonly<Record<string, ReportInterval | null>> | null)[];
}

/** The paired comparison of a model with the first one (the baseline), as `um compare first other` prints it. */
export interface ReportComparison {
  readonly a: string;
  readonly b: string;
  readonly resamples: number;
  readonly level: number;
  readonly seed: number;
  /** One sentence per compared metric, stating only what its interval supports. */
  readonly sentences: string[];
  /** Every compared metric (`comparePaired`'s, without the class-wise errors): A, B, B − A, interval and verdict. */
  readonly metrics: {
    metric: string;
    a: number | null;
    b: number | null;
    difference: number | null;
    lower: number | null;
    upper: number | null;
    method: string;
    verdict: string | null;
  }[];
}

/** What a model's summary is computed from (internal). */
export interface SummaryInput {
  readonly name: string;
  readonly evaluation: Evaluation;
  /** The confidence reliability table with per-bin intervals (or without, for a streamed model). */
  readonly reliability: ReliabilityTable;
  readonly labels?: Labels;
  readonly p?: ProbMatrix;
}

const quiet = () => undefined;
const LEVEL = 0.95;

/** Interval bootstrap of every metric of `evaluate` for one model (internal): 'auto' methods, as comparePaired. */
export function tableIntervals(
  labels: Labels,
  p: ProbMatrix,
  binning: { bins?: number; preset?: PresetName },
  resamples: number,
  seed: number,
): Record<string, ReportInterval | null> {
  const base = new Float64Array(p.n).fill(1);
  const run = (w: Float64Array, classwise: boolean) =>
    evaluate(labels, p, { ...binning, classwise, weights: w, onWarning: quiet }) as unknown as Record<string, unknown>;
  const r = resample(
    p.n,
    (w) => run(w, true),
    base,
    { resamples, level: LEVEL, seed, method: 'bca' },
    (k) => methodFor(k, 'auto'),
    // only the BCa metrics need the jackknife, and none of them is class-wise (those get union intervals): the
    // class-wise errors, most of an evaluation's cost, are left out of its 100 evaluations
    (w) => run(w, false),
  );
  const out: Record<string, ReportInterval | null> = {};
  for (const [k, i] of Object.entries(r.intervals as Record<string, BootstrapInterval>)) {
    if (!(k in METRICS)) continue; // n and numClasses are the data's, not estimates
    // every metric of the table is ≥ 0: the union interval of a small error can reach below 0, which no value can
    out[k] =
      i.lower === null || i.upper === null
        ? null
        : { lower: Math.max(0, i.lower), upper: i.upper, method: i.method ?? methodFor(k, 'auto') };
  }
  return out;
}

const range = (bins: { lower: number; upper: number }[]) => {
  // adjacent bins are merged into one range, so a run of bins reads as one stretch of confidence
  const parts: [number, number][] = [];
  for (const b of bins) {
    const last = parts.at(-1);
    if (last !== undefined && Math.abs(last[1] - b.lower) < 1e-12) last[1] = b.upper;
    else parts.push([b.lower, b.upper]);
  }
  return parts.map(([l, u]) => `${l.toFixed(2)}–${u.toFixed(2)}`).join(', ');
};

/**
 * A few sentences a reader can act on for one model (internal): accuracy and ECE/UCE with their intervals, whether
 * the model is over- or under-confident and in which confidence bins the gap exceeds the bin's interval, and the
 * temperature that would fix it.
 */
export function modelSummary(
  m: SummaryInput,
  intervals: Readonly<Record<string, ReportInterval | null>> | null,
  binning: { bins?: number; preset?: PresetName },
): string[] {
  const e = m.evaluation;
  const withInterval = (key: string, label: string) => {
    const v = (e as unknown as Record<string, number | null>)[key];
    if (typeof v !== 'number') return `${label} n/a`;
    const i = intervals?.[key] ?? null;
    return `${label} ${fixed(v)}${i === null ? '' : ` (${LEVEL * 100}% interval ${fixed(i.lower)} … ${fixed(i.upper)})`}`;
  };
  const lines = [
    `${withInterval('accuracy', 'Accuracy')}; ${withInterval('ece', 'ECE')}; ${withInterval('uce', 'UCE')}.`,
  ];
  const bins = m.reliability.bins.filter((b) => b.count > 0 && b.meanScore !== null && b.meanOutcome !== null);
  const total = bins.reduce((s, b) => s + b.count, 0);
  const conf = bins.reduce((s, b) => s + b.count * (b.meanScore as number), 0) / total;
  const acc = bins.reduce((s, b) => s + b.count * (b.meanOutcome as number), 0) / total;
  const bounds = m.reliability.intervals?.bounds;
  const side = (sign: 1 | -1) =>
    bins.filter((b) => {
      const i = bounds?.[b.index];
      if (i === undefined || i === null) return false;
      // over-confident: the bin's confidence lies above its accuracy interval (under: below it)
      return sign === 1 ? (b.meanScore as number) > i[1] : (b.meanScore as number) < i[0];
    });
  const direction =
    conf > acc ? 'Over-confident' : conf < acc ? 'Under-confident' : 'Neither over- nor under-confident';
  lines.push(`${direction} on average: mean confidence ${fixed(conf)}, accuracy ${fixed(acc)}.`);
  if (bounds !== undefined) {
    const over = side(1);
    const under = side(-1);
    const say = (list: typeof bins) =>
      `${range(list)} (${list.reduce((s, b) => s + b.count, 0)} of ${total} predictions)`;
    const parts = [
      over.length === 0 ? '' : `over-confident at confidence ${say(over)}`,
      under.length === 0 ? '' : `under-confident at ${say(under)}`,
    ].filter((x) => x !== '');
    lines.push(
      parts.length === 0
        ? `No bin's confidence lies outside its ${LEVEL * 100}% ${m.reliability.intervals?.method === 'clopper-pearson' ? 'Clopper–Pearson' : 'Wilson'} interval of accuracy: the gaps are within the noise of the bins.`
        : `Beyond the noise of the bins (confidence outside the bin's ${LEVEL * 100}% Wilson interval of accuracy): ${parts.join('; ')}.`,
    );
  }
  if (m.labels !== undefined && m.p !== undefined) {
    const fitted = fitTemperature(m.labels, m.p, { onWarning: quiet });
    if (Number.isFinite(fitted.diagnostics.nllAfter)) {
      const after = ece(m.labels, applyTemperature(fitted, m.p), binning);
      const t = fitted.temperature;
      lines.push(
        `Temperature scaling with T = ${t.toPrecision(3)} (${t > 1 ? 'softening' : 'sharpening'} the predictions; the NLL-optimal T on these rows) would change ECE from ${fixed(e.ece)} to ${fixed(after)} — fit T on validation data (um calibrate fit) before trusting it.`,
      );
    }
  }
  return lines;
}

/** Paired comparison of B with A (internal): comparePaired with the options `um compare` uses, as sentences. */
export function compareModels(
  a: { name: string; labels: Labels; p: ProbMatrix },
  b: { name: string; p: ProbMatrix },
  binning: { bins?: number; preset?: PresetName },
  resamples: number,
  seed: number,
): ReportComparison {
  // class-wise errors are left out: they are not among the verdicts, and their resampling is the costliest part
  const c = comparePaired(a.labels, a.p, b.p, { ...binning, classwise: false, resamples, seed, onWarning: quiet });
  const metrics = c.metrics.map((m) => ({
    metric: m.metric,
    a: m.a,
    b: m.b,
    difference: m.difference,
    lower: m.lower,
    upper: m.upper,
    method: m.method,
    verdict: m.verdict,
  }));
  return {
    a: a.name,
    b: b.name,
    resamples: c.resamples,
    level: c.level,
    seed: c.seed,
    sentences: verdictSentences(c, a.name, b.name),
    metrics,
  };
}
