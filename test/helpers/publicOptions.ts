import ts from 'typescript';
import { fileURLToPath } from 'node:url';
import { programOf } from './tsProgram.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** One option of a public function: its path (`bins`, `ding.minRemaining`) and the parameter that holds it. */
export interface PublicOption {
  fn: string;
  param: string;
  /** Dotted path below the parameter. */
  path: string;
}

function isPlainObjectType(checker: ts.TypeChecker, type: ts.Type): boolean {
  if (type.getCallSignatures().length > 0) return false;
  if (checker.isArrayType(type) || checker.isTupleType(type)) return false;
  const name = type.getSymbol()?.getName() ?? '';
  if (/Array$|^ArrayLike$|^Iterable$|^Map$|^Set$|^Number$|^String$|^Boolean$/.test(name)) return false;
  return ((type.flags & ts.TypeFlags.Object) !== 0 || type.isIntersection()) && type.getProperties().length > 0;
}

/** The object-typed members of a (possibly union or optional) type: `T | undefined` → [T]. */
function objectParts(checker: ts.TypeChecker, type: ts.Type): ts.Type[] {
  const parts = type.isUnion() ? type.types : [type];
  return parts.filter((t) => isPlainObjectType(checker, t));
}

/**
 * Every option (property of an object-typed parameter, one level of nesting) of every exported function of the
 * given entry points, read from the declared types — so a table keyed by option names can be checked for
 * completeness and a new option cannot be missed.
 */
export function publicOptions(entries: Record<string, string>): PublicOption[] {
  const files = Object.values(entries).map((e) => `${root}${e}`);
  const program = programOf(files);
  const checker = program.getTypeChecker();
  const out: PublicOption[] = [];
  for (const file of Object.values(entries)) {
    const sf = program.getSourceFile(`${root}${file}`);
    const moduleSymbol = sf === undefined ? undefined : checker.getSymbolAtLocation(sf);
    if (moduleSymbol === undefined) throw new Error(`cannot load ${file}`);
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const decl = symbol.valueDeclaration;
      if (decl === undefined || !ts.isFunctionDeclaration(decl)) continue;
      for (const p of decl.parameters) {
        const type = checker.getTypeAtLocation(p);
        const seen = new Set<string>();
        const visit = (t: ts.Type, prefix: string, depth: number): void => {
          for (const part of objectParts(checker, t)) {
            for (const prop of part.getProperties()) {
              const path = prefix === '' ? prop.getName() : `${prefix}.${prop.getName()}`;
              if (!seen.has(path)) {
                seen.add(path);
                out.push({ fn: exported.name, param: p.name.getText(), path });
              }
              if (depth > 0) visit(checker.getTypeOfSymbolAtLocation(prop, p), path, depth - 1);
            }
          }
        };
        visit(type, '', 1);
      }
    }
  }
  return out;
}
