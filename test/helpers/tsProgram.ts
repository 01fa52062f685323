import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { ENTRIES } from '../docs/entries.js';

/**
 * The root files of the worker's program: every file asked for so far, and from the start every entry point of the
 * package — the sets the tests ask for are all within them, so a worker builds one program and one type checker
 * (a test file asking for a smaller set first, then another for all of them, built and checked two).
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const roots = new Set<string>(Object.values(ENTRIES).map((e) => `${root}${e}`));
let shared: ts.Program | undefined;

/**
 * A TypeScript program (parsed and type-checked on demand) whose roots include the given files, one per worker: the
 * test files of a worker (docs, errors, presets, weightScale, readme) read the public API from the declared types
 * over different sets of entry points, and each program costs seconds (its type checker starts afresh). A set within
 * the roots so far gets the same program and checker; a file outside them makes one program over the union, reusing
 * the parsed files. A file's exports and types do not depend on the other roots (same compiler options).
 */
export function programOf(files: readonly string[]): ts.Program {
  if (shared === undefined || files.some((f) => !roots.has(f))) {
    for (const f of files) roots.add(f);
    const options = {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      // as tsconfig.json: recorded when a file is bound, so a program reusing the files (reusingHost) needs it too
      noFallthroughCasesInSwitch: true,
      types: ['node'],
      lib: ['lib.es2022.d.ts'],
    };
    shared = ts.createProgram({
      rootNames: [...roots],
      options,
      ...(shared === undefined ? {} : { oldProgram: shared }),
    });
  }
  return shared;
}

/**
 * The options TypeScript records in a file when it parses or binds it (its `affectsSourceFile` and
 * `affectsBindDiagnostics` options: `noFallthroughCasesInSwitch`, `alwaysStrict`, `allowUnreachableCode`, …): a bound
 * file is handed to another program only when they agree, or that program's diagnostics would be the first one's.
 * The language version and module format are compared per file (`reusingHost`).
 */
const BOUND = (
  ts as unknown as { optionDeclarations: { name: string; affectsSourceFile?: true; affectsBindDiagnostics?: true }[] }
).optionDeclarations
  .filter((o) => o.affectsSourceFile === true || o.affectsBindDiagnostics === true)
  .map((o) => o.name)
  .filter((name) => !['target', 'module', 'moduleResolution'].includes(name));
const effective = (o: ts.CompilerOptions, name: string): unknown =>
  name === 'alwaysStrict' ? (o.alwaysStrict ?? o.strict) : o[name];

/**
 * A compiler host for another program over the same files with other compiler options (the guides' snippets checked
 * as a user's files, TypeDoc's program from tsconfig.types.json): a file the worker's program already parsed is handed
 * over instead of parsed again (with its binding, which does not depend on the checker) when it was parsed and bound
 * the same way — same language version, module format, JSDoc parsing and bind-time options (BOUND); any other file is read and parsed
 * as usual. `extra` holds files that exist only in memory (file name → text). Parsing and binding the ~1 400 files of
 * the sources, the lib and the packages' types is most of the cost of a program.
 */
export function reusingHost(
  options: ts.CompilerOptions,
  extra: ReadonlyMap<string, string> = new Map(),
): ts.CompilerHost {
  const parsed = programOf([]);
  const given = parsed.getCompilerOptions();
  const same = BOUND.every((k) => effective(given, k) === effective(options, k));
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  const exists = host.fileExists.bind(host);
  const source = host.getSourceFile.bind(host);
  host.readFile = (f) => extra.get(f) ?? read(f);
  host.fileExists = (f) => extra.has(f) || exists(f);
  host.getSourceFile = (f, v, ...rest) => {
    const code = extra.get(f);
    if (code !== undefined) return ts.createSourceFile(f, code, v, true);
    const sf = same ? parsed.getSourceFile(f) : undefined;
    const o = typeof v === 'object' ? v : { languageVersion: v };
    if (
      sf !== undefined &&
      sf.languageVersion === o.languageVersion &&
      sf.impliedNodeFormat === o.impliedNodeFormat &&
      (sf as { jsDocParsingMode?: ts.JSDocParsingMode }).jsDocParsingMode ===
        (o.jsDocParsingMode ?? host.jsDocParsingMode ?? ts.JSDocParsingMode.ParseAll)
    )
      return sf;
    return source(f, v, ...rest);
  };
  return host;
}
