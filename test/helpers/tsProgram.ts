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
      types: ['node'],
    };
    shared = ts.createProgram({
      rootNames: [...roots],
      options,
      ...(shared === undefined ? {} : { oldProgram: shared }),
    });
  }
  return shared;
}
