/**
 * `um metrics|report|calibrate` on LLM responses (JSON Lines of {id, gold, response}, or responses and gold joined by
 * id): the numbers of the library, refusals located by line or counted, calibrators that keep the reading, and the
 * end-to-end report of the bundled judge.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ece, evaluate } from '../../src/index.js';
import { goldLabels, labelProbabilities } from '../../src/llm/index.js';
import { repoRoot, um } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'um-llm-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const at = (f: string) => join(dir, f);
const TEST = 'examples/data/llm_judge_test.jsonl';
const VAL = 'examples/data/llm_judge_val.jsonl';
const LABELS = ['--labels', 'A,B,tie'];
const EXCLUDE = ['--on-invalid', 'exclude'];
const lines = (f: string) =>
  readFileSync(`${repoRoot}${f}`, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { id: string; gold: string; response: unknown });

describe('um metrics on LLM responses', () => {
  it('a refusal stops the run naming its line and id; --on-invalid exclude counts and lists it', async () => {
    const r = await um(['metrics', TEST, ...LABELS]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `um metrics: ${TEST}: line 42 (id "test-41"): response.choices[0].message.refusal must be an answer; got "I'm sorry, but I can't compare these responses." (refusal; --on-invalid exclude leaves such rows out and lists them)\n`,
    );
    const ok = await um(['metrics', TEST, ...LABELS, ...EXCLUDE]);
    expect([ok.code, ok.stderr]).toEqual([0, '']);
    expect(ok.stdout).toContain(`${TEST}: 296 examples, 3 classes (A, B, tie), logprobs`);
    expect(ok.stdout).toContain(
      'LLM responses: 300 read, 296 with label probabilities (296 logprob), labels A, B, tie\nexcluded (--on-invalid exclude): 3 refusal (lines 42, 139, 236); 1 error (line 151)\n',
    );
  });
  it('--json: the numbers of evaluate on labelProbabilities, with the reading summary', async () => {
    const r = await um(['metrics', TEST, ...LABELS, ...EXCLUDE, '--json']);
    const out = JSON.parse(r.stdout) as Record<string, unknown> & { llm: Record<string, unknown>; config: object };
    const rows = lines(TEST);
    const read = labelProbabilities(
      rows.map((x) => x.response),
      ['A', 'B', 'tie'],
      { onInvalid: 'exclude' },
    );
    const want = evaluate(
      goldLabels(
        read,
        rows.map((x) => x.gold),
      ),
      read.probs,
    );
    for (const k of ['accuracy', 'ece', 'nll', 'brier', 'auroc', 'aurc']) expect(out[k], k).toBe(want[k as 'ece']);
    expect(out.llm).toMatchObject({ total: 300, kept: 296, labels: ['A', 'B', 'tie'], missing: 'floor' });
    expect((out.llm.excluded as { line: number; reason: string }[]).map((e) => [e.line, e.reason])).toEqual([
      [42, 'refusal'],
      [139, 'refusal'],
      [151, 'error'],
      [236, 'refusal'],
    ]);
    expect(out.config).toMatchObject({ file: TEST, format: 'jsonl', classes: ['A', 'B', 'tie'] });
  });
  it('two files joined by id give the same numbers; an id without gold is named', async () => {
    const rows = lines(TEST);
    writeFileSync(
      at('responses.jsonl'),
      rows.map((x) => `${JSON.stringify({ id: x.id, response: x.response })}\n`).join(''),
    );
    // the gold file in another order: rows join by id, not by position
    writeFileSync(
      at('gold.jsonl'),
      [...rows]
        .reverse()
        .map((x) => `${JSON.stringify({ id: x.id, gold: x.gold })}\n`)
        .join(''),
    );
    const one = JSON.parse((await um(['metrics', TEST, ...LABELS, ...EXCLUDE, '--json'])).stdout) as { ece: number };
    const two = await um([
      'metrics',
      at('responses.jsonl'),
      '--gold',
      at('gold.jsonl'),
      ...LABELS,
      ...EXCLUDE,
      '--json',
    ]);
    expect(two.code).toBe(0);
    expect((JSON.parse(two.stdout) as { ece: number }).ece).toBe(one.ece);
    writeFileSync(
      at('gold-short.jsonl'),
      rows
        .slice(1)
        .map((x) => `${JSON.stringify({ id: x.id, gold: x.gold })}\n`)
        .join(''),
    );
    const e = await um(['metrics', at('responses.jsonl'), '--gold', at('gold-short.jsonl'), ...LABELS]);
    expect([e.code, e.stderr]).toEqual([
      2,
      `um metrics: ${at('responses.jsonl')}: line 1: id "test-0" has no line in the gold file ${at('gold-short.jsonl')}\n`,
    ]);
    // the bundled file has its own gold: --gold agreeing with it reads the same, disagreeing is refused (never ignored)
    const same = await um(['metrics', TEST, '--gold', at('gold.jsonl'), ...LABELS, ...EXCLUDE, '--json']);
    expect((JSON.parse(same.stdout) as { ece: number }).ece).toBe(one.ece);
    writeFileSync(
      at('gold-other.jsonl'),
      rows
        .map((x, i) => `${JSON.stringify({ id: x.id, gold: i === 3 ? (x.gold === 'A' ? 'B' : 'A') : x.gold })}\n`)
        .join(''),
    );
    const clash = await um(['metrics', TEST, '--gold', at('gold-other.jsonl'), ...LABELS]);
    expect([clash.code, clash.stderr]).toEqual([
      2,
      `um metrics: ${TEST}: line 4: "gold" ${JSON.stringify(rows[3]?.gold)} disagrees with line 4 of the gold file ${at('gold-other.jsonl')} (${JSON.stringify(rows[3]?.gold === 'A' ? 'B' : 'A')}): give each gold label once\n`,
    ]);
  });
  it('labels from --verbalizer FILE; both, neither or a bad one are usage errors; file flags are refused', async () => {
    writeFileSync(at('judge.json'), JSON.stringify({ labels: ['A', 'B', 'tie'], variants: { tie: ['Tie'] } }));
    const a = JSON.parse(
      (await um(['metrics', TEST, '--verbalizer', at('judge.json'), ...EXCLUDE, '--json'])).stdout,
    ) as { ece: number };
    const b = JSON.parse((await um(['metrics', TEST, ...LABELS, ...EXCLUDE, '--json'])).stdout) as { ece: number };
    expect(a.ece).toBe(b.ece);
    expect((await um(['metrics', TEST, ...LABELS, '--verbalizer', at('judge.json')])).stderr).toBe(
      'um metrics: give --labels or --verbalizer, not both\n',
    );
    expect((await um(['metrics', TEST])).stderr).toBe(
      'um metrics: LLM responses need their label set: give --labels yes,no or --verbalizer FILE\n',
    );
    expect((await um(['metrics', TEST, '--labels', 'A,A'])).stderr).toBe(
      'um metrics: --labels: labels[1] must be distinct labels; got "A"\n',
    );
    expect((await um(['metrics', TEST, ...LABELS, '--input', 'logits'])).stderr).toBe(
      `um metrics: --input is an option of prediction files; ${TEST} holds LLM responses\n`,
    );
    const gold = lines(TEST).slice(0, 3);
    gold[2] = { ...gold[2], gold: 'C' } as (typeof gold)[number];
    writeFileSync(at('bad-gold.jsonl'), gold.map((x) => `${JSON.stringify(x)}\n`).join(''));
    expect((await um(['metrics', at('bad-gold.jsonl'), ...LABELS])).stderr).toBe(
      `um metrics: ${at('bad-gold.jsonl')}: line 3 (id "test-2"): "gold" must be a label (A, B, tie) or a class index in [0, 3); got "C"\n`,
    );
  });
  it('a numeric gold that is both a class index and another label is refused with its line', async () => {
    const graded = (t: string) => ({ choices: [{ message: { content: `${t} (70%)` } }] });
    const rows = [
      { id: 'a', gold: '4', response: graded('4') },
      { id: 'b', gold: 5, response: graded('5') },
      { id: 'c', gold: 4, response: graded('4') },
    ];
    writeFileSync(at('graded.jsonl'), rows.map((x) => `${JSON.stringify(x)}\n`).join(''));
    const r = await um(['metrics', at('graded.jsonl'), '--labels', '1,2,3,4,5']);
    expect([r.code, r.stderr]).toEqual([
      2,
      `um metrics: ${at('graded.jsonl')}: line 3 (id "c"): "gold" must be unambiguous: the number 4 is the class index of label "5" and the name of label "4" (class 3); write the label name as a string ("4" or "5"); got 4\n`,
    ]);
  });
  it('sampled answers: a label never sampled is reported, and --pseudocount smooths it as the library does', async () => {
    let seed = 3;
    const next = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    const say = (t: string) => ({ choices: [{ message: { content: t } }] });
    const rows = Array.from({ length: 60 }, (_x, i) => {
      const p = next();
      const k = 2 + Math.floor(next() * 6);
      return {
        id: `s${i}`,
        gold: next() < p ? 'yes' : 'no',
        response: Array.from({ length: k }, () => say(next() < p ? 'yes' : 'no')),
      };
    });
    writeFileSync(at('sampled.jsonl'), rows.map((x) => `${JSON.stringify(x)}\n`).join(''));
    const never = rows.filter((r) => new Set(r.response.map((a) => a.choices[0]?.message.content)).size === 1).length;
    expect(never).toBeGreaterThan(5);
    const plain = await um(['metrics', at('sampled.jsonl'), '--labels', 'yes,no']);
    expect(plain.stdout).toContain(
      `${never} sampled rows never sampled a label (its probability is 0: --pseudocount A smooths it)`,
    );
    const smooth = await um(['metrics', at('sampled.jsonl'), '--labels', 'yes,no', '--pseudocount', '0.5', '--json']);
    const read = labelProbabilities(
      rows.map((r) => r.response),
      ['yes', 'no'],
      { pseudocount: 0.5 },
    );
    const out = JSON.parse(smooth.stdout) as {
      nll: number;
      llm: { sampledRowsMissingLabels: number; pseudocount: number };
    };
    const y = goldLabels(
      read,
      rows.map((r) => r.gold),
    );
    expect(out.nll).toBe(evaluate(y, read.probs).nll);
    expect([out.llm.sampledRowsMissingLabels, out.llm.pseudocount]).toEqual([never, 0.5]);
    for (const bad of ['-1', 'x', 'Infinity', '1e999'])
      expect((await um(['metrics', at('sampled.jsonl'), '--labels', 'yes,no', '--pseudocount', bad])).stderr).toBe(
        `um metrics: --pseudocount must be a finite number ≥ 0; got ${JSON.stringify(bad)}\n`,
      );
  });
  it('--ci adds bootstrap intervals', async () => {
    const r = await um(['metrics', TEST, ...LABELS, ...EXCLUDE, '--ci', '0.9', '--resamples', '50', '--json']);
    const out = JSON.parse(r.stdout) as { ece: number; intervals: { ece: { lower: number; upper: number } } };
    expect(out.intervals.ece.lower).toBeLessThan(out.ece);
    expect(out.intervals.ece.upper).toBeGreaterThan(out.ece);
  });
});

describe('um calibrate on LLM responses', () => {
  it('fit stores the reading; metrics --calibration and apply read new responses the same way', async () => {
    const fit = await um([
      'calibrate',
      'fit',
      '--method',
      'temperature',
      VAL,
      ...LABELS,
      ...EXCLUDE,
      '-o',
      at('t.json'),
    ]);
    expect([fit.code, fit.stderr]).toEqual([0, '']);
    expect(fit.stdout).toMatch(
      /^LLM calibrator: labels A, B, tie; logprob rows; missing labels: floor; format auto; answer position label\ntemperature calibrator fitted on 297 examples/,
    );
    const params = JSON.parse(readFileSync(at('t.json'), 'utf8')) as {
      format: string;
      calibrator: { temperature: number };
    };
    expect(params.format).toBe('uncertainty-metrics/llm-calibrator');
    expect(params.calibrator.temperature).toBeGreaterThan(1);
    const before = JSON.parse((await um(['metrics', TEST, ...LABELS, ...EXCLUDE, '--json'])).stdout) as {
      ece: number;
      nll: number;
    };
    const after = await um(['metrics', TEST, '--calibration', at('t.json'), ...EXCLUDE, '--json']);
    const a = JSON.parse(after.stdout) as { ece: number; nll: number; llm: { calibrated: string } };
    expect(a.llm.calibrated).toBe('temperature');
    expect(a.ece).toBeLessThan(before.ece);
    expect(a.nll).toBeLessThan(before.nll);
    expect((await um(['metrics', TEST, '--calibration', at('t.json'), ...LABELS])).stderr).toBe(
      'um metrics: --labels: the LLM calibrator reads responses as at fitting; leave the flag out\n',
    );
    const applied = await um(['calibrate', 'apply', at('t.json'), TEST, ...EXCLUDE, '-o', at('out.jsonl')]);
    expect(applied.stdout).toBe(`296 calibrated predictions and 4 excluded rows written to ${at('out.jsonl')}\n`);
    const out = readFileSync(at('out.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(out.length).toBe(300);
    expect(out[41]).toEqual({ id: 'test-41', excluded: 'refusal', field: 'choices[0].message.refusal' });
    expect(Object.keys(out[0]?.probs as object)).toEqual(['A', 'B', 'tie']);
  });
  it('refuses mixed provenance unless --allow-mixed, and methods other than temperature, histogram, isotonic', async () => {
    const rows = lines(VAL).slice(0, 40);
    rows[3] = {
      ...rows[3],
      response: { choices: [{ message: { content: 'A. Confidence: 80%' } }] },
    } as (typeof rows)[number];
    writeFileSync(at('mixed.jsonl'), rows.map((x) => `${JSON.stringify(x)}\n`).join(''));
    const args = ['calibrate', 'fit', '--method', 'temperature', at('mixed.jsonl'), ...LABELS, '-o', at('m.json')];
    const e = await um(args);
    expect([e.code, e.stderr]).toEqual([
      2,
      'um calibrate fit: read must hold rows of one provenance: their confidences mean different things; got "39 logprob, 1 verbal" (fit one calibrator per provenance, or pass --allow-mixed)\n',
    ]);
    expect((await um([...args, '--allow-mixed'])).code).toBe(0);
    expect((await um(['calibrate', 'fit', '--method', 'platt', VAL, ...LABELS, '-o', at('p.json')])).stderr).toBe(
      'um calibrate fit: --method platt: LLM responses take temperature, histogram or isotonic\n',
    );
  });
});

describe('um report on LLM responses (end to end, bundled judge)', () => {
  it('writes a report whose notes say what the reading left out', async () => {
    // 20 resamples (the default's 200 run the same code): the reading, its notes and the evaluation are read here,
    // not the intervals
    const FEW = ['--resamples', '20'];
    const r = await um(['report', TEST, ...LABELS, ...EXCLUDE, ...FEW, '-o', at('judge.html')]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toMatch(/^.*judge\.html: 1 model, \d+ charts, 1 notes\n$/);
    const html = readFileSync(at('judge.html'), 'utf8');
    expect(html).toContain('llm_judge_test: LLM responses: 300 read, 296 with label probabilities');
    const json = await um(['report', TEST, ...LABELS, ...EXCLUDE, ...FEW, '--json', '-o', '-']);
    const report = JSON.parse(json.stdout) as {
      models: { classes: string[]; n: number; evaluation: { ece: number } }[];
    };
    expect([report.models[0]?.classes, report.models[0]?.n]).toEqual([['A', 'B', 'tie'], 296]);
    const rows = lines(TEST);
    const read = labelProbabilities(
      rows.map((x) => x.response),
      ['A', 'B', 'tie'],
      { onInvalid: 'exclude' },
    );
    expect(report.models[0]?.evaluation.ece).toBe(
      ece(
        goldLabels(
          read,
          rows.map((x) => x.gold),
        ),
        read.probs,
      ),
    );
  });
});

describe('LLM flags without LLM responses', () => {
  it('are refused, never ignored', async () => {
    for (const args of [
      ['metrics', 'examples/data/logreg_test.csv', '--missing', 'reject'],
      ['report', 'examples/data/logreg_test.csv', '--on-invalid', 'exclude', '-o', at('r.html')],
      [
        'calibrate',
        'fit',
        '--method',
        'isotonic',
        'examples/data/iris_val.csv',
        '--classes',
        'setosa,versicolor,virginica',
        '--provenance',
        'verbal',
        '-o',
        at('i.json'),
      ],
    ]) {
      const r = await um(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(
        /^um [a-z ]+: --(missing|on-invalid|provenance) is an option of LLM responses \(\{id, gold, response\} JSON Lines\)\n$/,
      );
    }
  });
});
