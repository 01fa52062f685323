/**
 * The CSV fast path reads exactly what the general parser reads: the same numbers (bit for bit), lines, batches'
 * row positions and errors, on seeded generated files — plain numbers in every spelling, spaces and tabs, CRLF, empty
 * lines, ignored text columns, and lines only the general parser takes (quotes, NaN written out, non-ASCII, wrong
 * field counts, bad cells) anywhere in the file, where the fast path hands over.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { collect } from '../../src/io/batches.js';
import { parseDecimal } from '../../src/io/csvFast.js';
import { streamCsv, streamCsvGeneral } from '../../src/io/readCsv.js';
import { checkRead } from '../../src/io/readSpec.js';
import { FAST_CSV } from '../../src/io/streamCsvFast.js';
import { parseNumber } from '../../src/io/parseNumber.js';
import { createRng } from '../../src/random/rng.js';

const dir = mkdtempSync(join(tmpdir(), 'um-csvfast-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A number written in one of many spellings. */
function spelled(r: ReturnType<typeof createRng>, x: number): string {
  switch (r.integer(9)) {
    case 0:
      return x.toPrecision(1 + r.integer(17));
    case 1:
      return x.toExponential(r.integer(16));
    case 2:
      return x.toExponential(r.integer(16)).toUpperCase();
    case 3:
      return String(x);
    case 4:
      return `+${String(x)}`;
    case 5:
      return x.toFixed(r.integer(21));
    case 6:
      return String(x).replace(/^0\./, '.');
    case 7:
      return `${String(x)}${'0'.repeat(r.integer(20))}`;
    default:
      return x.toFixed(9);
  }
}

async function both(file: string, batchRows: number, weightColumn?: string): Promise<[unknown, unknown]> {
  const run = async (f: typeof streamCsv) => {
    try {
      const spec = checkRead('readPredictions', file, weightColumn === undefined ? {} : { weightColumn });
      const d = await collect(f(spec, batchRows));
      return {
        n: d.n,
        labels: Array.from(d.labels),
        scores: Array.from(d.scores as Float64Array).map((v) => (Object.is(v, -0) ? '-0' : v)),
        weights: d.weights === undefined ? undefined : Array.from(d.weights),
        where: Array.from({ length: d.n }, (_, i) => d.locate(i, 1)),
      };
    } catch (e) {
      return { error: (e as Error).message };
    }
  };
  return [await run(streamCsv), await run(streamCsvGeneral)];
}

describe('parseDecimal equals the strict decimal rule and Number', () => {
  it('on seeded spellings, edge strings and random character soup', () => {
    const r = createRng('csvFast', 1);
    const cases = [
      '0',
      '-0',
      '+0',
      '.5',
      '5.',
      '.',
      '-',
      '+',
      '',
      'e5',
      '1e',
      '1e+',
      '1e-5',
      '1E5',
      '00012.500',
      '1.7976931348623157e308',
      '1e309',
      '5e-324',
      '2e-400',
      '0x10',
      '1_0',
      ' 1',
      '1 ',
      'NaN',
      'inf',
      '123456789012345678',
      '0.000000000000000000001',
      '9007199254740993',
      '1.2.3',
      '--1',
      '1e99999999',
    ];
    for (let i = 0; i < 20000; i++) {
      const x = r.uniform() ** (1 + r.integer(8)) * (r.uniform() < 0.1 ? -1 : 1);
      cases.push(spelled(r, x));
      const soup = Array.from({ length: 1 + r.integer(8) }, () => '0123456789.eE+-'[r.integer(15)]).join('');
      cases.push(soup);
    }
    // expect only on a mismatch: one expect (and its message) per string was most of this test's time
    for (const t of cases) {
      const want = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/.test(t) ? parseNumber(t) : undefined;
      const bytes = Buffer.from(t, 'latin1');
      const got = parseDecimal(bytes, 0, bytes.length);
      if (!Object.is(got, want)) expect(Object.is(got, want), `${t}: ${got} vs ${want}`).toBe(true);
    }
  });
});

describe('the fast path reads what the general parser reads', () => {
  it('seeded files with every spelling, and lines only the general parser takes anywhere', async () => {
    const r = createRng('csvFast', 2);
    for (let f = 0; f < 40; f++) {
      const c = 2 + r.integer(4);
      const weighted = r.uniform() < 0.3;
      const extra = r.uniform() < 0.5;
      const head = [
        'label',
        ...Array.from({ length: c }, (_, k) => `p_${k}`),
        ...(weighted ? ['w'] : []),
        ...(extra ? ['note'] : []),
      ];
      const order = head.map((_, j) => j).sort(() => r.uniform() - 0.5);
      const eol = r.uniform() < 0.3 ? '\r\n' : '\n';
      const lines = [order.map((j) => head[j]).join(',')];
      const rows = 20 + r.integer(200);
      const spoil = r.uniform() < 0.6 ? r.integer(rows) : -1;
      for (let i = 0; i < rows; i++) {
        const p = Array.from({ length: c }, () => r.uniform());
        const s = p.reduce((a, b) => a + b, 0);
        const cells: Record<string, string> = {
          label: String(r.integer(c)),
          w: spelled(r, r.uniform() * 3),
          note: `n${i}`,
        };
        p.forEach((v, k) => (cells[`p_${k}`] = spelled(r, v / s)));
        const pad = () => (r.uniform() < 0.05 ? (r.uniform() < 0.5 ? ' ' : '\t') : '');
        let text = order.map((j) => `${pad()}${cells[head[j] as string]}${pad()}`).join(',');
        if (i === spoil) {
          const how = r.integer(11);
          if (how === 0 && extra) text = text.replace(`n${i}`, `"n,${i}"`);
          if (how === 1) text = text.replace(/p?[0-9.]+e?-?\d*/, 'NaN');
          if (how === 2 && extra) text = text.replace(`n${i}`, 'né');
          if (how === 3) text = `${text},1`;
          if (how === 4) text = text.replace(/,[^,]*$/, ',abc');
          if (how === 5 && extra) text = text.replace(`n${i}`, '"multi\nline"');
          // the fast path reads a number where its field starts: what may follow it before the comma
          if (how === 6) text = text.replace(/,[^,]*$/, ''); // a field short
          if (how === 7) text = text.replace(/(\d),/, '$1",'); // a quote right after a number
          if (how === 8) text = text.replace(/(\d),/, '$1 \t ,'); // blanks after a number (read)
          if (how === 9) text = text.replace(/(\d),/, '$1 x,'); // a word after a number and a blank
          if (how === 10) text = text.replace(/(\d),/, '$1;'); // a separator that is not a comma
        }
        lines.push(text);
        if (r.uniform() < 0.03) lines.push('');
      }
      const file = join(dir, `f${f}.csv`);
      writeFileSync(file, lines.join(eol) + (r.uniform() < 0.5 ? eol : ''));
      // steps of a few bytes up to the default: lines cut anywhere between reads
      FAST_CSV.chunkBytes = [3, 17, 64, 1000, 4 * 2 ** 20][f % 5] as number;
      const [fast, general] = await both(file, 1 + r.integer(50), weighted ? 'w' : undefined);
      FAST_CSV.chunkBytes = 4 * 2 ** 20;
      expect(fast, `file ${f}`).toEqual(general);
    }
  });
  it('lines that end a number before its comma: each read as the general parser reads it', async () => {
    // the fast path parses a number where its field starts; what follows it must be blanks, then a comma or the end
    const lines = [
      '1,0.25;0.75', // a separator that is not a comma
      '1,0.25,0.75;', // a separator at the end
      '1,0.25x,0.75', // a letter after a number
      '1,0.25 x,0.75', // a word after a number and a blank
      '1,0.25",0.75', // a quote after a number
      '1,0.25 \t ,\t0.75 ', // blanks around numbers (read)
      '1,0.25', // a field short
      '1,0.25,0.75,', // an empty field more
      '1,,0.75', // an empty field
      '1,0.2.5,0.75', // two points
      '1,0.25e,0.75', // an exponent without digits
    ];
    for (const [i, bad] of lines.entries()) {
      const file = join(dir, `line${i}.csv`);
      writeFileSync(file, `label,p_0,p_1\n0,0.5,0.5\n${bad}\n1,0.125,0.875\n`);
      const [fast, general] = await both(file, 2);
      expect(fast, JSON.stringify(bad)).toEqual(general);
    }
  });
  it('header cases: a BOM, quoted names, an empty first line, only a header, an empty file', async () => {
    const cases = [
      '\uFEFFlabel,p_0,p_1\n0,0.5,0.5\n',
      '"label",p_0,p_1\n1,0.2,0.8\n',
      '\nlabel,p_0,p_1\n0,1,0\n',
      'label,p_0,p_1\n',
      '',
      'label,p_0,p_1\n\n\n',
    ];
    for (const [i, text] of cases.entries()) {
      const file = join(dir, `h${i}.csv`);
      writeFileSync(file, text);
      const [fast, general] = await both(file, 7);
      expect(fast, JSON.stringify(text)).toEqual(general);
    }
  });
});
