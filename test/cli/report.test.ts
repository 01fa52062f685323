/**
 * `um report` through `main` in this process: formats, inputs (CSV, JSON Lines, Parquet, ensembles), bad input. The
 * README main job runs as a real process (the bin link, a progress bar on a terminal) in test/browser/report.test.ts,
 * whose browser opens the report it writes.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, describe, expect, it } from 'vitest';
import { exampleCsv } from '../helpers/data.js';
import { um } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'um-report-'));
afterAll(() => rmSync(dir, { recursive: true }));
const D = 'examples/data/';
// these tests read no interval or verdict (test/report/ does): few resamples still run that code, at a tenth of the cost
const FEW = ['--resamples', '20'];
const F = (name: string) => `test/fixtures/files/${name}`;
/**
 * The first 400 rows of logreg_test (all ten classes) as a CSV, written once: what the tests below compare (the
 * output formats, the input formats, the OoD chart's presence) does not depend on the number of rows; a report's cost
 * grows with them. The first 400 of mlp_overfit_test are the OoD predictions.
 */
const all = exampleCsv('logreg_test');
const [labels, probs] = [all.labels.slice(0, 400), all.probs.slice(0, 400)];
const csv = (file: string, ys: readonly number[], ps: readonly (readonly number[])[]) =>
  writeFileSync(
    file,
    `label,${ps[0]?.map((_, k) => `p_${k}`).join(',')}\n${ys.map((y, i) => `${y},${ps[i]?.join(',')}`).join('\n')}\n`,
  );
const csvFile = join(dir, 'logreg.csv');
csv(csvFile, labels, probs);
const oodFile = join(dir, 'mlp.csv');
const mlp = exampleCsv('mlp_overfit_test');
csv(oodFile, mlp.labels.slice(0, 400), mlp.probs.slice(0, 400));
/**
 * The first `rows` rows of a bundled .npy file (labels [N] or members [S, N, C], C order) as a new .npy file: the same
 * header with its shape changed (padded to the same length), then each member's first rows.
 */
function firstRows(name: string, rows: number): string {
  const b = readFileSync(`${D}${name}.npy`);
  const start = 10 + b.readUInt16LE(8);
  const header = b.subarray(10, start).toString('latin1');
  const shape = (/'shape': \(([^)]*)\)/.exec(header)?.[1] ?? '').split(',').filter((x) => x.trim() !== '');
  const [members, n, c] = shape.length === 1 ? [1, Number(shape[0]), 1] : shape.map(Number);
  const item = Number(/'descr': '<[fi](\d)'/.exec(header)?.[1]);
  const cut = shape.length === 1 ? `(${rows},)` : `(${members}, ${rows}, ${c})`;
  const head = header.replace(/'shape': \([^)]*\)/, `'shape': ${cut}`).trimEnd();
  const row = (c as number) * item;
  const data = Array.from({ length: members as number }, (_, s) => {
    const from = start + s * (n as number) * row;
    return b.subarray(from, from + rows * row);
  });
  const file = join(dir, `${name}.npy`);
  writeFileSync(
    file,
    Buffer.concat([b.subarray(0, 10), Buffer.from(`${head.padEnd(header.length - 1)}\n`, 'latin1'), ...data]),
  );
  return file;
}
/** An HTML report with --ood, made once for the two tests that read it. */
const oodHtml = join(dir, 'ood.html');
let ood: ReturnType<typeof um> | undefined;
const oodReport = () => (ood ??= um(['report', csvFile, '--ood', oodFile, ...FEW, '-o', oodHtml]));
type ReportJson = { models: { evaluation: Record<string, unknown> }[]; charts: unknown[] };
/** `um report csvFile --json -o <file>`, run once for the two tests that read it. */
const csvJsonFile = join(dir, 'r.json');
let csvRun: ReturnType<typeof um> | undefined;
const csvReport = async (): Promise<ReportJson> => {
  const r = await (csvRun ??= um(['report', csvFile, '--json', ...FEW, '-o', csvJsonFile]));
  expect([r.code, r.stderr]).toEqual([0, '']);
  return JSON.parse(readFileSync(csvJsonFile, 'utf8')) as ReportJson;
};

describe('um report', () => {
  it('--json holds the numbers of um metrics --json; --md the table; - writes to stdout', async () => {
    const report = await csvReport();
    const metrics = JSON.parse((await um(['metrics', csvFile, '--json'])).stdout) as Record<string, number>;
    for (const k of ['accuracy', 'ece', 'uce', 'aurc', 'auroc', 'nll'])
      expect(report.models[0]?.evaluation[k]).toBe(metrics[k]);
    expect(report.charts).toHaveLength(12);
    const md = await um(['report', csvFile, '--md', ...FEW, '-o', '-']);
    expect(md.stdout).toMatch(/^# Uncertainty report\n/);
    expect(md.stdout).toContain(`\n| accuracy | ${(metrics.accuracy as number).toFixed(6)} |\n`);
  });
  it('an ensemble of members, with --title', async () => {
    const out = join(dir, 'e.html');
    // the first 400 rows of the bundled ensemble (all ten classes): the command's handling of members is the subject
    const r = await um([
      'report',
      firstRows('deep_ensemble_test_member_logits', 400),
      '--labels',
      firstRows('test_labels', 400),
      '--input',
      'logits',
      '--title',
      'Deep ensemble',
      ...FEW,
      '-o',
      out,
    ]);
    expect(r.code).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('<title>Deep ensemble</title>');
    expect(html).toContain('5 members (charts show their mean prediction)');
    expect(html).toContain('data-metric="mutualInformation"');
    expect(html).toMatch(
      /<strong>deep_ensemble_test_member_logits<\/strong>[^:]*: 400 examples, 10 classes, 5 members/,
    );
  });
  it('JSON Lines and Parquet give the same report numbers as the CSV', async () => {
    // the rows of csvFile: what is compared is how each format is read
    const jsonl = join(dir, 'logreg.jsonl');
    writeFileSync(jsonl, labels.map((y, i) => JSON.stringify({ label: y, probs: probs[i] })).join('\n'));
    const parquet = join(dir, 'logreg.parquet');
    writeFileSync(
      parquet,
      Buffer.from(
        parquetWriteBuffer({
          columnData: [
            { name: 'label', data: labels, type: 'INT32' },
            { name: 'probs', data: probs },
          ],
        }),
      ),
    );
    const parquetCols = join(dir, 'cols.parquet');
    writeFileSync(
      parquetCols,
      Buffer.from(
        parquetWriteBuffer({
          columnData: [
            { name: 'label', data: labels.map(BigInt), type: 'INT64' },
            ...Array.from({ length: 10 }, (_, k) => ({
              name: `p_${k}`,
              data: probs.map((r) => r[k] as number),
              type: 'DOUBLE' as const,
            })),
          ],
        }),
      ),
    );
    // every metric of the evaluation, not only one
    const evaluation = async (file: string) =>
      (JSON.parse((await um(['report', file, '--json', ...FEW, '-o', '-'])).stdout) as ReportJson).models[0]
        ?.evaluation;
    const csv = (await csvReport()).models[0]?.evaluation;
    expect(csv?.n).toBe(400);
    expect(csv?.numClasses).toBe(10);
    expect(await evaluation(jsonl)).toEqual(csv);
    expect(await evaluation(parquet)).toEqual(csv);
    expect(await evaluation(parquetCols)).toEqual(csv);
  });
  it('--ood adds the out-of-distribution chart', async () => {
    const r = await oodReport();
    expect(r.stdout).toBe(`${oodHtml}: 1 model, 13 charts\n`);
    expect(readFileSync(oodHtml, 'utf8')).toContain('id="chart-ood"');
  });
});

describe('progress', () => {
  // the bar on a terminal is drawn by the real process of the README main job (test/browser/report.test.ts); here an
  // HTML report (the one with --ood above: every step of the bar, and one more) with stderr not a terminal
  it('draws nothing when stderr is not a terminal', async () => {
    const r = await oodReport();
    expect([r.code, r.stderr]).toEqual([0, '']);
  });
});

describe('bad input: exit code 2, a message, and no report written', () => {
  const CASES: [string, string[], RegExp][] = [
    ['an unreadable file', [F('missing.csv')], /^um report: test\/fixtures\/files\/missing.csv: no such file\n$/],
    [
      'models with different numbers of classes',
      [`${D}logreg_test.csv`, F('good.csv')],
      /^um report: models\[1\] must predict the same classes: logreg_test has 10, good has 3; got 3\n$/,
    ],
    [
      'a label out of range',
      [F('badlabel.csv')],
      /^um report: test\/fixtures\/files\/badlabel.csv: line 3, column 1 \("label"\): labels\[1\] must be an integer in \[0, 2\); got 2\n$/,
    ],
    [
      'a broken JSON Lines file',
      [F('broken.jsonl')],
      /^um report: test\/fixtures\/files\/broken.jsonl: line 2: is not valid JSON/,
    ],
    [
      'a file that is not Parquet',
      [F('notparquet.parquet')],
      /^um report: test\/fixtures\/files\/notparquet.parquet: is not a readable Parquet file/,
    ],
    ['both --json and --md', [`${D}logreg_test.csv`, '--json', '--md'], /^um report: give --json or --md, not both\n$/],
  ];
  for (const [what, args, message] of CASES) {
    it(what, async () => {
      const out = join(dir, `bad-${what.replace(/\W+/g, '-')}.html`);
      const r = await um(['report', ...args, '-o', out]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
      expect(existsSync(out)).toBe(false);
    });
  }
});
