/** Every calibrator field has a range: hostile values are UM_CALIBRATOR; valid ones always give finite probabilities. */
/* eslint-disable @typescript-eslint/no-explicit-any -- the hostile edits reach into arbitrary paths of calibrator JSON */
import { describe, expect, it } from 'vitest';
import {
  applyCalibrator,
  applyHistogramBinning,
  applyIsotonic,
  applyMcTemperature,
  applyPlatt,
  applyTemperature,
  applyTopBinning,
  fitHistogramBinning,
  fitIsotonic,
  fitMcTemperature,
  fitPlatt,
  fitTemperature,
  fitTopBinning,
  parseCalibrator,
  UMError,
  type CalibratorParams,
  type ProbMatrix,
} from '../../src/index.js';
import { randomProbs } from '../helpers/data.js';
import { failure } from '../helpers/failure.js';
import { uniforms } from '../helpers/minstd.js';

const { labels: Y3, probs: P3 } = randomProbs(21, 60, 3, 20);
const { labels: Y2, probs: P2 } = randomProbs(22, 60, 2);
const B2 = P2.map((r) => r[1] as number);
const E3 = [P3, randomProbs(23, 60, 3).probs];

const BASE = {
  temperature: fitTemperature(Y3, P3),
  'mc-temperature': fitMcTemperature(Y3, E3),
  platt: fitPlatt(Y2, B2, { binary: true }),
  'histogram-binning': fitHistogramBinning(Y3, P3, { bins: 4 }),
  isotonic: fitIsotonic(Y3, P3),
  'top-binning': fitTopBinning(Y3, P3, { bins: 4, score: 'entropy' }),
} as const;
type Kind = keyof typeof BASE;

/** A deep copy of a base calibrator with `edit` applied. */
function edited(kind: Kind, edit: (p: Record<string, any>) => void): Record<string, unknown> {
  const p = JSON.parse(JSON.stringify(BASE[kind])) as Record<string, any>;
  edit(p);
  return p;
}

/** The kind-specific apply on data of the right shape. */
function apply(kind: Kind, params: unknown): unknown {
  switch (kind) {
    case 'temperature':
      return applyTemperature(params as never, P3);
    case 'mc-temperature':
      return applyMcTemperature(params as never, E3);
    case 'platt':
      return applyPlatt(params as never, B2, { binary: true });
    case 'histogram-binning':
      return applyHistogramBinning(params as never, P3);
    case 'isotonic':
      return applyIsotonic(params as never, P3);
    case 'top-binning':
      return applyTopBinning(params as never, P3);
  }
}

// [kind, what, edit, field named in the message, requirement]
const HOSTILE: [Kind, string, (p: Record<string, any>) => void, string, RegExp][] = [
  [
    'temperature',
    "the issue's 1e-320 (1/T overflows)",
    (p) => (p.temperature = 1e-320),
    'params.temperature',
    /must be in \[1e-6, 1e12\] .*; got 1e-320/,
  ],
  ['temperature', 'below the range', (p) => (p.temperature = 5e-7), 'params.temperature', /must be in \[1e-6, 1e12\]/],
  ['temperature', 'above the range', (p) => (p.temperature = 1e13), 'params.temperature', /must be in \[1e-6, 1e12\]/],
  ['temperature', 'zero', (p) => (p.temperature = 0), 'params.temperature', /must be a finite number > 0; got 0/],
  [
    'temperature',
    'a string',
    (p) => (p.temperature = '2'),
    'params.temperature',
    /must be a finite number > 0; got "2"/,
  ],
  ['temperature', 'NaN', (p) => (p.temperature = NaN), 'params.temperature', /must be a finite number > 0; got NaN/],
  [
    'temperature',
    'negative evaluations',
    (p) => (p.diagnostics.evaluations = -1),
    'params.diagnostics.evaluations',
    /must be an integer ≥ 0; got -1/,
  ],
  [
    'temperature',
    'converged as text',
    (p) => (p.diagnostics.converged = 'yes'),
    'params.diagnostics.converged',
    /must be true or false/,
  ],
  [
    'temperature',
    'an unknown bound side',
    (p) => (p.diagnostics.atBound = 'left'),
    'params.diagnostics.atBound',
    /must be 'lower', 'upper' or null/,
  ],
  [
    'temperature',
    'a negative NLL',
    (p) => (p.diagnostics.nllAfter = -1),
    'params.diagnostics.nllAfter',
    /must be a number ≥ 0 \(null for Infinity\)/,
  ],
  [
    'temperature',
    'bounds not around 1',
    (p) => (p.diagnostics.bounds = [2, 10]),
    'params.diagnostics.bounds',
    /must be \[T_min, T_max\] with 0 < T_min < 1 < T_max/,
  ],
  ['mc-temperature', 'T = 1e-320', (p) => (p.temperature = 1e-320), 'params.temperature', /must be in \[1e-6, 1e12\]/],
  [
    'mc-temperature',
    'no diagnostics',
    (p) => delete p.diagnostics,
    'params.diagnostics',
    /must be an object; got undefined/,
  ],
  ['platt', 'a = Infinity', (p) => (p.a = Infinity), 'params.a', /must be a finite number; got Infinity/],
  ['platt', 'b missing', (p) => delete p.b, 'params.b', /must be a finite number; got undefined/],
  [
    'platt',
    'fractional iterations',
    (p) => (p.diagnostics.iterations = 2.5),
    'params.diagnostics.iterations',
    /must be an integer ≥ 0; got 2.5/,
  ],
  [
    'platt',
    'a negative loss',
    (p) => (p.diagnostics.loss = -0.1),
    'params.diagnostics.loss',
    /must be a finite number ≥ 0; got -0.1/,
  ],
  [
    'histogram-binning',
    'a value above 1',
    (p) => (p.histograms[1].values[2] = 1.5),
    'params.histograms[1].values[2]',
    /must be probabilities in \[0, 1\]; got 1.5/,
  ],
  [
    'histogram-binning',
    'repeated edges',
    (p) => (p.histograms[0].edges = [0, 0.25, 0.25, 0.75, 1]),
    'params.histograms[0].edges',
    /must increase strictly from 0 to 1/,
  ],
  [
    'histogram-binning',
    'a negative count',
    (p) => (p.histograms[0].counts[0] = -1),
    'params.histograms[0].counts[0]',
    /must be whole numbers ≥ 0; got -1/,
  ],
  [
    'histogram-binning',
    'a fractional count',
    (p) => (p.histograms[2].counts[1] += 0.5),
    'params.histograms[2].counts[1]',
    /must be whole numbers ≥ 0/,
  ],
  [
    'histogram-binning',
    'counts not summing to n',
    (p) => (p.histograms[0].counts[0] += 1),
    'params.histograms[0].counts',
    /must sum to fittedOn.n = 60; got 61/,
  ],
  [
    'isotonic',
    'a breakpoint below 0',
    (p) => (p.maps[0].x[0] = -0.1),
    'params.maps[0].x[0]',
    /must be scores in \[0, 1\]; got -0.1/,
  ],
  [
    'isotonic',
    'a breakpoint above 1',
    (p) => (p.maps[2].x[p.maps[2].x.length - 1] = 1.5),
    'params.maps[2].x',
    /must be scores in \[0, 1\]; got 1.5/,
  ],
  [
    'isotonic',
    'breakpoints out of order',
    (p) => p.maps[1].x.reverse(),
    'params.maps[1].x[1]',
    /must increase strictly/,
  ],
  [
    'isotonic',
    'a decreasing map',
    (p) => p.maps[0].y.reverse(),
    'params.maps[0].y',
    /must be non-decreasing probabilities/,
  ],
  [
    'isotonic',
    'no breakpoints',
    (p) => (p.maps[0] = { x: [], y: [] }),
    'params.maps[0].x',
    /must hold at least one breakpoint/,
  ],
  [
    'top-binning',
    'bins out of order (item 20)',
    (p) => p.bins.reverse(),
    'params.bins[0].range',
    /must be \[lo, hi\] with lo ≤ hi < cuts\[0\] = .* \(bins in score order\)/,
  ],
  [
    'top-binning',
    'two bins swapped',
    (p) => ([p.bins[1], p.bins[2]] = [p.bins[2], p.bins[1]]),
    'params.bins[1].range',
    /must be \[lo, hi\] with cuts\[0\] = .* ≤ lo ≤ hi < cuts\[1\]/,
  ],
  [
    'top-binning',
    'a range upside down',
    (p) => p.bins[0].range.reverse(),
    'params.bins[0].range',
    /bins in score order/,
  ],
  [
    'top-binning',
    'an empty bin',
    (p) => (p.bins[0].count = 0),
    'params.bins[0].count',
    /must be an integer ≥ 1; got 0/,
  ],
  [
    'top-binning',
    'more hits than samples',
    (p) => (p.bins[1].hits = p.bins[1].count + 1),
    'params.bins[1].hits',
    /must be an integer in \[0, \d+\]/,
  ],
  [
    'top-binning',
    'an interval missing the frequency',
    (p) => (p.bins[0].interval = [0.99, 1]),
    'params.bins[0].interval',
    /must be \[lo, hi\] with 0 ≤ lo ≤ hits\/count = .* ≤ hi ≤ 1/,
  ],
  [
    'top-binning',
    'counts not summing to n',
    (p) => (p.bins[0].count += 1),
    'params.bins',
    /must hold fittedOn.n = 60 examples in all; got "61 examples"/,
  ],
  [
    'top-binning',
    'a direction against the score',
    (p) => (p.direction = 'confidence'),
    'params.direction',
    /must be 'uncertainty' \(the direction of the 'entropy' score\)/,
  ],
  ['top-binning', 'an EOR below 1', (p) => (p.eor = 0.5), 'params.eor', /must be a finite number ≥ 1 or null; got 0.5/],
  ['top-binning', 'top = C', (p) => (p.top = 3), 'params.top', /must be an integer in \[1, C\)/],
  // holes (sparse arrays, as a JS caller can make them): skipped by forEach/map, then read as undefined → NaN or a TypeError
  [
    'isotonic',
    'a hole in the maps',
    (p) => delete p.maps[1],
    'params.maps[1].x',
    /must be an array of numbers; got undefined/,
  ],
  [
    'isotonic',
    'a hole in the breakpoints',
    (p) => delete p.maps[0].x[1],
    'params.maps[0].x[1]',
    /must hold finite numbers; got undefined/,
  ],
  [
    'isotonic',
    'a hole in the values',
    (p) => delete p.maps[2].y[0],
    'params.maps[2].y[0]',
    /must hold finite numbers; got undefined/,
  ],
  [
    'histogram-binning',
    'a hole in the histograms',
    (p) => delete p.histograms[2],
    'params.histograms[2].edges',
    /must be an array of numbers; got undefined/,
  ],
  [
    'histogram-binning',
    'a hole in the values',
    (p) => delete p.histograms[0].values[1],
    'params.histograms[0].values[1]',
    /must hold finite numbers; got undefined/,
  ],
  ['top-binning', 'a hole in the bins', (p) => delete p.bins[1], 'params.bins[1]', /got undefined/],
  [
    'top-binning',
    'a hole in the cuts',
    (p) => delete p.cuts[0],
    'params.cuts[0]',
    /must hold finite numbers; got undefined/,
  ],
  [
    'temperature',
    'a hole in the search bounds',
    (p) => delete p.diagnostics.bounds[1],
    'params.diagnostics.bounds[1]',
    /must hold finite numbers; got undefined/,
  ],
];

describe('hostile calibrator fields are rejected by parseCalibrator and by every apply', () => {
  for (const [kind, what, edit, where, requirement] of HOSTILE) {
    it(`${kind}: ${what}`, () => {
      const bad = edited(kind, edit);
      for (const [fn, call] of [
        ['parseCalibrator', () => parseCalibrator(bad)],
        [
          `apply${kind === 'mc-temperature' ? 'McTemperature' : kind === 'histogram-binning' ? 'HistogramBinning' : kind === 'top-binning' ? 'TopBinning' : kind[0]?.toUpperCase() + kind.slice(1)}`,
          () => apply(kind, bad),
        ],
      ] as const) {
        const e = failure(call);
        expect(e.code).toBe('UM_CALIBRATOR');
        expect(e.message.startsWith(`${fn}: ${where}`), e.message).toBe(true);
        expect(e.message).toMatch(requirement);
      }
    });
  }
});

/**
 * Checks probabilities: finite, in [0, 1], rows summing to 1, log-probabilities consistent. The checks run as plain
 * comparisons and call expect only on a failure (with the same conditions and messages: an expect per entry, and its
 * message built per entry, were most of this file's time); toBeCloseTo(v, 12) passes when |e − v| < 10⁻¹²/2.
 */
function expectProbabilities(out: ProbMatrix, what: string): void {
  const c = out.numClasses;
  const close = 10 ** -12 / 2;
  for (let i = 0; i < out.n; i++) {
    let sum = 0;
    for (let k = 0; k < c; k++) {
      const v = out.data[i * c + k] as number;
      if (!(v >= 0 && v <= 1))
        expect(
          v >= 0 && v <= 1,
          `${what}: row ${i} = ${Array.from(out.data.subarray(i * c, i * c + c)).join(', ')}`,
        ).toBe(true);
      if (out.logData !== undefined) {
        const e = Math.exp(out.logData[i * c + k] as number);
        if (!(Math.abs(v - e) < close)) expect(e, what).toBeCloseTo(v, 12);
      }
      sum += v;
    }
    if (!(Math.abs(sum - 1) < 1e-12)) expect(Math.abs(sum - 1), `${what}: row ${i} sums to ${sum}`).toBeLessThan(1e-12);
  }
}

/** Seeded uniforms: minstd with spread seeds, the start of the stream skipped. */
const rand = (seed: number, count: number) => uniforms(seed * 48271 + 17, count + 10).slice(10);

/** A value drawn from a list of extremes or log-uniform in [10^lo, 10^hi]. */
function pick(u: number, v: number, extremes: readonly number[], lo: number, hi: number): number {
  return u < 0.4 ? (extremes[Math.floor(v * extremes.length)] as number) : 10 ** (lo + (hi - lo) * v);
}

/** Hostile but valid scores: logits from ±1e300 to 1e-300 with ties, or probabilities with exact 0 and 1. */
function hostileScores(
  seed: number,
  n: number,
  c: number,
  kind?: 'logits' | 'probs',
): { scores: number[][]; input: 'logits' | 'probs' } {
  const u = rand(seed, n * c + 1);
  if ((kind ?? ((u[n * c] as number) < 0.5 ? 'logits' : 'probs')) === 'logits') {
    const levels = [1e300, -1e300, 745, -745, 0, 1e-300, 36, 5e10];
    return {
      scores: Array.from({ length: n }, (_, i) =>
        Array.from({ length: c }, (_, k) => levels[Math.floor((u[i * c + k] as number) * levels.length)] as number),
      ),
      input: 'logits',
    };
  }
  return {
    scores: Array.from({ length: n }, (_, i) => {
      const hot = Math.floor((u[i * c] as number) * c);
      // one-hot rows, rows with subnormal entries, and ordinary rows
      if (i % 3 === 0) return Array.from({ length: c }, (_, k) => (k === hot ? 1 : 0));
      if (i % 3 === 1) return Array.from({ length: c }, (_, k) => (k === hot ? 1 - (c - 1) * 5e-324 : 5e-324));
      const raw = Array.from({ length: c }, (_, k) => (u[i * c + k] as number) + 1e-3);
      return raw.map((x) => x / raw.reduce((a, b) => a + b, 0));
    }),
    input: 'probs',
  };
}

describe('random valid parameters at the ends of their ranges: apply gives finite probabilities, rows summing to 1', () => {
  it('temperature and mc-temperature, T from 1e-6 to 1e12, on logits up to ±1e300 and probabilities with exact zeros', () => {
    for (let seed = 1; seed <= 80; seed++) {
      const u = rand(seed, 3);
      const temperature = pick(u[0] as number, u[1] as number, [1e-6, 1e12, 1], -6, 12);
      const c = 2 + Math.floor((u[2] as number) * 4);
      const { scores, input } = hostileScores(seed, 12, c);
      const base = { ...BASE.temperature, fittedOn: { ...BASE.temperature.fittedOn, numClasses: c }, temperature };
      expectProbabilities(
        applyTemperature(parseCalibrator(base) as never, scores, { input }),
        `seed ${seed}, T = ${temperature}`,
      );
      const mc = {
        ...BASE['mc-temperature'],
        fittedOn: { ...BASE['mc-temperature'].fittedOn, numClasses: c },
        temperature,
      };
      expectProbabilities(
        applyMcTemperature(parseCalibrator(mc) as never, [scores, hostileScores(seed + 999, 12, c, input).scores], {
          input,
        }),
        `seed ${seed}, MC T = ${temperature}`,
      );
    }
  });
  it('platt, a and b from ±1e-308 to ±1e308, on log-odds up to ±2e300', () => {
    for (let seed = 1; seed <= 80; seed++) {
      const u = rand(seed, 4);
      const sign = (x: number) => (x < 0.5 ? -1 : 1);
      const a = sign(u[2] as number) * pick(u[0] as number, u[1] as number, [0, 1e308, 5e-324, 1], -308, 308);
      const b = sign(u[3] as number) * pick(u[1] as number, u[0] as number, [0, 1.7e308, 1e-300], -308, 308);
      const { scores, input } = hostileScores(seed, 12, 2);
      const p = { ...BASE.platt, a, b };
      // probabilities of exactly 0 or 1 have no log-odds: a typed error, never a number
      let out: ProbMatrix;
      try {
        out = applyPlatt(parseCalibrator(p) as never, scores, { input });
      } catch (e) {
        expect(e instanceof UMError && e.code === 'UM_NOT_FINITE', String(e)).toBe(true);
        continue;
      }
      expectProbabilities(out, `seed ${seed}, a = ${a}, b = ${b}`);
    }
  });
  it('histogram binning and isotonic maps with subnormal and extreme breakpoints, values 0 and 1; top-binning probabilities', () => {
    for (let seed = 1; seed <= 80; seed++) {
      const c = 2 + (seed % 4);
      const m = 1 + (seed % 6);
      const u = rand(seed, 4 * m + 2);
      // strictly increasing breakpoints in [0, 1] including 0, 5e-324 and 1 − 2⁻⁵³; values often exactly 0 or 1
      const xs = [...new Set([0, 5e-324, 1 - 2 ** -53, 1, ...Array.from({ length: m }, (_, j) => u[j] as number)])]
        .sort((p, q) => p - q)
        .slice(0, m + 2);
      const ys = xs.map((_, j) => Math.min(1, Math.floor((u[m + j] as number) * 3) / 2)).sort((p, q) => p - q);
      const problems = c === 2 ? 1 : c;
      const n = 60;
      const edges = [0, ...xs.filter((x) => x > 0 && x < 1), 1];
      const counts = edges.slice(1).map((_, b) => (b === 0 ? n : 0));
      const hist = {
        ...BASE['histogram-binning'],
        fittedOn: { ...BASE['histogram-binning'].fittedOn, numClasses: c },
        histograms: Array.from({ length: problems }, () => ({
          edges,
          values: edges.slice(1).map((_, b) => (b % 2 === 0 ? 0 : 1)),
          counts,
        })),
      };
      const iso = {
        ...BASE.isotonic,
        fittedOn: { ...BASE.isotonic.fittedOn, numClasses: c },
        maps: Array.from({ length: problems }, () => ({ x: xs, y: ys })),
      };
      const { scores, input } = hostileScores(seed, 12, c);
      expectProbabilities(
        applyHistogramBinning(parseCalibrator(hist) as never, scores, { input }),
        `seed ${seed}, histogram ${JSON.stringify(edges)}`,
      );
      expectProbabilities(
        applyIsotonic(parseCalibrator(iso) as never, scores, { input }),
        `seed ${seed}, isotonic ${JSON.stringify([xs, ys])}`,
      );
      const top = applyCalibrator(
        parseCalibrator({
          ...BASE['top-binning'],
          bins: BASE['top-binning'].bins.map((b, j) => ({ ...b, probability: j % 2 })),
        }) as never,
        hostileScores(seed, 12, 3, 'probs').scores,
        { input: 'probs' },
      );
      expect(Array.from((top as { probability: Float64Array }).probability).every((v) => v === 0 || v === 1)).toBe(
        true,
      );
    }
  });
  it("extreme logits: T = 1e-6 gives the one-hot argmax (ties shared), T = 1e12 the uniform distribution; the issue's 1e-320 is an error", () => {
    const t = (temperature: number) => ({ ...BASE.temperature, temperature }) as never;
    expect(
      Array.from(
        applyTemperature(
          t(1e-6),
          [
            [1, 1 + 1e-3, 0],
            [5, 5, -1e300],
          ],
          { input: 'logits' },
        ).data,
      ),
    ).toEqual([0, 1, 0, 0.5, 0.5, 0]);
    applyTemperature(t(1e12), [[3, 1, 0]], { input: 'logits' }).data.forEach((v) => expect(v).toBeCloseTo(1 / 3, 11));
    // ±1e300: the logits differ by 2e300, still 2e288 after dividing by 1e12
    expect(Array.from(applyTemperature(t(1e12), [[1e300, -1e300, 0]], { input: 'logits' }).data)).toEqual([1, 0, 0]);
    const e = failure(() =>
      applyCalibrator(t(1e-320) as unknown as CalibratorParams, [[2, 0, 1]], { input: 'logits' }),
    );
    expect([e.code, e.message]).toEqual([
      'UM_CALIBRATOR',
      'applyCalibrator: params.temperature must be in [1e-6, 1e12] (the temperatures a fit can produce); got 1e-320',
    ]);
  });
});

describe('every fit produces a calibrator its own parser accepts, on ties, ulp-adjacent scores and extremes', () => {
  const LEVELS = [0, 5e-324, 1e-300, 0.5, 0.5 + 2 ** -53, 0.5 + 2 ** -52, 1 - 2 ** -53, 1];
  const PRESETS = [
    'default',
    'uncertainty-metrics',
    'uncertainty-metrics-tf',
    'torchmetrics',
    'netcal',
    'sklearn',
    'verified-calibration',
    'relplot',
  ] as const;
  it('histogram binning (every preset, both binnings), isotonic and top-binning (given values up to ±1e308)', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const n = 3 + (seed % 17);
      const u = rand(seed, 3 * n);
      const levels = LEVELS.slice(0, 2 + (seed % (LEVELS.length - 1)));
      const s = Array.from({ length: n }, (_, i) => levels[Math.floor((u[i] as number) * levels.length)] as number);
      const y = s.map((_, i) => ((u[n + i] as number) < 0.5 ? 1 : 0));
      const bins = 1 + (seed % 9);
      const fits: CalibratorParams[] = [
        ...PRESETS.flatMap((preset) =>
          (['equal-width', 'equal-mass'] as const).map((binning) =>
            fitHistogramBinning(y, s, { binary: true, bins, binning, preset }),
          ),
        ),
        fitIsotonic(y, s, { binary: true }),
        fitTopBinning(
          y,
          s.map((p) => [1 - p, p]),
          { bins, score: { uncertainty: s.map((p, i) => (i % 3 === 0 ? -1e308 : i % 3 === 1 ? 1e308 : p)) } },
        ),
        fitTopBinning(
          y,
          s.map((p) => [1 - p, p]),
          { bins, score: { confidence: s } },
        ),
      ];
      for (const f of fits) {
        const where = `seed ${seed}, ${f.kind} on ${JSON.stringify(s)}`;
        const copy = parseCalibrator(JSON.stringify(f));
        expect(copy, where).toEqual(f);
        if (f.kind !== 'top-binning')
          expectProbabilities(applyCalibrator(copy, s, { binary: true }) as ProbMatrix, where);
      }
    }
  });
  it('temperature, mc-temperature and Platt on logits from ±1e300 to 1e-300', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const c = 2 + (seed % 3);
      const { scores } = hostileScores(seed, 10, c, 'logits');
      const y = scores.map((_, i) => i % c);
      const fits: CalibratorParams[] = [
        fitTemperature(y, scores, { input: 'logits' }),
        fitMcTemperature(y, [scores, scores], { input: 'logits' }),
      ];
      // Platt needs finite log-odds: logits of one column
      const f = scores.map((r) => r[0] as number);
      fits.push(
        fitPlatt(
          y.map((v) => v % 2),
          f,
          { binary: true, input: 'logits' },
        ),
      );
      for (const p of fits) {
        const where = `seed ${seed}, ${p.kind} on ${JSON.stringify(scores)}`;
        const copy = parseCalibrator(JSON.stringify(p));
        expect(copy, where).toEqual(p);
        const out =
          p.kind === 'mc-temperature'
            ? applyMcTemperature(copy as never, [scores], { input: 'logits' })
            : p.kind === 'platt'
              ? applyPlatt(copy as never, f, { binary: true, input: 'logits' })
              : applyTemperature(copy as never, scores, { input: 'logits' });
        expectProbabilities(out, where);
      }
    }
  });
});
