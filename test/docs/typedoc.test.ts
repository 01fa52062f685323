/**
 * The API reference (`npm run docs`, TypeDoc) builds without a warning, documents every export of every entry point,
 * renders the formulas of the doc comments as written (no `_` or `*` paired into emphasis) and links every guide.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';
import { ENTRIES } from './entries.js';

interface Reflection {
  name: string;
  children?: Reflection[];
}

/**
 * Every name (values and types) each entry point exports, read from its source syntax — the entry files only
 * re-export, so this needs no type-checker (a program over the whole source costs seconds).
 */
function exportedNames(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [entry, file] of Object.entries(ENTRIES)) {
    const sf = ts.createSourceFile(file, readFileSync(`${repoRoot}${file}`, 'utf8'), ts.ScriptTarget.ES2022);
    const names: string[] = [];
    for (const st of sf.statements) {
      if (ts.isExportDeclaration(st)) {
        if (st.exportClause === undefined || !ts.isNamedExports(st.exportClause))
          throw new Error(`${file}: \`export *\` — list the names`);
        for (const el of st.exportClause.elements) names.push(el.name.text);
      } else if (ts.canHaveModifiers(st) && ts.getModifiers(st)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) {
        if (ts.isVariableStatement(st)) for (const d of st.declarationList.declarations) names.push(d.name.getText(sf));
        else if ('name' in st && st.name !== undefined) names.push((st.name as ts.Identifier).text);
      }
    }
    out.set(entry, names);
  }
  return out;
}

function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.html'))
    .map((f) => join(dir, f));
}

describe('API reference (npm run docs)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'um-typedoc-'));
  let run: { status: number | null; output: string };
  let modules: Reflection[] = [];

  beforeAll(() => {
    // the options of `npm run docs` (typedoc.json), with the JSON model written too and the site in a scratch directory
    const r = spawnSync(
      process.execPath,
      [
        `${repoRoot}node_modules/typedoc/bin/typedoc`,
        '--treatWarningsAsErrors',
        '--json',
        join(dir, 'api.json'),
        '--out',
        join(dir, 'site'),
      ],
      {
        cwd: repoRoot,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      },
    );
    run = { status: r.status, output: `${r.stdout}${r.stderr}` };
    if (r.status === 0)
      modules = (JSON.parse(readFileSync(join(dir, 'api.json'), 'utf8')) as Reflection).children ?? [];
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('builds with zero warnings', () => {
    expect(run.output).not.toMatch(/\[(warning|error)\]/);
    expect(run.status, run.output).toBe(0);
  });

  it('documents every name exported by every entry point, in a module named after the import path', () => {
    const missing: string[] = [];
    const exported = exportedNames();
    expect([...exported.values()].flat().length).toBeGreaterThan(150); // the syntax walk found the re-exports
    for (const [entry, names] of exported) {
      const module = modules.find((m) => m.name === entry);
      const documented = new Set((module?.children ?? []).map((c) => c.name));
      for (const name of names) if (!documented.has(name)) missing.push(`${entry}: ${name}`);
    }
    expect(modules.map((m) => m.name).sort()).toEqual(Object.keys(ENTRIES).sort());
    expect(missing).toEqual([]);
  });

  it('renders formulas as written: no emphasis made of formula characters, no visible Markdown escapes', () => {
    const bad: string[] = [];
    for (const file of htmlFiles(join(dir, 'site'))) {
      const html = readFileSync(file, 'utf8');
      // `Σ_m (|B_m|/N)` or `θ̂*_b` must not pair an underscore or asterisk into <em> (bold is only ever written as **…**)
      for (const m of html.matchAll(/<em>([^<]*)<\/em>/g))
        if (/[=_{}()Σ·|]/.test(m[1] ?? '')) bad.push(`${file}: <em>${m[1]}`);
      const text = html.replace(/<(code|pre)[^>]*>[\s\S]*?<\/\1>/g, '');
      for (const m of text.matchAll(/.{0,30}\\[_*|`].{0,30}/g)) bad.push(`${file}: ${m[0]}`);
    }
    expect(bad).toEqual([]);
  });

  it('has an index page linking every guide and every module, and every guide and measurement page in the site', () => {
    const index = readFileSync(join(dir, 'site', 'index.html'), 'utf8');
    for (const entry of Object.keys(ENTRIES)) expect(index).toContain(`href="modules/${entry.replace('/', '_')}.html"`);
    const documents = readdirSync(join(dir, 'site', 'documents'));
    for (const title of [
      'Choosing a calibration metric',
      'Evaluating a model from the command line',
      'Calibrating and saving a calibrator',
      'Streaming and SQL',
      'Training with TensorFlow.js',
      'Benchmarks',
    ]) {
      expect(index).toContain(title);
      expect(documents).toContain(`${title.replace(/[^\w.]/g, '_')}.html`);
    }
  });
});
