/**
 * The UTF-8 check and the line splitter under every chunking: seeded random byte strings (mostly valid UTF-8 with
 * injected bad bytes) against a brute-force reference, split at random points.
 */
import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UMError } from '../../src/index.js';
import { checkedText, scanUtf8, textLines } from '../../src/io/textInput.js';
import { minstd } from '../helpers/minstd.js';

/** Seeded text: ASCII, 2-, 3- and 4-byte characters, line ends (\n, \r\n, \r), and (when `bad`) a few invalid bytes. */
function sample(seed: number, length: number, bad: boolean): Buffer {
  const u = minstd(seed, length * 3);
  const parts: Buffer[] = [];
  for (let i = 0; i < length; i++) {
    const a = u[3 * i] as number;
    const b = u[3 * i + 1] as number;
    if (a < 0.5)
      parts.push(Buffer.from(b < 0.08 ? '\n' : b < 0.1 ? '\r' : String.fromCharCode(32 + Math.floor(b * 90))));
    else if (a < 0.7) parts.push(Buffer.from('é'));
    else if (a < 0.85) parts.push(Buffer.from('€名'));
    else if (a < 0.95) parts.push(Buffer.from('😀'));
    else if (bad) parts.push(Buffer.from([[0xff, 0xc0, 0xed, 0xf5, 0x80, 0xe2][Math.floor(b * 6)] as number]));
    else parts.push(Buffer.from('\r\n'));
  }
  return Buffer.concat(parts);
}

/** Reference: the first invalid byte is where the longest valid prefix ends. */
function firstBad(bytes: Buffer): number {
  if (isUtf8(bytes)) return -1;
  let k = bytes.length;
  while (k > 0 && !isUtf8(bytes.subarray(0, k))) k--;
  return k;
}

/** Splits `bytes` into chunks at seeded points (some of them inside characters). */
function chunks(bytes: Buffer, seed: number): Buffer[] {
  const out: Buffer[] = [];
  let at = 0;
  for (const u of minstd(seed, 1000)) {
    if (at >= bytes.length) break;
    const size = 1 + Math.floor(u * 7);
    out.push(bytes.subarray(at, at + size));
    at += size;
  }
  if (at < bytes.length) out.push(bytes.subarray(at));
  return out;
}

describe('scanUtf8', () => {
  it('finds the first invalid byte exactly as the brute-force reference, on 400 seeded strings', () => {
    for (let seed = 1; seed <= 400; seed++) {
      const bytes = sample(seed, 60, seed % 2 === 0);
      expect(scanUtf8(bytes, false).bad, `seed ${seed}`).toBe(firstBad(bytes));
    }
  });
  it('rejects overlongs, surrogates and code points above U+10FFFF; partial mode waits for a cut character', () => {
    for (const bad of [
      [0xc0, 0xaf],
      [0xe0, 0x80, 0xaf],
      [0xed, 0xa0, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
      [0xf8],
      [0x80],
    ]) {
      expect(scanUtf8(Buffer.from([0x41, ...bad]), false).bad).toBe(1);
    }
    const euro = Buffer.from('a€');
    expect(scanUtf8(euro.subarray(0, 3), true)).toEqual({ bad: -1, complete: 1 });
    expect(scanUtf8(euro.subarray(0, 3), false).bad).toBe(1);
  });
});

async function pass(bytes: Buffer, seed: number): Promise<{ out: Buffer; error?: UMError }> {
  const t = checkedText('f', 'x.csv', Readable.from(chunks(bytes, seed)), 1, 0, 40);
  const got: Buffer[] = [];
  try {
    for await (const c of t) got.push(c as Buffer);
    return { out: Buffer.concat(got) };
  } catch (error) {
    if (error instanceof UMError) return { out: Buffer.concat(got), error };
    throw error;
  }
}

describe('checkedText and textLines, whatever the chunks', () => {
  it('pass valid text through unchanged and stop at the same line and byte as the whole-buffer check', async () => {
    for (let seed = 1; seed <= 120; seed++) {
      const bytes = sample(seed, 80, seed % 3 === 0);
      const bad = firstBad(bytes);
      const longest = Math.max(
        ...bytes
          .toString('latin1')
          .split(/[\r\n]/)
          .map((l) => l.length),
      );
      const { out, error } = await pass(bytes, seed + 1000);
      if (bad < 0 && longest <= 40) {
        expect(error, `seed ${seed}`).toBeUndefined();
        expect(out.equals(bytes)).toBe(true);
        continue;
      }
      expect(error?.code, `seed ${seed}`).toBe('UM_FILE_FORMAT');
      if (
        bad >= 0 &&
        bytes
          .subarray(0, bad)
          .toString('latin1')
          .split(/[\r\n]/)
          .every((l) => l.length <= 40) &&
        !/longer/.test(error?.message ?? '')
      ) {
        const line = bytes
          .subarray(0, bad)
          .toString('latin1')
          .split(/\r\n|\r|\n/).length;
        expect(error?.message, `seed ${seed}`).toMatch(
          new RegExp(`^f: x\\.csv: line ${line}, byte ${bad}: is not valid UTF-8`),
        );
      }
      // nothing after the error's line is passed on
      expect(out.length).toBeLessThanOrEqual(bad < 0 ? bytes.length : bad);
    }
  });
  it('textLines gives the lines of the text (\\n, \\r\\n or \\r; a first-line BOM dropped), or the same located error', async () => {
    for (let seed = 1; seed <= 120; seed++) {
      const body = sample(seed, 60, seed % 3 === 0);
      const bytes = seed % 5 === 0 ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]) : body;
      const lines: string[] = [];
      let error: unknown;
      try {
        for await (const l of textLines('f', 'x.jsonl', Readable.from(chunks(bytes, seed + 7)), 1 << 20))
          lines.push(l.text);
      } catch (e) {
        error = e;
      }
      const bad = firstBad(body);
      if (bad < 0) {
        expect(error).toBeUndefined();
        const expected = body.toString('utf8').split(/\r\n|\r|\n/);
        if (expected[expected.length - 1] === '') expected.pop();
        expect(lines).toEqual(expected);
      } else {
        expect(error).toBeInstanceOf(UMError);
        const line = body
          .subarray(0, bad)
          .toString('latin1')
          .split(/\r\n|\r|\n/).length;
        expect((error as UMError).message).toMatch(
          new RegExp(`line ${line}, byte ${bad + bytes.length - body.length}: is not valid UTF-8`),
        );
        // every line before the bad one came first (a reader's error on one of them is the one it reports)
        expect(lines).toEqual(
          body
            .subarray(0, bad)
            .toString('utf8')
            .split(/\r\n|\r|\n/)
            .slice(0, -1),
        );
      }
    }
  });
  it('a line longer than the limit stops both, without holding more than the limit', async () => {
    const long = Buffer.concat([Buffer.from('ok\n'), Buffer.alloc(100, 0x61), Buffer.from('\n')]);
    expect((await pass(long, 3)).error?.message).toBe(
      'f: x.csv: line 2, byte 43: the line is longer than 40 bytes (the longest accepted)',
    );
    await expect(async () => {
      for await (const _ of textLines('f', 'x.jsonl', Readable.from(chunks(long, 4)), 40));
    }).rejects.toThrow('f: x.jsonl: line 2, byte 43: the line is longer than 40 bytes (the longest accepted)');
  });
});
