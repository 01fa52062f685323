import ts from 'typescript';
import { fileURLToPath } from 'node:url';
import { programOf } from './tsProgram.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** An exported value of a public entry point and its JSDoc. */
export interface PublicExport {
  entry: string;
  name: string;
  kind: 'function' | 'class' | 'variable';
  /** Declared parameter names (functions). */
  params: string[];
  /** The comment text without tags. */
  summary: string;
  /** Tag name → texts. */
  tags: Map<string, string[]>;
  file: string;
}

function tagText(tag: ts.JSDocTag): string {
  const c = tag.comment;
  if (c === undefined) return '';
  return typeof c === 'string' ? c : c.map((part) => part.text).join('');
}

/** Every exported value (function, class, variable) of the given entry points, with its documentation. */
export function publicExports(entries: Record<string, string>): PublicExport[] {
  const files = Object.values(entries).map((e) => `${root}${e}`);
  const program = programOf(files);
  const checker = program.getTypeChecker();
  const out: PublicExport[] = [];
  for (const [entry, file] of Object.entries(entries)) {
    const sf = program.getSourceFile(`${root}${file}`);
    if (sf === undefined) throw new Error(`cannot load ${file}`);
    const moduleSymbol = checker.getSymbolAtLocation(sf);
    if (moduleSymbol === undefined) throw new Error(`${file} is not a module`);
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const decl = symbol.valueDeclaration;
      if (decl === undefined) continue; // types only
      let kind: PublicExport['kind'];
      let params: string[] = [];
      if (ts.isFunctionDeclaration(decl)) {
        kind = 'function';
        params = decl.parameters.map((p) => p.name.getText());
      } else if (ts.isClassDeclaration(decl)) kind = 'class';
      else if (ts.isVariableDeclaration(decl)) kind = 'variable';
      else continue;
      const docNode = ts.isVariableDeclaration(decl) ? decl.parent.parent : decl;
      const jsDocs = ts.getJSDocCommentsAndTags(docNode).filter(ts.isJSDoc);
      const doc = jsDocs[jsDocs.length - 1];
      const summary =
        doc === undefined
          ? ''
          : typeof doc.comment === 'string'
            ? doc.comment
            : (doc.comment ?? []).map((p) => p.text).join('');
      const tags = new Map<string, string[]>();
      for (const tag of doc?.tags ?? []) {
        const name = tag.tagName.text;
        const text = ts.isJSDocParameterTag(tag) ? `${tag.name.getText()} ${tagText(tag)}` : tagText(tag);
        tags.set(name, [...(tags.get(name) ?? []), text]);
      }
      out.push({
        entry,
        name: exported.name,
        kind,
        params,
        summary,
        tags,
        file: decl.getSourceFile().fileName.replace(root, ''),
      });
    }
  }
  return out;
}
