import type { PairedComparison, PairedMetric } from '../bootstrap/comparePaired.js';

/**
 * The metrics a comparison is summarised by, and how a sentence names the better model (internal). Calibration first
 * (the report's subject), then the scores and the ranking of correct vs wrong predictions.
 */
const PHRASES: Readonly<Record<string, { readonly name: string; readonly better: string }>> = {
  ece: { name: 'ECE', better: 'is better calibrated than' },
  uce: { name: 'UCE', better: 'has better calibrated uncertainty than' },
  accuracy: { name: 'accuracy', better: 'is more accurate than' },
  nll: { name: 'NLL', better: 'has a better likelihood (NLL) than' },
  brier: { name: 'Brier score', better: 'has a better Brier score than' },
  auroc: { name: 'AUROC', better: 'separates its correct from its wrong predictions better than' },
  aurc: { name: 'AURC', better: 'is better at selective prediction (AURC) than' },
};

/** Keys of the metrics {@link verdictSentences} speaks about, in its order (internal). */
export const VERDICT_METRICS: readonly string[] = Object.keys(PHRASES);

/** 4 decimals, or scientific for tiny values; a difference keeps its sign (internal). */
export function fixed(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  return v !== 0 && Math.abs(v) < 1e-4 ? v.toExponential(2) : v.toFixed(4);
}

/** One sentence for one metric of a paired comparison; it says only what the interval supports (internal). */
export function verdictSentence(m: PairedMetric, level: number, a: string, b: string): string {
  const phrase = PHRASES[m.metric] ?? { name: m.metric, better: 'is better than' };
  const pct = `${Math.round(level * 1000) / 10}%`;
  if (
    m.verdict === null ||
    m.difference === null ||
    m.lower === null ||
    m.upper === null ||
    m.a === null ||
    m.b === null
  ) {
    return `${phrase.name}: not compared (undefined for ${m.a === null ? a : b} or in every resample).`;
  }
  const interval = `${pct} paired interval of ${b} − ${a}: ${fixed(m.lower)} … ${fixed(m.upper)}`;
  if (m.verdict === 'no difference at this level') {
    return `${phrase.name}: no difference at the ${pct} level between ${a} (${fixed(m.a)}) and ${b} (${fixed(m.b)}); the ${interval} includes 0.`;
  }
  const [winner, loser, wv, lv] = m.verdict === 'B better' ? [b, a, m.b, m.a] : [a, b, m.a, m.b];
  const by = `${m.better === 'lower' ? 'lower' : 'higher'} by ${fixed(Math.abs(m.difference))}`;
  return `${winner} ${phrase.better} ${loser}: ${phrase.name} ${fixed(wv)} vs ${fixed(lv)}, ${by} (${interval}).`;
}

/**
 * The verdicts of a paired comparison as sentences, one per metric of {@link VERDICT_METRICS} that the comparison
 * holds — what the report's comparison section and `um compare` print (internal).
 */
export function verdictSentences(c: PairedComparison, a: string, b: string): string[] {
  return VERDICT_METRICS.flatMap((key) => {
    const m = c.metrics.find((x) => x.metric === key);
    return m === undefined ? [] : [verdictSentence(m, c.level, a, b)];
  });
}
