import type { PairedComparison } from '../bootstrap/comparePaired.js';
import { applyTemperature } from '../calibrate/applyTemperature.js';
import { fitTemperature } from '../calibrate/fitTemperature.js';
import { ece } from '../calibration/ece.js';
import type { ReliabilityTable } from '../calibration/reliability.js';
import type { Evaluation } from '../evaluate/evaluate.js';
import type { Labels, ProbMatrix } from '../input/types.js';
import type { PresetName } from '../presets/presets.js';
import { LEVEL, type ReportInterval } from './resampling.js';
import { fixed, verdictSentences } from './verdicts.js';

export type { ReportInterval } from './resampling.js';

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

/** A paired comparison of B with A as the report shows it (internal): `um compare A B`'s sentences and numbers. */
export function comparisonOf(c: PairedComparison, a: string, b: string): ReportComparison {
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
    a,
    b,
    resamples: c.resamples,
    level: c.level,
    seed: c.seed,
    sentences: verdictSentences(c, a, b),
    metrics,
  };
}
