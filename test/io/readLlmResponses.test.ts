/**
 * readLlmResponses: the one-file and two-file forms, and every broken line named by file and line.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readLlmResponses } from '../../src/io/index.js';
import { UMError } from '../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'um-llm-io-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let k = 0;
const file = (text: string) => {
  const p = join(dir, `f${k++}.jsonl`);
  writeFileSync(p, text);
  return p;
};
const R = '{"choices":[{"message":{"content":"yes"}}]}';

async function error(call: () => Promise<unknown>): Promise<UMError> {
  try {
    await call();
  } catch (e) {
    if (e instanceof UMError) return e;
    throw e;
  }
  throw new Error('expected a UMError');
}

describe('readLlmResponses', () => {
  it('reads ids, gold and responses; the line stands in for a missing id; blank lines are skipped', async () => {
    const p = file(`{"id":"a","gold":"yes","response":${R}}\n\n{"response":${R},"gold":null}\n`);
    const r = await readLlmResponses(p);
    expect([r.ids, r.gold, r.lines, r.responses.length]).toEqual([['a', 3], ['yes', null], [1, 3], 2]);
    expect(r.locate(1)).toBe(`${p}: line 3 (id 3)`);
  });
  it('joins a gold file by id, in any order', async () => {
    const p = file(`{"id":1,"response":${R}}\n{"id":2,"response":${R}}\n`);
    const g = file('{"id":2,"gold":"no"}\n{"id":1,"gold":0}\n');
    expect((await readLlmResponses(p, { gold: g })).gold).toEqual([0, 'no']);
  });
  const broken: [string, string, string | undefined, RegExp][] = [
    ['invalid JSON', `{"response":${R}}\n{"response":`, undefined, /: line 2: is not valid JSON/],
    ['a line that is not an object', `[${R}]\n`, undefined, /: line 1: must hold an object \{id, gold, response\}/],
    ['no response', '{"id":"a","gold":"yes"}\n', undefined, /: line 1: must have a "response"/],
    [
      'a duplicate id',
      `{"id":"a","response":${R}}\n{"id":"a","response":${R}}\n`,
      undefined,
      /: line 2: "id" must be unique; "a" is also on line 1/,
    ],
    [
      'a gold that is an object',
      `{"gold":{"label":"yes"},"response":${R}}\n`,
      undefined,
      /: line 1: "gold" must be a label name, a class index or null/,
    ],
    [
      'an id missing with a gold file',
      `{"response":${R}}\n`,
      '{"id":1,"gold":"yes"}\n',
      /: line 1: "id" must be a string or a number \(ids join the two files\)/,
    ],
    [
      'a gold id without a response',
      `{"id":1,"response":${R}}\n`,
      '{"id":1,"gold":"yes"}\n{"id":9,"gold":"no"}\n',
      /: line 2: id 9 has no response in/,
    ],
    [
      'a gold id of text without a response',
      `{"id":1,"response":${R}}\n`,
      '{"id":1,"gold":"yes"}\n{"id":"q9","gold":"no"}\n',
      /: line 2: id "q9" has no response in/,
    ],
    ['an empty file', '\n\n', undefined, /has no data lines/],
  ];
  for (const [what, text, gold, message] of broken)
    it(what, async () => {
      const p = file(text);
      const e = await error(() => readLlmResponses(p, gold === undefined ? {} : { gold: file(gold) }));
      expect(e.message.startsWith('readLlmResponses: ')).toBe(true);
      expect(e.message).toMatch(message);
    });
  it('a gold in both files: read when the two agree, refused naming both lines when they differ (seeded)', async () => {
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    const values = ['yes', 'no', 0, 1];
    for (let trial = 0; trial < 30; trial++) {
      const n = 1 + Math.floor(next() * 6);
      const gold = Array.from({ length: n }, () => values[Math.floor(next() * 4)] as string | number);
      // each response line repeats its gold, leaves it out or gives null; one may disagree
      const bad = next() < 0.5 ? Math.floor(next() * n) : -1;
      const own = gold.map((g, i) => {
        if (i === bad) return g === 'yes' ? 'no' : 'yes';
        const r = next();
        return r < 1 / 3 ? g : r < 2 / 3 ? null : undefined;
      });
      const p = file(
        own
          .map((g, i) => JSON.stringify({ id: `q${i}`, ...(g === undefined ? {} : { gold: g }), response: {} }))
          .join('\n'),
      );
      const gf = file(gold.map((g, i) => JSON.stringify({ id: `q${i}`, gold: g })).join('\n'));
      if (bad < 0) {
        expect((await readLlmResponses(p, { gold: gf })).gold).toEqual(gold);
        continue;
      }
      const e = await error(() => readLlmResponses(p, { gold: gf }));
      expect([e.code, e.message]).toEqual([
        'UM_FILE_FORMAT',
        `readLlmResponses: ${p}: line ${bad + 1}: "gold" ${JSON.stringify(own[bad])} disagrees with line ${bad + 1} of the gold file ${gf} (${JSON.stringify(gold[bad])}): give each gold label once`,
      ]);
    }
  });
  it('ids join with their type: 0 and "0" are different ids, and the message says so', async () => {
    const p = file(`{"id":0,"response":${R}}\n`);
    const e = await error(() => readLlmResponses(p, { gold: file('{"id":"0","gold":"yes"}\n') }));
    expect(e.message).toMatch(
      /: line 1: id 0 has no line in the gold file .*\(its line 1 has the id "0": ids join with their type, write both as strings or both as numbers\)$/,
    );
  });
  it('bad arguments', async () => {
    expect((await error(() => readLlmResponses(''))).code).toBe('UM_OPTION');
    expect((await error(() => readLlmResponses(join(dir, 'none.jsonl')))).code).toBe('UM_FILE_NOT_FOUND');
    expect((await error(() => readLlmResponses(file(`{"response":1}`), { gold: 3 as never }))).message).toMatch(
      /^readLlmResponses: options\.gold must be a non-empty string/,
    );
  });
});
