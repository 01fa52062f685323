// After the build: compacts the core's ES modules, makes the `um` entry executable (tsc does not keep file modes) and
// copies the licence, the changelog and the README into each published package (npm packs only a package's own
// directory).
import { chmodSync, copyFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';

const root = new URL('../', import.meta.url);
const dist = new URL('packages/core/dist/', root);
// tsc's output without its indentation and line breaks (names, modules and statements kept, so stack traces still
// name every function): 1.01 → 0.75 MB, which keeps the core under 2 MB installed with its documented declarations.
// The CommonJS bundle (cjs/) is minified by tsup already.
for (const file of readdirSync(dist, { recursive: true }).map(String)) {
  if (!file.endsWith('.js') || file.startsWith('cjs')) continue;
  const path = new URL(file, dist);
  const code = readFileSync(path, 'utf8');
  writeFileSync(path, transformSync(code, { minifyWhitespace: true, loader: 'js', target: 'node20' }).code);
}
// Declarations no entry point of the exports map reaches (internal modules whose types no public type names: the
// CLI's command definitions, kernels, math helpers…) are dropped: a consumer can import only the entry points, so no
// compiler ever reads them (208 KB of doc comments that kept the core at the edge of 2 MB installed). Reachability
// follows every relative module specifier of the kept declarations, so each one they name is kept.
const core = fileURLToPath(new URL('packages/core/', root));
const entries = [];
const typesOf = (v) => {
  if (typeof v === 'string') {
    if (/\.d\.c?ts$/.test(v)) entries.push(resolve(core, v));
  } else if (v !== null && typeof v === 'object') Object.values(v).forEach(typesOf);
};
typesOf(JSON.parse(readFileSync(join(core, 'package.json'), 'utf8')).exports);
const reached = new Set();
for (const stack = [...entries]; stack.length > 0;) {
  const file = stack.pop();
  if (reached.has(file)) continue;
  if (!existsSync(file))
    throw new Error(`assemble-packages: a declaration names ${file}, which the build did not emit`);
  reached.add(file);
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/(?:from\s+|import\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g))
    stack.push(
      resolve(
        dirname(file),
        m[1].replace(/\.c?js$/, (x) => (x === '.cjs' ? '.d.cts' : '.d.ts')),
      ),
    );
}
for (const file of readdirSync(dist, { recursive: true }).map(String)) {
  const path = join(fileURLToPath(dist), file);
  if (/\.d\.c?ts$/.test(file) && !reached.has(path)) rmSync(path);
}
chmodSync(new URL('packages/core/dist/cli/bin.js', root), 0o755);
for (const pkg of ['core', 'cli']) {
  for (const file of ['README.md', 'LICENSE', 'CHANGELOG.md'])
    copyFileSync(new URL(file, root), new URL(`packages/${pkg}/${file}`, root));
}
