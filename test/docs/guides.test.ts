/**
 * The guides (docs/guides/*.md) stay true: every TypeScript block type-checks against the sources and runs (its
 * `// =>` and `// ≈` lines are checked), every `um …` command runs on the bundled data, and their tables are current.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import * as um from '../../src/index.js';
import { main } from '../../src/cli/index.js';
import { EXAMPLES } from '../../src/cli/examples.js';
import { repoRoot } from '../helpers/cli.js';
import { publicExports } from '../helpers/publicApi.js';
import { reusingHost } from '../helpers/tsProgram.js';
import { runExample } from './snippets.js';

const guideDir = `${repoRoot}docs/guides/`;
const guides = readdirSync(guideDir)
  .filter((f) => f.endsWith('.md'))
  .sort();
const text = (guide: string) => readFileSync(`${guideDir}${guide}`, 'utf8');
const blocks = (guide: string, lang: string) =>
  [...text(guide).matchAll(/```(\w+)\n([\s\S]*?)```/g)].filter((m) => m[1] === lang).map((m) => m[2] as string);

/** Splits a shell line into words: single and double quotes group, `#` starts a comment. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  const re = /\s*(?:"([^"]*)"|'([^']*)'|(#.*)|([^\s"'#]+))/gy;
  let m: RegExpExecArray | null;
  while ((m = re.exec(line)) !== null && m[0] !== '') {
    if (m[3] !== undefined) break;
    words.push(m[1] ?? m[2] ?? m[4] ?? '');
  }
  return words;
}

/**
 * The README's main job, word for word: built with its default flags in test/browser/report.test.ts (in headless
 * Chromium, every number checked) and through the installed bin in test/cli/report.test.ts (a real process, with few
 * resamples, as here). A guide's line that is exactly this command is not built a third time here (about 1.5 s); any
 * other spelling of it runs below like every other line.
 */
const README_MAIN_JOB = 'um report examples/data/mlp_overfit_test.csv examples/data/logreg_test.csv -o report.html';

/**
 * The README's CLI examples on the bundled data, as the words readme.test.ts runs (in process, like the lines here). A
 * guide's line with the same words that writes no file (so no later line reads its output) is not run a second time
 * here (~0.2 s): the same command on the same data catches the same defects there.
 */
const README_COMMANDS = new Set(
  [...readFileSync(`${repoRoot}README.md`, 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((m) => (m[1] as string).split('\n'))
    .filter((l) => l.startsWith('npx um ') && l.includes('examples/data/') && !/["']/.test(l))
    .map((l) => shellWords(l).slice(2).join(' ')),
);
const runByReadme = (words: string[]) => !words.includes('-o') && README_COMMANDS.has(words.join(' '));

/**
 * The help pages' examples, as the words test/cli/ergonomics.test.ts runs (in process, every one, exit 0 and nothing
 * on stderr). A guide's line with the same words that writes nothing or a page (HTML, Markdown: no later line reads
 * one) is not run a second time here (the LLM judge's report, ~0.6 s): the same command on the same data.
 */
const HELP_COMMANDS = new Set(Object.values(EXAMPLES).flatMap((examples) => examples.map((e) => e.argv.join(' '))));
const runByHelp = (words: string[]) => {
  const o = words.indexOf('-o');
  return HELP_COMMANDS.has(words.join(' ')) && (o < 0 || /\.(html|md)$/.test(words[o + 1] ?? ''));
};

/** Type-checks snippets against the sources, as a user's file importing the package would be checked. */
function typeErrors(snippets: Map<string, string>): string[] {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    // the worker's program binds the sources with it (tsconfig.json's): the same binding is reused (reusingHost)
    noFallthroughCasesInSwitch: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
    lib: ['lib.es2022.d.ts'],
    baseUrl: repoRoot,
    // the package's import paths, mapped to its sources so that the check does not depend on a build
    paths: { 'uncertainty-metrics': ['src/index.ts'], 'uncertainty-metrics/*': ['src/*/index.ts'] },
  };
  // the sources, the lib and @types files as the worker's shared program (test/helpers/tsProgram.ts: the same target,
  // module kind and lib) parsed and bound them: parsing the ~1 400 files again was most of this test; the snippets and
  // this program's checker are new
  const host = reusingHost(options, snippets);
  const program = ts.createProgram([...snippets.keys()], options, host);
  const errors: string[] = [];
  for (const f of snippets.keys()) {
    const sf = program.getSourceFile(f);
    for (const d of [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)]) {
      const line =
        d.file !== undefined && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
      errors.push(`${f.replace(repoRoot, '')}:${line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    }
  }
  return errors;
}

/** Strips the TypeScript syntax from a snippet's body so that it runs as JavaScript. */
const transpile = (body: string) =>
  ts
    .transpileModule(body, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } })
    .outputText.replace(/^export \{\};\s*$/m, '');

describe('guides', () => {
  it('exist, one per topic', () => {
    expect(guides).toEqual([
      'calibrating-and-saving.md',
      'choosing-a-calibration-metric.md',
      'evaluating-from-the-command-line.md',
      'llm-judge.md',
      'streaming-and-sql.md',
      'training-with-tensorflow.md',
    ]);
  });

  it('every TypeScript block of the guides and the README type-checks against the sources', () => {
    const snippets = new Map<string, string>();
    for (const g of guides)
      blocks(g, 'ts').forEach((code, i) => snippets.set(`${guideDir}${g}.${i}.mts`, `${code}\nexport {};\n`));
    // one program for both (the README's blocks run in readme.test.ts): building it is most of the time
    const readme = [...readFileSync(`${repoRoot}README.md`, 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map(
      (m) => m[1] as string,
    );
    readme.forEach((code, i) => snippets.set(`${repoRoot}README.md.${i}.mts`, `${code}\nexport {};\n`));
    expect(snippets.size).toBeGreaterThanOrEqual(10);
    expect(typeErrors(snippets)).toEqual([]);
  }, 60_000);

  for (const g of guides) {
    it(`${g}: every TypeScript block runs and its checked lines hold`, async () => {
      for (const code of blocks(g, 'ts')) {
        const { failures } = await runExample(code, transpile);
        expect(failures, code).toEqual([]);
      }
    });
  }

  describe('every `um` command runs on the bundled data', () => {
    const scratch = mkdtempSync(join(tmpdir(), 'um-guides-'));
    afterAll(() => rmSync(scratch, { recursive: true, force: true }));
    it('the guide lines readme.test.ts runs word for word are the README examples of metrics and calibration', () => {
      const lines = guides.flatMap((g) =>
        blocks(g, 'sh')
          .flatMap((b) => b.split('\n'))
          .filter((l) => l.startsWith('um ') && runByReadme(shellWords(l).slice(1)))
          .map((l) => `${g}: ${shellWords(l).slice(1, 3).join(' ')}`),
      );
      expect(lines).toEqual([
        'calibrating-and-saving.md: metrics examples/data/mlp_overfit_test_logits.npy',
        'evaluating-from-the-command-line.md: metrics examples/data/logreg_test.csv',
        'evaluating-from-the-command-line.md: metrics examples/data/logreg_test.csv',
      ]);
    });
    it('the guide lines ergonomics.test.ts runs word for word are help examples of the LLM judge and the ensemble', () => {
      const lines = guides.flatMap((g) =>
        blocks(g, 'sh')
          .flatMap((b) => b.split('\n'))
          .filter((l) => {
            const words = shellWords(l).slice(1);
            return l.startsWith('um ') && !runByReadme(words) && runByHelp(words);
          })
          .map((l) => `${g}: ${shellWords(l).slice(1, 3).join(' ')}`),
      );
      expect(lines).toEqual([
        'evaluating-from-the-command-line.md: metrics examples/data/deep_ensemble_test_member_logits.npy',
        'llm-judge.md: metrics examples/data/llm_judge_test.jsonl',
        'llm-judge.md: calibrate apply',
        'llm-judge.md: report examples/data/llm_judge_test.jsonl',
      ]);
    });
    it('the README main job, where a guide shows it, is the command the README gives', () => {
      expect(readFileSync(`${repoRoot}README.md`, 'utf8')).toContain(`npx ${README_MAIN_JOB}\n`);
      expect(guides.filter((g) => blocks(g, 'sh').some((b) => b.split('\n').includes(README_MAIN_JOB)))).toEqual([
        'evaluating-from-the-command-line.md',
      ]);
    });
    for (const g of guides) {
      const lines = blocks(g, 'sh')
        .flatMap((b) => b.split('\n'))
        .filter((l) => l.startsWith('um ') && l !== README_MAIN_JOB);
      if (lines.length === 0) continue;
      it(
        g,
        async () => {
          for (const line of lines) {
            // inputs come from the repository, outputs go to a scratch directory (no process.chdir: workers forbid it)
            const words = shellWords(line).slice(1);
            if (runByReadme(words) || runByHelp(words)) continue;
            // intervals are not this test's subject (their values are test/bootstrap's and test/cli's): 2 resamples,
            // the fewest the CLI takes, run the same code — resampling, the percentile interval, its rendering — as a
            // guide's 50 or 100 or the default 1000 of a comparison or report, for a fraction of the cost (20 spent
            // about 0.6 s more here; the default report of the README main job is built in test/browser/report.test.ts)
            const at = words.indexOf('--resamples');
            if (at >= 0) words[at + 1] = String(Math.min(2, Number(words[at + 1])));
            else if (words[0] === 'report' || words[0] === 'compare') words.push('--resamples', '2');
            const args = words.map((w) =>
              w.startsWith('examples/')
                ? `${repoRoot}${w}`
                : /^[\w-]+\.(csv|json|jsonl|html|md)$/.test(w)
                  ? join(scratch, w)
                  : w,
            );
            let out = '';
            const code = await main(args, { stdout: (t) => void (out += t), stderr: (t) => void (out += t) });
            expect(code, `${line}\n${out}`).toBe(0);
            const o = args.indexOf('-o');
            if (o >= 0) expect(statSync(args[o + 1] as string).size, line).toBeGreaterThan(0);
          }
        },
        120_000,
      );
    }
  });

  it('every public function of the core is in a table of the metric or calibration guide', () => {
    const tables = text('choosing-a-calibration-metric.md') + text('calibrating-and-saving.md');
    const functions = publicExports({ 'uncertainty-metrics': 'src/index.ts' })
      .filter((e) => e.kind === 'function')
      .map((e) => e.name);
    const infrastructure = new Set([
      'toProbabilities',
      'toEnsemble',
      'assignBins',
      'binStatistics',
      'setWarningHandler',
    ]);
    expect(
      functions.filter(
        (f) =>
          !infrastructure.has(f) &&
          !tables.includes(`| \`${f}\``) &&
          !tables.includes(`, \`${f}\``) &&
          !tables.includes(`/ \`${f}\``),
      ),
    ).toEqual([]);
  });

  it('the preset table lists every preset', () => {
    for (const name of Object.keys(um.presets))
      expect(text('choosing-a-calibration-metric.md')).toContain(`| \`${name}\` |`);
  });

  it('the calibration table is what scripts/calibration-table.mjs prints', () => {
    const r = spawnSync(process.execPath, [`${repoRoot}scripts/calibration-table.mjs`], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const block = /<!-- calibration-table:start -->\n([\s\S]*?)\n<!-- calibration-table:end -->/.exec(
      text('calibrating-and-saving.md'),
    )?.[1];
    expect(block).toBe(r.stdout.trimEnd());
  });

  it('every table of the documentation has a header row (a table without one renders as a paragraph)', () => {
    const pages = [
      ...guides.map((g) => `${guideDir}${g}`),
      ...['README.md', 'docs/index.md', 'docs/benchmarks.md', 'docs/studies.md'].map((p) => `${repoRoot}${p}`),
    ];
    const headless: string[] = [];
    for (const page of pages) {
      const lines = readFileSync(page, 'utf8').split('\n');
      lines.forEach((l, i) => {
        if (/^\|(-+\|)+$/.test(l) && !(lines[i - 1] ?? '').startsWith('|'))
          headless.push(`${page.replace(repoRoot, '')}:${i + 1}`);
      });
    }
    expect(headless).toEqual([]);
  });

  it('links only to files that exist', () => {
    const broken: string[] = [];
    for (const g of guides) {
      for (const m of text(g).matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        const target = m[1] as string;
        if (!/^[a-z]+:/.test(target) && !existsSync(join(guideDir, target))) broken.push(`${g}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
