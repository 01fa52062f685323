import ts from 'typescript';

/** Programs made so far, by their root files: test files that share a worker share them. */
const programs = new Map<string, ts.Program>();
let last: ts.Program | undefined;

/**
 * A TypeScript program (parsed and type-checked on demand) over the given root files, made once per set of files in a
 * worker: several test files read the public API from the declared types, and each program costs seconds. A new set
 * reuses the source files already parsed.
 */
export function programOf(files: readonly string[]): ts.Program {
  const key = [...files].sort().join('\n');
  let program = programs.get(key);
  if (program === undefined) {
    const options = {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      types: ['node'],
    };
    program = ts.createProgram({ rootNames: files, options, ...(last === undefined ? {} : { oldProgram: last }) });
    programs.set(key, program);
    last = program;
  }
  return program;
}
