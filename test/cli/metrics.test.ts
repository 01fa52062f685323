/** `um metrics` end to end, through `main` in this process (the README main job also through the installed bin). */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { ece, evaluate, evaluateEnsemble } from '../../src/index.js';
import { exampleCsv } from '../helpers/data.js';
import { repoRoot, um, umProcess } from '../helpers/cli.js';

const F = (name: string) => `test/fixtures/files/${name}`;
const KEYS = [
  'n',
  'numClasses',
  'accuracy',
  'ece',
  'mce',
  'rmsce',
  'sce',
  'ace',
  'tace',
  'uce',
  'aece',
  'amce',
  'brier',
  'nll',
  'meanEntropy',
  'auroc',
  'aupr',
  'aurc',
  'eaurc',
  'warnings',
  'config',
];
const ENSEMBLE_KEYS = [
  'numMembers',
  'totalUncertainty',
  'expectedDataUncertainty',
  'mutualInformation',
  'disagreement',
  'gibbsNll',
];

describe('um metrics on the bundled example', () => {
  it('prints a readable table (the README main job), through the installed bin link (a real process)', () => {
    const r = umProcess(['metrics', 'examples/data/mlp_overfit_test.csv'], { bin: `${repoRoot}node_modules/.bin/um` });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^examples\/data\/mlp_overfit_test.csv: 2000 examples, 10 classes, probs/);
    for (const k of KEYS.slice(2, -2)) expect(r.stdout).toMatch(new RegExp(`^${k}\\s+\\d\\.\\d{6}\\s`, 'm'));
  });
  it('--json prints one object with every key, and the numbers of the library', async () => {
    const r = await um(['metrics', 'examples/data/logreg_test.csv', '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as Record<string, unknown> & { config: Record<string, unknown> };
    expect(Object.keys(j)).toEqual(KEYS);
    const { labels, probs } = exampleCsv('logreg_test');
    const lib = evaluate(labels, probs);
    for (const k of KEYS.slice(0, -2)) expect(j[k]).toBe((lib as unknown as Record<string, unknown>)[k]);
    expect(j.warnings).toEqual([]);
    expect(j.config).toMatchObject({
      input: 'probs',
      bins: 15,
      preset: 'default',
      file: 'examples/data/logreg_test.csv',
      format: 'csv',
    });
  });
  it('--bins and --preset change the numbers and are recorded in config', async () => {
    const r = await um([
      'metrics',
      'examples/data/logreg_test.csv',
      '--json',
      '--bins',
      '10',
      '--preset',
      'uncertainty-metrics',
    ]);
    const j = JSON.parse(r.stdout) as { ece: number; config: { bins: number; preset: string; threshold: number } };
    const { labels, probs } = exampleCsv('logreg_test');
    expect(j.ece).toBe(ece(labels, probs, { bins: 10, preset: 'uncertainty-metrics' }));
    expect(j.config).toMatchObject({ bins: 10, preset: 'uncertainty-metrics', threshold: 0 });
  });
});

describe('um metrics --no-classwise', () => {
  it('prints SCE, ACE and TACE as n/a (null in --json) and every other number unchanged', async () => {
    const j = JSON.parse(
      (await um(['metrics', 'examples/data/logreg_test.csv', '--json', '--no-classwise'])).stdout,
    ) as Record<string, unknown> & { config: { classwise: boolean } };
    const { labels, probs } = exampleCsv('logreg_test');
    const lib = evaluate(labels, probs, { classwise: false });
    for (const k of KEYS.slice(0, -2)) expect(j[k]).toBe((lib as unknown as Record<string, unknown>)[k]);
    expect([j.sce, j.ace, j.tace, j.config.classwise]).toEqual([null, null, null, false]);
    const table = (await um(['metrics', 'examples/data/logreg_test.csv', '--no-classwise'])).stdout;
    expect(table).toMatch(/^sce\s+n\/a/m);
    expect(table).toMatch(/^ece\s+\d\.\d{6}/m);
  });
});

describe('other formats', () => {
  it('JSON logits', async () => {
    const r = await um(['metrics', F('logits.json'), '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as { n: number; config: { input: string } };
    expect(j.n).toBe(2);
    expect(j.config.input).toBe('logits');
  });
  it('--input logits selects the key of a file holding both', async () => {
    const a = JSON.parse((await um(['metrics', F('both.json'), '--json'])).stdout) as {
      config: { input: string };
      ece: number;
    };
    const b = JSON.parse((await um(['metrics', F('both.json'), '--json', '--input', 'logits'])).stdout) as {
      config: { input: string };
      ece: number;
    };
    expect([a.config.input, b.config.input]).toEqual(['probs', 'logits']);
    expect(a.ece).not.toBe(b.ece);
  });
  it('NumPy scores with --labels', async () => {
    const r = await um(['metrics', F('scores_f32.npy'), '--labels', F('labels_i64.npy'), '--json', '--bins', '5']);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { n: number }).n).toBe(6);
  });
  it('CSV with renamed columns', async () => {
    const r = await um(['metrics', F('renamed.csv'), '--label-column', 'y', '--score-prefix', 'prob_a', '--json']);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { accuracy: number }).accuracy).toBe(1);
  });
});

describe('ensembles', () => {
  it('JSON member_probs: the evaluation of evaluateEnsemble, with the ensemble keys, in the table and in --json', async () => {
    const M = JSON.parse(readFileSync(F('members.json'), 'utf8')) as { labels: number[]; member_probs: number[][][] };
    const lib = evaluateEnsemble(M.labels, M.member_probs) as unknown as Record<string, unknown>;
    const r = await um(['metrics', F('members.json'), '--json']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const j = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(j)).toEqual([...KEYS.slice(0, -2), ...ENSEMBLE_KEYS, 'warnings', 'config']);
    for (const k of [...KEYS.slice(0, -2), ...ENSEMBLE_KEYS]) expect(j[k]).toBe(lib[k]);
    const t = await um(['metrics', F('members.json')]);
    expect(t.stdout).toMatch(/^test\/fixtures\/files\/members.json: 6 examples, 3 classes, 3 members, probs$/m);
    expect(t.stdout).toMatch(/^mutualInformation\s+0\.423082\s/m);
    expect(t.stdout).toMatch(/^numMembers\s+3\s/m);
  });
  it('the bundled 5-member MNIST deep ensemble (float32 logits [5, 2000, 10]) matches numpy', async () => {
    const r = await um([
      'metrics',
      'examples/data/deep_ensemble_test_member_logits.npy',
      '--labels',
      'examples/data/test_labels.npy',
      '--input',
      'logits',
      '--json',
    ]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const j = JSON.parse(r.stdout) as Record<string, number>;
    // numpy 2.4 in float64 from the float32 logits: log-softmax, p̄ = mean of member softmaxes, H with 0·log 0 = 0,
    // NLL of p̄ by logsumexp over members, ECE with b = min(⌊15·conf⌋, 14).
    const expected: Record<string, number> = {
      accuracy: 0.9505,
      ece: 0.027895570397750726,
      totalUncertainty: 0.05612732510445705,
      expectedDataUncertainty: 0.04969148480017326,
      mutualInformation: 0.0064358403042837995,
      disagreement: 0.016800000000000002,
      gibbsNll: 0.2375407439369227,
      nll: 0.2164541446514479,
    };
    for (const [k, v] of Object.entries(expected)) expect(Math.abs((j[k] as number) - v), k).toBeLessThan(1e-14);
    expect(j.numMembers).toBe(5);
  });
  it('NumPy [S, N, C] members give the same numbers as the JSON', async () => {
    const a = JSON.parse((await um(['metrics', F('members.json'), '--json'])).stdout) as Record<string, unknown>;
    const b = JSON.parse(
      (await um(['metrics', F('members_f64.npy'), '--labels', F('members_labels.npy'), '--json'])).stdout,
    ) as Record<string, unknown>;
    for (const k of [...KEYS.slice(0, -2), ...ENSEMBLE_KEYS]) expect(b[k]).toBe(a[k]);
  });
  it('--members selects the members of a JSON file that holds both', async () => {
    const single = JSON.parse((await um(['metrics', F('members_both.json'), '--json'])).stdout) as Record<
      string,
      unknown
    >;
    const members = JSON.parse((await um(['metrics', F('members_both.json'), '--json', '--members'])).stdout) as Record<
      string,
      unknown
    >;
    expect([single.numMembers, members.numMembers]).toEqual([undefined, 3]);
  });
  it('an infinite Gibbs NLL: a warning line on stderr, the string "Infinity" and the warning in --json, exit 0', async () => {
    const r = await um(['metrics', F('members_zero.json'), '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      'um metrics: warning: a member gives probability exactly 0 to a label; the Gibbs NLL is Infinity [UM_W_INFINITE]\n',
    );
    const j = JSON.parse(r.stdout) as { gibbsNll: unknown; nll: unknown; warnings: { code: string; fn: string }[] };
    expect(j.gibbsNll).toBe('Infinity');
    expect(typeof j.nll).toBe('number');
    expect(j.warnings.map((w) => [w.code, w.fn])).toEqual([['UM_W_INFINITE', 'evaluateEnsemble']]);
  });
});

describe('bad input: exit code 2, one message naming the file, line and column, nothing on stdout', () => {
  const CASES: [string[], RegExp][] = [
    [['metrics', F('missing.csv')], /^um metrics: test\/fixtures\/files\/missing.csv: no such file\n$/],
    [
      ['metrics', F('ragged.csv')],
      /^um metrics: test\/fixtures\/files\/ragged.csv: line 3: expected 3 fields like the header, got 2\n$/,
    ],
    [
      ['metrics', F('nonnumeric.csv')],
      /^um metrics: test\/fixtures\/files\/nonnumeric.csv: line 4, column 2 \("p_0"\): expected a number; got "abc"\n$/,
    ],
    [
      ['metrics', F('nolabel.csv')],
      /^um metrics: test\/fixtures\/files\/nolabel.csv: line 1: the header must have a "label" column/,
    ],
    [
      ['metrics', F('range.csv')],
      /^um metrics: test\/fixtures\/files\/range.csv: line 4, column 2 \("p_0"\): probs\[2\]\[0\] must be in \[0, 1\]; got 1.2\n$/,
    ],
    [
      ['metrics', F('badlabel.csv')],
      /^um metrics: test\/fixtures\/files\/badlabel.csv: line 3, column 1 \("label"\): labels\[1\] must be an integer in \[0, 2\); got 2\n$/,
    ],
    [
      ['metrics', F('nan.csv')],
      /^um metrics: test\/fixtures\/files\/nan.csv: line 3, column 2 \("p_0"\): probs\[1\]\[0\] must be a finite number; got NaN\n$/,
    ],
    [
      ['metrics', F('members_range.json')],
      /^um metrics: test\/fixtures\/files\/members_range.json: "member_probs\[1\]\[4\]\[2\]": probs\[1\]\[4\]\[2\] must be in \[0, 1\]; got 1.5\n$/,
    ],
    [
      ['metrics', F('good.json'), '--members'],
      /^um metrics: test\/fixtures\/files\/good.json: has no member_probs, member_logits or member_logprobs key\n$/,
    ],
    [
      ['metrics', F('truncated.json')],
      /^um metrics: test\/fixtures\/files\/truncated.json: line \d+, column \d+: is not valid JSON/,
    ],
    [
      ['metrics', F('scores_f32.npy')],
      /^um metrics: test\/fixtures\/files\/scores_f32.npy: holds only scores; give the labels .npy with --labels/,
    ],
    [
      ['metrics', 'examples/data/logreg_test.csv', '--bins', '0'],
      /^um metrics: --bins must be an integer in \[1, 1048576\]; got 0\n$/,
    ],
    [
      ['metrics', 'examples/data/logreg_test.csv', '--bins', 'ten'],
      /^um metrics: --bins must be an integer; got "ten"\n$/,
    ],
    [
      ['metrics', 'examples/data/logreg_test.csv', '--input', 'logit'],
      /^um metrics: --input must be one of probs, logits, logprobs; got "logit"\n$/,
    ],
    [
      ['metrics', 'examples/data/logreg_test.csv', '--bin', '10'],
      /^um metrics: unknown option --bin \(see um metrics --help\)\n$/,
    ],
    // FILE is optional only with --engine duckdb --query
    [['metrics'], /^um metrics: give a prediction FILE \(or --engine duckdb --query SQL\)\n$/],
    [['metric', 'x.csv'], /^um: unknown command "metric"; commands: metrics, report, compare, calibrate\n$/],
  ];
  for (const [args, message] of CASES) {
    it(args.join(' '), async () => {
      const r = await um(args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
    });
  }
});

describe('help and version', () => {
  it('um --help lists the commands; um metrics --help the flags', async () => {
    expect((await um(['--help'])).stdout).toMatch(/metrics/);
    const h = await um(['metrics', '--help']);
    expect(h.code).toBe(0);
    for (const flag of ['--bins', '--input', '--preset', '--labels', '--json', '--label-column', '--score-prefix'])
      expect(h.stdout).toContain(flag);
  });
  it('um --version prints the package version', async () => {
    expect((await um(['--version'])).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
  it('um without arguments prints usage and exits 2', async () => {
    const r = await um([]);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/USAGE/);
  });
});
