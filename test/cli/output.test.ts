/**
 * Every command that writes a file: it never writes over one of its inputs (any spelling of the path), checks the
 * output before any work, and writes atomically (a temporary file renamed over the target) — a failed or killed
 * write leaves the previous file as it was and no temporary file behind.
 */
import { spawn } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import type { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UMError } from '../../src/index.js';
import { main } from '../../src/cli/main.js';
import { prepareOutput, writeOutput } from '../../src/cli/output.js';
import { repoRoot } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'um-output-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  return { code, stdout, stderr };
}

const F = (name: string) => `test/fixtures/files/${name}`;
/** Inputs of every writing command, copied so that a failure to refuse would be seen (and harmless). */
const csv = join(dir, 'preds.csv');
copyFileSync(F('good.csv'), csv);
const scores = join(dir, 'scores.npy');
copyFileSync(F('scores_f64.npy'), scores);
const labels = join(dir, 'labels.npy');
copyFileSync(F('labels_i32.npy'), labels);
const calibrator = join(dir, 'cal.json');
const sym = join(dir, 'sym.csv');
symlinkSync(csv, sym);
const hard = join(dir, 'hard.csv');
linkSync(csv, hard);

/** Every writing command with `-o`, and the inputs it reads (each is tried as the output). */
function writers(out: string): { name: string; argv: string[]; inputs: string[] }[] {
  return [
    { name: 'calibrate fit', argv: ['calibrate', 'fit', '--method', 'temperature', csv, '-o', out], inputs: [csv] },
    {
      name: 'calibrate fit (npy + labels)',
      argv: ['calibrate', 'fit', '--method', 'platt', scores, '--labels', labels, '-o', out],
      inputs: [scores, labels],
    },
    { name: 'calibrate apply', argv: ['calibrate', 'apply', calibrator, csv, '-o', out], inputs: [calibrator, csv] },
    {
      name: 'calibrate apply (npy + labels)',
      argv: ['calibrate', 'apply', calibrator, scores, '--labels', labels, '-o', out],
      inputs: [calibrator, scores, labels],
    },
    { name: 'report', argv: ['report', csv, '-o', out], inputs: [csv] },
    { name: 'report --ood', argv: ['report', csv, '--ood', hard, '-o', out], inputs: [csv, hard] },
    {
      name: 'report --json',
      argv: ['report', scores, '--labels', labels, '--json', '-o', out],
      inputs: [scores, labels],
    },
  ];
}

describe('-o naming an input is refused with exit 2, for every writing command and every spelling', () => {
  it('the calibrator used by apply is fitted first', async () => {
    expect((await run(['calibrate', 'fit', '--method', 'temperature', csv, '-o', calibrator])).code).toBe(0);
  });
  for (const w of writers('PLACEHOLDER')) {
    it(w.name, async () => {
      const before = new Map([csv, scores, labels, calibrator].map((f) => [f, readFileSync(f)]));
      for (const input of w.inputs) {
        // the path itself, relative, with ./ and .., a symbolic link, a hard link
        const spellings = [input, relative(process.cwd(), input), `${dir}/./../${basename(dir)}//${basename(input)}`];
        if (input === csv) spellings.push(sym, hard);
        for (const spelling of spellings) {
          const r = await run(w.argv.map((a) => (a === 'PLACEHOLDER' ? spelling : a)));
          expect([r.code, r.stdout], `${w.name} -o ${spelling}`).toEqual([2, '']);
          expect(r.stderr).toMatch(
            /^um [a-z ]+: -o [^\n]+: is the input [^\n]+; writing it would destroy the input — choose another output file\n$/,
          );
        }
      }
      for (const [f, bytes] of before) expect(readFileSync(f).equals(bytes), f).toBe(true);
      expect(lstatSync(sym).isSymbolicLink()).toBe(true);
    });
  }
});

/** A directory where even root cannot create a file (sysfs), or one made read-only when not root. */
function unwritableDir(): string | undefined {
  const ro = join(dir, 'readonly');
  mkdirSync(ro, { recursive: true });
  chmodSync(ro, 0o555);
  for (const d of [ro, '/sys', '/proc']) {
    try {
      writeFileSync(join(d, 'um-probe'), '');
      rmSync(join(d, 'um-probe'));
    } catch {
      return d;
    }
  }
  return undefined;
}

describe('an output that cannot be written is exit 2 before any work', () => {
  const bad = unwritableDir();
  const cases: [string, string, RegExp][] = [
    ['a missing directory', join(dir, 'no', 'such', 'out.json'), /: the directory \S+no\/such does not exist\n$/],
    ['a directory', dir, /: is a directory; give a file name\n$/],
    [
      'a path through a file',
      join(csv, 'out.json'),
      /: cannot be written \(a part of the path is not a directory\)\n$|: the directory \S+ does not exist\n$/,
    ],
    ...(bad === undefined
      ? []
      : [
          [
            'a directory without permission',
            join(bad, 'out.json'),
            /: cannot create a file in \S+ \((permission denied|read-only file system|no such file or directory)\)\n$/,
          ] as [string, string, RegExp],
        ]),
  ];
  for (const [what, out, message] of cases) {
    it(what, async () => {
      for (const w of writers(out)) {
        // the input is missing too: the output is checked first, so its message comes first (no work was done)
        const r = await run(w.argv.map((a) => (a === out ? out : a === csv ? join(dir, 'missing.csv') : a)));
        expect([r.code, r.stdout], w.name).toEqual([2, '']);
        expect(r.stderr, w.name).toMatch(
          new RegExp(`^um [a-z ]+: -o ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}${message.source}`),
        );
      }
    });
  }
  it('a read-only file is refused (when permissions apply), a FIFO or device is written in place: /dev/full is ENOSPC', async () => {
    const r = await run(['calibrate', 'fit', '--method', 'temperature', csv, '-o', '/dev/full']);
    expect([r.code, r.stderr]).toEqual([
      2,
      'um calibrate fit: cannot write /dev/full (no space left on the device); the fitted calibrator was not saved\n',
    ]);
    expect(existsSync('/dev/full') && statSync('/dev/full').isCharacterDevice()).toBe(true);
    if (process.getuid?.() !== 0) {
      const ro = join(dir, 'ro.json');
      writeFileSync(ro, 'old');
      chmodSync(ro, 0o444);
      expect((await run(['calibrate', 'fit', '--method', 'temperature', csv, '-o', ro])).stderr).toMatch(
        /: is read-only\n$/,
      );
    }
  });
});

describe('writes are atomic', () => {
  it('a symbolic link keeps pointing at the new content; the file keeps its permissions', async () => {
    const target = join(dir, 'target.json');
    writeFileSync(target, 'old');
    chmodSync(target, 0o640);
    const link = join(dir, 'link.json');
    symlinkSync(target, link);
    expect((await run(['calibrate', 'fit', '--method', 'temperature', csv, '-o', link])).code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(target, 'utf8')).kind).toBe('temperature');
    expect(statSync(target).mode & 0o777).toBe(0o640);
  });
  it('a writer failing midway leaves the previous file (or none) and no temporary file', async () => {
    const sub = mkdtempSync(join(dir, 'fail-'));
    const existing = join(sub, 'old.csv');
    writeFileSync(existing, 'previous content\n');
    const failHalfway = async (handle: Awaited<ReturnType<typeof open>>, chunks: Iterable<string | Uint8Array>) => {
      for (const c of chunks) await handle.writeFile(c);
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    };
    for (const [target, kept] of [
      [existing, '; the previous'],
      [join(sub, 'new.csv'), '; no file was created'],
    ] as const) {
      const out = await prepareOutput('um test', '--output', target, []);
      const e = await writeOutput('um test', out, ['a,b\n', '1,2\n'], 'nothing lost', failHalfway).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(e).toBeInstanceOf(UMError);
      expect((e as UMError).code).toBe('UM_FILE_WRITE');
      expect((e as UMError).message).toContain(`um test: cannot write ${target} (no space left on the device)${kept}`);
    }
    expect(readFileSync(existing, 'utf8')).toBe('previous content\n');
    expect(readdirSync(sub)).toEqual(['old.csv']);
  });
  it('kill -9 while a large output is written: the target is the previous file or the complete new one, never a part', async () => {
    // 24 MB of output from a CSV of 2 000 rows of logits, each with a 12 000-character text column that the output
    // copies: as large a write as 120 000 rows × 10 classes from a NumPy file, for a third of the child's CPU (1.65 →
    // 0.6 s; formatting 1.2 million probabilities was most of it)
    const big = join(dir, 'big.csv');
    const n = 2000;
    const c = 10;
    const note = 'x'.repeat(12_000);
    const rows = Array.from(
      { length: n },
      (_, i) =>
        `${i % c},${Array.from({ length: c }, (_, k) => (Math.sin(i * c + k) * 3).toFixed(6)).join(',')},${note}`,
    );
    writeFileSync(big, `label,${Array.from({ length: c }, (_, k) => `p_${k}`).join(',')},note\n${rows.join('\n')}\n`);
    const args = ['calibrate', 'apply', F('temperature.json'), big, '--input', 'logits', '-o'];
    // the complete new output, written in process only when a target is not the previous file (most runs are killed
    // while writing)
    let complete: Buffer | undefined;
    const completeOutput = async (): Promise<Buffer> => {
      if (complete === undefined) {
        const full = join(dir, 'full.csv');
        expect((await run([...args, full])).code).toBe(0);
        complete = readFileSync(full);
      }
      return complete;
    };
    const killed = mkdtempSync(join(dir, 'killed-'));
    const target = join(killed, 'out.csv');
    const previous = Buffer.from('previous,content\n1,2\n');
    let caught = 0;
    for (let attempt = 0; attempt < 6 && caught < 1; attempt++) {
      writeFileSync(target, previous);
      const child = spawn(process.execPath, [`${repoRoot}packages/core/dist/cli/bin.js`, ...args, target], {
        cwd: repoRoot,
        stdio: 'ignore',
      });
      const exited = new Promise((resolve) => child.on('exit', resolve));
      // kill as soon as bytes of the new output exist anywhere in the directory (a temporary file, or the target)
      const deadline = Date.now() + 60_000;
      let writing = false;
      while (!writing && Date.now() < deadline && child.exitCode === null) {
        writing = readdirSync(killed).some((f) => {
          const s = statSync(join(killed, f), { throwIfNoEntry: false });
          return s !== undefined && (f === 'out.csv' ? s.size !== previous.length : s.size > 0);
        });
        // every millisecond, not every turn of the event loop: spinning took a core from the child it waits for, and
        // writing the ~15 MB output takes tens of milliseconds
        if (!writing) await new Promise((r) => setTimeout(r, 1));
      }
      child.kill('SIGKILL');
      await exited;
      const now = readFileSync(target);
      expect(
        now.equals(previous) || now.equals(await completeOutput()),
        `attempt ${attempt}: the target holds ${now.length} bytes`,
      ).toBe(true);
      if (writing && now.equals(previous)) caught++;
      for (const f of readdirSync(killed)) if (f !== 'out.csv') rmSync(join(killed, f)); // a killed process cannot clean up
    }
    // the kill landed while the new output was being written, and the previous file survived
    expect(caught).toBeGreaterThan(0);
  });
});

describe('one writer for every command', () => {
  it('no command writes a file except through writeOutput', () => {
    const files = readdirSync(`${repoRoot}src/cli`, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.ts') && f !== 'output.ts');
    for (const f of files)
      expect(readFileSync(`${repoRoot}src/cli/${f}`, 'utf8'), f).not.toMatch(
        /\b(writeFile|writeFileSync|createWriteStream|appendFile)\b/,
      );
  });
});
