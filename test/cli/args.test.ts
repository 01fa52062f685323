/**
 * Arguments are checked before any work, for every command and every flag: required flags, enum values, flags given
 * without a value, extra positional arguments — exit 2 with one line naming the flag. And no message ever names a
 * library option (`options.sumTolerance`, `numClasses`) where the user typed a flag.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ArgsDef } from 'citty';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { FLAGS, flagWords } from '../../src/cli/errors.js';
import { applyArgs, fitArgs } from '../../src/cli/commands/calibrate.js';
import { compareArgs } from '../../src/cli/commands/compare.js';
import { metricsArgs } from '../../src/cli/commands/metrics.js';
import { reportArgs } from '../../src/cli/commands/report.js';

const dir = mkdtempSync(join(tmpdir(), 'um-args-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  return { code, stdout, stderr };
}

const F = (name: string) => `test/fixtures/files/${name}`;
const CSV = F('good.csv');
const CAL = join(dir, 'cal.json');

/** Every command with its flags and a valid invocation (positionals and required flags). */
const COMMANDS: { name: string[]; def: ArgsDef; base: () => string[] }[] = [
  { name: ['metrics'], def: metricsArgs, base: () => [CSV] },
  { name: ['compare'], def: compareArgs, base: () => [CSV, CSV, '--ci', '0.9', '--resamples', '20'] },
  // 2 resamples (as compare's 20): the arguments are this file's subject, not the intervals, and a two-model report
  // compared with the default 1000 took a second
  { name: ['report'], def: reportArgs, base: () => [CSV, '-o', join(dir, 'r.html'), '--resamples', '2'] },
  {
    name: ['calibrate', 'fit'],
    def: fitArgs,
    base: () => ['--method', 'temperature', CSV, '-o', join(dir, 'fit.json')],
  },
  { name: ['calibrate', 'apply'], def: applyArgs, base: () => [CAL, CSV, '-o', join(dir, 'out.csv')] },
];

/** Library option names (camelCase, as the functions spell them): never in a message of the CLI. */
const LIBRARY_NAMES = [
  'sumTolerance',
  'numClasses',
  'numMembers',
  'labelColumn',
  'scorePrefix',
  'weightColumn',
  'requireLabels',
  'batchRows',
  'equalWidth',
  'equalMass',
  'maxEvaluations',
  'decisionThreshold',
  'cellBits',
  'onWarning',
];

function noLibraryNames(stderr: string, what: string): void {
  expect(stderr, what).not.toMatch(/\boptions\./);
  for (const name of LIBRARY_NAMES) expect(stderr, what).not.toMatch(new RegExp(`\\b${name}\\b`));
  expect(stderr, what).not.toMatch(/binary: true|input: '|internal error/);
}

describe('arguments are checked before any work', () => {
  it('the calibrator used by apply', async () => {
    expect((await run(['calibrate', 'fit', '--method', 'temperature', CSV, '-o', CAL])).code).toBe(0);
  });
  for (const c of COMMANDS) {
    const flags = Object.entries(c.def).filter(([, d]) => d.type !== 'positional');
    const positionals = Object.values(c.def).filter((d) => d.type === 'positional').length;
    it(`um ${c.name.join(' ')}: a required flag left out, an enum value not offered, a flag without a value`, async () => {
      for (const [name, d] of flags) {
        const base = c.base();
        if ((d as { required?: boolean }).required === true) {
          // drop the flag and its value
          const at = base.findIndex((a) => a === `--${name}` || a === `-${(d as { alias?: string }).alias}`);
          const without = [...base.slice(0, at), ...base.slice(at + 2)];
          const r = await run([...c.name, ...without]);
          expect([r.code, r.stderr], name).toEqual([
            2,
            `um ${c.name.join(' ')}: --${name} is required${d.type === 'enum' ? ` (one of ${(d as { options: string[] }).options.join(', ')})` : ''}\n`,
          ]);
        }
        if (d.type === 'boolean') continue;
        const choices = d.type === 'enum' ? ` \\(one of ${(d as { options: string[] }).options.join(', ')}\\)` : '';
        const last = await run([
          ...c.name,
          ...base.filter((a, i) => !(a === `--${name}` || base[i - 1] === `--${name}`)),
          `--${name}`,
        ]);
        expect([last.code, last.stderr], `--${name} at the end`).toEqual([
          2,
          expect.stringMatching(
            new RegExp(`^um ${c.name.join(' ')}: --${name} needs a value${choices}\\n$`),
          ) as unknown,
        ]);
        if (c.def.json !== undefined) {
          const other = await run([...c.name, ...base, `--${name}`, '--json']);
          expect([other.code, other.stderr], `--${name} --json`).toEqual([
            2,
            expect.stringMatching(
              new RegExp(`^um ${c.name.join(' ')}: --${name} needs a value${choices}; got the flag --json\\n$`),
            ) as unknown,
          ]);
        }
        if (d.type === 'enum') {
          const bad = await run([...c.name, ...base, `--${name}`, 'no-such-value']);
          expect([bad.code, bad.stdout], `--${name} no-such-value`).toEqual([2, '']);
          expect(bad.stderr).toBe(
            `um ${c.name.join(' ')}: --${name} must be one of ${(d as { options: string[] }).options.join(', ')}; got "no-such-value"\n`,
          );
        }
      }
    });
    it(`um ${c.name.join(' ')}: more positional arguments than it takes`, async () => {
      if (c.name[0] === 'report') {
        // report takes any number of files
        expect((await run([...c.name, ...c.base(), CSV, '--md'])).code).toBe(0);
        return;
      }
      const r = await run([...c.name, ...c.base(), 'extra.csv', 'more.csv']);
      expect([r.code, r.stdout, r.stderr]).toEqual([
        2,
        '',
        `um ${c.name.join(' ')}: unexpected arguments "extra.csv" "more.csv" (takes at most ${positionals}; see um ${c.name.join(' ')} --help)\n`,
      ]);
    });
  }
  it('um calibrate fit without --method writes nothing (it used to write a file holding "undefined")', async () => {
    const out = join(dir, 'nomethod.json');
    const r = await run(['calibrate', 'fit', CSV, '-o', out]);
    expect([r.code, r.stdout, r.stderr]).toEqual([
      2,
      '',
      'um calibrate fit: --method is required (one of temperature, mc-temperature, platt, histogram, isotonic, top1)\n',
    ]);
    expect(existsSync(out)).toBe(false);
  });
});

describe('messages name the flags the user typed', () => {
  it('every option name in FLAGS is rewritten, as options.x and (camelCase) bare', () => {
    for (const [name, flag] of Object.entries(FLAGS)) {
      expect(flagWords(`options.${name} must be ≥ 1`)).toBe(`${flag} must be ≥ 1`);
      if (/[A-Z]/.test(name)) expect(flagWords(`raise ${name}`)).toBe(`raise ${flag}`);
    }
    expect(
      flagWords("declare input: 'logits' or 'logprobs' if these are not probabilities, or raise sumTolerance"),
    ).toBe('give --input logits or --input logprobs if these are not probabilities, or raise --sum-tolerance');
    expect(flagWords('be an integer ≥ 2 (use binary: true for a vector of P(y = 1))')).toBe(
      'be an integer ≥ 2 (use --binary for a vector of P(y = 1))',
    );
  });
  // every flag of every command with hostile values: exit 0 or 2, one line, and only flag names in it
  const VALUES = ['0', '-1', 'x', '1e400', 'NaN', '0.5', '2,1'];
  for (const c of COMMANDS) {
    it(`um ${c.name.join(' ')}: every flag with values ${VALUES.join(' ')}`, async () => {
      for (const [name, d] of Object.entries(c.def)) {
        if (d.type !== 'string') continue;
        if (name === 'output' || name === 'query') continue; // a file name and SQL (another test's subject)
        for (const value of VALUES) {
          const base = c.base().filter((a, i, all) => a !== `--${name}` && all[i - 1] !== `--${name}`);
          // (um metrics --ci 0.5 is valid and ran the default 1000 resamples, 0.7 s of this file: 20 run the same code)
          const few = c.name[0] === 'metrics' && name === 'ci' ? ['--resamples', '20'] : [];
          const argv = [...c.name, ...base, `--${name}`, value, ...few, ...(c.name[0] === 'report' ? ['--md'] : [])];
          const r = await run(argv);
          expect([0, 2], argv.join(' ')).toContain(r.code);
          if (r.code === 2) expect(r.stderr, argv.join(' ')).toMatch(/^um [a-z ]+: [^\n]+\n$/);
          noLibraryNames(r.stderr, argv.join(' '));
        }
      }
    });
  }
  it('data errors that involve options say what the user controls', async () => {
    const cases: [string[], RegExp][] = [
      [['metrics', CSV, '--sum-tolerance', '0'], /or raise --sum-tolerance\)\n$/],
      [['metrics', F('range.csv')], /--sum-tolerance|must be in \[0, 1\]/],
      [
        ['metrics', join(dir, 'one.csv')],
        /the number of score columns must be an integer ≥ 2 \(use --binary for a vector of P\(y = 1\)\); got 1\n$/,
      ],
    ];
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, 'one.csv'), 'label,p_0\n0,0.3\n1,0.8\n');
    for (const [argv, message] of cases) {
      const r = await run(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      noLibraryNames(r.stderr, argv.join(' '));
    }
  });
});
