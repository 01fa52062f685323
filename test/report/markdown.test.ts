/**
 * reportMarkdown with hostile text in every field that comes from the user (title, model names, paths, chart texts,
 * notes, warnings): no link, image, autolink, HTML, code span or emphasis can come out of it, and no line break or
 * pipe can break the list or the table. Checked by an independent reading of the output's structure (CommonMark
 * backslash escapes and GFM table cells), not by calling the escaping function. (Also checked once by hand with
 * Debian's cmark-gfm -e table -e autolink -e strikethrough: no <a>, <img>, <code>, <em>, <del>, raw HTML; one row per
 * model and one cell per model in each row.)
 */
import { describe, expect, it } from 'vitest';
import { createReport, reportMarkdown, type Report } from '../../src/report/index.js';
import { fourRowModel } from '../helpers/reportModels.js';

const HOSTILE = [
  '[click](javascript:alert(1)).csv',
  '![img](http://example.invalid/x.png)',
  '[ref]: javascript:alert(1)',
  '[ref]',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<https://example.invalid>',
  'https://example.invalid/a_b',
  'www.example.invalid',
  'mail@example.invalid',
  'a|b||c',
  'line\nbreak',
  'cr\r\nlf\rcr',
  '    indented code',
  '\ttab',
  '# heading',
  '1. ordered',
  '- bullet',
  '> quote',
  '**bold** _em_ ~~strike~~ *x*',
  '`code` ``` ~~~',
  '&lt;entity&gt; &#x3C;b&#x3E;',
  'trailing backslash\\',
  '\\[escaped?\\]',
  '$x$ :smile: {a} ^1',
  'ü ✓ 🙂 名前',
  '===',
];

/** Characters that must never be active (unescaped) in the output outside the configuration fence: the template uses none of them. */
const NEVER_ACTIVE = new Set([...'[]<>`!&_~$@\\{}^=']);
/** Characters the template itself writes unescaped (list markers, bold, table pipes, parentheses, headings, numbers). */
const TEMPLATE = /[A-Za-z0-9 #\-*|():.,/+]/;

/** The characters of a line that are not backslash-escaped (CommonMark: a backslash escapes any ASCII punctuation). */
function active(line: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === '\\' && i + 1 < line.length && /[!-/:-@[-`{-~]/.test(line[i + 1] as string)) {
      i++; // escaped: literal
      continue;
    }
    out.push(c);
  }
  return out;
}

/** Removes CommonMark backslash escapes and invisible word joiners (the text a renderer shows). */
function unescape(text: string): string {
  return text.replace(/\\([!-/:-@[-`{-~])/g, '$1').replace(/\u2060/g, '');
}

/** GFM table cells: split at pipes that are not backslash-escaped. */
function cells(row: string): string[] {
  const parts: string[] = [];
  let cur = '';
  for (let i = 0; i < row.length; i++) {
    const c = row[i] as string;
    if (c === '\\' && i + 1 < row.length) {
      cur += c + (row[i + 1] as string);
      i++;
    } else if (c === '|') {
      parts.push(cur);
      cur = '';
    } else cur += c;
  }
  parts.push(cur);
  return parts.slice(1, -1).map((x) => x.trim());
}

/** Index of the first `**` at or after `from` that is not backslash-escaped. */
function closing(line: string, from: number): number {
  for (let i = from; i < line.length - 1; i++) {
    if (line[i] === '\\') i++;
    else if (line[i] === '*' && line[i + 1] === '*') return i;
  }
  return -1;
}

/** What a renderer shows for a text: whitespace runs (line breaks included) are one space. */
const shown = (text: string) => text.replace(/\s+/g, ' ');

async function hostileReport(): Promise<Report> {
  // Markdown holds no SVG: the charts are not rendered
  const base = await createReport([fourRowModel('m')], { svg: false });
  const model = base.models[0] as Report['models'][number];
  return {
    ...base,
    title: HOSTILE.join(' '),
    models: HOSTILE.map((name, j) => ({ ...model, name, source: HOSTILE[(j + 1) % HOSTILE.length] as string })),
    charts: base.charts
      .slice(0, 2)
      .map((c, j) => ({ ...c, title: HOSTILE[j] as string, howToRead: HOSTILE.slice(j).join(' ') })),
    notes: HOSTILE.map((h) => `${h}: left out of a chart`),
    warnings: HOSTILE.map((h) => ({
      code: 'UM_W_DEGENERATE',
      message: `createReport: ${h} is odd`,
      model: null,
      metrics: [],
      charts: [],
    })),
  };
}

describe('reportMarkdown escapes every text from the user', () => {
  it('no link, image, autolink, HTML, code span, entity or emphasis survives; each text reads back as given', async () => {
    const report = await hostileReport();
    const text = reportMarkdown(report);
    const fenceAt = text.indexOf('```json');
    expect(fenceAt).toBeGreaterThan(0);
    const body = text.slice(0, fenceAt).split('\n');
    for (const line of body) {
      const live = active(line);
      const bad = live.filter((c) => NEVER_ACTIVE.has(c) || (!TEMPLATE.test(c) && c.charCodeAt(0) < 128));
      expect(bad, `active Markdown in ${JSON.stringify(line)}`).toEqual([]);
      // an autolink needs a scheme and an unescaped colon right after it
      expect(live.join(''), line).not.toMatch(/(https?|javascript|mailto|ftp)\s*:/i);
      expect(live.join(''), line).not.toMatch(/www\./i);
      // GFM links e-mail addresses even when escaped (cmark-gfm resolves escapes first): `@` must not touch a letter
      expect(line.replace(/\\(?=[!-/:-@[-`{-~])/g, ''), line).not.toMatch(/[A-Za-z0-9]@[A-Za-z0-9]/);
    }
    // every hostile text is present as the plain text a renderer shows
    const title = body[0] as string;
    expect(title.startsWith('# ')).toBe(true);
    expect(unescape(title.slice(2))).toBe(shown(HOSTILE.join(' ')));
    const items = body.filter((l) => l.startsWith('- **'));
    expect(items.slice(0, HOSTILE.length).map((l) => unescape(l.slice(4, closing(l, 4))))).toEqual(HOSTILE.map(shown));
  });

  it('the list and the table keep their structure: one line per model, one cell per model in every row', async () => {
    const report = await hostileReport();
    const lines = reportMarkdown(report).split('\n');
    const models = lines.filter((l) => /^- \*\*/.test(l) && l.includes(' examples, '));
    expect(models).toHaveLength(HOSTILE.length);
    const head = lines.findIndex((l) => l.startsWith('| metric |'));
    const sep = lines[head + 1] as string;
    expect(cells(sep)).toHaveLength(HOSTILE.length + 1);
    const header = cells(lines[head] as string);
    expect(header.slice(1).map(unescape)).toEqual(HOSTILE.map((h) => shown(h).trim()));
    let rows = 0;
    for (let i = head + 2; i < lines.length && (lines[i] as string).startsWith('|'); i++, rows++) {
      expect(cells(lines[i] as string), lines[i]).toHaveLength(HOSTILE.length + 1);
    }
    expect(rows).toBeGreaterThan(10);
    // warnings first, then notes, at the top (before the summary)
    const notes = lines.slice(lines.indexOf('## Warnings and notes') + 2, lines.indexOf('## Summary') - 1);
    expect(notes).toHaveLength(2 * HOSTILE.length);
    expect(notes.every((l) => l.startsWith('- '))).toBe(true);
    expect(unescape(notes[0] as string)).toBe(
      `- ⚠ createReport: ${shown(HOSTILE[0] as string)} is odd [UM_W_DEGENERATE]`,
    );
    // a heading per model, then its configuration in a fence nothing inside can close
    const headings = lines.slice(lines.indexOf('## Configuration')).filter((l) => l.startsWith('### '));
    expect(headings.map((l) => unescape(l.slice(4)))).toEqual(HOSTILE.map((h) => shown(h).trimEnd()));
  });

  it('the bundled report still reads as before (names escaped, numbers and bold untouched)', async () => {
    const r = await createReport([fourRowModel('mlp_overfit')], { svg: false });
    const text = reportMarkdown(r);
    expect(text).toContain('| metric | mlp\\_overfit |');
    expect(text).toContain('| accuracy | 0.750000 |');
    expect(text).toMatch(/^```json$/m);
  });
});
