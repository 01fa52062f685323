import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { comparePaired, type PairedMetric } from '../../src/index.js';
import { um } from '../helpers/cli.js';
import { exampleCsv } from '../helpers/data.js';

const A = 'examples/data/logreg_test.csv';
const B = 'examples/data/mlp_overfit_test.csv';

/** `um compare B A` (the table), run once for the two tests that read it: the layout and the verdict sentences. */
let table: ReturnType<typeof um> | undefined;
const tableBA = () => (table ??= um(['compare', B, A, '--resamples', '20', '--seed', '3']));

describe('um compare A B', () => {
  it('prints comparePaired’s result for the two files (JSON): every metric, B − A, its interval and a verdict that follows it', async () => {
    // the order: A = the MLP, B = logistic regression (SCE printed "B better" above an interval > 0). 20
    // resamples: the CLI's part is to print the library's result; test/bootstrap/ tests the intervals
    const r = await um(['compare', B, A, '--resamples', '20', '--seed', '4', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as {
      a: string;
      b: string;
      n: number;
      level: number;
      resamples: number;
      seed: number;
      method: string;
      metrics: PairedMetric[];
    };
    const la = exampleCsv('mlp_overfit_test');
    const lb = exampleCsv('logreg_test');
    // exactly the library's answer on the same data and settings — a second computation with the same seed, so the
    // same seed gives the same output (a repeated run of um compare would show nothing more)
    const lib = comparePaired(la.labels, la.probs, lb.probs, { resamples: 20, seed: 4 });
    expect({ ...out, a: undefined, b: undefined }).toEqual(
      JSON.parse(JSON.stringify({ ...lib, a: undefined, b: undefined })),
    );
    expect([out.a, out.b, out.n, out.level, out.resamples, out.seed, out.method]).toEqual([
      B,
      A,
      2000,
      0.95,
      20,
      4,
      'auto',
    ]);
    for (const m of out.metrics) {
      const at = m.metric;
      expect(m.lower as number, at).toBeLessThanOrEqual(m.upper as number);
      if (m.better === null) expect(m.verdict, at).toBeNull();
      else if ((m.lower as number) > 0) expect(m.verdict, at).toBe(m.better === 'higher' ? 'B better' : 'A better');
      else if ((m.upper as number) < 0) expect(m.verdict, at).toBe(m.better === 'lower' ? 'B better' : 'A better');
      else expect(m.verdict, at).toBe('no difference at this level');
    }
    expect(out.metrics.find((m) => m.metric === 'sce')?.verdict).toBe('no difference at this level');
    expect(out.metrics.find((m) => m.metric === 'accuracy')?.verdict).toBe('A better');
  });

  it('prints a readable table with the interval method and the verdict', async () => {
    // 20 resamples: the layout is the subject (the library's intervals are test/bootstrap's); the verdicts below
    // hold at 20 as at 50. The run is the one whose verdict sentences are compared with the report's below
    const r = await tableBA();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /2000 examples; paired bootstrap, 20 resamples, seed 3; BCa intervals, conservative union intervals for binned errors/,
    );
    expect(r.stdout).toMatch(/metric +A +B +B − A +95% CI of B − A +interval +verdict/);
    expect(r.stdout).toMatch(/accuracy +0\.952000 +0\.902500 +-0\.049500 +\S+ … \S+ +BCa +A better/);
    expect(r.stdout).toMatch(/\nsce +0\.008567 +0\.008336 +-0\.000231 +\S+ … \S+ +union +no difference at this level/);
    expect(r.stdout).toMatch(/\nmeanEntropy +[-0-9. …]+BCa\n/);
  });

  it('rejects bad bootstrap flags with exit 2 and one line naming the flag', async () => {
    const cases: [string[], RegExp][] = [
      [['--resamples', '1'], /^um compare: --resamples must be an integer in \[2, 100000\]; got 1\n$/],
      [
        ['--resamples', '1000000000'],
        /^um compare: --resamples must be an integer in \[2, 100000\]; got 1000000000 \(100000 resamples keep every resampled value in memory; more change the interval ends by less than their Monte Carlo error\)\n$/,
      ],
      [['--seed', '4294967296'], /^um compare: --seed must be an integer in \[0, 2³² − 1\]; got 4294967296\n$/],
      [['--ci', '1.5'], /^um compare: --ci must be a number in \(0, 1\); got 1\.5\n$/],
    ];
    for (const [flags, message] of cases) {
      const r = await um(['compare', A, B, ...flags]);
      expect([r.code, r.stdout], flags.join(' ')).toEqual([2, '']);
      expect(r.stderr).toMatch(message);
    }
  });

  it('refuses files whose labels differ, naming the row (exit 2)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'um-compare-'));
    const lines = readFileSync(B, 'utf8').split('\n');
    const cells = (lines[10] as string).split(',');
    cells[0] = String((Number(cells[0]) + 1) % 10);
    lines[10] = cells.join(',');
    const bad = join(dir, 'b.csv');
    writeFileSync(bad, lines.join('\n'));
    const r = await um(['compare', A, bad]);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(
      /um compare: .*b\.csv: line 11, column 1 \("label"\): label \d differs from .*logreg_test\.csv: line 11, column 1 \("label"\)/,
    );
  });
});

describe('um metrics --ci', () => {
  it('adds a bootstrap interval to every metric, deterministic for a seed', async () => {
    // 20 resamples: the CLI's part is to attach the library's intervals and repeat them for a seed (the intervals'
    // accuracy is test/bootstrap's); the Brier interval still holds its estimate strictly inside
    const r = await um(['metrics', A, '--ci', '0.9', '--resamples', '20', '--seed', '2', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as {
      brier: number;
      intervals: Record<string, { estimate: number; lower: number; upper: number }>;
    };
    expect(Object.keys(out.intervals)).toEqual(
      expect.arrayContaining(['accuracy', 'ece', 'brier', 'nll', 'auroc', 'aurc']),
    );
    expect(out.intervals.brier?.estimate).toBe(out.brier);
    expect(out.intervals.brier?.lower).toBeLessThan(out.brier);
    expect(out.intervals.brier?.upper).toBeGreaterThan(out.brier);
    expect((await um(['metrics', A, '--ci', '0.9', '--resamples', '20', '--seed', '2', '--json'])).stdout).toBe(
      r.stdout,
    );
    const t = await um(['metrics', A, '--ci', '0.9', '--resamples', '20']);
    expect(t.stdout).toMatch(/metric +value +bootstrap CI +meaning/);
  });
  it('rejects --resamples without --ci and a bad level (exit 2)', async () => {
    expect((await um(['metrics', A, '--resamples', '10'])).stderr).toMatch(/--resamples and --seed go with --ci/);
    const r = await um(['metrics', A, '--ci', '95']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('um metrics: --ci must be a number in (0, 1); got 95\n');
  });
  it('the verdict sentences of um compare A B are those of the report’s comparison of the same files (exit 0)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'um-compare-report-'));
    const file = join(dir, 'r.json');
    // 20 resamples: the same resamples and seed in both is the point, not the intervals' precision
    const made = await um(['report', B, A, '--resamples', '20', '--seed', '3', '--json', '-o', file]);
    expect(made.code, made.stderr).toBe(0);
    const report = JSON.parse(readFileSync(file, 'utf8')) as { summary: { comparisons: { sentences: string[] }[] } };
    const r = await tableBA();
    expect(r.code, r.stderr).toBe(0);
    const printed = r.stdout
      .split('Verdicts (read from the intervals; as in um report):\n')[1]
      ?.trim()
      .split('\n')
      .map((l) => l.replace(/^- /, ''));
    expect(printed).toEqual(report.summary.comparisons[0]?.sentences);
    expect(printed?.[0]).toMatch(/^logreg_test is better calibrated than mlp_overfit_test: ECE 0\.0138 vs 0\.0389/);
  }, 120_000);
});
