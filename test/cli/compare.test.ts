import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../src/index.js';
import { um } from '../helpers/cli.js';
import { exampleCsv } from '../helpers/data.js';

const A = 'examples/data/logreg_test.csv';
const B = 'examples/data/mlp_overfit_test.csv';

describe('um compare A B', () => {
  it('prints every metric of both, the difference and its paired interval (JSON)', () => {
    const r = um(['compare', A, B, '--resamples', '200', '--seed', '4', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { n: number; level: number; metrics: { metric: string; a: number; b: number; difference: number; lower: number; upper: number; significant: boolean }[] };
    const a = evaluate(exampleCsv('logreg_test').labels, exampleCsv('logreg_test').probs) as unknown as Record<string, number>;
    const b = evaluate(exampleCsv('mlp_overfit_test').labels, exampleCsv('mlp_overfit_test').probs) as unknown as Record<string, number>;
    expect([out.n, out.level]).toEqual([2000, 0.95]);
    for (const m of out.metrics) {
      expect(m.a, m.metric).toBe(a[m.metric]);
      expect(m.b, m.metric).toBe(b[m.metric]);
      expect(m.difference, m.metric).toBeCloseTo((b[m.metric] as number) - (a[m.metric] as number), 14);
      expect(m.lower).toBeLessThanOrEqual(m.upper);
      expect(m.significant).toBe(m.lower > 0 || m.upper < 0);
    }
    // the MLP is clearly more accurate: the interval of its accuracy gain excludes 0
    const acc = out.metrics.find((m) => m.metric === 'accuracy');
    expect(acc?.lower).toBeGreaterThan(0);
    // the same seed gives the same output
    expect(um(['compare', A, B, '--resamples', '200', '--seed', '4', '--json']).stdout).toBe(r.stdout);
  });

  it('prints a readable table', () => {
    const r = um(['compare', A, B, '--resamples', '50']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/paired percentile bootstrap, 50 resamples, seed 0/);
    expect(r.stdout).toMatch(/accuracy +0\.902500 +0\.952000 +0\.049500 .*B better/);
  });

  it('refuses files whose labels differ, naming the row (exit 2)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'um-compare-'));
    const lines = readFileSync(B, 'utf8').split('\n');
    const cells = (lines[10] as string).split(',');
    cells[0] = String((Number(cells[0]) + 1) % 10);
    lines[10] = cells.join(',');
    const bad = join(dir, 'b.csv');
    writeFileSync(bad, lines.join('\n'));
    const r = um(['compare', A, bad]);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(/um compare: .*b\.csv: line 11, column 1 \("label"\): label \d differs from .*logreg_test\.csv: line 11, column 1 \("label"\)/);
  });
});

describe('um metrics --ci', () => {
  it('adds a bootstrap interval to every metric, deterministic for a seed', () => {
    const r = um(['metrics', A, '--ci', '0.9', '--resamples', '100', '--seed', '2', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { brier: number; intervals: Record<string, { estimate: number; lower: number; upper: number }> };
    expect(Object.keys(out.intervals)).toEqual(expect.arrayContaining(['accuracy', 'ece', 'brier', 'nll', 'auroc', 'aurc']));
    expect(out.intervals.brier?.estimate).toBe(out.brier);
    expect(out.intervals.brier?.lower).toBeLessThan(out.brier);
    expect(out.intervals.brier?.upper).toBeGreaterThan(out.brier);
    expect(um(['metrics', A, '--ci', '0.9', '--resamples', '100', '--seed', '2', '--json']).stdout).toBe(r.stdout);
    const t = um(['metrics', A, '--ci', '0.9', '--resamples', '20']);
    expect(t.stdout).toMatch(/metric +value +bootstrap CI +meaning/);
  });
  it('rejects --resamples without --ci and a bad level (exit 2)', () => {
    expect(um(['metrics', A, '--resamples', '10']).stderr).toMatch(/--resamples and --seed go with --ci/);
    const r = um(['metrics', A, '--ci', '95']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('um metrics: --ci must be a number in (0, 1); got 95\n');
  });
});
