import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../fixtures/conformance/', import.meta.url));

/** A conformance input case (see fixtures/conformance/README.md). */
export interface ConformanceCase {
  id: string;
  kind: 'classification' | 'ensemble' | 'regression';
  description: string;
  probs: number[][];
  labels: number[];
  shape: [number, number];
  logits?: number[][] | number[][][];
  member_probs?: number[][][];
  logp?: number[][];
  edges?: number[];
  [key: string]: unknown;
}

export type GoldenValue = number | string | GoldenValue[] | { [k: string]: GoldenValue };
export type GoldenEntry = { value: GoldenValue; call: string; out_dtype?: string } | { error: string; call: string };

export interface Golden {
  peer: string;
  results: Record<string, Record<string, GoldenEntry>>;
}

const caseCache = new Map<string, ConformanceCase>();
const goldenCache = new Map<string, Golden>();

/** Loads one input case. */
export function loadCase(id: string): ConformanceCase {
  let c = caseCache.get(id);
  if (c === undefined) {
    c = JSON.parse(gunzipSync(readFileSync(`${root}cases/${id}.json.gz`)).toString('utf8')) as ConformanceCase;
    caseCache.set(id, c);
  }
  return c;
}

/** Loads one peer's golden file. */
export function loadGolden(peer: string): Golden {
  let g = goldenCache.get(peer);
  if (g === undefined) {
    g = JSON.parse(readFileSync(`${root}golden/${peer}.json`, 'utf8')) as Golden;
    goldenCache.set(peer, g);
  }
  return g;
}

/** The list of case ids in fixed order. */
export function caseIds(kind?: ConformanceCase['kind']): string[] {
  const index = JSON.parse(gunzipSync(readFileSync(`${root}cases/index.json.gz`)).toString('utf8')) as {
    id: string;
    kind: string;
  }[];
  return index.filter((c) => kind === undefined || c.kind === kind).map((c) => c.id);
}

/** Decodes the golden encoding of non-finite numbers. */
export function decode(v: GoldenValue): unknown {
  if (v === 'NaN') return NaN;
  if (v === 'Infinity') return Infinity;
  if (v === '-Infinity') return -Infinity;
  if (Array.isArray(v)) return v.map(decode);
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, decode(x)]));
  return v;
}

/** rel(a, b) = |a − b| / max(1, |a|, |b|), the conformance measure. */
export function rel(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b) ? 0 : Infinity;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return a === b ? 0 : Infinity;
  return Math.abs(a - b) / Math.max(1, Math.abs(a), Math.abs(b));
}

/** Largest case (rows) for which the float32 tolerance below is measured to hold. */
export const FLOAT32_TOLERANCE_MAX_ROWS = 10_000;

/**
 * Tolerance for a golden entry: 1e-12 against float64 peers (summation order), 1e-6 against float32 peers. A float32
 * peer adds each bin up in float32, which drifts with the rows N ("Float32 peers" in
 * docs/guides/choosing-a-calibration-metric.md; test/presets/float32Peers.test.ts): measured ≤ 3e-7 up to N = 10⁴ but 6e-5 at 10⁶, so 1e-6 holds only for small cases — the
 * conformance inventory checks that every case has N ≤ {@link FLOAT32_TOLERANCE_MAX_ROWS}.
 */
export function tolerance(entry: GoldenEntry): number {
  return 'out_dtype' in entry && entry.out_dtype === 'float32' ? 1e-6 : 1e-12;
}

/** Confidence (row max) and correctness with first-index argmax, as the golden calls define them. */
export function confCorrect(probs: number[][], labels: number[]): { conf: number[]; correct: number[] } {
  const conf: number[] = [];
  const correct: number[] = [];
  probs.forEach((row, i) => {
    let best = 0;
    for (let k = 1; k < row.length; k++) if ((row[k] as number) > (row[best] as number)) best = k;
    conf.push(row[best] as number);
    correct.push(best === labels[i] ? 1 : 0);
  });
  return { conf, correct };
}
