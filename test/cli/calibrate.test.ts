/** `um calibrate fit|apply` and `um metrics --calibration`, run as real processes. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyTemperature, ece, fitTemperature, parseCalibrator } from '../../src/index.js';
import { bundled } from '../helpers/npy.js';
import { um } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'um-calibrate-'));
afterAll(() => rmSync(dir, { recursive: true }));
const D = 'examples/data/';
const VAL = [`${D}mlp_overfit_val_logits.npy`, '--labels', `${D}val_labels.npy`, '--input', 'logits'];
const TEST = [`${D}mlp_overfit_test_logits.npy`, '--labels', `${D}test_labels.npy`, '--input', 'logits'];
const F = (name: string) => `test/fixtures/files/${name}`;

describe('um calibrate fit', () => {
  it('temperature: writes the calibrator the library fits and prints the diagnostics', async () => {
    const out = join(dir, 't.json');
    const r = await um(['calibrate', 'fit', '--method', 'temperature', ...VAL, '-o', out]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toMatch(
      /^temperature calibrator fitted on 2000 examples, 10 classes \(logits\)\nT = 3\.654\d+\nNLL 0\.379575 at T = 1 → 0\.158509; \d+ evaluations, converged\nwritten to /,
    );
    const val = await bundled('mlp_overfit_val_logits', 'val');
    const lib = fitTemperature(val.labels, val.scores as Float32Array, { input: 'logits', numClasses: 10 });
    expect(parseCalibrator(readFileSync(out, 'utf8'))).toEqual(lib);
  });
  it('gnb_raw: a bound warning on stderr, exit 0, finite T', async () => {
    const out = join(dir, 'g.json');
    const r = await um([
      'calibrate',
      'fit',
      '--method',
      'temperature',
      `${D}gnb_raw_val_logits.npy`,
      '--labels',
      `${D}val_labels.npy`,
      '--input',
      'logits',
      '-o',
      out,
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^um calibrate fit: warning: the fitted temperature 1000 is at the upper bound of \[0\.001, 1000\].*\[UM_W_BOUND\]\n$/,
    );
    expect((JSON.parse(readFileSync(out, 'utf8')) as { temperature: number }).temperature).toBe(1000);
  });
  it('mc-temperature on member logits, with its objective', async () => {
    const out = join(dir, 'mc.json');
    const r = await um([
      'calibrate',
      'fit',
      '--method',
      'mc-temperature',
      '--objective',
      'mean-nll',
      `${D}deep_ensemble_val_member_logits.npy`,
      '--labels',
      `${D}val_labels.npy`,
      '--input',
      'logits',
      '-o',
      out,
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/T = 2\.142\d+, objective mean-nll/);
  });
  it('top1: prints the bin table', async () => {
    const out = join(dir, 'top.json');
    const r = await um([
      'calibrate',
      'fit',
      '--method',
      'top1',
      '--bins',
      '5',
      '--score',
      'entropy',
      ...VAL,
      '-o',
      out,
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Top-1 event, score entropy \(uncertainty\), accuracy 0\.954000, EOR \d/);
    expect(r.stdout.match(/^\d +\S+ … \S+ +\d+ /gm)).toHaveLength(5);
  });
  it('histogram, isotonic and platt fit too', async () => {
    for (const method of ['histogram', 'isotonic'])
      expect((await um(['calibrate', 'fit', '--method', method, ...VAL, '-o', join(dir, `${method}.json`)])).code).toBe(
        0,
      );
    const r = await um([
      'calibrate',
      'fit',
      '--method',
      'platt',
      F('members_f64.npy'),
      '--labels',
      F('members_labels.npy'),
      '-o',
      join(dir, 'p.json'),
    ]);
    expect(r.stderr).toMatch(
      /^um calibrate fit: test\/fixtures\/files\/members_f64.npy holds ensemble members; use --method mc-temperature/,
    );
  });
});

describe('um calibrate apply and um metrics --calibration', () => {
  it('apply writes the calibrated probabilities, equal to the library, with the labels', async () => {
    const cal = join(dir, 'apply.json');
    await um(['calibrate', 'fit', '--method', 'temperature', ...VAL, '-o', cal]);
    const csv = join(dir, 'out.csv');
    const r = await um(['calibrate', 'apply', cal, ...TEST, '-o', csv]);
    expect([r.code, r.stdout]).toEqual([0, `2000 calibrated predictions written to ${csv}\n`]);
    const lines = readFileSync(csv, 'utf8').trimEnd().split('\n');
    expect(lines[0]).toBe('label,p_0,p_1,p_2,p_3,p_4,p_5,p_6,p_7,p_8,p_9');
    const test = await bundled('mlp_overfit_test_logits', 'test');
    const lib = applyTemperature(parseCalibrator(readFileSync(cal, 'utf8')) as never, test.scores as Float32Array, {
      input: 'logits',
      numClasses: 10,
    });
    expect(lines[1]?.split(',').map(Number)).toEqual([test.labels[0], ...Array.from(lib.data.subarray(0, 10))]);
    const m = JSON.parse((await um(['metrics', ...TEST, '--calibration', cal, '--json'])).stdout) as {
      ece: number;
      config: { calibration: unknown };
    };
    expect(m.ece).toBe(ece(test.labels, lib));
    expect(m.config.calibration).toEqual({ file: cal, kind: 'temperature' });
  });
  it('apply works on unlabeled predictions (no --labels): no label column', async () => {
    const r = await um([
      'calibrate',
      'apply',
      F('temperature.json'),
      `${D}mlp_overfit_test_logits.npy`,
      '--input',
      'logits',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('p_0,p_1,p_2,p_3,p_4,p_5,p_6,p_7,p_8,p_9');
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(2001);
  });
  it('metrics with a top1 calibrator prints the Top-1 report', async () => {
    const cal = join(dir, 'top-report.json');
    await um(['calibrate', 'fit', '--method', 'top1', '--bins', '10', ...VAL, '-o', cal]);
    const r = await um(['metrics', ...TEST, '--calibration', cal]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/ECE \(test vs calibration, eq\. 5\) +0\.00\d+/);
    expect(r.stdout).toMatch(/^Brier = uncertainty − resolution \+ calibration +\S+ = \S+ − \S+ \+ \S+$/m);
    const j = JSON.parse((await um(['metrics', ...TEST, '--calibration', cal, '--json'])).stdout) as {
      ece: number;
      eor: number;
      bins: unknown[];
    };
    expect(j.bins).toHaveLength(10);
    expect(j.ece).toBeLessThan(0.01);
  });
});

describe('bad calibrator files and flags: exit code 2 and one message', () => {
  const CASES: [string[], RegExp][] = [
    [
      ['calibrate', 'apply', F('calibrator_bad_kind.json'), ...TEST],
      /^um calibrate apply: test\/fixtures\/files\/calibrator_bad_kind.json: params.kind must be one of "temperature", .*; got "temperature-scaling"\n$/,
    ],
    [
      ['calibrate', 'apply', F('calibrator_bad_temperature.json'), ...TEST],
      /^um calibrate apply: test\/fixtures\/files\/calibrator_bad_temperature.json: params.temperature must be a finite number > 0; got -1\n$/,
    ],
    [
      ['calibrate', 'apply', F('calibrator_version2.json'), ...TEST],
      /params.version must be 1 \(the calibrator layout this library reads\); got 2\n$/,
    ],
    [
      ['calibrate', 'apply', F('calibrator_truncated.json'), ...TEST],
      /^um calibrate apply: test\/fixtures\/files\/calibrator_truncated.json: is not valid JSON/,
    ],
    [
      ['calibrate', 'apply', F('missing.json'), ...TEST],
      /^um calibrate apply: test\/fixtures\/files\/missing.json: no such file\n$/,
    ],
    [
      ['calibrate', 'apply', F('temperature.json'), F('good.csv')],
      /^um calibrate apply: scores must have the 10 classes the temperature calibrator was fitted on; got "3 classes"\n$/,
    ],
    [
      ['metrics', F('good.csv'), '--calibration', F('calibrator_bad_kind.json')],
      /^um metrics: test\/fixtures\/files\/calibrator_bad_kind.json: params.kind must be one of/,
    ],
    [
      ['calibrate', 'fit', '--method', 'temperature', '--bins', '10', ...VAL, '-o', join(dir, 'x.json')],
      /^um calibrate fit: --bins does not apply to --method temperature\n$/,
    ],
    [
      ['calibrate', 'fit', '--method', 'mc-temperature', ...VAL, '-o', join(dir, 'x.json')],
      /^um calibrate fit: --method mc-temperature needs stacked members \[S, N, C\]/,
    ],
    [
      ['calibrate', 'fit', '--method', 'beta', ...VAL, '-o', join(dir, 'x.json')],
      /^um calibrate fit: --method must be one of temperature, mc-temperature, platt, histogram, isotonic, top1; got "beta"\n$/,
    ],
    [['calibrate', 'fit', '--method', 'temperature', ...VAL], /^um calibrate fit: --output is required\n$/],
    [
      ['calibrate', 'fit', '--method', 'temperature', '--bounds', '2', ...VAL, '-o', join(dir, 'x.json')],
      /^um calibrate fit: --bounds must be MIN,MAX; got "2"\n$/,
    ],
    [['calibrate', 'refit'], /^um calibrate: unknown command "refit"; commands: fit, apply\n$/],
  ];
  for (const [args, message] of CASES) {
    it(args.slice(0, 4).join(' '), async () => {
      const r = await um(args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
    });
  }
  it('um calibrate alone prints its usage and exits 2; --help exits 0', async () => {
    expect((await um(['calibrate'])).code).toBe(2);
    const h = await um(['calibrate', 'fit', '--help']);
    expect(h.code).toBe(0);
    expect(h.stdout).toMatch(/--method/);
  });
});
