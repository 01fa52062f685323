import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { ioFrom, type Io } from '../../src/cli/io.js';
import { EXAMPLES } from '../../src/cli/examples.js';
import { wrap } from '../../src/cli/help.js';
import { FORMATS } from '../../src/io/readSpec.js';

const dir = mkdtempSync(join(tmpdir(), 'um-ergo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const D = 'examples/data';
const IRIS = 'setosa,versicolor,virginica';

/** Runs `um` in process with a captured io. */
async function um(
  argv: readonly string[],
  extra: Partial<Io> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), ...extra });
  return { code, stdout, stderr };
}

/** Every help page: the root, each group, each command. */
const PAGES: string[][] = [
  [],
  ['calibrate'],
  ['metrics'],
  ['report'],
  ['compare'],
  ['calibrate', 'fit'],
  ['calibrate', 'apply'],
];

describe('help', () => {
  it('every page fits every terminal width: no line wider, none with trailing blanks; 80 columns off a terminal', async () => {
    for (const page of PAGES) {
      for (const columns of [20, 21, 33, 40, 57, 64, 80, 99, 132, 200]) {
        const h = await um([...page, '--help'], { columns });
        expect(h.code).toBe(0);
        const lines = h.stdout.split('\n');
        const wide = lines.filter((l) => l.length > columns);
        expect([page.join(' '), columns, wide]).toEqual([page.join(' '), columns, []]);
        expect(lines.filter((l) => /\s$/.test(l))).toEqual([]);
        expect(h.stdout.endsWith('\n')).toBe(true);
        // the wrapped words are all there (nothing cut off): the same text as the widest layout, blanks aside
        const wideText = (await um([...page, '--help'], { columns: 1000 })).stdout;
        // (continuations of example commands and comments are layout, not words)
        const words = (t: string) =>
          t
            .replace(/\s*\\\n/g, ' ')
            .replace(/^\s*# ?/gm, '')
            .split(/\s+/)
            .join('');
        if (columns >= 40) expect(words(h.stdout)).toBe(words(wideText));
      }
      const plain = await um([...page, '--help']);
      expect(plain.stdout).toBe((await um([...page, '--help'], { columns: 80 })).stdout);
      expect(Math.max(...plain.stdout.split('\n').map((l) => l.length))).toBeLessThanOrEqual(80);
    }
  });

  it('a long flag description wraps with a hanging indent under its first line', async () => {
    const lines = (await um(['metrics', '--help'], { columns: 80 })).stdout.split('\n');
    const at = lines.findIndex((l) => l.startsWith('  --classes NAMES'));
    const column = (lines[at] as string).indexOf('class names');
    expect(column).toBeGreaterThan(10);
    const next = lines[at + 1] as string;
    expect([next.slice(0, column).trim(), next[column] !== ' ']).toEqual(['', true]);
  });

  it('usage lines start with `um` and the full command; every input format is listed; examples shown', async () => {
    for (const page of PAGES) {
      const h = (await um([...page, '--help'])).stdout;
      expect(h).toMatch(new RegExp(`^USAGE um${page.map((p) => ` ${p}`).join('')} `, 'm'));
      // what readPredictions reads, by extension (a format added there must be listed here)
      for (const ext of Object.keys(FORMATS)) expect([page.join(' '), h.includes(ext)]).toEqual([page.join(' '), true]);
      for (const word of ['CSV', 'JSON', 'JSON Lines', 'Parquet', 'NumPy', 'EXAMPLES', '--quiet', 'NO_COLOR'])
        expect(h).toContain(word);
    }
    for (const [command, examples] of Object.entries(EXAMPLES)) {
      const h = (await um([...command.split(' ').slice(1), '--help'], { columns: 1000 })).stdout;
      for (const e of examples) expect(h).toContain(`um ${e.argv.join(' ')}`);
    }
  });

  it('every example runs on the bundled data (exit 0, nothing on stderr, output ending with a newline)', async () => {
    const out = (a: string) => (/^[\w-]+\.(?:json|csv|html|md)$/.test(a) ? join(dir, a) : a);
    // the intervals are not this test's subject: 2 resamples, the fewest the CLI takes (as test/docs/guides.test.ts
    // runs the guides' lines), run the same code paths — resampling, BCa's jackknife, the intervals and their rendering
    // — as the examples' 200 (or the report's default 200 + 1000, which test/browser/report.test.ts builds on the README
    // main job), though fewer intervals take the BCa branch (the rest fall back to the union interval; the intervals'
    // values are test/bootstrap's and summary.test.ts's); 20 spent ~0.35 s more here (report, compare and metrics --ci)
    const few = (argv: readonly string[]) => {
      const a = [...argv];
      const at = a.indexOf('--resamples');
      if (at >= 0) a[at + 1] = '2';
      else if (a[0] === 'report') a.push('--resamples', '2');
      return a;
    };
    const order = ['um calibrate fit', ...Object.keys(EXAMPLES).filter((k) => k !== 'um calibrate fit')];
    for (const command of order) {
      for (const e of EXAMPLES[command] ?? []) {
        const r = await um(few(e.argv).map(out));
        expect([e.argv.join(' '), r.code, r.stderr]).toEqual([e.argv.join(' '), 0, '']);
        expect(r.stdout.endsWith('\n')).toBe(true);
      }
    }
  });
});

describe('NO_COLOR and --quiet', () => {
  const tty = (columns?: number) => ({ write: () => true, isTTY: true, ...(columns === undefined ? {} : { columns }) });
  it('colour only on a terminal and without a non-empty NO_COLOR (no-color.org); the width from the terminal', () => {
    const pipe = { write: () => true };
    expect(ioFrom(tty(120), tty(), {}).color).toBe(true);
    expect(ioFrom(tty(120), tty(), {}).columns).toBe(120);
    expect(ioFrom(tty(120), tty(), { NO_COLOR: '1' }).color).toBe(false);
    expect(ioFrom(tty(120), tty(), { NO_COLOR: 'anything' }).color).toBe(false);
    expect(ioFrom(tty(120), tty(), { NO_COLOR: '' }).color).toBe(true);
    expect(ioFrom(pipe, tty(), {}).color).toBe(false);
    expect(ioFrom(pipe, tty(), {}).columns).toBeUndefined();
    expect([ioFrom(tty(), pipe, {}).progress, ioFrom(tty(), tty(), {}).progress]).toEqual([false, true]);
  });

  it('help has escapes only with colour', async () => {
    // eslint-disable-next-line no-control-regex
    const esc = /\u001b\[/;
    for (const page of PAGES) {
      expect(esc.test((await um([...page, '--help'], { color: true })).stdout)).toBe(true);
      expect(esc.test((await um([...page, '--help'], { color: false })).stdout)).toBe(false);
      expect(esc.test((await um([...page, '--help'])).stdout)).toBe(false);
    }
  });

  it('--quiet (or -q, before or after the command) drops warnings and notes, never errors nor results', async () => {
    const fit = [
      'calibrate',
      'fit',
      '--method',
      'temperature',
      `${D}/gnb_raw_val_logits.npy`,
      '--labels',
      `${D}/val_labels.npy`,
      '--input',
      'logits',
      '-o',
      join(dir, 'g.json'),
    ];
    const loud = await um(fit);
    expect([loud.code, loud.stderr]).toEqual([
      0,
      expect.stringMatching(/^um calibrate fit: warning: .*\[UM_W_BOUND\]\n$/),
    ]);
    for (const argv of [
      [...fit, '--quiet'],
      [...fit, '-q'],
      ['-q', ...fit],
      ['--quiet', ...fit],
    ]) {
      const r = await um(argv);
      expect([r.code, r.stderr, r.stdout]).toEqual([0, '', loud.stdout]);
    }
    // a note of calibrate apply (columns not copied into a new CSV)
    const json = join(dir, 'extra.json');
    writeFileSync(
      json,
      JSON.stringify({
        labels: [0, 1],
        probs: [
          [0.8, 0.2],
          [0.3, 0.7],
        ],
        id: [1, 2],
      }),
    );
    const temp = await um(['calibrate', 'fit', '--method', 'temperature', json, '-o', join(dir, 't.json'), '-q']);
    expect(temp.code).toBe(0);
    expect((await um(['calibrate', 'apply', join(dir, 't.json'), json])).stderr).toMatch(/note: .*id is not copied/);
    expect((await um(['calibrate', 'apply', join(dir, 't.json'), json, '--quiet'])).stderr).toBe('');
    // errors are still printed
    const bad = await um(['metrics', `${D}/logreg_test.csv`, '--bins', '0', '-q']);
    expect([bad.code, bad.stderr]).toEqual([2, 'um metrics: --bins must be an integer in [1, 1048576]; got 0\n']);
    // the progress bar goes through io.stderr, never the process's own stderr: drawn on a terminal, not with -q
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const args = ['report', `${D}/iris_test.csv`, '--classes', IRIS, '--md', '--resamples', '2', '-o', '-'];
      const drawn = await um(args, { progress: true });
      expect(drawn.code).toBe(0);
      expect(drawn.stderr).toMatch(/um report \[=+\] 14\/14 Metrics vs temperature/);
      const quiet = await um([...args, '-q'], { progress: true });
      expect([quiet.code, quiet.stderr]).toEqual([0, '']);
      expect(spy.mock.calls.length).toBe(0);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('errors name the flag as typed', () => {
  it('an alias in the message when the alias was typed, the long flag otherwise', async () => {
    const cases: string[][] = [
      ['calibrate', 'fit', '--method', 'platt', `${D}/logreg_test.csv`, '@', join(dir, 'missing', 'x.json')],
      ['calibrate', 'apply', join(dir, 't.json'), `${D}/logreg_test.csv`, '@', join(dir, 'missing', 'x.csv')],
      ['report', `${D}/logreg_test.csv`, '@', join(dir, 'missing', 'r.html')],
      ['report', `${D}/logreg_test.csv`, '@'],
    ];
    for (const c of cases) {
      for (const flag of ['-o', '--output']) {
        const r = await um(c.map((a) => (a === '@' ? flag : a)));
        expect([c[0], flag, r.code]).toEqual([c[0], flag, 2]);
        const named = r.stderr.match(/(?:^|\s)(-o|--output)\b/g)?.map((x) => x.trim());
        expect([r.stderr, named]).toEqual([r.stderr, [flag]]);
      }
    }
  });

  it('flag values are named by their flag, in every command', async () => {
    const cases: [string[], string][] = [
      [['metrics', `${D}/logreg_test.csv`, '--bins', 'x'], '--bins'],
      [['metrics', `${D}/iris_test.csv`, '--classes', 'setosa'], '--classes'],
      [['compare', `${D}/logreg_test.csv`, `${D}/mlp_overfit_test.csv`, '--ci', '2'], '--ci'],
      [['report', `${D}/logreg_test.csv`, '--bins', '-1', '-o', '-'], '--bins'],
      [
        ['calibrate', 'fit', '--method', 'top1', `${D}/logreg_test.csv`, '-o', join(dir, 'x.json'), '--delta', '3'],
        '--delta',
      ],
      [['metrics', `${D}/logreg_test.csv`, '--sum-tolerance', '-1'], '--sum-tolerance'],
    ];
    for (const [argv, flag] of cases) {
      const r = await um(argv);
      expect([argv.join(' '), r.code, r.stderr]).toEqual([argv.join(' '), 2, expect.stringContaining(`: ${flag}`)]);
      expect(r.stderr.split('\n').length).toBe(2);
    }
  });
});

describe('--classes', () => {
  it('string labels and class-named columns: the names in the table, the JSON config, compare and the fit summary', async () => {
    const t = await um(['metrics', `${D}/iris_test.csv`, '--classes', IRIS]);
    expect([t.code, t.stdout.split('\n')[0]]).toEqual([
      0,
      `${D}/iris_test.csv: 45 examples, 3 classes (setosa, versicolor, virginica), probs`,
    ]);
    const j = await um(['metrics', `${D}/iris_test.csv`, '--classes', ' setosa, versicolor ,virginica', '--json']);
    expect((JSON.parse(j.stdout) as { config: { classes: string[] } }).config.classes).toEqual([
      'setosa',
      'versicolor',
      'virginica',
    ]);
    const c = await um(['compare', `${D}/iris_test.csv`, `${D}/iris_val.csv`, '--classes', IRIS, '--json']);
    // different rows: compare refuses, naming the rows
    expect(c.code).toBe(2);
    const same = await um([
      'compare',
      `${D}/iris_test.csv`,
      `${D}/iris_test.csv`,
      '--classes',
      IRIS,
      '--json',
      '--resamples',
      '20',
    ]);
    expect((JSON.parse(same.stdout) as { classes: string[] }).classes).toEqual(IRIS.split(','));
    const fit = await um([
      'calibrate',
      'fit',
      '--method',
      'isotonic',
      `${D}/iris_val.csv`,
      '--classes',
      IRIS,
      '-o',
      join(dir, 'iso.json'),
    ]);
    expect(fit.stdout).toMatch(
      /^isotonic calibrator fitted on 45 examples, 3 classes \(setosa, versicolor, virginica\)/,
    );
  });

  it('an unknown label: exit 2, one line naming the line, the value and --classes', async () => {
    const r = await um(['metrics', `${D}/iris_test.csv`, '--classes', 'setosa,versicolor,virginca']);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(
      /^um metrics: examples\/data\/iris_test\.csv: line 1: has score columns named after some of --classes but not "virginca" \(class 2\)/,
    );
    const csv = join(dir, 'pets.csv');
    writeFileSync(csv, 'label,cat,dog\ncat,0.9,0.1\ndog,0.2,0.8\nbird,0.5,0.5\n');
    for (const extra of [[], ['--stream', '--threads', '1']]) {
      const u = await um(['metrics', csv, '--classes', 'cat,dog', ...extra]);
      expect([u.code, u.stdout, u.stderr]).toEqual([
        2,
        '',
        `um metrics: ${csv}: line 4, column 1 ("label"): label "bird" is not one of --classes (cat, dog)\n`,
      ]);
    }
  });

  it('um calibrate apply keeps the columns and labels as the user named them', async () => {
    await um([
      'calibrate',
      'fit',
      '--method',
      'temperature',
      `${D}/iris_val.csv`,
      '--classes',
      IRIS,
      '-o',
      join(dir, 'iris-t.json'),
    ]);
    const out = join(dir, 'iris-out.csv');
    expect(
      (await um(['calibrate', 'apply', join(dir, 'iris-t.json'), `${D}/iris_test.csv`, '--classes', IRIS, '-o', out]))
        .code,
    ).toBe(0);
    const input = readFileSync(`${D}/iris_test.csv`, 'utf8').split('\n');
    const written = readFileSync(out, 'utf8').split('\n');
    expect(written[0]).toBe(input[0]);
    expect(written.map((l) => l.split(',')[0])).toEqual(input.map((l) => l.split(',')[0]));
    // a JSON input becomes a new CSV: labels and score columns under the class names, read back with them
    const json = join(dir, 'pets.json');
    writeFileSync(
      json,
      JSON.stringify({
        labels: ['dog', 'cat'],
        probs: [
          [0.3, 0.7],
          [0.6, 0.4],
        ],
      }),
    );
    await um([
      'calibrate',
      'fit',
      '--method',
      'temperature',
      json,
      '--classes',
      'cat,dog',
      '-o',
      join(dir, 'pets-t.json'),
    ]);
    const table = await um(['calibrate', 'apply', join(dir, 'pets-t.json'), json, '--classes', 'cat,dog']);
    expect(
      table.stdout
        .split('\n')
        .slice(0, 3)
        .map((l) => l.split(',')[0]),
    ).toEqual(['label', 'dog', 'cat']);
    expect(table.stdout.split('\n')[0]).toBe('label,cat,dog');
    const back = join(dir, 'pets-back.csv');
    writeFileSync(back, table.stdout);
    expect((await um(['metrics', back, '--classes', 'cat,dog', '--json'])).code).toBe(0);
  });

  it('the wrap of help cuts a word longer than the line, so no line is wider', () => {
    for (const width of [1, 2, 5, 17]) {
      const lines = wrap(`a ${'x'.repeat(40)} b`, width);
      expect(lines.every((l) => l.length <= width)).toBe(true);
      expect(lines.join('').replace(/ /g, '')).toBe(`a${'x'.repeat(40)}b`);
    }
  });
});
