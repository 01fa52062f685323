/**
 * The API reference (`npm run docs`, TypeDoc) builds without a warning, documents every export of every entry point,
 * renders the formulas of the doc comments as written (no `_` or `*` paired into emphasis) and links every guide.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import * as td from 'typedoc';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';
import { reusingHost } from '../helpers/tsProgram.js';
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

/**
 * `typedoc …` as its command line (node_modules/typedoc/dist/cli.js) runs it — the same option readers, the same
 * steps, the same exit status — but in this worker, whose TypeScript program (test/helpers/tsProgram.ts) has already
 * parsed and bound the sources, the lib and the packages' types: TypeDoc's program (its own compiler options, from
 * tsconfig.types.json) takes those files instead of parsing them again in a child process, about 4 of TypeDoc's 10 s.
 * The site and the JSON model are byte for byte those of `npm run docs` (compared when this was written), but for the
 * code blocks, which are not coloured (see below).
 */
async function typedoc(args: string[]): Promise<{ status: number; project?: td.ProjectReflection }> {
  // the readers read typedoc.json and package.json from the working directory, as `npm run docs` does
  if (resolve(process.cwd()) !== resolve(repoRoot)) throw new Error(`run from ${repoRoot}, not ${process.cwd()}`);
  const app = await td.Application.bootstrapWithPlugins({}, [
    new td.ArgumentsReader(0, args),
    new td.TypeDocReader(),
    new td.PackageJsonReader(),
    new td.TSConfigReader(),
    new td.ArgumentsReader(300, args).ignoreErrors(),
  ]);
  const strict = app.options.getValue('treatWarningsAsErrors');
  if (app.logger.hasErrors() || (strict && app.logger.hasWarnings())) return { status: 1 };
  // The site's code blocks are not coloured: colouring them (Shiki's grammars, ~2 s of CPU for the ~170 blocks) is
  // not checked here and cannot warn. TypeDoc warns about a block's language only when it is not loaded, and an ignored
  // language counts as loaded, so ignoring languages it loads anyway (each of highlightLanguages, and the aliases the
  // docs use, which it loads with their grammar) leaves every warning as it was.
  const loaded = app.options.getValue('highlightLanguages');
  const aliases = { ts: 'typescript', js: 'javascript', sh: 'bash' };
  app.options.setValue('ignoredHighlightLanguages', [
    ...app.options.getValue('ignoredHighlightLanguages'), // as configured, if typedoc.json ever ignores some
    ...loaded,
    ...Object.entries(aliases)
      .filter(([, lang]) => loaded.includes(lang))
      .map(([alias]) => alias),
  ]);
  // TypeDoc's entry points (its `resolve` strategy): each entry file of the program, named by its path below the
  // display base path or the entry points' common directory (each entry file's @module tag then names it after its
  // import path)
  if (app.options.getValue('entryPointStrategy') !== td.EntryPointStrategy.Resolve)
    throw new Error('typedoc.json changed its entryPointStrategy: run TypeDoc as `npm run docs` does');
  const options = app.options.getCompilerOptions(app.logger);
  const program = ts.createProgram({
    rootNames: app.options.getFileNames(),
    options,
    projectReferences: app.options.getProjectReferences(),
    host: reusingHost(options),
  });
  const files = app.options.getValue('entryPoints').map((e) => resolve(e));
  const base = app.options.getValue('displayBasePath') || app.options.getValue('basePath') || commonDirectory(files);
  app.getEntryPoints = () =>
    files.map((file) => {
      const sourceFile = program.getSourceFile(file);
      if (sourceFile === undefined) throw new Error(`entry point ${file} is not in the program`);
      const displayName = relative(base, file).replace(/(\/index)?(\.d)?\.([cm][tj]s|[tj]sx?)$/, '');
      return { displayName, sourceFile, program };
    });
  const project = await app.convert();
  if (project === undefined) return { status: 3 };
  if (strict && app.logger.hasWarnings()) return { status: 3 };
  const warnings = app.logger.warningCount;
  app.validate(project);
  if (app.logger.hasErrors()) return { status: 4 };
  if ((app.logger.warningCount !== warnings || app.logger.validationWarningCount !== 0) && strict) return { status: 4 };
  await app.generateOutputs(project);
  if (app.logger.hasErrors() || (strict && app.logger.hasWarnings())) return { status: 5 };
  return { status: 0, project };
}

/** The deepest directory holding every file. */
function commonDirectory(files: string[]): string {
  const parts = files.map((f) => dirname(f).split(sep));
  const first = parts[0] ?? [];
  let n = 0;
  while (n < first.length && parts.every((p) => p[n] === first[n])) n++;
  return first.slice(0, n).join(sep);
}

describe('API reference (npm run docs)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'um-typedoc-'));
  let run: { status: number | null; output: string };
  let modules: Reflection[] = [];

  beforeAll(async () => {
    // the options of `npm run docs` (typedoc.json), the site in a scratch directory
    const printed: string[] = [];
    const methods = ['log', 'info', 'warn', 'error'] as const;
    const saved = methods.map((m) => console[m]);
    for (const m of methods) console[m] = (...a: unknown[]) => void printed.push(a.map(String).join(' '));
    try {
      const r = await typedoc(['--treatWarningsAsErrors', '--out', join(dir, 'site')]);
      run = { status: r.status, output: printed.join('\n') };
      // the modules and their members as converted, what the site renders (the `--json` model lists the same names;
      // writing and reading its 2.6 MB is not needed in process)
      modules = r.project?.children ?? [];
    } finally {
      methods.forEach((m, i) => (console[m] = saved[i] as (typeof console)[typeof m]));
    }
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
      // each escape with its context (a search for `.{0,30}\\[_*|`].{0,30}` backtracked at every character: ~0.4 s)
      for (const m of text.matchAll(/\\[_*|`]/g))
        bad.push(`${file}: ${text.slice(Math.max(0, m.index - 30), m.index + 32)}`);
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
